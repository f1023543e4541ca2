/** 微信登录 on the login page: off to WeChat with the state remembered, and back with code and state. */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToastInstance, type ToastApi } from '../../api/toast';
import { rememberWechatState, wechatNavigation } from '../../api/wechat';
import { useUserStore } from '../../stores/user';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, pending, renderPage, type Handler } from '../ctrl-cost-center/testing';
import LoginPage from './index';

const toastOpen = vi.fn<ToastApi['open']>();
const assign = vi.fn<(url: string) => void>();
const originalAssign = wechatNavigation.assign;

beforeEach(() => {
  toastOpen.mockReset();
  assign.mockReset();
  setToastInstance({ open: toastOpen, destroy: vi.fn() });
  wechatNavigation.assign = assign;
  window.sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  wechatNavigation.assign = originalAssign;
});

const toasts = () => toastOpen.mock.calls.map(([config]) => `${config.type}:${String(config.content)}`);

function renderLogin(entry: string, routes: Record<string, Handler>) {
  const api = mockApi(routes);
  // The login page is for someone signed out.
  useUserStore.getState().clear();
  return { ...api, ...renderPage(<LoginPage />, entry) };
}

function bodyOf(call: readonly [unknown, RequestInit?] | undefined): unknown {
  return JSON.parse(String(call?.[1]?.body));
}

const WECHAT_PAGE = 'https://open.weixin.qq.com/connect/qrconnect?appid=wx1&state=S1#wechat_redirect';

