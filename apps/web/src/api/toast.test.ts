import type { Key } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissStaleToasts, openToastKeys, setToastInstance, toast, type ToastApi } from './toast';

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A stand-in for antd's message API that keeps what is on screen, by key. */
function fakeMessages() {
  const onScreen = new Map<string, { content: unknown; type: unknown; onClose?: () => void }>();
  const open = vi.fn((config: { key?: Key; content?: unknown; type?: unknown; onClose?: () => void }) => {
    onScreen.set(String(config.key), { content: config.content, type: config.type, onClose: config.onClose });
    return Object.assign(() => undefined, { then: () => Promise.resolve(true) });
  });
  const destroy = vi.fn((key?: Key) => {
    const shown = onScreen.get(String(key));
    onScreen.delete(String(key));
    shown?.onClose?.();
  });
  return { api: { open, destroy } as unknown as ToastApi, open, destroy, onScreen };
}

let messages: ReturnType<typeof fakeMessages>;

beforeEach(async () => {
  messages = fakeMessages();
  setToastInstance(messages.api);
  // Start every test with a clean screen and no fresh toasts.
  await nextTask();
  dismissStaleToasts();
  messages.onScreen.clear();
});

afterEach(async () => {
  await nextTask();
  dismissStaleToasts();
});

describe('toasts', () => {
  it('show identical toasts once: the second replaces the first', () => {
    toast.error('余额不足');
    toast.error('余额不足');
    toast.success('余额不足');
    expect(messages.onScreen.size).toBe(2);
    expect(openToastKeys()).toHaveLength(2);
    const [first, second] = messages.open.mock.calls.map(([config]) => config.key);
    expect(first).toBe(second);
  });

  it('leaving a page closes the toasts shown there before', async () => {
    toast.error('订单加载失败');
    await nextTask();
    dismissStaleToasts();
    expect(messages.onScreen.size).toBe(0);
    expect(openToastKeys()).toEqual([]);
  });

  it('a toast shown in the task that starts the navigation travels with it', async () => {
    toast.error('旧页面的错误');
    await nextTask();
    toast.info('登录状态已过期，需要重新登录');
    dismissStaleToasts();
    expect([...messages.onScreen.values()].map((shown) => shown.content)).toEqual(['登录状态已过期，需要重新登录']);
    // …and it belongs to the new page: the next departure closes it.
    await nextTask();
    dismissStaleToasts();
    expect(messages.onScreen.size).toBe(0);
  });

  it('dismiss closes one toast by kind and text', () => {
    toast.error('a');
    toast.error('b');
    toast.dismiss('error', 'a');
    toast.dismiss('success', 'b');
    expect([...messages.onScreen.values()].map((shown) => shown.content)).toEqual(['b']);
  });
});
