import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../api/client';
import { applyServerError } from './serverErrors';

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function failing(code: number, rspmsg: string) {
  const notify = vi.fn<(text: string) => void>();
  const client = createApiClient({
    notify,
    fetch: async () => new Response(JSON.stringify({ rspcode: code, code, rspmsg, result: null }), { status: 400 }),
  });
  return { notify, client };
}

describe('applyServerError', () => {
  it('puts an error of a mapped code on its field, and the client shows no toast for it', async () => {
    const { notify, client } = failing(40010, '验证码错误');
    const form = { setError: vi.fn() };
    const placed = await client.request({ url: '/auth/register', method: 'POST' }).catch((error: unknown) => applyServerError(form, error, { 40010: 'code' }));
    await nextTask();
    expect(placed).toBe(true);
    expect(form.setError).toHaveBeenCalledWith('code', '验证码错误');
    expect(notify).not.toHaveBeenCalled();
  });

  it('leaves any other error to one toast, and no field', async () => {
    const { notify, client } = failing(50000, '服务繁忙');
    const form = { setError: vi.fn() };
    const placed = await client.request({ url: '/auth/register', method: 'POST' }).catch((error: unknown) => applyServerError(form, error, { 40010: 'code' }));
    await nextTask();
    expect(placed).toBe(false);
    expect(form.setError).not.toHaveBeenCalled();
    expect(notify).toHaveBeenCalledTimes(1);
    expect(notify).toHaveBeenCalledWith('服务繁忙');
  });
});
