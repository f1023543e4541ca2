/** 创建实例 from 我的镜像: my ready images and shared ones, the host's CUDA, saving ones, the link's `?imageId=`; 下一步 carries the one chosen. */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MarketHost } from '../../../api/compute';
import { MARKET_HOST_3090 } from '../testing';
import type { PrivateImageView } from '../../../api/images';
import type { PublicImage } from '../../../api/meta';
import { buttonByText, callsTo, failure, mockApi, ok, page, renderPage, type Handler } from '../../ctrl-cost-center/testing';
import { chosenPrivateImage, privateImageChoices } from './images';
import CreateInstancePage from './index';

afterEach(() => cleanup());

const HOST: MarketHost = MARKET_HOST_3090;

const PUBLIC: PublicImage[] = [
  { id: 'pytorch-2.1.2-cu118', name: 'PyTorch 2.1.2', framework: 'PyTorch', frameworkVersion: '2.1.2', python: '3.10', cuda: '11.8', ubuntu: '22.04', sizeGb: 20, imageRef: 'slg/base:latest' },
];

const MINE: PrivateImageView = {
  imageId: 'img-aaaaaaaaaaaa',
  imageUId: '7f1c2a52-0d5b-4a3e-9a3f-1f2d3c4b5a69',
  name: '训练环境',
  sizeGb: 18.5,
  status: 'ready',
  statusReason: null,
  cuda: '11.8',
  baseImageId: 'pytorch-2.1.2-cu118',
  baseImageName: 'PyTorch 2.1.2',
  shareCount: 1,
  createdAt: '2025-11-20T08:00:00.000Z',
};
const SHARED: PrivateImageView = { ...MINE, imageId: 'img-dddddddddddd', imageUId: 'c9d8', name: '同事的镜像', sizeGb: 20, sharedFrom: '138****8001', shareCount: 0 };
const TOO_NEW: PrivateImageView = { ...MINE, imageId: 'img-eeeeeeeeeeee', imageUId: 'e1', name: '新驱动镜像', cuda: '12.4', baseImageName: 'PyTorch 2.5.1' };
const SAVING: PrivateImageView = { ...MINE, imageId: 'img-bbbbbbbbbbbb', imageUId: 'b1', name: '推理环境', status: 'saving', sizeGb: 14.2 };
const FAILED: PrivateImageView = { ...MINE, imageId: 'img-cccccccccccc', imageUId: 'c1', name: '坏镜像', status: 'failed', statusReason: '主机故障', sizeGb: 0 };

const ENTRY = `/x?hostId=${HOST.hostId}&gpuNum=1&chargingRuleId=1`;

function routes(privateImages: PrivateImageView[], overrides: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    'GET /comppower': () => page([HOST]),
    'GET /meta/images/public': () => ok(PUBLIC),
    // The server lists shared images among mine; the page puts mine first.
    'GET /rental/private_image': () => page(privateImages),
    'POST /rental/prepay': () => ok({ amount: 132, discount: 0, payable: 132, pricePerGpuFen: 132, unit: '时', balanceRequired: 132, expiresAt: null }),
    'GET /account/': () => ok({ totalBalance: 10_000 }),
    'POST /rental': () => ok({ instanceId: 'slg-abcdefghij', rentalId: 7, rentalUid: 'r-7', orderId: '20250101000000000001' }),
    ...overrides,
  };
}

const input = (label: string | RegExp) => screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;

const NEXT = '下一步：确认订单';

/** 下一步, and the choice it carried to 确认订单 (nothing is created here). */
async function nextAndRead(api: ReturnType<typeof mockApi>, router: ReturnType<typeof renderPage>['router']) {
  await waitFor(() => expect(buttonByText(NEXT).disabled).toBe(false));
  fireEvent.click(buttonByText(NEXT));
  await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/confirm-order'));
  expect(callsTo(api.fetchMock, 'POST', '/rental')).toHaveLength(0);
  return Object.fromEntries(new URLSearchParams(router.state.location.search));
}

