/** 子账号管理: list, create (checked before sending, 40026 on the field), recharge in fen, delete with the 转移并删除 step. */
import { AccountType } from '@slg/shared';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SubAccountView } from '../../../api/subAccounts';
import { useUserStore } from '../../../stores/user';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, page, pending, queryDialog, renderPage } from '../../ctrl-cost-center/testing';
import ChildAccountPage from './index';

afterEach(() => cleanup());

const NONE = { CONTAINER: 'NONE', ELASTIC: 'NONE', MIRROR: 'NONE', FILE_STORAGE: 'NONE', INVOICE: 'NONE', MODEL_DEPLOY: 'NONE' } as const;
const DEV: SubAccountView = {
  id: 7,
  username: 'dev-01',
  nickname: '训练组',
  sharedMainBalance: false,
  permissions: { ...NONE, CONTAINER: 'SELF', INVOICE: 'ALL', ELASTIC: 'ALL' },
  balance: 1234,
  createdAt: '2026-06-01T02:00:00Z',
};
const OPS: SubAccountView = { id: 3, username: 'ops.lee', nickname: 'ops.lee', sharedMainBalance: true, permissions: NONE, balance: 0, createdAt: '2026-05-01T02:00:00Z' };

function rowOf(username: string): HTMLElement {
  return screen.getByText(username, { selector: 'strong, strong *' }).closest('tr') as HTMLElement;
}

function bodyOf(fetchMock: Parameters<typeof callsTo>[0], method: string, path: string, index = 0): unknown {
  return JSON.parse(String(callsTo(fetchMock, method, path)[index]?.[1]?.body));
}

async function settle() {
  await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
}

function headerCreate(): HTMLButtonElement {
  return buttonByText('创建子账号', document.querySelector('.slg-child-list-card .ant-card-head') as HTMLElement);
}

function fill(dialog: HTMLElement, label: string, value: string) {
  fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
}

