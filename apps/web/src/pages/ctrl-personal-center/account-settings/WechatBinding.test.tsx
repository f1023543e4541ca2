/** 账号设置 → 微信: bind through WeChat's page and back (state checked, spent once), unbind after a confirmation. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToastInstance, type ToastApi } from '../../../api/toast';
import type { UserInfoDto } from '../../../api/user';
import { rememberWechatState, wechatNavigation, type WechatBinding } from '../../../api/wechat';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, renderPage, type Handler } from '../../ctrl-cost-center/testing';
import AccountSettingsPage from './index';

const PAGE = '/ctrl-personal-center/personal-center/account-settings';
const MAIN: UserInfoDto = {
  userId: 1024,
  userName: '138****8001',
  nickName: '炼丹师',
  telephone: '138****8001',
  accountType: 1,
  roles: [],
  hasPassword: true,
  createdAt: '2026-06-01T02:00:00Z',
};
const UNBOUND: WechatBinding = { bound: false, nickname: null, boundAt: null };
const BOUND: WechatBinding = { bound: true, nickname: '港湾小刚', boundAt: '2026-06-01T03:00:00Z' };

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

async function renderSettings(routes: Record<string, Handler>, entry = PAGE, user: UserInfoDto = MAIN) {
  const api = mockApi({ 'GET /user/userinfo': () => ok(user), ...routes });
  const view = renderPage(<AccountSettingsPage />, entry);
  await screen.findByText(user.nickName);
  return { ...api, ...view };
}

describe('账号设置 → 微信', () => {
  it('未绑定: 绑定 goes to WeChat’s page for binding, remembering the state', async () => {
    const { fetchMock } = await renderSettings({
      'GET /user/wechat_bind': () => ok(UNBOUND),
      'GET /auth/wechat/authorize': () => ok({ url: 'https://open.weixin.qq.com/connect/qrconnect?state=B1#wechat_redirect', state: 'B1', expiresIn: 600 }),
    });
    expect(await screen.findByText('未绑定')).toBeTruthy();
    expect(screen.getByText('绑定后可以使用微信扫码登录')).toBeTruthy();
    fireEvent.click(buttonByText('绑定'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://open.weixin.qq.com/connect/qrconnect?state=B1#wechat_redirect'));
    const [call] = callsTo(fetchMock, 'GET', '/auth/wechat/authorize');
    expect(new URL(String(call?.[0]), 'http://localhost').searchParams.get('purpose')).toBe('bind');
    expect(JSON.parse(window.sessionStorage.getItem('slg-wechat-state') ?? 'null')).toEqual({ purpose: 'bind', state: 'B1' });
  });

  it('已绑定（昵称）: 解绑 asks first, naming the effect, then unbinds', async () => {
    let binding = BOUND;
    const { fetchMock } = await renderSettings({
      'GET /user/wechat_bind': () => ok(binding),
      'DELETE /user/wechat_bind': () => {
        binding = UNBOUND;
        return ok(null);
      },
    });
    expect(await screen.findByText('已绑定（港湾小刚）')).toBeTruthy();
    fireEvent.click(buttonByText('解绑'));
    const dialog = await findDialog();
    expect(within(dialog).getByText('解绑后将不能使用该微信（港湾小刚）登录，可以随时重新绑定。')).toBeTruthy();
    expect(callsTo(fetchMock, 'DELETE', '/user/wechat_bind')).toHaveLength(0);
    fireEvent.click(buttonByText('解绑', dialog));
    expect(await screen.findByText('未绑定')).toBeTruthy();
    expect(callsTo(fetchMock, 'DELETE', '/user/wechat_bind')).toHaveLength(1);
    expect(toasts()).toEqual(['success:微信已解绑']);
  });

  it('back from WeChat: cleans the address, binds with the state and the code once, shows the binding', async () => {
    rememberWechatState('bind', 'B2');
    let binding = UNBOUND;
    const { fetchMock, router } = await renderSettings(
      {
        'GET /user/wechat_bind': () => ok(binding),
        'POST /user/wechat_bind': () => {
          binding = BOUND;
          return ok(BOUND);
        },
      },
      `${PAGE}?wechat=1&code=WXCODE&state=B2`,
    );
    expect(await screen.findByText('已绑定（港湾小刚）')).toBeTruthy();
    const calls = callsTo(fetchMock, 'POST', '/user/wechat_bind');
    expect(calls).toHaveLength(1);
    expect(new URL(String(calls[0]?.[0]), 'http://localhost').searchParams.get('state')).toBe('B2');
    expect(JSON.parse(String(calls[0]?.[1]?.body))).toEqual({ code: 'WXCODE' });
    expect(router.state.location.pathname).toBe(PAGE);
    expect(router.state.location.search).toBe('');
    expect(toasts()).toEqual(['success:微信绑定成功']);
  });

  it('refuses a return this tab did not start, and says when the person refused on WeChat’s page', async () => {
    rememberWechatState('bind', 'MINE');
    const { fetchMock } = await renderSettings({ 'GET /user/wechat_bind': () => ok(UNBOUND) }, `${PAGE}?wechat=1&code=C&state=OTHER`);
    await waitFor(() => expect(toasts()).toEqual(['error:授权已过期，请重新扫码']));
    expect(callsTo(fetchMock, 'POST', '/user/wechat_bind')).toHaveLength(0);
    cleanup();

    toastOpen.mockReset();
    rememberWechatState('bind', 'B3');
    await renderSettings({ 'GET /user/wechat_bind': () => ok(UNBOUND) }, `${PAGE}?wechat=1&state=B3`);
    await waitFor(() => expect(toasts()).toEqual(['warning:已取消微信授权']));
  });

  it('shows the server’s refusal of a binding once', async () => {
    rememberWechatState('bind', 'B4');
    const { notify } = await renderSettings(
      { 'GET /user/wechat_bind': () => ok(UNBOUND), 'POST /user/wechat_bind': () => failure(409, 40901, '该微信已绑定其他账号') },
      `${PAGE}?wechat=1&code=C4&state=B4`,
    );
    await waitFor(() => expect(notify).toHaveBeenCalledWith('该微信已绑定其他账号'));
    expect(await screen.findByText('未绑定')).toBeTruthy();
    expect(notify).toHaveBeenCalledTimes(1);
    expect(toasts()).toEqual([]);
  });

  it('is not offered to a sub-account', async () => {
    const { fetchMock } = await renderSettings({}, PAGE, { ...MAIN, accountType: 2, userName: 'dev_zhang', nickName: '张工' });
    expect(screen.queryByText('微信')).toBeNull();
    expect(callsTo(fetchMock, 'GET', '/user/wechat_bind')).toHaveLength(0);
  });
});