describe('创建实例 · 我的镜像', () => {
  it('lists my ready images before shared ones, disables what the host cannot run or is saving, and creates from the chosen one', async () => {
    const api = mockApi(routes([SHARED, SAVING, MINE, FAILED, TOO_NEW]));
    const { router } = renderPage(<CreateInstancePage />, ENTRY);
    await screen.findByText('¥1.32/时');
    // 公共镜像 is where the page starts, and it asks for no private image until 我的镜像 is opened.
    expect(input('公共镜像').checked).toBe(true);
    expect(callsTo(api.fetchMock, 'GET', '/rental/private_image')).toHaveLength(0);

    fireEvent.click(input('我的镜像'));
    await screen.findByText('训练环境');
    const names = [...document.querySelectorAll('.slg-create-private-name > span:first-child')].map((node) => node.textContent);
    expect(names).toEqual(['推理环境', '训练环境', '新驱动镜像', '同事的镜像']);
    expect(screen.queryByText('坏镜像')).toBeNull();

    expect(screen.getByText('基于 PyTorch 2.1.2 · CUDA 11.8 · 18.5GB')).toBeTruthy();
    expect(screen.getByText('来自 138****8001')).toBeTruthy();
    expect(input(/新驱动镜像/).disabled).toBe(true);
    expect(screen.getByText('需要 CUDA 12.4，该主机驱动最高支持 12.2')).toBeTruthy();
    expect(input(/推理环境/).disabled).toBe(true);
    expect(screen.getByText('保存中')).toBeTruthy();
    expect(screen.getByText('镜像保存完成后即可选择')).toBeTruthy();
    // The first one an instance can be created from is chosen.
    expect(input(/训练环境/).checked).toBe(true);

    fireEvent.click(input(/同事的镜像/));
    expect(input(/同事的镜像/).checked).toBe(true);
    expect(await nextAndRead(api, router)).toEqual({ hostId: HOST.hostId, gpuNum: '1', chargingRuleId: '1', imageId: 'img-dddddddddddd' });
  });

  it('opens 我的镜像 with the image of the link chosen, and 公共镜像 still creates from a public image', async () => {
    const api = mockApi(routes([MINE, SHARED]));
    const { router } = renderPage(<CreateInstancePage />, `${ENTRY}&imageId=${SHARED.imageId}`);
    await screen.findByText('同事的镜像');
    expect(input('我的镜像').checked).toBe(true);
    expect(input(/同事的镜像/).checked).toBe(true);
    expect(input(/训练环境/).checked).toBe(false);

    fireEvent.click(input('公共镜像'));
    expect(input(/2\.1\.2/).checked).toBe(true);
    expect(await nextAndRead(api, router)).toMatchObject({ imageId: 'pytorch-2.1.2-cu118' });
  });

  it('says so when the image of the link is gone, and chooses none in its place', async () => {
    mockApi(routes([MINE]));
    renderPage(<CreateInstancePage />, `${ENTRY}&imageId=img-zzzzzzzzzzzz`);
    expect(await screen.findByText('链接中的镜像不存在或已不可用，请另选镜像')).toBeTruthy();
    expect(input(/训练环境/).checked).toBe(false);
    expect(screen.getByText('请选择镜像')).toBeTruthy();
    expect(screen.getByText('请先选择镜像')).toBeTruthy();
    expect(buttonByText(NEXT).disabled).toBe(true);

    fireEvent.click(input(/训练环境/));
    await waitFor(() => expect(buttonByText(NEXT).disabled).toBe(false));
    await waitFor(() => expect(screen.queryByText('请选择镜像')).toBeNull());
  });

  it('without a usable private image explains how to save one and links to 我的镜像', async () => {
    mockApi(routes([FAILED]));
    renderPage(<CreateInstancePage />, ENTRY);
    await screen.findByText('¥1.32/时');
    fireEvent.click(input('我的镜像'));
    expect(await screen.findByText(/在实例列表「更多 › 保存镜像」保存实例为私有镜像/)).toBeTruthy();
    expect(screen.getByText('前往我的镜像').closest('a')?.getAttribute('href')).toBe('/ctrl-mirror-image/mirrorImage');
    expect(screen.queryByText('坏镜像')).toBeNull();
    expect(screen.queryByText('请选择镜像')).toBeNull();
    expect(buttonByText(NEXT).disabled).toBe(true);
  });

  it('shows a failed list in place, and 重试 loads it with the linked image chosen', async () => {
    let calls = 0;
    mockApi(
      routes([], {
        'GET /rental/private_image': () => (++calls === 1 ? failure(500, 50000, '服务繁忙，请稍后再试') : page([MINE])),
      }),
    );
    renderPage(<CreateInstancePage />, `${ENTRY}&imageId=${MINE.imageId}`);
    expect(await screen.findByText('我的镜像加载失败')).toBeTruthy();
    expect(screen.getByText('服务繁忙，请稍后再试')).toBeTruthy();
    fireEvent.click(buttonByText('重试'));
    await waitFor(() => expect(input(/训练环境/).checked).toBe(true));
  });
});

describe('private images for a host', () => {
  it('keep mine first and leave failed ones out; choose the wanted one only when usable', () => {
    const list = [SHARED, FAILED, TOO_NEW, MINE, SAVING];
    expect(privateImageChoices(list).map((image) => image.name)).toEqual(['新驱动镜像', '训练环境', '推理环境', '同事的镜像']);
    expect(chosenPrivateImage(list, '12.2', undefined)?.imageId).toBe(MINE.imageId);
    expect(chosenPrivateImage(list, '12.4', undefined)?.imageId).toBe(TOO_NEW.imageId);
    expect(chosenPrivateImage(list, '12.2', SHARED.imageId)?.imageId).toBe(SHARED.imageId);
    expect(chosenPrivateImage(list, '12.2', TOO_NEW.imageId)).toBeUndefined();
    expect(chosenPrivateImage(list, '12.2', SAVING.imageId)).toBeUndefined();
    expect(chosenPrivateImage(list, '12.2', FAILED.imageId)).toBeUndefined();
    expect(chosenPrivateImage([SAVING, FAILED], '12.2', undefined)).toBeUndefined();
  });
});