describe('子账号管理', () => {
  it('lists sub-accounts with nickname, balance mode and balance, permission tags, the count of the limit', async () => {
    const api = mockApi({ 'GET /subuser/list': () => page([DEV, OPS], 2) });
    renderPage(<ChildAccountPage />, '/x');
    expect(await screen.findByText('dev-01')).toBeTruthy();
    const dev = rowOf('dev-01');
    expect(within(dev).getByText('训练组')).toBeTruthy();
    expect(within(dev).getByText('独立余额')).toBeTruthy();
    expect(within(dev).getByText('¥12.34')).toBeTruthy();
    expect(within(dev).getByText('容器实例·仅本人数据')).toBeTruthy();
    expect(within(dev).getByText('费用中心·全部数据')).toBeTruthy();
    expect(within(dev).queryByText(/镜像/)).toBeNull();
    expect(within(dev).getByText('弹性部署·全部数据')).toBeTruthy();
    expect(within(dev).getByText(/^2026-06-01 /)).toBeTruthy();
    expect(within(dev).getByLabelText('权限设置 dev-01').getAttribute('href')).toBe('/ctrl-personal-center/personal-center/child-account-detail?id=7');
    const ops = rowOf('ops.lee');
    expect(within(ops).getByText('共用主账号余额')).toBeTruthy();
    expect(within(ops).getByText('无任何权限')).toBeTruthy();
    expect(within(ops).getByLabelText('充值 ops.lee').hasAttribute('disabled')).toBe(true);
    expect(screen.getByText('已创建 2/50 个')).toBeTruthy();
    const url = new URL(String(callsTo(api.fetchMock, 'GET', '/subuser/list')[0]?.[0]), 'http://localhost');
    expect(Object.fromEntries(url.searchParams)).toEqual({ page: '1', pageSize: '10' });
  });

  it('pages through the list', async () => {
    const many = Array.from({ length: 10 }, (_, index) => ({ ...DEV, id: 100 + index, username: `user-${index}` }));
    const api = mockApi({
      'GET /subuser/list': (url) => (url.searchParams.get('page') === '2' ? ok({ list: [{ ...DEV, id: 200, username: 'last-one' }], total: 11, page: 2, pageSize: 10 }) : page(many, 11)),
    });
    renderPage(<ChildAccountPage />, '/x');
    await screen.findByText('user-0');
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('last-one')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'GET', '/subuser/list').some(([input]) => String(input).includes('page=2'))).toBe(true);
  });

  it('shows loading, an empty state explaining sub-accounts with 创建子账号, and an error with 重试', async () => {
    mockApi({ 'GET /subuser/list': pending });
    const { container } = renderPage(<ChildAccountPage />, '/x');
    expect(container.querySelector('.ant-skeleton')).toBeTruthy();
    cleanup();

    mockApi({ 'GET /subuser/list': () => page([]) });
    renderPage(<ChildAccountPage />, '/x');
    expect(await screen.findByText('还没有子账号')).toBeTruthy();
    expect(document.body.textContent).toContain('每人用自己的用户名和密码登录');
    fireEvent.click(buttonByText('创建子账号', document.querySelector('.ant-empty') as HTMLElement));
    expect(await findDialog()).toBeTruthy();
    cleanup();

    let calls = 0;
    const api = mockApi({
      'GET /subuser/list': () => {
        calls += 1;
        return calls === 1 ? failure(500, 50000, '数据库连接失败') : page([DEV]);
      },
    });
    renderPage(<ChildAccountPage />, '/x');
    expect(await screen.findByText('子账号加载失败')).toBeTruthy();
    expect(screen.getByText('数据库连接失败')).toBeTruthy();
    fireEvent.click(buttonByText('重试'));
    expect(await screen.findByText('dev-01')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'GET', '/subuser/list')).toHaveLength(2);
  });

  it('creates a sub-account: blocks a bad username and mismatched passwords, sends the body, puts 40026 under the username', async () => {
    let taken = true;
    const api = mockApi({
      'GET /subuser/list': () => page([DEV]),
      'POST /subuser/create': () => (taken ? failure(409, 40026, '用户名已存在，请重新输入') : ok({ id: 9 })),
    });
    renderPage(<ChildAccountPage />, '/x');
    await screen.findByText('dev-01');
    fireEvent.click(headerCreate());
    const dialog = await findDialog();
    // Only products that exist are offered (issue 17): 弹性部署 since issue 21, 文件存储 since issue 22.
    expect(within(dialog).getByLabelText('弹性部署')).toBeTruthy();
    expect(within(dialog).getByLabelText('文件存储')).toBeTruthy();
    expect(within(dialog).queryByText(/模型部署/)).toBeNull();
    fill(dialog, '用户名', 'bad name');
    fill(dialog, '密码', 'abc12345');
    fill(dialog, '确认密码', 'abc12346');
    fireEvent.click(buttonByText('创建', dialog));
    expect(await within(dialog).findByText('用户名为4-32位字母、数字、下划线、短横线或点，不能是手机号')).toBeTruthy();
    expect(await within(dialog).findByText('两次输入的密码不一致')).toBeTruthy();
    fill(dialog, '用户名', '13812345678');
    fireEvent.click(buttonByText('创建', dialog));
    await settle();
    expect(within(dialog).getByText('用户名为4-32位字母、数字、下划线、短横线或点，不能是手机号')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'POST', '/subuser/create')).toHaveLength(0);

    fill(dialog, '用户名', ' dev-01 ');
    fill(dialog, '确认密码', 'abc12345');
    fill(dialog, '昵称（选填）', ' 小王 ');
    fireEvent.click(within(dialog).getByText('共用主账号余额'));
    const invoice = within(dialog).getByLabelText('费用中心');
    fireEvent.click(within(invoice).getByText('全部数据'));
    fireEvent.click(buttonByText('创建', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/subuser/create')).toHaveLength(1));
    expect(bodyOf(api.fetchMock, 'POST', '/subuser/create')).toEqual({
      username: 'dev-01',
      password: 'abc12345',
      nickname: '小王',
      sharedMainBalance: true,
      permissions: [
        { authorityType: 'CONTAINER', level: 'SELF' },
        { authorityType: 'ELASTIC', level: 'SELF' },
        { authorityType: 'MIRROR', level: 'SELF' },
        { authorityType: 'FILE_STORAGE', level: 'NONE' },
        { authorityType: 'INVOICE', level: 'ALL' },
      ],
    });
    expect(await within(dialog).findByText('用户名已存在，请重新输入')).toBeTruthy();
    await settle();
    expect(api.notify).not.toHaveBeenCalled();

    taken = false;
    fill(dialog, '用户名', 'dev-02');
    fireEvent.click(buttonByText('创建', dialog));
    await waitFor(() => expect(queryDialog()).toBeNull());
    expect((bodyOf(api.fetchMock, 'POST', '/subuser/create', 1) as { username: string }).username).toBe('dev-02');
  });

  it('recharges in fen from a yuan amount, showing both balances; a refusal of the server goes under the amount', async () => {
    let refuse = true;
    const api = mockApi({
      'GET /subuser/list': () => page([DEV]),
      'GET /account/': () => ok({ totalBalance: 50_000 }),
      'POST /subuser/recharge': () => (refuse ? failure(400, 40031, '主账号余额不足，请先充值') : ok({ balance: 2484 })),
    });
    renderPage(<ChildAccountPage />, '/x');
    await screen.findByText('dev-01');
    fireEvent.click(within(rowOf('dev-01')).getByLabelText('充值 dev-01'));
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('为子账号 dev-01 充值');
    expect(await within(dialog).findByText('¥500.00')).toBeTruthy();
    expect(within(dialog).getByText('¥12.34')).toBeTruthy();

    fill(dialog, '金额（元）', '600');
    fireEvent.click(buttonByText('充值', dialog));
    expect(await within(dialog).findByText('金额不能超过主账号余额')).toBeTruthy();
    fill(dialog, '金额（元）', '1.234');
    fireEvent.click(buttonByText('充值', dialog));
    expect(await within(dialog).findByText('请输入正确的金额，最多两位小数')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'POST', '/subuser/recharge')).toHaveLength(0);

    fill(dialog, '金额（元）', '12.5');
    fireEvent.click(buttonByText('充值', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/subuser/recharge')).toHaveLength(1));
    expect(bodyOf(api.fetchMock, 'POST', '/subuser/recharge')).toEqual({ id: 7, amount: 1250 });
    expect(await within(dialog).findByText('主账号余额不足，请先充值')).toBeTruthy();
    await settle();
    expect(api.notify).not.toHaveBeenCalled();

    refuse = false;
    fireEvent.click(buttonByText('充值', dialog));
    await waitFor(() => expect(queryDialog()).toBeNull());
  });

  it('deducts no more than the sub-account has', async () => {
    const api = mockApi({
      'GET /subuser/list': () => page([DEV]),
      'GET /account/': () => ok({ totalBalance: 50_000 }),
      'POST /subuser/deduct': () => ok({ balance: 0 }),
    });
    renderPage(<ChildAccountPage />, '/x');
    await screen.findByText('dev-01');
    fireEvent.click(within(rowOf('dev-01')).getByLabelText('扣款 dev-01'));
    const dialog = await findDialog();
    fill(dialog, '金额（元）', '12.35');
    fireEvent.click(buttonByText('扣款', dialog));
    expect(await within(dialog).findByText('金额不能超过子账号余额')).toBeTruthy();
    fill(dialog, '金额（元）', '12.34');
    fireEvent.click(buttonByText('扣款', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/subuser/deduct')).toHaveLength(1));
    expect(bodyOf(api.fetchMock, 'POST', '/subuser/deduct')).toEqual({ id: 7, amount: 1234 });
  });

  it('deletes after naming the effect; with unreleased instances offers 转移并删除, which sends transferResources=true', async () => {
    let removed = false;
    const api = mockApi({
      'GET /subuser/list': () => page(removed ? [OPS] : [DEV, OPS]),
      'DELETE /subuser/delete/7': (url) => {
        if (url.searchParams.get('transferResources') !== 'true') return failure(409, 40901, '子账号还有2个未释放的实例，确认转移给主账号后才能删除');
        removed = true;
        return ok({ transferred: 3 });
      },
    });
    renderPage(<ChildAccountPage />, '/x');
    await screen.findByText('dev-01');
    fireEvent.click(within(rowOf('dev-01')).getByLabelText('删除 dev-01'));
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('删除子账号 dev-01？');
    expect(dialog.textContent).toContain('立即无法登录');
    expect(dialog.textContent).toContain('资源转给主账号，剩余余额退回主账号');
    expect(callsTo(api.fetchMock, 'DELETE', '/subuser/delete/7')).toHaveLength(0);
    fireEvent.click(buttonByText('删除', dialog));
    expect(await within(dialog).findByText(/子账号还有2个未释放的实例/)).toBeTruthy();
    expect(new URL(String(callsTo(api.fetchMock, 'DELETE', '/subuser/delete/7')[0]?.[0]), 'http://localhost').search).toBe('');
    await settle();
    expect(api.notify).not.toHaveBeenCalled();

    fireEvent.click(buttonByText('转移并删除', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'DELETE', '/subuser/delete/7')).toHaveLength(2));
    expect(new URL(String(callsTo(api.fetchMock, 'DELETE', '/subuser/delete/7')[1]?.[0]), 'http://localhost').searchParams.get('transferResources')).toBe('true');
    await waitFor(() => expect(screen.queryByText('dev-01')).toBeNull());
  });

  it('resets a password after checking it', async () => {
    const api = mockApi({ 'GET /subuser/list': () => page([DEV]), 'POST /subuser/password/change': () => ok(null) });
    renderPage(<ChildAccountPage />, '/x');
    await screen.findByText('dev-01');
    fireEvent.click(within(rowOf('dev-01')).getByLabelText('重置密码 dev-01'));
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('已登录的设备会全部退出');
    fill(dialog, '新密码', 'short');
    fill(dialog, '确认新密码', 'short');
    fireEvent.click(buttonByText('重置密码', dialog));
    expect(await within(dialog).findByText('密码需为8-20位，且同时包含字母和数字')).toBeTruthy();
    fill(dialog, '新密码', 'newpass123');
    fill(dialog, '确认新密码', 'newpass123');
    fireEvent.click(buttonByText('重置密码', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/subuser/password/change')).toHaveLength(1));
    expect(bodyOf(api.fetchMock, 'POST', '/subuser/password/change')).toEqual({ id: 7, password: 'newpass123' });
  });

  it('offers nothing to a sub-account and asks nothing of the server', async () => {
    const api = mockApi({ 'GET /subuser/list': () => page([DEV]) });
    useUserStore.getState().setSession({ jwtToken: 'jwt', refreshToken: 'refresh' }, AccountType.SUB);
    renderPage(<ChildAccountPage />, '/x');
    expect(await screen.findByText('子账号不能管理子账号')).toBeTruthy();
    await settle();
    expect(callsTo(api.fetchMock, 'GET', '/subuser/list')).toHaveLength(0);
  });
});
