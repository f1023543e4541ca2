/** 确认克隆订单: the order from the URL, priced by the prepay, sent exactly as previewed; refusals and stale links. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InstanceView, MarketHost } from '../../../api/compute';
import { IDEMPOTENCY_HEADER } from '../../../api/idempotency';
import { setToastInstance, type ToastApi } from '../../../api/toast';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, page, renderPage, type Handler } from '../../ctrl-cost-center/testing';
import { RUNNING_INSTANCE } from '../testing';
import ConfirmCloneOrderPage from './index';

const toastOpen = vi.fn<ToastApi['open']>();
beforeEach(() => {
  toastOpen.mockReset();
  setToastInstance({ open: toastOpen, destroy: vi.fn() });
});
afterEach(cleanup);

const OFF: InstanceView = { ...RUNNING_INSTANCE, status: 'PoweredOff', runStartedAt: null, dataDiskGb: 80 };
const TARGET: MarketHost = {
  hostId: 'bj-a-4090-02',
  hostName: '北京A区-4090-02',
  zoneId: 'bj-a',
  zoneName: '北京A区',
  gpuModelId: 'rtx4090',
  gpuModelName: 'RTX 4090',
  gpuMemoryGb: 24,
  gpuTotal: 8,
  gpuFree: 8,
  chargingRuleId: 1,
  pricePerGpuFen: 198,
  unit: '时',
  cpuModelId: 'xeon',
  cpuModelName: 'Xeon',
  cpuPerGpu: 16,
  memoryGbPerGpu: 90,
  dataDiskFreeGb: 1500,
  dataDiskMaxGb: 1500,
  cudaVersion: '12.4',
  driverVersion: '550.107.02',
};
const OTHER_REGION: MarketHost = { ...TARGET, hostId: 'nm-b-4090-01', hostName: '内蒙B区-4090-01', zoneId: 'nm-b', zoneName: '内蒙B区' };

const PATH = '/ctrl-container-instances/confirm-clone-order';
const USAGE_QUERY = `instanceId=${OFF.instanceId}&hostId=bj-a-4090-02&zoneId=bj-a&gpuNum=2&chargingRuleId=1&copyData=1&name=%E5%89%AF%E6%9C%AC`;
const CREATED = { instanceId: 'slg-bbbbbbbbbb', rentalId: 2, rentalUid: 'r-2', orderId: '20250101000000000002' };
const VOUCHER = { id: 9, name: '克隆立减券', amount: 1000, minOrderAmount: 0, scope: [], validFrom: '2020-01-01T00:00:00Z', validTo: '2099-01-01T00:00:00Z', status: 'UNUSED', usedAt: null, usedOrderNo: null };

const prepay: Handler = (_url, init) => {
  const body = JSON.parse(String(init?.body)) as { gpuNum: number; chargingRuleId: number; rentAmount?: number; voucherId?: number; copyData: boolean };
  const common = { dataDiskGb: body.copyData ? 80 : 50, diskRateFenPerDay: body.copyData ? 30 : 0, sourceInstanceId: OFF.instanceId };
  if (body.chargingRuleId === 4) {
    const amount = 198 * 520 * body.gpuNum * (body.rentAmount ?? 0);
    const discount = body.voucherId === 9 ? 1000 : 0;
    return ok({ ...common, pricePerGpuFen: 198 * 520, amount, discount, payable: amount - discount, unit: '个月', balanceRequired: amount - discount, expiresAt: '2026-12-24T04:00:00.000Z' });
  }
  return ok({ ...common, pricePerGpuFen: 198, amount: 198 * body.gpuNum, discount: 0, payable: 198 * body.gpuNum, unit: '时', balanceRequired: 198 * body.gpuNum, expiresAt: null });
};

function mock(overrides: Record<string, Handler> = {}, options: { instance?: InstanceView; hosts?: MarketHost[]; balance?: number } = {}) {
  const hosts = options.hosts ?? [TARGET, OTHER_REGION];
  return mockApi({
    'GET /rental/detail': () => ok(options.instance ?? OFF),
    'GET /comppower': (url) => page(hosts.filter((item) => item.hostId === url.searchParams.get('hostId'))),
    'GET /meta/images/public': () => ok([]),
    'POST /rental/clone/prepay': prepay,
    'POST /rental/clone/v2/prepay': prepay,
    'POST /rental/clone': () => ok(CREATED),
    'POST /rental/clone/v2': () => ok(CREATED),
    'GET /account/': () => ok({ totalBalance: options.balance ?? 1_000_000 }),
    'GET /voucher': () => page([VOUCHER]),
    ...overrides,
  });
}

/** The first render of the page loads antd cold: it may take more than findBy's default second. */
const orderShown = () => screen.findByText('克隆内容', undefined, { timeout: 5_000 });
const bodyOf = (call: Parameters<typeof fetch> | undefined) => JSON.parse(String(call?.[1]?.body)) as Record<string, unknown>;

