/** 挂载数据集: chosen on 创建实例 among the favourites and the account's approved datasets, carried to 确认订单 and sent as `datasetIds`. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublicImage } from '../../../api/meta';
import { buttonByText, callsTo, mockApi, ok, page, renderPage, type Handler } from '../../ctrl-cost-center/testing';
import { CORPUS, dataset, GB2312, MNIST } from '../../ctrl-data-set/testing';
import { createBodyOf, parseCreateChoice } from '../createInstances/createOrder';
import CreateInstancePage from '../createInstances/index';
import ConfirmOrderPage from '../confirm-order/index';
import { cloneBodyOf, parseChoice } from '../cloneInstances/cloneOrder';
import { MARKET_HOST_3090 } from '../testing';
import { parseDatasetIds } from './datasetIds';

afterEach(cleanup);

const HOST = MARKET_HOST_3090;
const IMAGES: PublicImage[] = [
  { id: 'tensorflow-2.15.0-cu122', name: 'TensorFlow 2.15.0', framework: 'TensorFlow', frameworkVersion: '2.15.0', python: '3.10', cuda: '12.2', ubuntu: '22.04', sizeGb: 20, imageRef: 'slg/base:latest' },
];
const MINE = dataset({ id: 21, name: 'words', mine: true, sizeBytes: 1024 * 1024 });
const SAME_NAME = dataset({ id: 31, name: 'words', ownerName: '小红', sizeBytes: 4096 });

function routes(overrides: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    'GET /comppower': () => page([HOST]),
    'GET /meta/images/public': () => ok(IMAGES),
    'POST /rental/prepay': (_url, init) => {
      const { gpuNum } = JSON.parse(String(init?.body)) as { gpuNum: number };
      return ok({ amount: 132 * gpuNum, discount: 0, payable: 132 * gpuNum, pricePerGpuFen: 132, unit: '时', balanceRequired: 132 * gpuNum, expiresAt: null });
    },
    'GET /account/': () => ok({ totalBalance: 1_000_000 }),
    'GET /voucher': () => page([]),
    // A public favourite is not offered: every machine has it.
    'GET /share-data/favorites': () => page([MNIST, CORPUS, GB2312, SAME_NAME]),
    'GET /share-data/list/me': (url) => (url.searchParams.get('status') === 'PASS' ? page([MINE]) : page([])),
    'POST /rental': () => ok({ instanceId: 'slg-abcdefghij', rentalId: 7, rentalUid: 'r-7', orderId: '20250101000000000001' }),
    ...overrides,
  };
}

describe('挂载数据集', () => {
  it('offers the favourites and my approved datasets, one of a name; 下一步 carries them to 确认订单', async () => {
    const api = mockApi(routes());
    const { router } = renderPage(<CreateInstancePage />, `/x?hostId=${HOST.hostId}&gpuNum=1&chargingRuleId=1`);
    await screen.findByText('¥1.32/时');
    expect(screen.getByText(/公开数据集始终挂载在 \/root\/slg-pub；所选数据集只读挂载在 \/root\/slg-pub\/<名称>/)).toBeTruthy();
    const select = document.getElementById('create-datasets') as HTMLElement;
    fireEvent.mouseDown(select);
    const options = await waitFor(() => {
      const shown = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')];
      if (shown.length === 0) throw new Error('no options');
      return shown;
    });
    // Mine first, then the favourites.
    expect(options.map((option) => option.textContent)).toEqual(['words（1 MB）', 'mnist-images（50 MB）', '中文语料（2 KB）', 'words（4 KB）']);
    fireEvent.click(within(options[0]!).getByText('words（1 MB）'));
    // Another of the same name cannot be chosen with it.
    await waitFor(() => expect(options[3]!.getAttribute('aria-disabled')).toBe('true'));
    fireEvent.click(within(options[2]!).getByText('中文语料（2 KB）'));
    expect(queryFavoritesOnce(api.fetchMock)).toBe(true);

    await waitFor(() => expect(buttonByText('下一步：确认订单').disabled).toBe(false));
    fireEvent.click(buttonByText('下一步：确认订单'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/confirm-order'));
    expect(new URLSearchParams(router.state.location.search).get('datasetIds')).toBe('21,12');
  });

  it('确认订单 names the datasets and sends their ids', async () => {
    const api = mockApi(routes());
    const query = `hostId=${HOST.hostId}&gpuNum=1&chargingRuleId=1&imageId=tensorflow-2.15.0-cu122&datasetIds=21,12`;
    const { router } = renderPage(<ConfirmOrderPage />, `/ctrl-container-instances/confirm-order?${query}`);
    expect(await screen.findByText('words、中文语料（只读挂载于 /root/slg-pub/<名称>）', undefined, { timeout: 5_000 })).toBeTruthy();
    fireEvent.click(screen.getByLabelText(/我已阅读并同意/));
    fireEvent.click(buttonByText('确认创建'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/containerInstances'));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/rental')[0]?.[1]?.body))).toEqual({
      hostId: HOST.hostId,
      gpuNum: 1,
      chargingRuleId: 1,
      imageId: 'tensorflow-2.15.0-cu122',
      datasetIds: [21, 12],
    });
  });

  it('a failed list says so in place, and creating goes on without datasets', async () => {
    mockApi(routes({ 'GET /share-data/favorites': () => new Response('{}', { status: 500 }) }));
    renderPage(<CreateInstancePage />, `/x?hostId=${HOST.hostId}&gpuNum=1&chargingRuleId=1`);
    expect(await screen.findByText('可挂载的数据集加载失败，可不挂载直接继续')).toBeTruthy();
    await waitFor(() => expect(buttonByText('下一步：确认订单').disabled).toBe(false));
  });

  it('reads `datasetIds` strictly on the order pages and sends it only when some are chosen', () => {
    expect(parseDatasetIds(null)).toEqual([]);
    expect(parseDatasetIds('3,5')).toEqual([3, 5]);
    for (const bad of ['', '3,,5', '3,3', '0', 'a', '1,2,3,4,5,6,7,8,9,10,11']) expect(parseDatasetIds(bad), bad).toBeUndefined();
    const base = `hostId=${HOST.hostId}&gpuNum=1&chargingRuleId=1&imageId=tensorflow-2.15.0-cu122`;
    expect(parseCreateChoice(new URLSearchParams(`${base}&datasetIds=3,x`))).toEqual({ ok: false, problem: '挂载的数据集不正确' });
    const parsed = parseCreateChoice(new URLSearchParams(base));
    expect(parsed.ok && createBodyOf(parsed.choice)).not.toHaveProperty('datasetIds');
    const clone = parseChoice(new URLSearchParams(`instanceId=slg-abcdefghij&hostId=${HOST.hostId}&gpuNum=1&chargingRuleId=1&copyData=1&datasetIds=7`));
    expect(clone.ok && cloneBodyOf(clone.choice)).toMatchObject({ datasetIds: [7] });
  });
});

function queryFavoritesOnce(fetchMock: ReturnType<typeof mockApi>['fetchMock']): boolean {
  return callsTo(fetchMock, 'GET', '/share-data/favorites').length >= 1 && callsTo(fetchMock, 'GET', '/share-data/list/me').length >= 1;
}