describe('微信登录', () => {
  it('goes to WeChat’s page for the redirect the login page was opened with, remembering the state', async () => {
    const { fetchMock } = renderLogin('/login?redirect=%2Fctrl-cost-center%2Fcost-center%2Forder', {
      'GET /auth/wechat/authorize': () => ok({ url: WECHAT_PAGE, state: 'S1', expiresIn: 600 }),
    });
    fireEvent.click(buttonByText('微信登录'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(WECHAT_PAGE));
    const [call] = callsTo(fetchMock, 'GET', '/auth/wechat/authorize');
    const url = new URL(String(call?.[0]), 'http://localhost');
    expect(Object.fromEntries(url.searchParams)).toEqual({ purpose: 'login', redirect: '/ctrl-cost-center/cost-center/order' });
    expect(JSON.parse(window.sessionStorage.getItem('slg-wechat-state') ?? 'null')).toEqual({ purpose: 'login', state: 'S1' });
    expect(screen.getByText('正在前往微信…')).toBeTruthy();
  });

  it('passes on only a redirect the console would follow itself', async () => {
    const { fetchMock } = renderLogin('/login?redirect=%2F%2Fevil.example.com%2Fx', {
      'GET /auth/wechat/authorize': () => ok({ url: WECHAT_PAGE, state: 'S0', expiresIn: 600 }),
    });
    fireEvent.click(buttonByText('微信登录'));
    await waitFor(() => expect(assign).toHaveBeenCalled());
    const [call] = callsTo(fetchMock, 'GET', '/auth/wechat/authorize');
    expect(Object.fromEntries(new URL(String(call?.[0]), 'http://localhost').searchParams)).toEqual({ purpose: 'login' });
  });

  it('turns into the closed entry when the server does not offer WeChat sign-in', async () => {
    const { notify } = renderLogin('/login', { 'GET /auth/wechat/authorize': () => failure(503, 50300, '微信登录暂未开放，请使用手机号登录') });
    fireEvent.click(buttonByText('微信登录'));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('微信登录暂未开放，请使用手机号登录'));
    expect(screen.getByText('微信登录').closest('[aria-disabled]')?.getAttribute('aria-disabled')).toBe('true');
    expect(assign).not.toHaveBeenCalled();
  });

  it('back from WeChat: cleans the address, posts the code with the state, signs in and follows the redirect', async () => {
    rememberWechatState('login', 'S2');
    let answer: (response: Response) => void = () => undefined;
    const { fetchMock, router } = renderLogin('/login?wechat=1&redirect=%2Fctrl-overview%2Foverview&code=C2&state=S2', {
      'POST /auth/login/wechat': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    expect(screen.getByRole('status').textContent).toContain('正在通过微信登录…');
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/auth/login/wechat')).toHaveLength(1));
    // Code and state are gone from the address before the answer comes.
    expect(router.state.location.search).toBe('?redirect=%2Fctrl-overview%2Foverview');
    const [call] = callsTo(fetchMock, 'POST', '/auth/login/wechat');
    expect(new URL(String(call?.[0]), 'http://localhost').searchParams.get('state')).toBe('S2');
    expect(bodyOf(call)).toEqual({ code: 'C2' });
    await act(async () => answer(ok({ jwtToken: 'wx-jwt', refreshToken: 'wx-refresh' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-overview/overview'));
    expect(useUserStore.getState()).toMatchObject({ token: 'wx-jwt', refreshToken: 'wx-refresh', accountType: 1 });
    expect(toasts()).toEqual(['success:登录成功']);
    // The state was spent: nothing is left to replay.
    expect(window.sessionStorage.getItem('slg-wechat-state')).toBeNull();
  });

  it('refuses a return this tab did not start (someone else’s link), and says so', async () => {
    rememberWechatState('login', 'MINE');
    const { fetchMock, router } = renderLogin('/login?wechat=1&code=THEIRS&state=FOREIGN', {});
    await waitFor(() => expect(toasts()).toEqual(['error:授权已过期，请重新扫码']));
    expect(callsTo(fetchMock, 'POST', '/auth/login/wechat')).toHaveLength(0);
    expect(router.state.location.search).toBe('');
    expect(useUserStore.getState().token).toBeNull();
    expect(buttonByText('登录')).toBeTruthy();
  });

  it('refused on WeChat’s page (a state and no code): 已取消微信授权', async () => {
    rememberWechatState('login', 'S3');
    const { fetchMock } = renderLogin('/login?wechat=1&state=S3', {});
    await waitFor(() => expect(toasts()).toEqual(['warning:已取消微信授权']));
    expect(callsTo(fetchMock, 'POST', '/auth/login/wechat')).toHaveLength(0);
  });

  it('shows the server’s refusal once, as a toast, and offers the sign-in methods again', async () => {
    rememberWechatState('login', 'S4');
    const { notify } = renderLogin('/login?wechat=1&code=C4&state=S4', {
      'POST /auth/login/wechat': () => failure(400, 40000, '授权已过期，请重新扫码'),
    });
    await waitFor(() => expect(toasts()).toEqual(['error:授权已过期，请重新扫码']));
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(notify).not.toHaveBeenCalled();
    expect(buttonByText('登录')).toBeTruthy();
  });

  it('an unbound WeChat binds a phone: SMS code of type login, the ticket, then signed in (a new account asks for a password)', async () => {
    rememberWechatState('login', 'S5');
    const registerAnswers = [failure(400, 40010, '验证码错误或已失效，请重新获取')];
    const { fetchMock, router } = renderLogin('/login?wechat=1&code=C5&state=S5', {
      'POST /auth/login/wechat': () => ok({ bindTicket: 'TICKET-5', nickname: '港湾小刚', expiresIn: 600 }),
      'GET /smscode/phone': () => ok({ expiresIn: 300, resendAfter: 60 }),
      'POST /auth/register/wechat': () => registerAnswers.shift() ?? ok({ jwtToken: 'new-jwt', refreshToken: 'new-refresh', other: true }),
      'POST /user/updatePassword': pending,
    });
    expect(await screen.findByText(/微信「港湾小刚」还没有绑定账号/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: '绑定手机号' })).toBeTruthy();

    fireEvent.click(buttonByText('绑定并登录'));
    expect(await screen.findByText('请输入手机号')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('手机号'), { target: { value: '13800138000' } });
    fireEvent.click(buttonByText('获取验证码'));
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/smscode/phone')).toHaveLength(1));
    const sent = new URL(String(callsTo(fetchMock, 'GET', '/smscode/phone')[0]?.[0]), 'http://localhost');
    expect(sent.searchParams.get('type')).toBe('login');
    expect(sent.searchParams.get('telephone')).toBe('13800138000');

    fireEvent.change(screen.getByLabelText('验证码'), { target: { value: '123456' } });
    fireEvent.click(buttonByText('绑定并登录'));
    // A wrong code goes on its field, and only there.
    await waitFor(() => expect(document.querySelector('#wechat-bind-phone_code_help')?.textContent).toBe('验证码错误或已失效，请重新获取'));
    expect(toasts()).toEqual(['success:验证码已发送，请注意查收']);

    fireEvent.change(screen.getByLabelText('验证码'), { target: { value: '654321' } });
    fireEvent.click(buttonByText('绑定并登录'));
    expect(await findDialog()).toBeTruthy();
    const calls = callsTo(fetchMock, 'POST', '/auth/register/wechat');
    expect(bodyOf(calls[1])).toEqual({ ticket: 'TICKET-5', telephone: '13800138000', code: '654321', countryCode: 86 });
    expect(useUserStore.getState()).toMatchObject({ token: 'new-jwt', refreshToken: 'new-refresh' });
    expect(screen.getByText('设置登录密码')).toBeTruthy();
    fireEvent.click(buttonByText('跳过'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-overview/overview'));
  });

  it('an expired ticket sends the person back to the sign-in methods', async () => {
    rememberWechatState('login', 'S6');
    renderLogin('/login?wechat=1&code=C6&state=S6', {
      'POST /auth/login/wechat': () => ok({ bindTicket: 'T6', nickname: '微信用户', expiresIn: 600 }),
      'POST /auth/register/wechat': () => failure(400, 40000, '授权已过期，请重新扫码'),
    });
    await screen.findByText(/微信「微信用户」/);
    fireEvent.change(screen.getByLabelText('手机号'), { target: { value: '13800138000' } });
    fireEvent.change(screen.getByLabelText('验证码'), { target: { value: '123456' } });
    fireEvent.click(buttonByText('绑定并登录'));
    await waitFor(() => expect(toasts()).toEqual(['error:授权已过期，请重新扫码']));
    expect(await screen.findByRole('heading', { name: '欢迎登录' })).toBeTruthy();
  });
});
