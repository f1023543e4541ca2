/** 我的镜像: the quota bar, my and shared images with their status, rename (40026 on the field), delete and share with their effect said first, live saving. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PrivateImageView } from '../../../api/images';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, page, pending, queryDialog, renderPage } from '../../ctrl-cost-center/testing';
import MirrorImagePage from './index';

afterEach(() => cleanup());

const READY: PrivateImageView = {
  imageId: 'img-aaaaaaaaaaaa',
  imageUId: '7f1c2a52-0d5b-4a3e-9a3f-1f2d3c4b5a69',
  name: '训练环境',
  sizeGb: 15.9,
  status: 'ready',
  statusReason: null,
  cuda: '12.4',
  baseImageId: 'pytorch-2.5.1-py3.12-cu124',
  baseImageName: 'PyTorch 2.5.1 (Python 3.12, CUDA 12.4, Ubuntu 22.04)',
  shareCount: 2,
  createdAt: '2026-06-01T02:00:00Z',
};
const SAVING: PrivateImageView = { ...READY, imageId: 'img-bbbbbbbbbbbb', imageUId: '0b6b1c3e-7d0a-4d5c-8a55-3c2f7e9d1a20', name: '推理环境', status: 'saving', sizeGb: 14.2, shareCount: 0 };
const FAILED: PrivateImageView = { ...READY, imageId: 'img-cccccccccccc', imageUId: 'b4f0d7e2-2c1a-4b8e-9e6f-5a4d3c2b1a00', name: '坏镜像', status: 'failed', statusReason: '主机故障，镜像未能保存', sizeGb: 0, shareCount: 0 };
const SHARED: PrivateImageView = { ...READY, imageId: 'img-dddddddddddd', imageUId: 'c9d8e7f6-1a2b-4c3d-8e4f-5a6b7c8d9e0f', name: '同事的镜像', sharedFrom: '138****8001', shareCount: 0 };

const usage = (usedGb: number) => () => ok({ usedGb, quotaGb: 30 });

/**
 * A button by its aria-label inside `container`: a role query computes the accessible name of every
 * element of the antd table, which took 20 s of this file on a 2-core machine.
 */
