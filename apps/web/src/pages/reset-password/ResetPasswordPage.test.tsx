/** 重置密码: the main account's by phone, and a sub-account's by its name and bound phone (?account=sub). */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buttonByText, callsTo, failure, mockApi, ok, renderPage, type Handler } from '../ctrl-cost-center/testing';
import ResetPasswordPage from './index';

afterEach(() => cleanup());

function renderReset(entry: string, routes: Record<string, Handler>) {
  const api = mockApi({ 'GET /smscode/phone': () => ok({ expiresIn: 300, resendIn: 60 }), ...routes });
  const view = renderPage(<ResetPasswordPage />, entry);
  return { ...api, ...view };
}

async function fill(values: { username?: string; telephone: string; code: string; password: string }) {
  if (values.username !== undefined) fireEvent.change(screen.getByLabelText('用户名'), { target: { value: values.username } });
  fireEvent.change(screen.getByLabelText('手机号'), { target: { value: values.telephone } });
  fireEvent.change(screen.getByLabelText('验证码'), { target: { value: values.code } });
  fireEvent.change(screen.getByLabelText('新密码'), { target: { value: values.password } });
  fireEvent.change(screen.getByLabelText('确认新密码'), { target: { value: values.password } });
  await act(async () => {
    fireEvent.click(buttonByText('确认'));
  });
}

describe('reset password page', () => {
  it('resets a main account by phone and goes to /login', async () => {
    const { fetchMock, router } = renderReset('/reset-password', { 'POST /user/forgetPassword': () => ok(null) });
    expect(screen.queryByLabelText('用户名')).toBeNull();
    await fill({ telephone: '13900000001', code: '123456', password: 'new12345' });
    const [call] = callsTo(fetchMock, 'POST', '/user/forgetPassword');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ telephone: '13900000001', code: '123456', password: 'new12345' });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('resets a sub-account with its name and bound phone and goes to /sub-account-login', async () => {
    const { fetchMock, router } = renderReset('/reset-password?account=sub', { 'POST /subuser/password/phone': () => ok(null) });
    expect(screen.getByText('子账号找回密码')).toBeTruthy();
    await fill({ username: ' alice.dev ', telephone: '13900000001', code: '123456', password: 'new12345' });
    const [call] = callsTo(fetchMock, 'POST', '/subuser/password/phone');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ username: 'alice.dev', telephone: '13900000001', code: '123456', password: 'new12345' });
    expect(router.state.location.pathname).toBe('/sub-account-login');
  });

  it('puts a name that does not match the phone on 用户名, once', async () => {
    const { notify, router } = renderReset('/reset-password?account=sub', {
      'POST /subuser/password/phone': () => failure(400, 40000, '用户名与绑定的手机号不匹配'),
    });
    await fill({ username: 'bob', telephone: '13900000001', code: '123456', password: 'new12345' });
    expect(await screen.findByText('用户名与绑定的手机号不匹配')).toBeTruthy();
    expect(document.querySelector('#reset-password_username_help')?.textContent).toBe('用户名与绑定的手机号不匹配');
    expect(notify).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/reset-password');
  });
});
