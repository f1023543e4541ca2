/** 创建实例: the host of the link, the price before creating, and 下一步 carrying the whole choice to 确认订单 (and back). */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MarketHost } from '../../../api/compute';
import { MARKET_HOST_3090 } from '../testing';
import type { PublicImage } from '../../../api/meta';
import { buttonByText, callsTo, mockApi, ok, page, renderPage, type Handler } from '../../ctrl-cost-center/testing';
import { compareVersions, defaultImage, groupByFramework, runsOnHost } from './images';
import CreateInstancePage from './index';
import { formatDateTime } from '../../../components/DateTime';

afterEach(() => cleanup());

const HOST: MarketHost = MARKET_HOST_3090;

const image = (id: string, framework: string, version: string, cuda: string): PublicImage => ({
  id,
  name: `${framework} ${version}`,
  framework,
  frameworkVersion: version,
  python: '3.10',
  cuda,
  ubuntu: '22.04',
  sizeGb: 20,
  imageRef: 'slg/base:latest',
});

const IMAGES: PublicImage[] = [
  image('pytorch-2.5.1-cu124', 'PyTorch', '2.5.1', '12.4'),
  image('pytorch-2.1.2-cu118', 'PyTorch', '2.1.2', '11.8'),
  image('tensorflow-2.15.0-cu122', 'TensorFlow', '2.15.0', '12.2'),
];

const ENTRY = `/x?hostId=${HOST.hostId}&gpuNum=2&chargingRuleId=1`;
const NEXT = '下一步：确认订单';
const CONFIRM_PATH = '/ctrl-container-instances/confirm-order';

/** The query 下一步 went to 确认订单 with, once it has. */
async function orderQueryAfterNext(router: ReturnType<typeof renderPage>['router']): Promise<Record<string, string>> {
  await waitFor(() => expect(buttonByText(NEXT).disabled).toBe(false));
  fireEvent.click(buttonByText(NEXT));
  await waitFor(() => expect(router.state.location.pathname).toBe(CONFIRM_PATH));
  return Object.fromEntries(new URLSearchParams(router.state.location.search));
}

/** 132 fen per GPU-hour; a month costs 520 hours; voucher 9 takes 10 yuan off. */
function prepay(url: URL, init: RequestInit | undefined) {
  const body = JSON.parse(String(init?.body)) as { gpuNum: number; chargingRuleId: number; rentAmount?: number; voucherId?: number };
  if (body.chargingRuleId === 4) {
    const amount = 132 * 520 * body.gpuNum * (body.rentAmount ?? 0);
    const discount = body.voucherId === 9 ? 1000 : 0;
    return ok({ amount, discount, payable: amount - discount, pricePerGpuFen: 132 * 520, unit: '个月', balanceRequired: amount - discount, expiresAt: '2026-12-24T04:00:00.000Z' });
  }
  const amount = 132 * body.gpuNum;
  return ok({ amount, discount: 0, payable: amount, pricePerGpuFen: 132, unit: '时', balanceRequired: amount, expiresAt: null });
}

const VOUCHER = { id: 9, name: '包月立减券', amount: 1000, minOrderAmount: 0, scope: [], validFrom: '2020-01-01T00:00:00Z', validTo: '2099-01-01T00:00:00Z', status: 'UNUSED', usedAt: null, usedOrderNo: null };

function routes(overrides: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    'GET /comppower': () => page([HOST]),
    'GET /meta/images/public': () => ok(IMAGES),
    'POST /rental/prepay': prepay,
    'GET /account/': () => ok({ totalBalance: 10_000 }),
    'GET /voucher': () => page([VOUCHER]),
    'POST /rental': () => ok({ instanceId: 'slg-abcdefghij', rentalId: 7, rentalUid: 'r-7', orderId: '20250101000000000001' }),
    ...overrides,
  };
}