function agree() {
  fireEvent.click(screen.getByLabelText(/我已阅读并同意/));
}

describe('确认克隆订单', () => {
  it('shows source → target, the hourly price and the balance; sends exactly the previewed body once, with an Idempotency-Key, then goes to the list', async () => {
    const { fetchMock, notify } = mock();
    const { router } = renderPage(<ConfirmCloneOrderPage />, `${PATH}?${USAGE_QUERY}`);
    await orderShown();
    expect(screen.getByText('训练机（slg-aaaaaaaaaa）')).toBeTruthy();
    expect(screen.getByText('副本')).toBeTruthy();
    expect(screen.getByText('北京A区 · 北京A区-4090-02')).toBeTruthy();
    expect(screen.getByText('32 核 · 180 GB')).toBeTruthy();
    expect(screen.getByText('80 GB（复制源实例数据盘）')).toBeTruthy();
    expect(screen.getByText('同地区克隆：复制系统盘和数据盘；原实例保持关机，不受影响')).toBeTruthy();
    expect(await screen.findByText('¥3.96/时')).toBeTruthy();
    expect(screen.getByText('¥0.30/天')).toBeTruthy();
    expect(screen.getByText('¥10,000.00')).toBeTruthy();

    // The agreement first.
    const submit = buttonByText('确认克隆');
    expect(submit.disabled).toBe(true);
    agree();
    expect(buttonByText('确认克隆').disabled).toBe(false);
    fireEvent.click(buttonByText('确认克隆'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/containerInstances'));
    const sent = callsTo(fetchMock, 'POST', '/rental/clone');
    expect(sent).toHaveLength(1);
    const previewed = bodyOf(callsTo(fetchMock, 'POST', '/rental/clone/prepay')[0]);
    expect(bodyOf(sent[0])).toEqual(previewed);
    expect(previewed).toEqual({ instanceId: OFF.instanceId, hostId: 'bj-a-4090-02', gpuNum: 2, chargingRuleId: 1, name: '副本', copyData: true });
    expect(new Headers(sent[0]?.[1]?.headers).get(IDEMPOTENCY_HEADER)).toBeTruthy();
    expect(toastOpen).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', content: '已开始创建新实例 slg-bbbbbbbbbb' }));
    expect(notify).not.toHaveBeenCalled();
  });

  it('a package with a voucher: the discount, the amount to pay and the end before paying; the voucher, duration and auto-renew are sent', async () => {
    const { fetchMock } = mock();
    const query = `instanceId=${OFF.instanceId}&hostId=bj-a-4090-02&gpuNum=1&chargingRuleId=4&rentAmount=3&voucherId=9&autoRenew=1&copyData=1`;
    renderPage(<ConfirmCloneOrderPage />, `${PATH}?${query}`);
    await orderShown();
    // 198 × 520 × 1 GPU × 3 months, less the 10-yuan voucher.
    expect(await screen.findByText('¥3,088.80')).toBeTruthy();
    expect(screen.getByText('-¥10.00')).toBeTruthy();
    expect(screen.getByText('¥3,078.80')).toBeTruthy();
    // 时长 in the billing and in the price.
    expect(screen.getAllByText('3 个月')).toHaveLength(2);
    expect(await screen.findByText('克隆立减券')).toBeTruthy();
    agree();
    fireEvent.click(buttonByText('支付 ¥3,078.80 并克隆'));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/rental/clone')).toHaveLength(1));
    const sent = bodyOf(callsTo(fetchMock, 'POST', '/rental/clone')[0]);
    expect(sent).toEqual(bodyOf(callsTo(fetchMock, 'POST', '/rental/clone/prepay')[0]));
    expect(sent).toEqual({ instanceId: OFF.instanceId, hostId: 'bj-a-4090-02', gpuNum: 1, chargingRuleId: 4, rentAmount: 3, voucherId: 9, autoRenew: true, copyData: true });
  });

  it('a host in another region goes by clone/v2 with the system disk only', async () => {
    const { fetchMock } = mock();
    renderPage(<ConfirmCloneOrderPage />, `${PATH}?instanceId=${OFF.instanceId}&hostId=nm-b-4090-01&gpuNum=2&chargingRuleId=1&copyData=0`);
    await orderShown();
    expect(screen.getByText('跨地区克隆：只复制系统盘，数据盘为新的 50 GB 空盘；原实例保持关机，不受影响')).toBeTruthy();
    expect(screen.getByText('50 GB 空盘')).toBeTruthy();
    await screen.findByText('¥3.96/时');
    agree();
    fireEvent.click(buttonByText('确认克隆'));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/rental/clone/v2')).toHaveLength(1));
    expect(callsTo(fetchMock, 'POST', '/rental/clone')).toHaveLength(0);
    expect(bodyOf(callsTo(fetchMock, 'POST', '/rental/clone/v2')[0])).toEqual({ instanceId: OFF.instanceId, hostId: 'nm-b-4090-01', gpuNum: 2, chargingRuleId: 1, copyData: false });
  });

  it('迁移 asks once more, naming that the source will be released, and sends releaseSource', async () => {
    const { fetchMock } = mock();
    renderPage(<ConfirmCloneOrderPage />, `${PATH}?instanceId=${OFF.instanceId}&move=1&hostId=bj-a-4090-02&gpuNum=2&chargingRuleId=1&copyData=1&releaseSource=1`);
    await orderShown();
    expect(screen.getByText('确认迁移订单')).toBeTruthy();
    expect(screen.getByText('新实例运行后，原实例「训练机」（slg-aaaaaaaaaa）将被释放，其系统盘和数据盘删除且不可恢复；新实例创建失败时原实例保留。')).toBeTruthy();
    await screen.findByText('¥3.96/时');
    agree();
    fireEvent.click(buttonByText('确认迁移'));
    const dialog = await findDialog();
    expect(within(dialog).getByText(/原实例「训练机」（slg-aaaaaaaaaa）将被释放，其系统盘和数据盘删除且无法恢复/)).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/rental/clone')).toHaveLength(0);
    fireEvent.click(buttonByText('确认迁移', dialog));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/rental/clone')).toHaveLength(1));
    expect(bodyOf(callsTo(fetchMock, 'POST', '/rental/clone')[0])).toMatchObject({ copyData: true, releaseSource: true });
    await waitFor(() => expect(toastOpen).toHaveBeenCalledWith(expect.objectContaining({ content: '已开始迁移到新实例 slg-bbbbbbbbbb，运行后将释放原实例' })));
  });

  it('the host lost its GPUs meanwhile: the refusal is shown once on the page, with the way back to choose another host', async () => {
    const { fetchMock, notify } = mock({ 'POST /rental/clone': () => failure(409, 40940, '主机GPU不足：该主机当前空闲 1 卡，需要 2 卡') });
    const { router } = renderPage(<ConfirmCloneOrderPage />, `${PATH}?${USAGE_QUERY}`);
    await orderShown();
    await screen.findByText('¥3.96/时');
    agree();
    fireEvent.click(buttonByText('确认克隆'));
    expect(await screen.findByText('主机GPU不足：该主机当前空闲 1 卡，需要 2 卡')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(notify).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe(PATH);
    const again = screen.getByText('重新选择主机').closest('a');
    const target = new URL(String(again?.getAttribute('href')), 'http://localhost');
    expect(target.pathname).toBe('/ctrl-container-instances/cloneInstances');
    expect(target.searchParams.has('hostId')).toBe(false);
    expect(target.searchParams.get('gpuNum')).toBe('2');
    expect(target.searchParams.get('name')).toBe('副本');
    expect(callsTo(fetchMock, 'POST', '/rental/clone')).toHaveLength(1);
  });

  it('a host that no longer has the GPUs free is said so before sending, and the button stays off', async () => {
    mock({}, { hosts: [{ ...TARGET, gpuFree: 1 }] });
    renderPage(<ConfirmCloneOrderPage />, `${PATH}?${USAGE_QUERY}`);
    await orderShown();
    expect(await screen.findByText('仅空闲 1 卡，不足 2 卡')).toBeTruthy();
    agree();
    expect(buttonByText('确认克隆').disabled).toBe(true);
  });

  it('a balance short of the hour is warned with 去充值, and the button stays off', async () => {
    mock({}, { balance: 100 });
    renderPage(<ConfirmCloneOrderPage />, `${PATH}?${USAGE_QUERY}`);
    await orderShown();
    expect(await screen.findByText('创建按量实例需要余额至少可支付 1 小时费用（¥3.96），当前余额 ¥1.00。')).toBeTruthy();
    expect(screen.getByText('去充值').closest('a')?.getAttribute('href')).toBe('/ctrl-cost-center/cost-center/recharge');
    agree();
    expect(buttonByText('确认克隆').disabled).toBe(true);
  });

  it('a refused price is shown in place and nothing can be sent', async () => {
    mock({ 'POST /rental/clone/prepay': () => failure(400, 40000, '包年包月实例迁移后不能释放原实例：请先转为按量计费（未使用部分退回余额），再迁移') });
    renderPage(<ConfirmCloneOrderPage />, `${PATH}?instanceId=${OFF.instanceId}&hostId=bj-a-4090-02&gpuNum=2&chargingRuleId=1&copyData=1&releaseSource=1`);
    await orderShown();
    expect(await screen.findByText('包年包月实例迁移后不能释放原实例：请先转为按量计费（未使用部分退回余额），再迁移')).toBeTruthy();
    expect(screen.getByText('无法按此配置克隆')).toBeTruthy();
    agree();
    expect(buttonByText('确认迁移').disabled).toBe(true);
  });

  it.each([
    ['gpuNum=99', 'GPU数量不正确'],
    ['chargingRuleId=7', '计费方式不正确'],
    ['chargingRuleId=4&rentAmount=11', '包日、包周、包月的时长不正确'],
    ['voucherId=9', '按量计费不需要时长、代金券或自动续费'],
    ['copyData=0&releaseSource=1', '迁移（释放原实例）须复制数据盘'],
    ['hostId=', '目标主机不正确'],
  ])('a tampered link (%s) is refused with what is wrong and a way back', async (change, problem) => {
    const { fetchMock } = mock();
    const query = new URLSearchParams(USAGE_QUERY);
    for (const [key, value] of new URLSearchParams(change)) query.set(key, value);
    renderPage(<ConfirmCloneOrderPage />, `${PATH}?${query.toString()}`);
    expect(await screen.findByText('链接中的克隆信息不完整或已失效', undefined, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByText(problem)).toBeTruthy();
    expect(screen.getByText('重新选择').closest('a')?.getAttribute('href')).toBe(`/ctrl-container-instances/cloneInstances?instanceId=${OFF.instanceId}`);
    expect(callsTo(fetchMock, 'POST', '/rental/clone/prepay')).toHaveLength(0);
  });

  it('an unknown instance, a bad id, a delisted host and data across regions are each said so', async () => {
    mock({ 'GET /rental/detail': () => failure(404, 40400, '实例不存在') });
    renderPage(<ConfirmCloneOrderPage />, `${PATH}?${USAGE_QUERY}`);
    expect(await screen.findByText('实例不存在或已释放', undefined, { timeout: 5_000 })).toBeTruthy();
    cleanup();

    mock();
    renderPage(<ConfirmCloneOrderPage />, `${PATH}?instanceId=x&hostId=bj-a-4090-02`);
    expect(await screen.findByText('链接中的实例ID不正确')).toBeTruthy();
    cleanup();

    mock({}, { hosts: [] });
    renderPage(<ConfirmCloneOrderPage />, `${PATH}?${USAGE_QUERY}`);
    expect(await screen.findByText('目标主机不存在或已下架')).toBeTruthy();
    cleanup();

    const { fetchMock } = mock();
    renderPage(<ConfirmCloneOrderPage />, `${PATH}?instanceId=${OFF.instanceId}&hostId=nm-b-4090-01&gpuNum=2&chargingRuleId=1&copyData=1`);
    expect(await screen.findByText('跨地区克隆不能复制数据盘，也不能迁移（释放原实例）')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/rental/clone/v2/prepay')).toHaveLength(0);
  });

  it('a source powered on meanwhile cannot be cloned until it is off again', async () => {
    mock({}, { instance: RUNNING_INSTANCE });
    renderPage(<ConfirmCloneOrderPage />, `${PATH}?${USAGE_QUERY}`);
    await orderShown();
    expect(await screen.findByText('实例当前为「运行中」，须先关机才能克隆。关机后本页会自动更新。')).toBeTruthy();
    agree();
    expect(buttonByText('确认克隆').disabled).toBe(true);
  });
});
