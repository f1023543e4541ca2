/** 账号设置: the facts, 昵称 in place, 修改手机号 in two steps with errors on their fields, 修改/设置密码. */
import { PHONE_CHANGE_EXPIRED_MESSAGE } from '@slg/shared';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserInfoDto } from '../../../api/user';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, pending, queryDialog, renderPage, type Handler } from '../../ctrl-cost-center/testing';
import { UserMenu } from '../../../layouts/UserMenu';
import { useUserStore } from '../../../stores/user';
import AccountSettingsPage from './index';

afterEach(() => cleanup());

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

const sent = (resendAfter = 60) => ok({ expiresIn: 300, resendAfter });

function bodyOf(call: readonly [unknown, RequestInit?] | undefined): unknown {
  return JSON.parse(String(call?.[1]?.body));
}

function fieldOf(scope: HTMLElement, label: string): HTMLElement {
  return within(scope).getByLabelText(label).closest('.slg-field') as HTMLElement;
}

async function renderSettings(routes: Record<string, Handler>, user: UserInfoDto = MAIN) {
  const api = mockApi({ 'GET /user/userinfo': () => ok(user), ...routes });
  renderPage(<AccountSettingsPage />, '/ctrl-personal-center/personal-center/account-settings');
  await screen.findByText(user.nickName);
  return api;
}

async function openPhoneDialog(): Promise<HTMLElement> {
  fireEvent.click(buttonByText('修改手机号'));
  return findDialog();
}

