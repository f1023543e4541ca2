/** 子账号登录: the sub session is stored, errors land once on 密码, the redirect only when the sub-account may open it. */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { SubUserInfoDto } from '../../api/user';
import { callsTo, failure, mockApi, ok, testQueryClient, type Handler } from '../ctrl-cost-center/testing';
import { useUserStore } from '../../stores/user';
import { AppProviders } from '../../theme/AppProviders';
import LoginPage from '../login/index';
import SubAccountLoginPage from './index';

afterEach(() => cleanup());

const ME: SubUserInfoDto = {
  userId: 77,
  username: 'alice.dev',
  nickname: '小爱',
  accountType: 2,
  permissions: ['CONTAINER'],
  permissionLevels: { CONTAINER: 'SELF', ELASTIC: 'NONE', MIRROR: 'NONE', FILE_STORAGE: 'NONE', INVOICE: 'NONE', MODEL_DEPLOY: 'NONE' },
  sharedMainBalance: true,
  mainAccountId: 12,
  telephone: '',
  mainAccountBalance: 50_000,
  subAccountBalance: 0,
};

function renderAt(entry: string, routes: Record<string, Handler>) {
  const api = mockApi(routes);
  // mockApi signs a main account in; this page starts signed out.
  useUserStore.getState().clear();
  const router = createMemoryRouter(
    [
      { path: '/sub-account-login', element: <SubAccountLoginPage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '*', element: <div>landed</div> },
    ],
    { initialEntries: [entry] },
  );
  render(
    <AppProviders queryClient={testQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...api, router };
}

async function submit(username: string, password: string) {
  fireEvent.change(screen.getByLabelText('用户名'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('密码', { exact: true }), { target: { value: password } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
  });
}

const signedIn: Record<string, Handler> = {
  'POST /subuser/login': () => ok({ jwtToken: 'sub-jwt', refreshToken: 'sub-refresh' }),
  'GET /subuser/me': () => ok(ME),
};

const passwordHelp = () => document.querySelector('#sub-account-login_password_help')?.textContent;

describe('sub-account sign-in', () => {
  it('validates before calling the server', async () => {
    const { fetchMock } = renderAt('/sub-account-login', signedIn);
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('请输入用户名')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('stores the session as a sub-account and lands on its account page', async () => {
    const { fetchMock, router } = renderAt('/sub-account-login', signedIn);
    await submit(' alice.dev ', 'abc12345');
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-child-info/child-account-info'));
    const [login] = callsTo(fetchMock, 'POST', '/subuser/login');
    expect(JSON.parse(String(login?.[1]?.body))).toEqual({ username: 'alice.dev', password: 'abc12345' });
    const state = useUserStore.getState();
    expect(state).toMatchObject({ token: 'sub-jwt', refreshToken: 'sub-refresh', accountType: 2 });
    expect(state.userInfo).toEqual({ kind: 'sub', info: ME });
    // The sub-account's info, never the main account's.
    expect(callsTo(fetchMock, 'GET', '/user/userinfo')).toHaveLength(0);
  });

  it('shows a wrong password once, on the password field', async () => {
    const { notify, router } = renderAt('/sub-account-login', {
      'POST /subuser/login': () => failure(400, 40020, '用户名或密码错误'),
    });
    await submit('alice.dev', 'wrong123');
    await waitFor(() => expect(passwordHelp()).toBe('用户名或密码错误'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(notify).not.toHaveBeenCalled();
    expect(screen.getAllByText('用户名或密码错误')).toHaveLength(1);
    expect(useUserStore.getState().token).toBeNull();
    expect(router.state.location.pathname).toBe('/sub-account-login');
  });

  it('shows the lockout with the minutes the server names', async () => {
    const { notify } = renderAt('/sub-account-login', {
      'POST /subuser/login': () => {
        const response = failure(429, 42903, '密码错误次数过多，请15分钟后再试');
        response.headers.set('Retry-After', '900');
        return response;
      },
    });
    await submit('alice.dev', 'wrong123');
    await waitFor(() => expect(passwordHelp()).toBe('密码错误次数过多，请15分钟后再试'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(notify).not.toHaveBeenCalled();
  });

  it('follows the redirect query to a page the sub-account may open', async () => {
    const { router } = renderAt(`/sub-account-login?redirect=${encodeURIComponent('/ctrl-container-instances/containerInstances?tab=2')}`, signedIn);
    await submit('alice.dev', 'abc12345');
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/containerInstances'));
    expect(router.state.location.search).toBe('?tab=2');
  });

  it('ignores a redirect to a page it may not open (it would only show 403)', async () => {
    const { router } = renderAt(`/sub-account-login?redirect=${encodeURIComponent('/ctrl-cost-center/cost-center/order')}`, signedIn);
    await submit('alice.dev', 'abc12345');
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-child-info/child-account-info'));
  });

  it('ends the new session when the sub-account info cannot be loaded', async () => {
    const { router } = renderAt('/sub-account-login', {
      'POST /subuser/login': () => ok({ jwtToken: 'sub-jwt', refreshToken: 'sub-refresh' }),
      'GET /subuser/me': () => failure(500, 50000, '服务器开小差了'),
    });
    await submit('alice.dev', 'abc12345');
    await waitFor(() => expect(screen.getByRole('button', { name: '登录' }).hasAttribute('disabled')).toBe(false));
    expect(useUserStore.getState().token).toBeNull();
    expect(router.state.location.pathname).toBe('/sub-account-login');
  });

  it('links to the main-account sign-in and back, keeping the redirect', async () => {
    const search = `?redirect=${encodeURIComponent('/ctrl-mirror-image/mirrorImage')}`;
    const { router } = renderAt(`/sub-account-login${search}`, signedIn);
    fireEvent.click(screen.getByRole('link', { name: '主账号登录' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe(search);
    fireEvent.click(await screen.findByRole('link', { name: '子账号登录' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sub-account-login'));
    expect(router.state.location.search).toBe(search);
  });
});
