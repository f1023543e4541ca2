import { act, cleanup, render, screen } from '@testing-library/react';
import type { Key } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from '../api/client';
import { dismissStaleToasts, setToastInstance, toast, type ToastApi } from '../api/toast';
import { QueryError } from './QueryError';

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

afterEach(async () => {
  cleanup();
  await nextTask();
  dismissStaleToasts();
});

describe('QueryError shows the error in place, and only there', () => {
  it('claims the error before the client toasts it', async () => {
    const notify = vi.fn<(text: string) => void>();
    const client = createApiClient({
      notify,
      fetch: async () => new Response(JSON.stringify({ rspcode: 50000, code: 50000, rspmsg: '数据库连接失败', result: null }), { status: 500 }),
    });
    const error = await client.request({ url: '/bills' }).catch((failure: unknown) => failure);
    render(<QueryError title="账单加载失败" error={error} onRetry={() => undefined} />);
    expect(screen.getByText('数据库连接失败')).toBeTruthy();
    await nextTask();
    expect(notify).not.toHaveBeenCalled();
  });

  it('closes a toast of the same error already on screen', async () => {
    const destroy = vi.fn<(key?: Key) => void>();
    setToastInstance({ open: vi.fn(), destroy } as unknown as ToastApi);
    toast.error('服务器资源不存在');
    await act(async () => {
      render(<QueryError error={new ApiError(404, 40400, '服务器资源不存在')} onRetry={() => undefined} />);
    });
    expect(destroy).toHaveBeenCalledTimes(1);
  });
});
