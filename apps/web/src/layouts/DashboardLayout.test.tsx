import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../api/client';
import { createQueryClient } from '../api/queryClient';
import { useUserStore } from '../stores/user';
import { AppProviders } from '../theme/AppProviders';
import { DashboardLayout } from './DashboardLayout';
import { PHONE_MEDIA_QUERY } from './useIsPhone';

const ok = (result: unknown) => new Response(JSON.stringify({ rspcode: 0, code: 200, rspmsg: 'success', result }), { status: 200 });
const jsdomMatchMedia = window.matchMedia;

/** Makes `window.matchMedia` answer like a browser of this width class. */
function screenOf(phone: boolean) {
  window.matchMedia = (query: string) =>
    ({
      matches: phone && query === PHONE_MEDIA_QUERY,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

function renderConsole(path = '/ctrl-overview/overview') {
  const router = createMemoryRouter(
    [
      {
        element: <DashboardLayout />,
        children: [
          { path: '/ctrl-overview/overview', element: <p>总览页</p> },
          { path: '/ctrl-cost-center/cost-center/voucher', element: <p>代金券页</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

beforeEach(() => {
  useUserStore.getState().setSession({ jwtToken: 'jwt', refreshToken: 'refresh' }, 1);
  configureApiClient({
    fetch: vi.fn<typeof fetch>(async (input) =>
      String(input).endsWith('/account/')
        ? ok({ totalBalance: 12_345 })
        : String(input).endsWith('/notifications/unread-count')
          ? ok({ unread: 3 })
          : new Response('', { status: 404 }),
    ),
    notify: () => undefined,
    onUnauthorized: () => undefined,
    session: { getToken: () => useUserStore.getState().token, getRefreshToken: () => null, setTokens: () => undefined },
  });
});

afterEach(() => {
  cleanup();
  window.matchMedia = jsdomMatchMedia;
  useUserStore.getState().clear();
});

describe('the console at phone width', () => {
  it('has no sidebar column; 打开菜单 opens the menu in a drawer that closes when a page is chosen', async () => {
    screenOf(true);
    const router = renderConsole();
    expect(await screen.findByText('总览页')).toBeTruthy();
    expect(document.querySelector('.slg-dashboard-sider')).toBeNull();
    expect(screen.queryByLabelText('收起菜单')).toBeNull();

    const opener = screen.getByLabelText('打开菜单');
    expect(opener.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(opener);
    const menu = await screen.findByLabelText('控制台菜单');
    expect(menu.closest('.slg-drawer')).toBeTruthy();
    expect(opener.getAttribute('aria-expanded')).toBe('true');

    fireEvent.click(within(menu).getByText('费用中心'));
    await act(async () => {
      fireEvent.click(await within(menu).findByText('代金券'));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-cost-center/cost-center/voucher'));
    expect(await screen.findByText('代金券页')).toBeTruthy();
    await waitFor(() => expect(opener.getAttribute('aria-expanded')).toBe('false'));
  });

  it('keeps the balance, 消息通知, the colour mode and the account menu with 退出登录 in the header', async () => {
    screenOf(true);
    renderConsole();
    expect((await screen.findByLabelText('账户余额')).textContent).toBe('¥123.45');
    const bell = screen.getByLabelText('消息通知');
    expect((await screen.findByTestId('notification-badge')).textContent).toBe('3');
    // Between the balance and the colour mode.
    const order = [screen.getByLabelText('账户余额'), bell, screen.getByLabelText('颜色模式')];
    for (let index = 1; index < order.length; index++) {
      expect((order[index - 1] as HTMLElement).compareDocumentPosition(order[index] as HTMLElement) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    }
    fireEvent.click(screen.getByLabelText('账号菜单'));
    expect((await screen.findByText('退出登录')).closest('button')).toBeTruthy();
  });
});

describe('the console on a desktop', () => {
  it('keeps the sidebar beside the page with its 收起菜单 button, and no drawer', async () => {
    screenOf(false);
    renderConsole();
    expect(await screen.findByText('总览页')).toBeTruthy();
    const sider = document.querySelector('.slg-dashboard-sider');
    expect(sider).toBeTruthy();
    expect(within(sider as HTMLElement).getByLabelText('控制台菜单')).toBeTruthy();
    expect(screen.getByLabelText('收起菜单')).toBeTruthy();
    expect(screen.queryByLabelText('打开菜单')).toBeNull();
  });
});