function namedButton(container: HTMLElement, label: string): HTMLButtonElement {
  const button = container.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`);
  if (!button) throw new Error(`no button labelled ${label}`);
  return button;
}

function rowOf(name: string): HTMLElement {
  return screen.getByText(name, { selector: 'strong' }).closest('tr') as HTMLElement;
}

describe('我的镜像', () => {
  it('shows used / quota, my images with status, size and base, and images shared with me with who shared them', async () => {
    mockApi({ 'GET /rental/private_image': () => page([READY, FAILED, SHARED]), 'GET /rental/private_image/size': usage(15.9) });
    renderPage(<MirrorImagePage />, '/x');
    expect(await screen.findByText('训练环境')).toBeTruthy();
    expect(await screen.findByText('已用 15.9 GB / 免费额度 30 GB')).toBeTruthy();
    expect(screen.getByText('剩余 14.1 GB')).toBeTruthy();
    const ready = rowOf('训练环境');
    expect(within(ready).getByText('就绪')).toBeTruthy();
    expect(within(ready).getByText('15.9 GB')).toBeTruthy();
    expect(within(ready).getByText('CUDA 12.4')).toBeTruthy();
    expect(within(ready).getByText('已分享给 2 个账号')).toBeTruthy();
    const failed = rowOf('坏镜像');
    expect(within(failed).getByText('失败')).toBeTruthy();
    expect(within(failed).getByText('主机故障，镜像未能保存')).toBeTruthy();
    const shared = rowOf('同事的镜像');
    expect(within(shared).getByText('来自 138****8001 的分享')).toBeTruthy();
    // Not mine to rename or delete: only 移除.
    expect(within(shared).queryByRole('button', { name: '重命名镜像 同事的镜像' })).toBeNull();
    expect(namedButton(shared, '移除镜像 同事的镜像')).toBeTruthy();
    expect(screen.getByText('共 3 个')).toBeTruthy();
  });

  it('shows loading, an empty state saying how to save, and a load error with 重试', async () => {
    mockApi({ 'GET /rental/private_image': pending, 'GET /rental/private_image/size': pending });
    const { container } = renderPage(<MirrorImagePage />, '/x');
    expect(container.querySelector('.ant-skeleton')).toBeTruthy();
    cleanup();

    mockApi({ 'GET /rental/private_image': () => page([]), 'GET /rental/private_image/size': usage(0) });
    renderPage(<MirrorImagePage />, '/x');
    expect(await screen.findByText('还没有镜像')).toBeTruthy();
    expect(document.body.textContent).toContain('再从实例的「更多」菜单选择「保存镜像」');
    cleanup();

    let calls = 0;
    mockApi({
      'GET /rental/private_image': () => {
        calls += 1;
        return calls === 1 ? failure(500, 50000, '数据库连接失败') : page([READY]);
      },
      'GET /rental/private_image/size': usage(15.9),
    });
    renderPage(<MirrorImagePage />, '/x');
    expect(await screen.findByText('镜像加载失败')).toBeTruthy();
    fireEvent.click(buttonByText('重试'));
    expect(await screen.findByText('训练环境')).toBeTruthy();
  });

  it('says the quota is used up', async () => {
    mockApi({ 'GET /rental/private_image': () => page([READY]), 'GET /rental/private_image/size': usage(31.2) });
    renderPage(<MirrorImagePage />, '/x');
    expect(await screen.findByText('已达免费额度 30 GB，需删除不再使用的镜像后才能继续保存')).toBeTruthy();
    expect(screen.getByText('剩余 0 GB')).toBeTruthy();
  });

  it('polls while an image is saving and shows it ready by itself; a saving image cannot be deleted or shared', async () => {
    let listed = 0;
    const api = mockApi({
      'GET /rental/private_image': () => {
        listed += 1;
        return page([listed === 1 ? SAVING : { ...SAVING, status: 'ready', sizeGb: 15.1 }]);
      },
      'GET /rental/private_image/size': usage(14.2),
    });
    renderPage(<MirrorImagePage />, '/x');
    expect(await screen.findByText('保存中')).toBeTruthy();
    const row = rowOf('推理环境');
    expect(within(row).getByText('约 14.2 GB（保存中）')).toBeTruthy();
    expect(namedButton(row, '删除镜像 推理环境').disabled).toBe(true);
    expect(namedButton(row, '分享镜像 推理环境').disabled).toBe(true);
    expect(await screen.findByText('就绪', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('15.1 GB')).toBeTruthy();
    // Once nothing saves, the used size is read again.
    await waitFor(() => expect(callsTo(api.fetchMock, 'GET', '/rental/private_image/size').length).toBeGreaterThanOrEqual(2));
  });

  it('renames, showing a duplicate name (40026) under the field and not as a toast', async () => {
    const answers = [failure(409, 40026, '名称已存在，请重新输入'), ok(null)];
    const api = mockApi({
      'GET /rental/private_image': () => page([READY]),
      'GET /rental/private_image/size': usage(15.9),
      'PUT /rental/private_image/rename': () => answers.shift() ?? ok(null),
    });
    renderPage(<MirrorImagePage />, '/x');
    await screen.findByText('训练环境');
    fireEvent.click(namedButton(rowOf('训练环境'), '重命名镜像 训练环境'));
    const dialog = await findDialog();
    fireEvent.change(within(dialog).getByLabelText('镜像名称'), { target: { value: ' 推理环境 ' } });
    fireEvent.click(buttonByText('保存', dialog));
    expect(await within(dialog).findByText('名称已存在，请重新输入')).toBeTruthy();
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(api.notify).not.toHaveBeenCalled();
    expect(JSON.parse(String(callsTo(api.fetchMock, 'PUT', '/rental/private_image/rename')[0]?.[1]?.body))).toEqual({ imageId: READY.imageId, name: '推理环境' });
    fireEvent.change(within(dialog).getByLabelText('镜像名称'), { target: { value: '新名字' } });
    fireEvent.click(buttonByText('保存', dialog));
    await waitFor(() => expect(queryDialog()).toBeNull());
  });

  it('asks before deleting, naming the shares that end and the quota freed, and deletes by id', async () => {
    let removed = false;
    const api = mockApi({
      'GET /rental/private_image': () => page(removed ? [] : [READY]),
      'GET /rental/private_image/size': usage(15.9),
      'DELETE /rental/private_image': () => {
        removed = true;
        return ok(null);
      },
    });
    renderPage(<MirrorImagePage />, '/x');
    await screen.findByText('训练环境');
    fireEvent.click(namedButton(rowOf('训练环境'), '删除镜像 训练环境'));
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('删除镜像“训练环境”？');
    expect(dialog.textContent).toContain('对 2 个账号的分享将同时取消');
    expect(dialog.textContent).toContain('已用它创建的实例继续运行');
    expect(dialog.textContent).toContain('释放 15.9 GB 镜像额度');
    expect(callsTo(api.fetchMock, 'DELETE', '/rental/private_image')).toHaveLength(0);
    fireEvent.click(buttonByText('删除镜像', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'DELETE', '/rental/private_image')).toHaveLength(1));
    const url = new URL(String(callsTo(api.fetchMock, 'DELETE', '/rental/private_image')[0]?.[0]), 'http://localhost');
    expect(url.searchParams.get('imageId')).toBe(READY.imageId);
    expect(await screen.findByText('还没有镜像')).toBeTruthy();
  });

  it('shares by phone (refusals under the field) and cancels all shares after asking', async () => {
    const answers = [failure(400, 40022, '手机号 139****0000 未注册本平台主账号，无法分享'), ok(null)];
    const api = mockApi({
      'GET /rental/private_image': () => page([READY]),
      'GET /rental/private_image/size': usage(15.9),
      'POST /rental/share_image/share': () => answers.shift() ?? ok(null),
      'DELETE /rental/share_image/share_to_others': () => ok({ removed: 2 }),
    });
    renderPage(<MirrorImagePage />, '/x');
    await screen.findByText('训练环境');
    fireEvent.click(namedButton(rowOf('训练环境'), '分享镜像 训练环境'));
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('不能修改或删除它');
    fireEvent.change(within(dialog).getByLabelText('对方手机号'), { target: { value: '12345' } });
    fireEvent.click(buttonByText('分享', dialog));
    expect(await within(dialog).findByText('请输入正确的11位手机号')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'POST', '/rental/share_image/share')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('对方手机号'), { target: { value: '139 0000 0000' } });
    fireEvent.click(buttonByText('分享', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/rental/share_image/share')).toHaveLength(1), { timeout: 3000 });
    expect(await within(dialog).findByText('手机号 139****0000 未注册本平台主账号，无法分享')).toBeTruthy();
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/rental/share_image/share')[0]?.[1]?.body))).toEqual({ imageId: READY.imageId, telephone: '13900000000' });

    fireEvent.click(buttonByText('取消全部分享', dialog));
    const confirm = await screen.findByText('取消镜像“训练环境”的全部分享？');
    const confirmDialog = confirm.closest('.ant-modal') as HTMLElement;
    expect(confirmDialog.textContent).toContain('2 个账号将不能再用这个镜像创建实例或更换镜像');
    fireEvent.click(buttonByText('取消分享', confirmDialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'DELETE', '/rental/share_image/share_to_others')).toHaveLength(1));
    const url = new URL(String(callsTo(api.fetchMock, 'DELETE', '/rental/share_image/share_to_others')[0]?.[0]), 'http://localhost');
    expect(url.searchParams.get('imageUId')).toBe(READY.imageUId);
  });
});
