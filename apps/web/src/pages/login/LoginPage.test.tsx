import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../api/client';
import { createQueryClient } from '../../api/queryClient';
import { AppProviders } from '../../theme/AppProviders';
import { useUserStore } from '../../stores/user';
import LoginPage from './index';

const envelope = (status: number, code: number, result: unknown, rspmsg = 'success') =>
  new Response(JSON.stringify({ rspcode: code, code: code === 0 ? 200 : code, rspmsg, result }), { status });

function renderLogin(entry = '/login?redirect=%2Fctrl-cost-center%2Fcost-center%2Forder') {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '*', element: <div>landed</div> },
    ],
    { initialEntries: [entry] },
  );
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('login page', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const notify = vi.fn<(text: string) => void>();

  beforeEach(() => {
    fetchMock.mockReset();
    notify.mockReset();
    useUserStore.getState().clear();
    configureApiClient({
      fetch: fetchMock,
      notify,
      onUnauthorized: () => undefined,
      session: { getToken: () => useUserStore.getState().token, getRefreshToken: () => null, setTokens: () => undefined },
    });
  });
  afterEach(() => cleanup());

  it('validates before submitting', async () => {
    renderLogin();
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('请输入手机号')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('手机号'), { target: { value: '12345' } });
    expect(await screen.findByText('请输入正确的11位手机号')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('puts the server error on the password field', async () => {
    fetchMock.mockResolvedValueOnce(envelope(400, 40020, null, '手机号或密码错误'));
    renderLogin();
    fireEvent.change(screen.getByLabelText('手机号'), { target: { value: '13800000000' } });
    fireEvent.change(screen.getByLabelText('密码', { exact: true }), { target: { value: 'wrong123' } });
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(document.querySelector('#password-login_password_help')?.textContent).toBe('手机号或密码错误'));
    // Each error is shown once: on its field, so the client's toast (due at the next task) is left out.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(notify).not.toHaveBeenCalled();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/auth/login');
    expect(JSON.parse(String(init?.body))).toEqual({ telephone: '13800000000', password: 'wrong123', countryCode: 86 });
    expect(useUserStore.getState().token).toBeNull();
  });

  it('signs in and follows the redirect query', async () => {
    fetchMock.mockResolvedValueOnce(envelope(200, 0, { jwtToken: 'j', refreshToken: 'r' }));
    const router = renderLogin();
    fireEvent.change(screen.getByLabelText('手机号'), { target: { value: '13800000000' } });
    fireEvent.change(screen.getByLabelText('密码', { exact: true }), { target: { value: 'abc12345' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '登录' }));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-cost-center/cost-center/order'));
    expect(useUserStore.getState()).toMatchObject({ token: 'j', refreshToken: 'r', accountType: 1 });
  });

  it('offers 微信登录 as a button (the flow itself: WechatLogin.test.tsx)', () => {
    renderLogin();
    expect(screen.getByRole('button', { name: '微信登录' })).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
