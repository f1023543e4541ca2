/** 创建实例: the host of the link, the price before creating, and POST /rental with an idempotency key. */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MarketHost } from '../../../api/compute';
import type { PublicImage } from '../../../api/meta';
import { buttonByText, callsTo, failure, mockApi, ok, page, renderPage, type Handler } from '../../ctrl-cost-center/testing';
import { compareVersions, defaultImage, groupByFramework, runsOnHost } from './images';
import CreateInstancePage from './index';
import { formatDateTime } from '../../../components/DateTime';

afterEach(() => cleanup());

const HOST: MarketHost = {
  hostId: 'bj-a-3090-01',
  hostName: '北京A区-3090-01',
  zoneId: 'bj-a',
  zoneName: '北京A区',
  gpuModelId: 'rtx3090',
  gpuModelName: 'RTX 3090',
  gpuMemoryGb: 24,
  gpuTotal: 8,
  gpuFree: 3,
  chargingRuleId: 1,
  pricePerGpuFen: 132,
  unit: '时',
  cpuModelId: 'xeon-6248r',
  cpuModelName: 'Intel Xeon Gold 6248R',
  cpuPerGpu: 12,
  memoryGbPerGpu: 60,
  dataDiskFreeGb: 1000,
  dataDiskMaxGb: 1000,
  cudaVersion: '12.2',
  driverVersion: '535.183.01',
};

const image = (id: string, framework: string, version: string, cuda: string): PublicImage => ({
  id,
  name: `${framework} ${version}`,
  framework,
  frameworkVersion: version,
  python: '3.10',
  cuda,
  ubuntu: '22.04',
});

const IMAGES: PublicImage[] = [
  image('pytorch-2.5.1-cu124', 'PyTorch', '2.5.1', '12.4'),
  image('pytorch-2.1.2-cu118', 'PyTorch', '2.1.2', '11.8'),
  image('tensorflow-2.15.0-cu122', 'TensorFlow', '2.15.0', '12.2'),
];

const ENTRY = `/x?hostId=${HOST.hostId}&gpuNum=2&chargingRuleId=1`;

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
  }, 15_000);

  it('sells a month package: duration, voucher and auto-renew, the price to pay and the end before paying', async () => {
    const api = mockApi(routes({ 'GET /account/': () => ok({ totalBalance: 1_000_000 }) }));
    renderPage(<CreateInstancePage />, ENTRY);
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

    fireEvent.click(screen.getByText('《算力租用协议》'));
    fireEvent.click(buttonByText('同意'));
    fireEvent.click(await screen.findByText('支付 ¥4,108.40 并创建'));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/rental')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/rental')[0]?.[1]?.body))).toMatchObject({ chargingRuleId: 4, rentAmount: 3, voucherId: 9, autoRenew: true, gpuNum: 2 });
  }, 15_000);

  it('offers the images the host runs, grouped by framework, and creates with the right body and an idempotency key', async () => {
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

    // The agreement comes first: read in its dialog, whose 同意 ticks the box.
    expect(buttonByText('立即创建').disabled).toBe(true);
    fireEvent.click(screen.getByText('《算力租用协议》'));
    expect(await screen.findByText(/连续关机满15天的实例将被自动释放，平台会在释放前3天和1天提醒/)).toBeTruthy();
    fireEvent.click(buttonByText('同意'));
    await waitFor(() => expect((screen.getByRole('checkbox', { name: /我已阅读并同意/ }) as HTMLInputElement).checked).toBe(true));
    fireEvent.click(buttonByText('立即创建'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/containerInstances'));
    const [call] = callsTo(api.fetchMock, 'POST', '/rental');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      hostId: HOST.hostId,
      gpuNum: 2,
      imageId: 'tensorflow-2.15.0-cu122',
      chargingRuleId: 1,
      name: '训练-ResNet',
    });
    const headers = new Headers(call?.[1]?.headers);
    expect(headers.get('Idempotency-Key')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('says the balance is short with 去充值 and does not offer 立即创建', async () => {
    mockApi(routes({ 'GET /account/': () => ok({ totalBalance: 100 }) }));
    renderPage(<CreateInstancePage />, ENTRY);
    expect(await screen.findByText('余额不足')).toBeTruthy();
    expect(screen.getByText('创建按量实例需要余额至少可支付 1 小时费用（¥2.64），当前余额 ¥1.00。')).toBeTruthy();
    expect(screen.getByText('去充值').closest('a')?.getAttribute('href')).toBe('/ctrl-cost-center/cost-center/recharge');
    expect(buttonByText('立即创建').disabled).toBe(true);
  });

  it("shows the server's refusal once, and a new submit after it sends a new key", async () => {
    const api = mockApi(routes({ 'POST /rental': () => failure(409, 40940, '主机GPU不足：该主机当前空闲 1 卡，需要 2 卡') }));
    const { router } = renderPage(<CreateInstancePage />, ENTRY);
    await screen.findByText('¥2.64/时');
    fireEvent.click(screen.getByRole('checkbox', { name: /我已阅读并同意/ }));
    fireEvent.click(buttonByText('立即创建'));
    await waitFor(() => expect(api.notify).toHaveBeenCalledWith('主机GPU不足：该主机当前空闲 1 卡，需要 2 卡'));
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(api.notify).toHaveBeenCalledTimes(1);
    expect(router.state.location.pathname).toBe('/x');

    fireEvent.click(buttonByText('立即创建'));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/rental')).toHaveLength(2));
    const keys = callsTo(api.fetchMock, 'POST', '/rental').map(([, init]) => new Headers(init?.headers).get('Idempotency-Key'));
    expect(keys[0]).not.toBe(keys[1]);
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