describe('创建实例', () => {
  it('shows the host of the link, the hourly price and the one-hour rule before creating', async () => {
    const api = mockApi(routes());
    renderPage(<CreateInstancePage />, ENTRY);
    expect(await screen.findByText('北京A区-3090-01')).toBeTruthy();
    const lookup = new URL(String(callsTo(api.fetchMock, 'GET', '/comppower')[0]?.[0]), 'http://localhost');
    expect(lookup.searchParams.get('hostId')).toBe(HOST.hostId);
    expect(screen.getByText('RTX 3090 · 显存 24GB')).toBeTruthy();
    expect(await screen.findByText('¥2.64/时')).toBeTruthy();
    expect(screen.getByText('余额需至少覆盖1小时费用：¥2.64')).toBeTruthy();
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/rental/prepay')[0]?.[1]?.body))).toEqual({ hostId: HOST.hostId, gpuNum: 2, chargingRuleId: 1 });

    // GPUs beyond what the host has free are not offered; another count asks the price again.
    expect((screen.getByLabelText('4 卡', { selector: 'input' }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('3 卡', { selector: 'input' }));
    expect(await screen.findByText('¥3.96/时')).toBeTruthy();
  });

  it('sells a month package: duration, voucher and auto-renew, the price to pay and the end; 下一步 carries them to 确认订单', async () => {
    const api = mockApi(routes({ 'GET /account/': () => ok({ totalBalance: 1_000_000 }) }));
    const { router } = renderPage(<CreateInstancePage />, ENTRY);
    await screen.findByText('¥2.64/时');
    fireEvent.click(screen.getByLabelText('包月', { selector: 'input' }));
    fireEvent.click(await screen.findByLabelText('3 个月', { selector: 'input' }));
    // 132 × 520 × 2 GPUs × 3 months.
    // 原价 and 应付 until a voucher is chosen.
    expect(await screen.findAllByText('¥4,118.40')).toHaveLength(2);
    expect(screen.getByText(formatDateTime('2026-12-24T04:00:00.000Z'))).toBeTruthy();
    const lastPrepay = () => JSON.parse(String(callsTo(api.fetchMock, 'POST', '/rental/prepay').at(-1)?.[1]?.body)) as Record<string, unknown>;
    expect(lastPrepay()).toEqual({ hostId: HOST.hostId, gpuNum: 2, chargingRuleId: 4, rentAmount: 3 });

    fireEvent.mouseDown(screen.getByRole('combobox'));
    fireEvent.click(await screen.findByText('包月立减券（抵扣 ¥10.00）'));
    expect(await screen.findByText('-¥10.00')).toBeTruthy();
    expect(screen.getByText('¥4,108.40')).toBeTruthy();
    expect(lastPrepay()).toMatchObject({ voucherId: 9 });
    fireEvent.click(screen.getByLabelText('到期自动续费'));

    // The agreement is ticked where the money is paid, on 确认订单, not here.
    expect(screen.queryByText('《算力租用协议》')).toBeNull();
    expect(await orderQueryAfterNext(router)).toEqual({
      hostId: HOST.hostId,
      gpuNum: '2',
      chargingRuleId: '4',
      rentAmount: '3',
      voucherId: '9',
      autoRenew: '1',
      imageId: 'pytorch-2.1.2-cu118',
    });
    expect(callsTo(api.fetchMock, 'POST', '/rental')).toHaveLength(0);
  });

  it('offers the images the host runs, grouped by framework, and 下一步 carries the image and the trimmed name', async () => {
    const api = mockApi(routes());
    const { router } = renderPage(<CreateInstancePage />, ENTRY);
    await screen.findByText('¥2.64/时');
    // CUDA 12.4 needs a newer driver than this host's (12.2).
    const newest = screen.getByLabelText(/2\.5\.1/, { selector: 'input' }) as HTMLInputElement;
    expect(newest.disabled).toBe(true);
    expect(screen.getByText('需要 CUDA 12.4，该主机驱动最高支持 12.2')).toBeTruthy();
    expect((screen.getByLabelText(/2\.1\.2/, { selector: 'input' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByLabelText('TensorFlow', { selector: 'input' }));
    expect((screen.getByLabelText(/2\.15\.0/, { selector: 'input' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(screen.getByLabelText('实例名称'), { target: { value: '  训练-ResNet ' } });

    expect(await orderQueryAfterNext(router)).toEqual({
      hostId: HOST.hostId,
      gpuNum: '2',
      chargingRuleId: '1',
      imageId: 'tensorflow-2.15.0-cu122',
      name: '训练-ResNet',
    });
    expect(callsTo(api.fetchMock, 'POST', '/rental')).toHaveLength(0);

    // The page's own entry was given the choice too: the browser's back button returns to it as 返回修改 does.
    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/createInstances'));
    expect(new URLSearchParams(router.state.location.search).get('imageId')).toBe('tensorflow-2.15.0-cu122');
  });

  it('reads the whole choice back from the link of 返回修改', async () => {
    mockApi(routes({ 'GET /account/': () => ok({ totalBalance: 1_000_000 }) }));
    const query = `hostId=${HOST.hostId}&gpuNum=3&chargingRuleId=4&rentAmount=3&voucherId=9&autoRenew=1&imageId=tensorflow-2.15.0-cu122&name=%E8%AE%AD%E7%BB%83`;
    const { router } = renderPage(<CreateInstancePage />, `/x?${query}`);
    expect(await screen.findByText('-¥10.00')).toBeTruthy();
    expect((screen.getByLabelText('包月', { selector: 'input' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('3 个月', { selector: 'input' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('3 卡', { selector: 'input' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('到期自动续费') as HTMLInputElement).checked).toBe(true);
    expect(await screen.findByText('包月立减券（抵扣 ¥10.00）')).toBeTruthy();
    expect((screen.getByLabelText(/2\.15\.0/, { selector: 'input' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('实例名称') as HTMLInputElement).value).toBe('训练');
    // 132 × 520 × 3 GPUs × 3 months, less the voucher.
    expect(screen.getByText('¥6,167.60')).toBeTruthy();
    expect(await orderQueryAfterNext(router)).toEqual(Object.fromEntries(new URLSearchParams(query)));
  });

  it('keeps 下一步 off with the reason while something is missing', async () => {
    mockApi(routes());
    renderPage(<CreateInstancePage />, `${ENTRY}&imageId=no-such-image`);
    expect(await screen.findByText('链接中的镜像不存在或已不可用，请另选镜像')).toBeTruthy();
    await screen.findByText('¥2.64/时');
    expect(buttonByText(NEXT).disabled).toBe(true);
    expect(screen.getAllByText('请先选择镜像')).toHaveLength(1);
    fireEvent.click(screen.getByLabelText(/2\.1\.2/, { selector: 'input' }));
    await waitFor(() => expect(buttonByText(NEXT).disabled).toBe(false));

    fireEvent.change(screen.getByLabelText('实例名称'), { target: { value: 'a\u0007b' } });
    expect(await screen.findByText('请先修改实例名称')).toBeTruthy();
    expect(buttonByText(NEXT).disabled).toBe(true);
    cleanup();

    mockApi(routes({ 'GET /comppower': () => page([{ ...HOST, gpuFree: 0 }]) }));
    renderPage(<CreateInstancePage />, ENTRY);
    expect(await screen.findByText('该主机已租满，请返回算力市场换一台主机')).toBeTruthy();
    expect(screen.getByText('该主机已租满')).toBeTruthy();
    expect(buttonByText(NEXT).disabled).toBe(true);
  });

  it('below the two-column width keeps the sum and 下一步 in a bar at the bottom of the screen (issue 17)', async () => {
    // The layout turns one column at 991.98 px (instances.css): jsdom has no layout, so the width is the media query.
    const matchMedia = vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) => ({ matches: query === '(max-width: 991.98px)', media: query, onchange: null, addListener: () => undefined, removeListener: () => undefined, addEventListener: () => undefined, removeEventListener: () => undefined, dispatchEvent: () => false }) as MediaQueryList,
    );
    mockApi(routes());
    const { router } = renderPage(<CreateInstancePage />, ENTRY);
    const bar = await screen.findByLabelText('费用与下一步');
    expect(await within(bar).findByText('¥2.64/时')).toBeTruthy();
    expect(within(bar).getByText('按量计费')).toBeTruthy();
    const next = buttonByText(NEXT, bar);
    await waitFor(() => expect(next.disabled).toBe(false));
    fireEvent.click(next);
    await waitFor(() => expect(router.state.location.pathname).toBe(CONFIRM_PATH));
    matchMedia.mockRestore();
  });

  it('shows no bar where the price card stands beside the form', async () => {
    mockApi(routes());
    renderPage(<CreateInstancePage />, ENTRY);
    expect(await screen.findByText('¥2.64/时')).toBeTruthy();
    expect(screen.queryByLabelText('费用与下一步')).toBeNull();
    expect(document.querySelector('.slg-create-next-bar')).toBeNull();
  });

  it('says the balance is short with 去充值; the order page is where it stops the payment', async () => {
    mockApi(routes({ 'GET /account/': () => ok({ totalBalance: 100 }) }));
    renderPage(<CreateInstancePage />, ENTRY);
    expect(await screen.findByText('余额不足')).toBeTruthy();
    expect(screen.getByText('创建按量实例需要余额至少可支付 1 小时费用（¥2.64），当前余额 ¥1.00。')).toBeTruthy();
    expect(screen.getByText('去充值').closest('a')?.getAttribute('href')).toBe('/ctrl-cost-center/cost-center/recharge');
    await waitFor(() => expect(buttonByText(NEXT).disabled).toBe(false));
  });

  it('explains a link without a host, and a host no longer on the market', async () => {
    mockApi(routes());
    renderPage(<CreateInstancePage />, '/x');
    expect(await screen.findByText('请先在算力市场选择主机')).toBeTruthy();
    expect(screen.getByText('去算力市场').closest('a')?.getAttribute('href')).toBe('/computility-market');
    cleanup();

    mockApi(routes({ 'GET /comppower': () => page([]) }));
    renderPage(<CreateInstancePage />, ENTRY);
    expect(await screen.findByText('主机不存在或已下架')).toBeTruthy();
  });
});

describe('images for a host', () => {
  it('compare CUDA versions numerically and group by framework', () => {
    expect(compareVersions('12.10', '12.4')).toBeGreaterThan(0);
    expect(compareVersions('11.8', '12.2')).toBeLessThan(0);
    expect(compareVersions('12.2', '12.2.0')).toBe(0);
    expect(runsOnHost({ cuda: '12.4' }, '12.2')).toBe(false);
    expect(runsOnHost({ cuda: '12.2' }, '12.2')).toBe(true);
    expect(groupByFramework(IMAGES).map((group) => [group.framework, group.images.length])).toEqual([
      ['PyTorch', 2],
      ['TensorFlow', 1],
    ]);
    expect(defaultImage(IMAGES, '12.2')?.id).toBe('pytorch-2.1.2-cu118');
    expect(defaultImage(IMAGES, '12.4', 'TensorFlow')?.id).toBe('tensorflow-2.15.0-cu122');
    expect(defaultImage(IMAGES, '11.0')).toBeUndefined();
  });
});
