/** 设置: API令牌 listed without secrets, created with the secret shown once, disabled and deleted after a confirmation. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiTokenView, CreatedApiToken } from '../../../api/apiTokens';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, page, pending, queryDialog, renderPage } from '../../ctrl-cost-center/testing';
import SettingPage from './index';

afterEach(() => cleanup());

const CI: ApiTokenView = { id: 7, name: 'CI 部署', prefix: 'slg_AbCdEf', status: 1, createdAt: '2026-06-01T02:00:00Z', lastUsedAt: '2026-06-02T03:04:05Z' };
const OLD: ApiTokenView = { id: 3, name: '旧脚本', prefix: 'slg_Zy9876', status: 0, createdAt: '2026-05-01T02:00:00Z', lastUsedAt: null };
const SECRET = 'slg_AbCdEf0123456789abcdefghijklmnopqrstuvwxyzA';

function rowOf(name: string): HTMLElement {
  return screen.getByText(name, { selector: 'strong, strong *' }).closest('tr') as HTMLElement;
}

function bodyOf(fetchMock: Parameters<typeof callsTo>[0], method: string, path: string, index = 0): unknown {
  return JSON.parse(String(callsTo(fetchMock, method, path)[index]?.[1]?.body));
}

describe('设置 · API令牌', () => {
  it('lists tokens with prefix, status, created and last used, never a whole secret; links to SSH公钥', async () => {
    const api = mockApi({ 'GET /settings/token': () => page([CI, OLD]) });
    renderPage(<SettingPage />, '/x');
    expect(await screen.findByText('CI 部署')).toBeTruthy();
    const ci = rowOf('CI 部署');
    expect(within(ci).getByText('slg_AbCdEf…')).toBeTruthy();
    expect(within(ci).getByText('已启用')).toBeTruthy();
    expect(within(ci).getByText(/^2026-06-01 /)).toBeTruthy();
    expect(within(ci).getByText(/^2026-06-02 /)).toBeTruthy();
    const old = rowOf('旧脚本');
    expect(within(old).getByText('已停用')).toBeTruthy();
    expect(within(old).getByText('从未使用')).toBeTruthy();
    expect((old.querySelector('[role="switch"]') as HTMLElement).getAttribute('aria-checked')).toBe('false');
    expect(screen.getByText('已创建 2/10 个')).toBeTruthy();
    expect(document.body.textContent).toContain('curl -H "Authorization: Bearer <你的令牌>" http://localhost:3000/api/v1/rental'.replace('http://localhost:3000', window.location.origin));
    expect((screen.getByText(/管理SSH公钥/, { selector: 'a, a *' }).closest('a') as HTMLAnchorElement).getAttribute('href')).toBe('/ctrl-container-instances/sshSet');
    const url = new URL(String(callsTo(api.fetchMock, 'GET', '/settings/token')[0]?.[0]), 'http://localhost');
    expect(Object.fromEntries(url.searchParams)).toEqual({ page: '1', pageSize: '10' });
  });

  it('shows loading, an empty state offering 创建令牌, and an error with 重试', async () => {
    mockApi({ 'GET /settings/token': pending });
    const { container } = renderPage(<SettingPage />, '/x');
    expect(container.querySelector('.ant-skeleton')).toBeTruthy();
    cleanup();

    mockApi({ 'GET /settings/token': () => page([]) });
    renderPage(<SettingPage />, '/x');
    expect(await screen.findByText('还没有API令牌')).toBeTruthy();
    fireEvent.click(buttonByText('创建令牌', document.querySelector('.ant-empty') as HTMLElement));
    expect(await findDialog()).toBeTruthy();
    cleanup();

    let calls = 0;
    const api = mockApi({
      'GET /settings/token': () => {
        calls += 1;
        return calls === 1 ? failure(500, 50000, '数据库连接失败') : page([CI]);
      },
    });
    renderPage(<SettingPage />, '/x');
    expect(await screen.findByText('API令牌加载失败')).toBeTruthy();
    expect(screen.getByText('数据库连接失败')).toBeTruthy();
    // The 提醒设置 card (not mocked here) shows its own 重试.
    fireEvent.click(buttonByText('重试', document.querySelector('.slg-token-list-card') as HTMLElement));
    expect(await screen.findByText('CI 部署')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'GET', '/settings/token')).toHaveLength(2);
  });

  it('creates a token: checks the name, shows the secret once with copy and a warning, then forgets it', async () => {
    let created = false;
    const createdToken: CreatedApiToken = { ...CI, id: 9, name: '训练', token: SECRET, lastUsedAt: null };
    const api = mockApi({
      'GET /settings/token': () => page(created ? [createdToken] : [CI]),
      'POST /settings/token': () => {
        created = true;
        return ok(createdToken);
      },
    });
    renderPage(<SettingPage />, '/x');
    await screen.findByText('CI 部署');
    const header = () => buttonByText('创建令牌', document.querySelector('.slg-token-list-card .ant-card-head') as HTMLElement);
    fireEvent.click(header());
    let dialog = await findDialog();
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: 'bad/name' } });
    fireEvent.click(buttonByText('创建', dialog));
    expect(await within(dialog).findByText('名称为1-32个字符，只能包含中文、字母、数字、空格、“-”、“_”和“.”')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'POST', '/settings/token')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: ' 训练 ' } });
    fireEvent.click(buttonByText('创建', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/settings/token')).toHaveLength(1));
    expect(bodyOf(api.fetchMock, 'POST', '/settings/token')).toEqual({ name: '训练' });
    dialog = await findDialog();
    expect(await within(dialog).findByText('令牌已创建')).toBeTruthy();
    expect(within(dialog).getByText(SECRET)).toBeTruthy();
    expect(dialog.textContent).toContain('关闭此窗口后将无法再次查看');
    expect(dialog.textContent).toContain(`curl -H "Authorization: Bearer ${SECRET}"`);
    expect(within(dialog).getAllByLabelText(/复制/).length).toBeGreaterThan(0);

    fireEvent.click(buttonByText('我已保存，关闭', dialog));
    await waitFor(() => expect(queryDialog()).toBeNull());
    expect(await screen.findByText('slg_AbCdEf…')).toBeTruthy();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('puts a duplicate name (40026) under the field, once, on create and on rename', async () => {
    const api = mockApi({
      'GET /settings/token': () => page([CI, OLD]),
      'POST /settings/token': () => failure(409, 40026, '名称已存在，请重新输入'),
      'PUT /settings/token/3': () => failure(409, 40026, '名称已存在，请重新输入'),
    });
    renderPage(<SettingPage />, '/x');
    await screen.findByText('CI 部署');
    fireEvent.click(buttonByText('创建令牌', document.querySelector('.slg-token-list-card .ant-card-head') as HTMLElement));
    let dialog = await findDialog();
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: 'CI 部署' } });
    fireEvent.click(buttonByText('创建', dialog));
    expect(await within(dialog).findByText('名称已存在，请重新输入')).toBeTruthy();
    fireEvent.click(buttonByText('取消', dialog));
    await waitFor(() => expect(queryDialog()).toBeNull());

    fireEvent.click(within(rowOf('旧脚本')).getByLabelText('重命名令牌 旧脚本'));
    dialog = await findDialog();
    expect((within(dialog).getByLabelText('名称') as HTMLInputElement).value).toBe('旧脚本');
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: 'CI 部署' } });
    fireEvent.click(buttonByText('保存', dialog));
    expect(await within(dialog).findByText('名称已存在，请重新输入')).toBeTruthy();
    expect(bodyOf(api.fetchMock, 'PUT', '/settings/token/3')).toEqual({ name: 'CI 部署' });
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(api.notify).not.toHaveBeenCalled();
  });

  it('asks before disabling, saying scripts stop at once; enables without asking', async () => {
    let status: 0 | 1 = 1;
    const api = mockApi({
      'GET /settings/token': () => page([{ ...CI, status }, OLD]),
      'PATCH /settings/token/7/status': (_url, init) => {
        status = (JSON.parse(String(init?.body)) as { status: 0 | 1 }).status;
        return ok({ ...CI, status });
      },
      'PATCH /settings/token/3/status': () => ok({ ...OLD, status: 1 }),
    });
    renderPage(<SettingPage />, '/x');
    await screen.findByText('CI 部署');
    fireEvent.click(rowOf('CI 部署').querySelector('[role="switch"]') as HTMLElement);
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('停用令牌“CI 部署”？');
    expect(dialog.textContent).toContain('使用该令牌的脚本和程序会立即无法调用 API');
    expect(callsTo(api.fetchMock, 'PATCH', '/settings/token/7/status')).toHaveLength(0);
    fireEvent.click(buttonByText('停用', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'PATCH', '/settings/token/7/status')).toHaveLength(1));
    expect(bodyOf(api.fetchMock, 'PATCH', '/settings/token/7/status')).toEqual({ status: 0 });
    await waitFor(() => expect(within(rowOf('CI 部署')).getByText('已停用')).toBeTruthy());

    fireEvent.click(rowOf('旧脚本').querySelector('[role="switch"]') as HTMLElement);
    await waitFor(() => expect(callsTo(api.fetchMock, 'PATCH', '/settings/token/3/status')).toHaveLength(1));
    expect(bodyOf(api.fetchMock, 'PATCH', '/settings/token/3/status')).toEqual({ status: 1 });
  });

  it('asks before 删除, naming the effect, and deletes by id', async () => {
    let removed = false;
    const api = mockApi({
      'GET /settings/token': () => page(removed ? [OLD] : [CI, OLD]),
      'DELETE /settings/token/7': () => {
        removed = true;
        return ok(null);
      },
    });
    renderPage(<SettingPage />, '/x');
    await screen.findByText('CI 部署');
    fireEvent.click(within(rowOf('CI 部署')).getByLabelText('删除令牌 CI 部署'));
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('删除令牌“CI 部署”？');
    expect(dialog.textContent).toContain('使用该令牌的脚本和程序会立即无法调用 API，且无法恢复');
    expect(callsTo(api.fetchMock, 'DELETE', '/settings/token/7')).toHaveLength(0);
    fireEvent.click(buttonByText('删除', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'DELETE', '/settings/token/7')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('CI 部署')).toBeNull());
  });

  it('offers no 创建令牌 once 10 tokens are kept', async () => {
    const tokens = Array.from({ length: 10 }, (_, index) => ({ ...CI, id: index + 1, name: `t-${index}` }));
    mockApi({ 'GET /settings/token': () => page(tokens) });
    renderPage(<SettingPage />, '/x');
    await screen.findByText('t-0');
    expect(buttonByText('创建令牌', document.querySelector('.slg-token-list-card .ant-card-head') as HTMLElement).disabled).toBe(true);
    expect(screen.getByText('最多创建10个令牌，请先删除不再使用的令牌')).toBeTruthy();
  });
});