describe('账号设置', () => {
  it('shows the account: nickname, type, registration time, id, the masked phone, the password state and the SSH link', async () => {
    await renderSettings({});
    expect(screen.getByText('主账号')).toBeTruthy();
    expect(screen.getByText(/^2026-06-01 /)).toBeTruthy();
    expect(screen.getByText('1024')).toBeTruthy();
    expect(screen.getByText('138****8001')).toBeTruthy();
    expect(screen.getByText('已设置')).toBeTruthy();
    expect(buttonByText('修改密码')).toBeTruthy();
    const ssh = screen.getByRole('link', { name: '管理SSH公钥' });
    expect(ssh.getAttribute('href')).toBe('/ctrl-container-instances/sshSet');
  });

  it('shows loading, then an error with 重试', async () => {
    mockApi({ 'GET /user/userinfo': pending });
    const { container } = renderPage(<AccountSettingsPage />, '/x');
    expect(container.querySelector('.ant-skeleton')).toBeTruthy();
    cleanup();

    let calls = 0;
    const api = mockApi({
      'GET /user/userinfo': () => {
        calls += 1;
        return calls === 1 ? failure(500, 50000, '数据库连接失败') : ok(MAIN);
      },
    });
    renderPage(<AccountSettingsPage />, '/x');
    expect(await screen.findByText('账号信息加载失败')).toBeTruthy();
    expect(screen.getByText('数据库连接失败')).toBeTruthy();
    fireEvent.click(buttonByText('重试'));
    expect(await screen.findByText('炼丹师')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'GET', '/user/userinfo')).toHaveLength(2);
  });

  it('edits the nickname in place: checks it, shows the server’s refusal under it, saves it trimmed', async () => {
    let nickName = MAIN.nickName;
    const answers = [failure(400, 40000, '昵称包含不支持的字符')];
    const api = await renderSettings({
      'GET /user/userinfo': () => ok({ ...MAIN, nickName }),
      'POST /user/updateNickname': (_url, init) => {
        const refused = answers.shift();
        if (refused) return refused;
        nickName = (JSON.parse(String(init?.body)) as { nickName: string }).nickName;
        return ok(null);
      },
    });
    fireEvent.click(screen.getByRole('button', { name: '修改昵称' }));
    const input = screen.getByRole('textbox', { name: '修改昵称' });
    fireEvent.change(input, { target: { value: '   ' } });
    expect(screen.getByText('昵称为1-20个字符')).toBeTruthy();
    fireEvent.click(buttonByText('保存'));
    expect(callsTo(api.fetchMock, 'POST', '/user/updateNickname')).toHaveLength(0);

    fireEvent.change(input, { target: { value: ' 新昵称\u0007 ' } });
    fireEvent.click(buttonByText('保存'));
    expect(await screen.findByText('昵称包含不支持的字符')).toBeTruthy();
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(api.notify).not.toHaveBeenCalled();

    fireEvent.change(input, { target: { value: ' 训练营 ' } });
    fireEvent.click(buttonByText('保存'));
    expect(await screen.findByText('训练营')).toBeTruthy();
    expect(bodyOf(callsTo(api.fetchMock, 'POST', '/user/updateNickname')[1])).toEqual({ nickName: '训练营' });
    expect(screen.queryByRole('textbox', { name: '修改昵称' })).toBeNull();
  });

  it('changes the phone: old phone code, then the new phone (pasted) and its code, errors on their fields', async () => {
    let telephone = MAIN.telephone;
    const verifyAnswers = [failure(400, 40010, '验证码错误或已失效，请重新获取')];
    const newSendAnswers = [failure(409, 40900, '该手机号已被其他账号使用')];
    const changeAnswers = [failure(400, 40011, '验证码错误次数过多，请重新获取')];
    const api = await renderSettings({
      'GET /user/userinfo': () => ok({ ...MAIN, telephone }),
      'GET /smscode': () => sent(45),
      'POST /user/updatePhone/verify': () => verifyAnswers.shift() ?? ok({ ticket: 'ticket-1', expiresIn: 600 }),
      'POST /smscode/new-phone': () => newSendAnswers.shift() ?? sent(),
      'POST /user/updatePhone': () => {
        const refused = changeAnswers.shift();
        if (refused) return refused;
        telephone = '139****1111';
        return ok(null);
      },
    });
    const dialog = await openPhoneDialog();
    expect(dialog.textContent).toContain('验证码将发送至原手机号 138****8001');

    fireEvent.click(buttonByText('获取验证码', dialog));
    // The countdown runs the seconds the server said.
    expect(await within(dialog).findByText('45秒后重新获取')).toBeTruthy();
    const sendUrl = new URL(String(callsTo(api.fetchMock, 'GET', '/smscode')[0]?.[0]), 'http://localhost');
    expect(sendUrl.searchParams.get('type')).toBe('change_phone_old');

    fireEvent.change(within(dialog).getByLabelText('验证码'), { target: { value: '111111' } });
    fireEvent.click(buttonByText('下一步', dialog));
    expect(await within(fieldOf(dialog, '验证码')).findByText('验证码错误或已失效，请重新获取')).toBeTruthy();
    fireEvent.click(buttonByText('下一步', dialog));
    await waitFor(() => expect(within(dialog).getByLabelText('手机号')).toBeTruthy());
    expect(bodyOf(callsTo(api.fetchMock, 'POST', '/user/updatePhone/verify')[1])).toEqual({ code: '111111' });

    // Step 2: the number as people paste it.
    fireEvent.change(within(dialog).getByLabelText('手机号'), { target: { value: '+86 139-0000-1111' } });
    expect((within(dialog).getByLabelText('手机号') as HTMLInputElement).value).toBe('13900001111');
    fireEvent.click(buttonByText('获取验证码', dialog));
    expect(await within(fieldOf(dialog, '手机号')).findByText('该手机号已被其他账号使用')).toBeTruthy();
    fireEvent.click(buttonByText('获取验证码', dialog));
    expect(await within(dialog).findByText('60秒后重新获取')).toBeTruthy();
    expect(bodyOf(callsTo(api.fetchMock, 'POST', '/smscode/new-phone')[1])).toEqual({ ticket: 'ticket-1', telephone: '13900001111' });

    fireEvent.change(within(dialog).getByLabelText('验证码'), { target: { value: '222222' } });
    fireEvent.click(buttonByText('确认修改', dialog));
    expect(await within(fieldOf(dialog, '验证码')).findByText('验证码错误次数过多，请重新获取')).toBeTruthy();
    fireEvent.click(buttonByText('确认修改', dialog));
    await waitFor(() => expect(queryDialog()).toBeNull());
    expect(bodyOf(callsTo(api.fetchMock, 'POST', '/user/updatePhone')[1])).toEqual({ ticket: 'ticket-1', telephone: '13900001111', code: '222222' });
    expect(await screen.findByText('手机号已修改，其他设备上的登录已退出')).toBeTruthy();
    expect(await screen.findByText('139****1111')).toBeTruthy();
    // Every error was shown once, on its field: no toast.
    expect(api.notify).not.toHaveBeenCalled();
  });

  it('goes back to step 1 when the old phone’s proof is no longer good', async () => {
    let tickets = 0;
    const api = await renderSettings({
      'GET /smscode': () => sent(),
      'POST /user/updatePhone/verify': () => {
        tickets += 1;
        return ok({ ticket: `ticket-${tickets}`, expiresIn: 600 });
      },
      'POST /smscode/new-phone': () => sent(),
      'POST /user/updatePhone': () => failure(400, 40000, PHONE_CHANGE_EXPIRED_MESSAGE),
    });
    const dialog = await openPhoneDialog();
    fireEvent.change(within(dialog).getByLabelText('验证码'), { target: { value: '111111' } });
    fireEvent.click(buttonByText('下一步', dialog));
    await waitFor(() => expect(within(dialog).getByLabelText('手机号')).toBeTruthy());
    fireEvent.change(within(dialog).getByLabelText('手机号'), { target: { value: '13900001111' } });
    fireEvent.change(within(dialog).getByLabelText('验证码'), { target: { value: '222222' } });
    fireEvent.click(buttonByText('确认修改', dialog));
    expect(await within(dialog).findByText(PHONE_CHANGE_EXPIRED_MESSAGE)).toBeTruthy();
    expect(within(dialog).queryByLabelText('手机号')).toBeNull();
    expect(buttonByText('下一步', dialog)).toBeTruthy();
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(api.notify).not.toHaveBeenCalled();
  });

  it('changes the password with the old one; 原密码错误 goes on 原密码', async () => {
    const answers = [failure(400, 40021, '原密码错误')];
    const api = await renderSettings({ 'POST /user/updatePassword': () => answers.shift() ?? ok(null) });
    fireEvent.click(buttonByText('修改密码'));
    const dialog = await findDialog();
    fireEvent.click(buttonByText('确认修改', dialog));
    expect(await within(dialog).findByText('请输入原密码')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('原密码'), { target: { value: 'old12345' } });
    fireEvent.change(within(dialog).getByLabelText('新密码'), { target: { value: 'new12345' } });
    fireEvent.change(within(dialog).getByLabelText('确认新密码'), { target: { value: 'new12345' } });
    fireEvent.click(buttonByText('确认修改', dialog));
    expect(await within(fieldOf(dialog, '原密码')).findByText('原密码错误')).toBeTruthy();
    fireEvent.click(buttonByText('确认修改', dialog));
    await waitFor(() => expect(queryDialog()).toBeNull());
    expect(bodyOf(callsTo(api.fetchMock, 'POST', '/user/updatePassword')[1])).toEqual({ oldPassword: 'old12345', password: 'new12345' });
    expect(await screen.findByText('密码已修改，其他设备上的登录已退出')).toBeTruthy();
    expect(api.notify).not.toHaveBeenCalled();
  });

  it('sets a first password for an account created by SMS, without an old one', async () => {
    let hasPassword = false;
    const api = await renderSettings({
      'GET /user/userinfo': () => ok({ ...MAIN, hasPassword }),
      'POST /user/updatePassword': () => {
        hasPassword = true;
        return ok(null);
      },
    });
    expect(screen.getByText('未设置')).toBeTruthy();
    fireEvent.click(buttonByText('设置密码'));
    const dialog = await findDialog();
    expect(within(dialog).queryByLabelText('原密码')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('密码'), { target: { value: 'abc12345' } });
    fireEvent.change(within(dialog).getByLabelText('确认密码'), { target: { value: 'abc12346' } });
    fireEvent.click(buttonByText('确认设置', dialog));
    expect(await within(dialog).findByText('两次输入的密码不一致')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('确认密码'), { target: { value: 'abc12345' } });
    fireEvent.click(buttonByText('确认设置', dialog));
    await waitFor(() => expect(queryDialog()).toBeNull());
    expect(bodyOf(callsTo(api.fetchMock, 'POST', '/user/updatePassword')[0])).toEqual({ password: 'abc12345' });
    expect(await screen.findByText('已设置')).toBeTruthy();
  });

  it('offers a sub-account no phone change', async () => {
    await renderSettings({}, { ...MAIN, accountType: 2, userName: 'trainer01', nickName: '训练组', telephone: '' });
    expect(screen.getByText('子账号')).toBeTruthy();
    expect(screen.getByText('trainer01')).toBeTruthy();
    expect(screen.getByText('子账号使用登录名登录，不能修改主账号的手机号')).toBeTruthy();
    expect(screen.queryByText('修改手机号')).toBeNull();
  });

  it('is reached from 账号设置 in the header’s account menu', async () => {
    mockApi({});
    useUserStore.getState().setUserInfo({ kind: 'main', info: MAIN });
    const { router } = renderPage(<UserMenu />, '/ctrl-overview/overview');
    fireEvent.click(screen.getByLabelText('账号菜单'));
    const link = await screen.findByRole('link', { name: '账号设置' });
    expect(link.getAttribute('href')).toBe('/ctrl-personal-center/personal-center/account-settings');
    fireEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-personal-center/personal-center/account-settings'));
    expect(screen.queryByRole('link', { name: '账号设置' })).toBeNull();
  });
});
