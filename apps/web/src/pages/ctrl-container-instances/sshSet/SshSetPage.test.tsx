/** SSH公钥: the list, 添加公钥 with the server's refusals on their fields, 删除 with its effect said first. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SshKeyView } from '../../../api/sshKeys';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, page, pending, queryDialog, renderPage } from '../../ctrl-cost-center/testing';
import SshSetPage from './index';

afterEach(() => cleanup());

const LAPTOP: SshKeyView = {
  keyName: 'laptop',
  keyType: 'ssh-ed25519',
  bits: 256,
  fingerprint: 'SHA256:iEcNivIfJdfm+QnJSqSnCoigR3mZnuPfeNq+FCGa4bI',
  comment: 'alice@laptop',
  createdAt: '2026-06-01T02:00:00Z',
};
const SERVER: SshKeyView = {
  keyName: '工作站',
  keyType: 'ssh-rsa',
  bits: 4096,
  fingerprint: 'SHA256:GeSfCddU5InuDsjmEvxhn0SeBBTvBZTEVNuLyWlo2uo',
  comment: '',
  createdAt: '2026-06-02T02:00:00Z',
};
const KEY_LINE = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIL/m6pT0EORG5VXuiHa8x/XWhxZX05X36W2Xwn0BCCt2 alice@laptop';

function rowOf(name: string): HTMLElement {
  return screen.getByText(name, { selector: 'strong' }).closest('tr') as HTMLElement;
}

/** Opens 添加公钥 from the page header (the empty state has one too). */
async function openAddDialog(): Promise<HTMLElement> {
  const headerButton = () => buttonByText('添加公钥', document.querySelector('.slg-page-header') as HTMLElement);
  await waitFor(() => expect(headerButton().disabled).toBe(false));
  fireEvent.click(headerButton());
  return findDialog();
}

function fill(dialog: HTMLElement, values: { name?: string; key?: string }) {
  if (values.name !== undefined) fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: values.name } });
  if (values.key !== undefined) fireEvent.change(within(dialog).getByLabelText('公钥'), { target: { value: values.key } });
}

