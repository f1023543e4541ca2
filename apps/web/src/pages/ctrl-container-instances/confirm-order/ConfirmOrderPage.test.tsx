/** 确认订单: the choice of 创建实例 from the URL, priced by the prepay, sent exactly as previewed; refusals, stale links and 返回修改. */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarketHost } from '../../../api/compute';
import { MARKET_HOST_3090 } from '../testing';
import { IDEMPOTENCY_HEADER } from '../../../api/idempotency';
import type { PrivateImageView } from '../../../api/images';
import type { PublicImage } from '../../../api/meta';
import { setToastInstance, type ToastApi } from '../../../api/toast';
import { formatDateTime } from '../../../components/DateTime';
import { buttonByText, callsTo, failure, mockApi, ok, page, renderPage, type Handler } from '../../ctrl-cost-center/testing';
import ConfirmOrderPage from './index';

const toastOpen = vi.fn<ToastApi['open']>();
beforeEach(() => {
  toastOpen.mockReset();
  setToastInstance({ open: toastOpen, destroy: vi.fn() });
});
afterEach(cleanup);

const HOST: MarketHost = MARKET_HOST_3090;

const IMAGES: PublicImage[] = [
  { id: 'pytorch-2.5.1-cu124', name: 'PyTorch 2.5.1', framework: 'PyTorch', frameworkVersion: '2.5.1', python: '3.12', cuda: '12.4', ubuntu: '22.04', sizeGb: 20, imageRef: 'slg/base:latest' },
  { id: 'tensorflow-2.15.0-cu122', name: 'TensorFlow 2.15.0', framework: 'TensorFlow', frameworkVersion: '2.15.0', python: '3.10', cuda: '12.2', ubuntu: '22.04', sizeGb: 20, imageRef: 'slg/base:latest' },
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
  shareCount: 0,
  createdAt: '2025-11-20T08:00:00.000Z',
};

const VOUCHER = { id: 9, name: '包月立减券', amount: 1000, minOrderAmount: 0, scope: [], validFrom: '2020-01-01T00:00:00Z', validTo: '2099-01-01T00:00:00Z', status: 'UNUSED', usedAt: null, usedOrderNo: null };
const CREATED = { instanceId: 'slg-abcdefghij', rentalId: 7, rentalUid: 'r-7', orderId: '20250101000000000001' };

const PATH = '/ctrl-container-instances/confirm-order';
const USAGE_QUERY = `hostId=${HOST.hostId}&gpuNum=2&chargingRuleId=1&imageId=tensorflow-2.15.0-cu122&name=%E8%AE%AD%E7%BB%83-ResNet`;
const PACKAGE_QUERY = `hostId=${HOST.hostId}&gpuNum=2&chargingRuleId=4&rentAmount=3&voucherId=9&autoRenew=1&imageId=tensorflow-2.15.0-cu122`;

/** 132 fen per GPU-hour; a month costs 520 hours; voucher 9 takes 10 yuan off. */
const prepay: Handler = (_url, init) => {
  const body = JSON.parse(String(init?.body)) as { gpuNum: number; chargingRuleId: number; rentAmount?: number; voucherId?: number };
  if (body.chargingRuleId === 4) {
    const amount = 132 * 520 * body.gpuNum * (body.rentAmount ?? 0);
    const discount = body.voucherId === 9 ? 1000 : 0;
    return ok({ amount, discount, payable: amount - discount, pricePerGpuFen: 132 * 520, unit: '个月', balanceRequired: amount - discount, expiresAt: '2026-12-24T04:00:00.000Z' });
  }
  const amount = 132 * body.gpuNum;
  return ok({ amount, discount: 0, payable: amount, pricePerGpuFen: 132, unit: '时', balanceRequired: amount, expiresAt: null });
};

function mock(overrides: Record<string, Handler> = {}, options: { hosts?: MarketHost[]; balance?: number } = {}) {
  const hosts = options.hosts ?? [HOST];
  return mockApi({
    'GET /comppower': (url) => page(hosts.filter((item) => item.hostId === url.searchParams.get('hostId'))),
    'GET /meta/images/public': () => ok(IMAGES),
    'GET /rental/private_image': () => page([MINE]),
    'POST /rental/prepay': prepay,
    'GET /account/': () => ok({ totalBalance: options.balance ?? 1_000_000 }),
    'GET /voucher': () => page([VOUCHER]),
    'POST /rental': () => ok(CREATED),
    ...overrides,
  });
}

