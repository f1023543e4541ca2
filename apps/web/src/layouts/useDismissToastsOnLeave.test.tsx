import { act, cleanup, render } from '@testing-library/react';
import type { Key } from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissStaleToasts, setToastInstance, toast, type ToastApi } from '../api/toast';
import { useDismissToastsOnLeave } from './useDismissToastsOnLeave';

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function Shell() {
  useDismissToastsOnLeave();
  return <Outlet />;
}

let onScreen: Map<string, unknown>;

beforeEach(async () => {
  onScreen = new Map();
  const api = {
    open: vi.fn((config: { key?: Key; content?: unknown }) => {
      onScreen.set(String(config.key), config.content);
      return Object.assign(() => undefined, { then: () => Promise.resolve(true) });
    }),
    destroy: vi.fn((key?: Key) => onScreen.delete(String(key))),
  };
  setToastInstance(api as unknown as ToastApi);
  await nextTask();
  dismissStaleToasts();
});

afterEach(() => cleanup());

function renderRouter(withLoader: boolean) {
  const router = createMemoryRouter(
    [
      {
        element: <Shell />,
        // Like the console's root loader (the guards): the navigation spends a task in `loading`.
        loader: withLoader ? () => nextTask().then(() => null) : undefined,
        hydrateFallbackElement: <p>…</p>,
        children: [
          { path: '/orders', element: <p>orders</p> },
          { path: '/invoices', element: <p>invoices</p> },
        ],
      },
    ],
    { initialEntries: ['/orders'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

async function rendered(withLoader: boolean) {
  const router = renderRouter(withLoader);
  await act(async () => {
    await vi.waitFor(() => expect(router.state.initialized).toBe(true));
  });
  return router;
}

describe.each([
  ['without a loader', false],
  ['with a loader', true],
])('toasts of a page you left (%s)', (_name, withLoader) => {
  it('close when the navigation to another page starts', async () => {
    const router = await rendered(withLoader);
    toast.error('订单加载失败');
    await nextTask();
    await act(() => router.navigate('/invoices'));
    expect(router.state.location.pathname).toBe('/invoices');
    expect([...onScreen.values()]).toEqual([]);
  });

  it('survive when shown right before the navigation, in the same task (toast, then navigate)', async () => {
    const router = await rendered(withLoader);
    toast.error('旧页面的错误');
    await nextTask();
    await act(() => {
      toast.info('登录状态已过期，需要重新登录');
      return router.navigate('/invoices');
    });
    expect([...onScreen.values()]).toEqual(['登录状态已过期，需要重新登录']);
  });

  it('stay when only the query changes (a list filter or page)', async () => {
    const router = await rendered(withLoader);
    toast.error('刷新失败');
    await nextTask();
    await act(() => router.navigate('/orders?page=2'));
    expect([...onScreen.values()]).toEqual(['刷新失败']);
  });
});
