import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../api/client';
import { createQueryClient } from '../api/queryClient';
import { useUserStore } from '../stores/user';
import { AppProviders } from '../theme/AppProviders';
import { buildRouteObjects } from './router';

const ok = (result: unknown) => new Response(JSON.stringify({ rspcode: 0, code: 200, rspmsg: 'success', result }), { status: 200 });

function renderApp(path: string) {
  const router = createMemoryRouter(buildRouteObjects(), { initialEntries: [path] });
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('app router', () => {
  const fetchMock = vi.fn<typeof fetch>();

  // Layouts and pages are lazy chunks; loading (transforming) them once here keeps the first test's
  // waits about rendering, not about the test runner compiling modules.
  beforeAll(async () => {
    await Promise.all([
      import('../layouts/DefaultLayout'),
      import('../layouts/DashboardLayout'),
      import('../pages/login/index'),
      import('../pages/signup/index'),
      import('../pages/error/NotFoundPage'),
      import('./RouteErrorScreen'),
    ]);
  });

  beforeEach(() => {
    fetchMock.mockReset();
    useUserStore.getState().clear();
    configureApiClient({
      fetch: fetchMock,
      notify: () => undefined,
      onUnauthorized: () => undefined,
      session: { getToken: () => useUserStore.getState().token, getRefreshToken: () => null, setTokens: () => undefined },
    });
  });
  afterEach(() => cleanup());

  it('sends an anonymous visitor of the console to the login page and titles it', async () => {
    const router = renderApp('/ctrl-overview/overview');
    await screen.findByRole('tab', { name: '密码登录' });
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?redirect=%2Fctrl-overview%2Foverview');
    await waitFor(() => expect(document.title).toBe('算力港 - 登录'));
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${window.location.origin}/login`);
  });

  it('shows 模型中心 to a visitor in the console layout, with 登录 and the catalogue (issue 23)', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/v1/models') {
        return ok({ list: [{ id: 'slg-tiny-test', name: 'SLG Tiny', provider: '算力港', type: 'text', description: '', tags: [], contextLength: 2048, paramSize: '', license: '', inputPriceFen: 100, outputPriceFen: 200, engine: 'local', isTest: true }], total: 1, page: 1, pageSize: 10 });
      }
      return new Response('', { status: 404 });
    });
    const router = renderApp('/model-market/model-center/modelCenter');
    expect(await screen.findByText('SLG Tiny')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/model-market/model-center/modelCenter');
    expect(screen.getByText('模型中心', { selector: 'h1' })).toBeTruthy();
    expect(screen.getByText('登录', { selector: 'a, a *' }).closest('a')?.getAttribute('href')).toBe(`/login?redirect=${encodeURIComponent('/model-market/model-center/modelCenter')}`);
    expect(screen.getByLabelText('体验 SLG Tiny').getAttribute('href')).toBe(`/login?redirect=${encodeURIComponent('/model-market/modelMarket/chat?model=slg-tiny-test')}`);
    await waitFor(() => expect(document.title).toBe('算力港 - 模型中心'));
  });

  it('shows 页面不存在 for unknown paths', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByText('页面不存在')).toBeTruthy();
    expect(screen.getByRole('button', { name: '返回首页' })).toBeTruthy();
  });

  it('opens the service dialog on /signup/service and agreeing returns to /signup', async () => {
    const router = renderApp('/signup/service');
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('服务条款');
    fireEvent.click(await screen.findByRole('button', { name: '我已阅读并同意' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signup'));
    const checkbox = screen.getByRole('checkbox') as HTMLInputElement;
    expect(checkbox.checked).toBe(true);
  });

  it('loads the user, shows the console and 页面不存在 for a console route without a page', async () => {
    useUserStore.getState().setSession({ jwtToken: 'j', refreshToken: 'r' }, 1);
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url.endsWith('/user/userinfo')) {
        return ok({ userId: 1, userName: 'u1', nickName: '小明', telephone: '138****0000', accountType: 1, roles: [], hasPassword: true, createdAt: '2025-01-01T00:00:00Z' });
      }
      if (url.endsWith('/account/')) return ok({ totalBalance: 0 });
      return new Response('', { status: 404 });
    });
    renderApp('/workbench/workbench/instanceDetail');
    expect(await screen.findByText('页面不存在', { selector: 'h1' })).toBeTruthy();
    expect((await screen.findByLabelText('账户余额')).textContent).toBe('¥0.00');
    expect(screen.getByRole('link', { name: '总览' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('算力港 - 页面不存在'));
    // The breadcrumb names no feature that is not built.
    const breadcrumb = screen.getByLabelText('当前位置');
    expect(breadcrumb.textContent).toBe('控制台/页面不存在');
  });
});
