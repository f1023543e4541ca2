/** 更换镜像, 重置系统, 保存镜像: what is lost said first, CUDA-filtered images, quota before saving, errors once. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InstanceView, MarketHost } from '../../../../api/compute';
import type { PrivateImageView } from '../../../../api/images';
import type { PublicImage } from '../../../../api/meta';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, page, renderPage } from '../../../ctrl-cost-center/testing';
import { RUNNING_INSTANCE } from '../../testing';
import { ChangeImageDialog, ResetSystemDialog, SaveImageDialog } from './ImageDialogs';

afterEach(() => cleanup());

const OFF: InstanceView = { ...RUNNING_INSTANCE, status: 'PoweredOff', sshCommand: null, hostId: 'bj-a-3090-01' };

const HOST = { hostId: 'bj-a-3090-01', cudaVersion: '12.2' } as MarketHost;
const PUBLIC: PublicImage[] = [
  { id: 'pytorch-2.5.1-py3.12-cu124', name: 'PyTorch 2.5.1 (CUDA 12.4)', framework: 'PyTorch', frameworkVersion: '2.5.1', python: '3.12', cuda: '12.4', ubuntu: '22.04', sizeGb: 20, imageRef: 'slg/base:latest' },
  { id: 'tensorflow-2.15.0-py3.10-cu122', name: 'TensorFlow 2.15.0 (CUDA 12.2)', framework: 'TensorFlow', frameworkVersion: '2.15.0', python: '3.10', cuda: '12.2', ubuntu: '22.04', sizeGb: 20, imageRef: 'slg/base:latest' },
];
const MINE: PrivateImageView = {
  imageId: 'img-aaaaaaaaaaaa',
  imageUId: '7f1c2a52-0d5b-4a3e-9a3f-1f2d3c4b5a69',
  name: '我的训练环境',
  sizeGb: 12.3,
  status: 'ready',
  statusReason: null,
  cuda: '11.8',
  baseImageId: 'pytorch-2.1.2-py3.10-cu118',
  baseImageName: 'PyTorch 2.1.2',
  shareCount: 0,
  createdAt: '2026-06-01T02:00:00Z',
};
const SHARED: PrivateImageView = { ...MINE, imageId: 'img-bbbbbbbbbbbb', name: '同事的环境', sharedFrom: '138****8001' };
const SAVING: PrivateImageView = { ...MINE, imageId: 'img-cccccccccccc', name: '还没好', status: 'saving' };

function openSelect(dialog: HTMLElement) {
  fireEvent.mouseDown(dialog.querySelector('.ant-select') as HTMLElement);
}

function optionOf(text: string): HTMLElement {
  return screen.getByText(text, { selector: '.ant-select-item-option-content' }).closest('.ant-select-item-option') as HTMLElement;
}

describe('ChangeImageDialog', () => {
  it('offers public, my and shared ready images, disables those the host cannot run, says what is lost and switches', async () => {
    const onClose = vi.fn();
    const api = mockApi({
      'GET /comppower': () => page([HOST]),
      'GET /meta/images/public': () => ok(PUBLIC),
      'GET /rental/private_image': () => page([MINE, SHARED, SAVING]),
      'POST /rental/switch_image/v2': () => ok({ ...OFF, status: 'ResetStarted', operation: 'reset' }),
    });
    renderPage(<ChangeImageDialog instance={OFF} open onClose={onClose} />);
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('系统盘上的所有改动');
    expect(dialog.textContent).toContain('数据盘的数据保留');
    expect(dialog.textContent).toContain('当前镜像：PyTorch 2.5.1');
    expect(await within(dialog).findByText('实例所在主机的驱动最高支持 CUDA 12.2，更高版本的镜像不可选。')).toBeTruthy();
    // Nothing chosen: the dialog says so instead of sending.
    fireEvent.click(buttonByText('更换镜像', dialog));
    expect(await within(dialog).findByText('请选择要更换的镜像')).toBeTruthy();
    await waitFor(() => expect(callsTo(api.fetchMock, 'GET', '/rental/private_image')).toHaveLength(1));

    openSelect(dialog);
    await screen.findByText('我的训练环境', { selector: '.ant-select-item-option-content' });
    expect(optionOf('PyTorch 2.5.1 (CUDA 12.4)（需 CUDA 12.4，主机最高支持 12.2）').getAttribute('aria-disabled')).toBe('true');
    expect(optionOf('TensorFlow 2.15.0 (CUDA 12.2)').getAttribute('aria-disabled')).toBe('false');
    expect(optionOf('同事的环境（来自 138****8001）')).toBeTruthy();
    expect(screen.queryByText('还没好', { selector: '.ant-select-item-option-content' })).toBeNull();
    fireEvent.click(optionOf('我的训练环境'));
    fireEvent.click(buttonByText('更换镜像', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/rental/switch_image/v2')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/rental/switch_image/v2')[0]?.[1]?.body))).toEqual({ instanceId: OFF.instanceId, imageId: MINE.imageId });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('shows a refusal in the dialog, once', async () => {
    const api = mockApi({
      'GET /comppower': () => page([HOST]),
      'GET /meta/images/public': () => ok(PUBLIC),
      'GET /rental/private_image': () => page([]),
      'POST /rental/switch_image/v2': () => failure(409, 40901, '实例当前状态为「运行中」，不能更换镜像'),
    });
    renderPage(<ChangeImageDialog instance={OFF} open onClose={() => undefined} />);
    const dialog = await findDialog();
    openSelect(dialog);
    fireEvent.click(await screen.findByText('TensorFlow 2.15.0 (CUDA 12.2)', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(buttonByText('更换镜像', dialog));
    expect(await within(dialog).findByText('实例当前状态为「运行中」，不能更换镜像')).toBeTruthy();
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(api.notify).not.toHaveBeenCalled();
  });
});

describe('ResetSystemDialog', () => {
  it('names the image and what is lost, and resets only once acknowledged', async () => {
    const onClose = vi.fn();
    const api = mockApi({ 'POST /rental/reset': () => ok({ ...OFF, status: 'ResetStarted', operation: 'reset' }) });
    renderPage(<ResetSystemDialog instance={OFF} open onClose={onClose} />);
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('将按实例当前的镜像「PyTorch 2.5.1」重建系统盘');
    expect(dialog.textContent).toContain('将丢失且无法恢复；数据盘的数据保留');
    expect(buttonByText('重置系统', dialog).disabled).toBe(true);
    fireEvent.click(within(dialog).getByText('我已了解：系统盘上的改动将丢失，数据盘保留'));
    fireEvent.click(buttonByText('重置系统', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/rental/reset')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/rental/reset')[0]?.[1]?.body))).toEqual({ instanceId: OFF.instanceId });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});

describe('SaveImageDialog', () => {
  it('shows the quota used and left, sends the name trimmed, and puts a duplicate name (40026) under the field', async () => {
    const onClose = vi.fn();
    const answers = [failure(409, 40026, '名称已存在，请重新输入'), ok({ imageId: 'img-dddddddddddd' })];
    const api = mockApi({
      'GET /rental/private_image/size': () => ok({ usedGb: 12.3, quotaGb: 30 }),
      'POST /rental/save_image': () => answers.shift() ?? ok({ imageId: 'img-dddddddddddd' }),
    });
    renderPage(<SaveImageDialog instance={OFF} open onClose={onClose} />);
    const dialog = await findDialog();
    expect(await within(dialog).findByText('镜像存储：已用 12.3 GB / 免费额度 30 GB，剩余 17.7 GB')).toBeTruthy();
    expect(dialog.textContent).toContain('不含数据盘');
    const input = within(dialog).getByLabelText('镜像名称') as HTMLInputElement;
    expect(input.value).toBe('训练机-镜像');
    fireEvent.change(input, { target: { value: ' 环境 ' } });
    fireEvent.click(buttonByText('保存镜像', dialog));
    expect(await within(dialog).findByText('名称已存在，请重新输入')).toBeTruthy();
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/rental/save_image')[0]?.[1]?.body))).toEqual({ instanceId: OFF.instanceId, name: '环境' });
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(api.notify).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '环境2' } });
    fireEvent.click(buttonByText('保存镜像', dialog));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('refuses to start while the instance runs or the quota is used up', async () => {
    mockApi({ 'GET /rental/private_image/size': () => ok({ usedGb: 31.5, quotaGb: 30 }) });
    renderPage(<SaveImageDialog instance={RUNNING_INSTANCE} open onClose={() => undefined} />);
    const dialog = await findDialog();
    expect(within(dialog).getByText('请先关机再保存镜像')).toBeTruthy();
    expect(await within(dialog).findByText(/已达免费额度 30 GB/)).toBeTruthy();
    expect(buttonByText('保存镜像', dialog).disabled).toBe(true);
  });
});