/** The first render of the page loads antd cold: it may take more than findBy's default second. */
const orderShown = () => screen.findByText('配置', undefined, { timeout: 5_000 });
const bodyOf = (call: Parameters<typeof fetch> | undefined) => JSON.parse(String(call?.[1]?.body)) as Record<string, unknown>;
const keyOf = (call: Parameters<typeof fetch> | undefined) => new Headers(call?.[1]?.headers).get(IDEMPOTENCY_HEADER);
const hrefOf = (text: string) => new URL(String(screen.getByText(text).closest('a')?.getAttribute('href')), 'http://localhost');
const pricedPart = ({ hostId, gpuNum, chargingRuleId, rentAmount, voucherId }: Record<string, unknown>) =>
  Object.fromEntries(Object.entries({ hostId, gpuNum, chargingRuleId, rentAmount, voucherId }).filter(([, value]) => value !== undefined));

function agree() {
  fireEvent.click(screen.getByLabelText(/我已阅读并同意/));
}

describe('确认订单', () => {
  it('shows the host, configuration, image, name and billing, the hourly price and the balance; sends the previewed choice once with an Idempotency-Key, then goes to the list', async () => {
    const { fetchMock, notify } = mock();
    const { router } = renderPage(<ConfirmOrderPage />, `${PATH}?${USAGE_QUERY}`);
    await orderShown();
    expect(screen.getByText('北京A区-3090-01')).toBeTruthy();
    expect(screen.getByText('RTX 3090 × 2')).toBeTruthy();
    expect(screen.getByText('24 核（Intel Xeon Gold 6248R）')).toBeTruthy();
    expect(screen.getByText('120 GB')).toBeTruthy();
    expect(screen.getByText('50 GB（免费）')).toBeTruthy();
    expect(await screen.findByText('TensorFlow 2.15.0 · Python 3.10 · CUDA 12.2')).toBeTruthy();
    expect(screen.getByText('训练-ResNet')).toBeTruthy();
    expect(screen.getByText('按量计费')).toBeTruthy();
    expect(await screen.findByText('¥2.64/时')).toBeTruthy();
    expect(screen.getByText('余额需至少覆盖1小时费用：¥2.64')).toBeTruthy();
    expect(screen.getByText('¥10,000.00')).toBeTruthy();

    // The agreement first, here where the order is placed.
    expect(buttonByText('确认创建').disabled).toBe(true);
    agree();
    expect(buttonByText('确认创建').disabled).toBe(false);
    fireEvent.click(buttonByText('确认创建'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/containerInstances'));
    const sent = callsTo(fetchMock, 'POST', '/rental');
    expect(sent).toHaveLength(1);
    expect(bodyOf(sent[0])).toEqual({ hostId: HOST.hostId, gpuNum: 2, chargingRuleId: 1, imageId: 'tensorflow-2.15.0-cu122', name: '训练-ResNet' });
    expect(pricedPart(bodyOf(sent[0]))).toEqual(bodyOf(callsTo(fetchMock, 'POST', '/rental/prepay')[0]));
    expect(keyOf(sent[0])).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(toastOpen).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', content: '实例已创建，正在启动…' }));
    expect(notify).not.toHaveBeenCalled();
  });

  it('a package with a voucher: 原价, the voucher, 应付 and the end before paying; duration, voucher and auto-renew are sent as priced', async () => {
    const { fetchMock } = mock();
    renderPage(<ConfirmOrderPage />, `${PATH}?${PACKAGE_QUERY}`);
    await orderShown();
    // 132 × 520 × 2 GPUs × 3 months, less the 10-yuan voucher.
    expect(await screen.findByText('¥4,118.40')).toBeTruthy();
    expect(screen.getByText('-¥10.00')).toBeTruthy();
    expect(screen.getByText('¥4,108.40')).toBeTruthy();
    expect(screen.getByText(formatDateTime('2026-12-24T04:00:00.000Z'))).toBeTruthy();
    expect(screen.getByText('包月')).toBeTruthy();
    // 时长 in the billing and in the price.
    expect(screen.getAllByText('3 个月')).toHaveLength(2);
    expect(await screen.findByText('包月立减券')).toBeTruthy();
    expect(screen.getByText('是')).toBeTruthy();
    // The server's default name, said before it is given.
    expect(screen.getByText('未填写，默认「RTX 3090-北京A区」')).toBeTruthy();
    agree();
    fireEvent.click(buttonByText('支付 ¥4,108.40 并创建'));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/rental')).toHaveLength(1));
    const sent = bodyOf(callsTo(fetchMock, 'POST', '/rental')[0]);
    expect(sent).toEqual({ hostId: HOST.hostId, gpuNum: 2, chargingRuleId: 4, rentAmount: 3, voucherId: 9, autoRenew: true, imageId: 'tensorflow-2.15.0-cu122' });
    expect(pricedPart(sent)).toEqual(bodyOf(callsTo(fetchMock, 'POST', '/rental/prepay')[0]));
  });

  it('creates from a private image, named as 我的镜像', async () => {
    const { fetchMock } = mock();
    renderPage(<ConfirmOrderPage />, `${PATH}?hostId=${HOST.hostId}&gpuNum=1&chargingRuleId=1&imageId=${MINE.imageId}`);
    await orderShown();
    expect(await screen.findByText('训练环境（我的镜像 · CUDA 11.8）')).toBeTruthy();
    await screen.findByText('¥1.32/时');
    agree();
    fireEvent.click(buttonByText('确认创建'));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/rental')).toHaveLength(1));
    expect(bodyOf(callsTo(fetchMock, 'POST', '/rental')[0])).toMatchObject({ imageId: MINE.imageId });
  });

  it('no GPUs left: the refusal is shown once with the way to another host; the next submit is a new attempt with a new key', async () => {
    const { fetchMock, notify } = mock({ 'POST /rental': () => failure(409, 40940, '主机GPU不足：该主机当前空闲 1 卡，需要 2 卡') });
    const { router } = renderPage(<ConfirmOrderPage />, `${PATH}?${USAGE_QUERY}`);
    await orderShown();
    await screen.findByText('¥2.64/时');
    agree();
    fireEvent.click(buttonByText('确认创建'));
    expect(await screen.findByText('主机GPU不足：该主机当前空闲 1 卡，需要 2 卡')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(notify).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe(PATH);
    const market = hrefOf('重新选择主机');
    expect(market.pathname).toBe('/computility-market');
    expect(Object.fromEntries(market.searchParams)).toEqual({ chargingRuleId: '1', gpuNum: '2', gpuModelId: 'rtx3090' });

    fireEvent.click(buttonByText('确认创建'));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/rental')).toHaveLength(2));
    const [first, second] = callsTo(fetchMock, 'POST', '/rental');
    expect(keyOf(first)).toBeTruthy();
    expect(keyOf(second)).not.toBe(keyOf(first));
    expect(screen.getAllByText('主机GPU不足：该主机当前空闲 1 卡，需要 2 卡')).toHaveLength(1);
  });

  it('an answer lost on the network: the repeat reuses the key, so the instance is created once', async () => {
    let calls = 0;
    const { fetchMock } = mock({
      'POST /rental': () => {
        calls += 1;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return ok(CREATED);
      },
    });
    const { router } = renderPage(<ConfirmOrderPage />, `${PATH}?${USAGE_QUERY}`);
    await orderShown();
    await screen.findByText('¥2.64/时');
    agree();
    fireEvent.click(buttonByText('确认创建'));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/rental')).toHaveLength(1));
    await waitFor(() => expect(buttonByText('确认创建').disabled).toBe(false));
    fireEvent.click(buttonByText('确认创建'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/containerInstances'));
    const [first, second] = callsTo(fetchMock, 'POST', '/rental');
    expect(keyOf(second)).toBe(keyOf(first));
  });

  it('a balance short of the hour is warned with 去充值, and the button stays off', async () => {
    mock({}, { balance: 100 });
    renderPage(<ConfirmOrderPage />, `${PATH}?${USAGE_QUERY}`);
    await orderShown();
    expect(await screen.findByText('创建按量实例需要余额至少可支付 1 小时费用（¥2.64），当前余额 ¥1.00。')).toBeTruthy();
    expect(hrefOf('去充值').pathname).toBe('/ctrl-cost-center/cost-center/recharge');
    agree();
    expect(buttonByText('确认创建').disabled).toBe(true);
  });

  it('with 实名认证 required and none approved, says so with 去认证 and keeps the button off', async () => {
    const { fetchMock } = mock({
      'GET /verification/status': () => ok({ verified: false, required: true, person: null, enterprise: null, student: null }),
    });
    renderPage(<ConfirmOrderPage />, `${PATH}?${USAGE_QUERY}`);
    await orderShown();
    expect(await screen.findByText('请先完成实名认证')).toBeTruthy();
    expect(hrefOf('去认证').pathname).toBe('/ctrl-personal-center/personal-center/authentication');
    agree();
    expect(buttonByText('确认创建').disabled).toBe(true);
    expect(callsTo(fetchMock, 'POST', '/rental')).toHaveLength(0);
  });

  it('a payment refused for the balance says so once, with 去充值', async () => {
    let balance = 1_000_000;
    const { fetchMock } = mock({
      'GET /account/': () => ok({ totalBalance: balance }),
      'POST /rental': () => {
        balance = 100;
        return failure(400, 40031, '账户余额不足：需支付¥4,118.40（代金券抵扣后以实付为准），当前余额¥1.00，请先充值');
      },
    });
    renderPage(<ConfirmOrderPage />, `${PATH}?${PACKAGE_QUERY}`);
    await orderShown();
    await screen.findByText('¥4,108.40');
    agree();
    fireEvent.click(buttonByText('支付 ¥4,108.40 并创建'));
    expect(await screen.findByText('账户余额不足：需支付¥4,118.40（代金券抵扣后以实付为准），当前余额¥1.00，请先充值')).toBeTruthy();
    // The balance is asked again after the refusal: it is short now, and still said once.
    await waitFor(() => expect(screen.getByText('¥1.00')).toBeTruthy());
    expect(screen.getAllByText('去充值')).toHaveLength(1);
    expect(screen.queryByText('余额不足')).toBeNull();
    expect(callsTo(fetchMock, 'POST', '/rental')).toHaveLength(1);
  });

  it('a voucher used meanwhile: the refusal leads back to the choices without it', async () => {
    mock({ 'POST /rental': () => failure(400, 40032, '代金券不可用（已使用、已过期或不满足使用条件）') });
    renderPage(<ConfirmOrderPage />, `${PATH}?${PACKAGE_QUERY}`);
    await orderShown();
    await screen.findByText('¥4,108.40');
    agree();
    fireEvent.click(buttonByText('支付 ¥4,108.40 并创建'));
    expect(await screen.findByText('代金券不可用（已使用、已过期或不满足使用条件）')).toBeTruthy();
    const links = screen.getAllByText('返回修改').map((node) => new URL(String(node.closest('a')?.getAttribute('href')), 'http://localhost'));
    // The page's own 返回修改 keeps everything; the refusal's leaves the voucher out.
    expect(links.map((link) => link.searchParams.get('voucherId'))).toEqual(['9', null]);
    expect(links[1]?.pathname).toBe('/ctrl-container-instances/createInstances');
    expect(links[1]?.searchParams.get('rentAmount')).toBe('3');
  });

  it('an image gone from the list is said before sending, with 返回修改; one the server finds gone is its refusal', async () => {
    mock({}, {});
    renderPage(<ConfirmOrderPage />, `${PATH}?${USAGE_QUERY.replace('tensorflow-2.15.0-cu122', 'mxnet-1.9')}`);
    await orderShown();
    expect(await screen.findByText('所选镜像不存在或已不可用，请返回修改另选镜像')).toBeTruthy();
    agree();
    expect(buttonByText('确认创建').disabled).toBe(true);
    cleanup();

    mock({}, {});
    renderPage(<ConfirmOrderPage />, `${PATH}?${USAGE_QUERY.replace('tensorflow-2.15.0-cu122', 'pytorch-2.5.1-cu124')}`);
    await orderShown();
    expect(await screen.findByText('镜像需要 CUDA 12.4，该主机驱动最高支持 12.2，请返回修改另选镜像')).toBeTruthy();
    agree();
    expect(buttonByText('确认创建').disabled).toBe(true);
    cleanup();

    mock({ 'POST /rental': () => failure(404, 40400, '镜像不存在或已下架，请重新选择') });
    renderPage(<ConfirmOrderPage />, `${PATH}?${USAGE_QUERY}`);
    await orderShown();
    await screen.findByText('¥2.64/时');
    agree();
    fireEvent.click(buttonByText('确认创建'));
    // The client gives a 404 only its generic message (spec §8): the page says what it can be.
    expect(await screen.findByText('所选主机或镜像已不存在或已下架，请返回修改重新选择')).toBeTruthy();
    const back = screen.getAllByText('返回修改').map((node) => node.closest('a')?.getAttribute('href'));
    expect(back).toHaveLength(2);
    expect(back[1]).toBe(back[0]);
  });

  it('a host without the GPUs free any more is said so before sending, and the button stays off', async () => {
    mock({}, { hosts: [{ ...HOST, gpuFree: 1 }] });
    renderPage(<ConfirmOrderPage />, `${PATH}?${USAGE_QUERY}`);
    await orderShown();
    expect(await screen.findByText('该主机当前只有 1 卡空闲，不足 2 卡')).toBeTruthy();
    expect(hrefOf('重新选择主机').pathname).toBe('/computility-market');
    agree();
    expect(buttonByText('确认创建').disabled).toBe(true);
  });

  it('a refused price is shown in place with 重试 and 返回修改, and nothing can be sent', async () => {
    mock({ 'POST /rental/prepay': () => failure(400, 40032, '代金券不可用（已使用、已过期或不满足使用条件）') });
    renderPage(<ConfirmOrderPage />, `${PATH}?${PACKAGE_QUERY}`);
    await orderShown();
    expect(await screen.findByText('代金券不可用（已使用、已过期或不满足使用条件）')).toBeTruthy();
    expect(screen.getByText('无法按此配置创建')).toBeTruthy();
    expect(buttonByText('重试')).toBeTruthy();
    agree();
    expect(buttonByText('确认创建').disabled).toBe(true);
  });

  it('返回修改 goes back to 创建实例 with every choice of the order', async () => {
    mock();
    renderPage(<ConfirmOrderPage />, `${PATH}?${PACKAGE_QUERY}&name=%E8%AE%AD%E7%BB%83`);
    await orderShown();
    const back = hrefOf('返回修改');
    expect(back.pathname).toBe('/ctrl-container-instances/createInstances');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      hostId: HOST.hostId,
      gpuNum: '2',
      chargingRuleId: '4',
      rentAmount: '3',
      voucherId: '9',
      autoRenew: '1',
      imageId: 'tensorflow-2.15.0-cu122',
      name: '训练',
    });
  });

  it.each([
    ['gpuNum=99', 'GPU数量不正确'],
    ['chargingRuleId=7', '计费方式不正确'],
    ['chargingRuleId=4&rentAmount=11', '包日、包周、包月的时长不正确'],
    ['voucherId=9', '按量计费不需要时长、代金券或自动续费'],
    ['imageId=', '未选择镜像或镜像不正确'],
    ['name=%07', '实例名称不正确'],
    ['hostId=Bad!', '主机不正确'],
  ])('a tampered link (%s) is refused with what is wrong and 重新选择', async (change, problem) => {
    const { fetchMock } = mock();
    const query = new URLSearchParams(USAGE_QUERY);
    for (const [key, value] of new URLSearchParams(change)) query.set(key, value);
    renderPage(<ConfirmOrderPage />, `${PATH}?${query.toString()}`);
    expect(await screen.findByText('链接中的订单信息不完整或已失效', undefined, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByText(problem)).toBeTruthy();
    const again = hrefOf('重新选择');
    if (change.startsWith('hostId')) {
      expect(again.pathname).toBe('/computility-market');
    } else {
      // What is well-formed in the link is kept for 创建实例.
      expect(again.pathname).toBe('/ctrl-container-instances/createInstances');
      expect(again.searchParams.get('hostId')).toBe(HOST.hostId);
    }
    expect(callsTo(fetchMock, 'POST', '/rental/prepay')).toHaveLength(0);
  });

  it('a package link with a broken auto-renew flag is refused', async () => {
    mock();
    renderPage(<ConfirmOrderPage />, `${PATH}?${PACKAGE_QUERY.replace('autoRenew=1', 'autoRenew=yes')}`);
    expect(await screen.findByText('是否自动续费不正确', undefined, { timeout: 5_000 })).toBeTruthy();
  });

  it('a host no longer on the market is said so, with the way to 算力市场', async () => {
    const { fetchMock } = mock({}, { hosts: [] });
    renderPage(<ConfirmOrderPage />, `${PATH}?${USAGE_QUERY}`);
    expect(await screen.findByText('主机不存在或已下架', undefined, { timeout: 5_000 })).toBeTruthy();
    expect(hrefOf('去算力市场').pathname).toBe('/computility-market');
    expect(callsTo(fetchMock, 'POST', '/rental')).toHaveLength(0);
  });
});