describe('SSH公钥', () => {
  it('lists the keys with type, fingerprint and time, says what they are for and how to make one', async () => {
    const api = mockApi({ 'GET /ssh_key': () => page([SERVER, LAPTOP]) });
    renderPage(<SshSetPage />, '/x');
    expect(await screen.findByText('laptop')).toBeTruthy();
    const laptop = rowOf('laptop');
    expect(within(laptop).getByText('alice@laptop')).toBeTruthy();
    expect(within(laptop).getByText('ED25519 · 256 位')).toBeTruthy();
    expect(within(laptop).getByText(LAPTOP.fingerprint)).toBeTruthy();
    expect(within(laptop).getByText(/^2026-06-01 /)).toBeTruthy();
    expect(within(rowOf('工作站')).getByText('RSA · 4096 位')).toBeTruthy();
    expect(screen.getByText('已添加 2/20 个')).toBeTruthy();
    expect(document.body.textContent).toContain('新创建的实例会把这里的公钥写入 root 用户的 ~/.ssh/authorized_keys');
    expect(document.body.textContent).toContain('已创建的实例不受影响');
    expect(screen.getByText('ssh-keygen -t ed25519 -C "your_email@example.com"')).toBeTruthy();
    expect(document.body.textContent).toContain('~/.ssh/id_ed25519.pub');
    // Every key in one request: at most 20 exist.
    const url = new URL(String(callsTo(api.fetchMock, 'GET', '/ssh_key')[0]?.[0]), 'http://localhost');
    expect(Object.fromEntries(url.searchParams)).toEqual({ page: '1', pageSize: '20' });
  });

  it('shows loading, then an empty state that offers 添加公钥, and an error with 重试', async () => {
    mockApi({ 'GET /ssh_key': pending });
    const { container } = renderPage(<SshSetPage />, '/x');
    expect(container.querySelector('.ant-skeleton')).toBeTruthy();
    cleanup();

    mockApi({ 'GET /ssh_key': () => page([]) });
    renderPage(<SshSetPage />, '/x');
    expect(await screen.findByText('还没有SSH公钥')).toBeTruthy();
    expect(screen.getByText('添加后，新创建的实例即可用对应的私钥免密登录')).toBeTruthy();
    fireEvent.click(buttonByText('添加公钥', document.querySelector('.ant-empty') as HTMLElement));
    expect(await findDialog()).toBeTruthy();
    cleanup();

    let calls = 0;
    const api = mockApi({
      'GET /ssh_key': () => {
        calls += 1;
        return calls === 1 ? failure(500, 50000, '数据库连接失败') : page([LAPTOP]);
      },
    });
    renderPage(<SshSetPage />, '/x');
    expect(await screen.findByText('SSH公钥加载失败')).toBeTruthy();
    expect(screen.getByText('数据库连接失败')).toBeTruthy();
    fireEvent.click(buttonByText('重试'));
    expect(await screen.findByText('laptop')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'GET', '/ssh_key')).toHaveLength(2);
  });

  it('adds a key: checks the name first, sends name and key trimmed, and reloads the list', async () => {
    let added = false;
    const api = mockApi({
      'GET /ssh_key': () => page(added ? [LAPTOP] : []),
      'POST /ssh_key': () => {
        added = true;
        return ok(LAPTOP);
      },
    });
    renderPage(<SshSetPage />, '/x');
    await screen.findByText('还没有SSH公钥');
    const dialog = await openAddDialog();
    fill(dialog, { name: 'my laptop', key: KEY_LINE });
    fireEvent.click(buttonByText('添加', dialog));
    expect(await within(dialog).findByText('名称为1-32个字符，只能包含中文、字母、数字、“-”、“_”和“.”')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'POST', '/ssh_key')).toHaveLength(0);

    fill(dialog, { name: ' laptop ', key: `\n${KEY_LINE}\n` });
    fireEvent.click(buttonByText('添加', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/ssh_key')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/ssh_key')[0]?.[1]?.body))).toEqual({ keyName: 'laptop', key: KEY_LINE });
    expect(await screen.findByText('alice@laptop')).toBeTruthy();
    await waitFor(() => expect(queryDialog()).toBeNull());
  });

  it('puts the server’s refusals under their field, once: the key’s, the duplicate key and the duplicate name (40026)', async () => {
    const answers = [
      failure(400, 40000, '这是私钥，私钥请妥善保管、不要上传。请粘贴公钥文件（.pub，例如 ~/.ssh/id_ed25519.pub）的内容'),
      failure(409, 40027, '该公钥已添加，名称为“laptop”，无需重复添加'),
      failure(409, 40026, '名称已存在，请重新输入'),
    ];
    const api = mockApi({ 'GET /ssh_key': () => page([LAPTOP]), 'POST /ssh_key': () => answers.shift() ?? ok(SERVER) });
    renderPage(<SshSetPage />, '/x');
    await screen.findByText('laptop');
    const dialog = await openAddDialog();
    const fieldOf = (label: string) => within(dialog).getByLabelText(label).closest('.ant-form-item') as HTMLElement;
    fill(dialog, { name: 'desktop', key: '-----BEGIN OPENSSH PRIVATE KEY-----' });

    fireEvent.click(buttonByText('添加', dialog));
    expect(await within(fieldOf('公钥')).findByText(/^这是私钥/)).toBeTruthy();
    fireEvent.click(buttonByText('添加', dialog));
    expect(await within(fieldOf('公钥')).findByText('该公钥已添加，名称为“laptop”，无需重复添加')).toBeTruthy();
    fireEvent.click(buttonByText('添加', dialog));
    expect(await within(fieldOf('名称')).findByText('名称已存在，请重新输入')).toBeTruthy();
    // The key's error of the try before is gone (jsdom keeps antd's leaving help text, so ask the item).
    expect(fieldOf('公钥').classList.contains('ant-form-item-has-error')).toBe(false);
    expect(fieldOf('名称').classList.contains('ant-form-item-has-error')).toBe(true);
    expect(callsTo(api.fetchMock, 'POST', '/ssh_key')).toHaveLength(3);
    // Shown on the field, never also as a toast.
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(api.notify).not.toHaveBeenCalled();
    expect((queryDialog() as HTMLElement)).toBeTruthy();
  });

  it('asks before 删除, saying existing instances keep the key, and deletes by name', async () => {
    let removed = false;
    const api = mockApi({
      'GET /ssh_key': () => page(removed ? [SERVER] : [SERVER, LAPTOP]),
      'DELETE /ssh_key': () => {
        removed = true;
        return ok(null);
      },
    });
    renderPage(<SshSetPage />, '/x');
    await screen.findByText('laptop');
    fireEvent.click(within(rowOf('laptop')).getByRole('button', { name: '删除公钥 laptop' }));
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('删除公钥“laptop”？');
    expect(dialog.textContent).toContain('之后新创建的实例不再写入此公钥');
    expect(dialog.textContent).toContain('已创建的实例中的公钥不会被删除');
    expect(callsTo(api.fetchMock, 'DELETE', '/ssh_key')).toHaveLength(0);
    fireEvent.click(buttonByText('删除', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'DELETE', '/ssh_key')).toHaveLength(1));
    const url = new URL(String(callsTo(api.fetchMock, 'DELETE', '/ssh_key')[0]?.[0]), 'http://localhost');
    expect(url.searchParams.get('keyName')).toBe('laptop');
    await waitFor(() => expect(screen.queryByText('laptop')).toBeNull());
  });

  it('offers no 添加公钥 once 20 keys are kept', async () => {
    const keys = Array.from({ length: 20 }, (_, index) => ({ ...LAPTOP, keyName: `key-${index}`, fingerprint: `SHA256:${index}` }));
    mockApi({ 'GET /ssh_key': () => page(keys) });
    renderPage(<SshSetPage />, '/x');
    await screen.findByText('key-0');
    expect(buttonByText('添加公钥', document.querySelector('.slg-page-header') as HTMLElement).disabled).toBe(true);
    expect(screen.getByText('最多保存20个公钥，请先删除不再使用的公钥')).toBeTruthy();
  });
});
