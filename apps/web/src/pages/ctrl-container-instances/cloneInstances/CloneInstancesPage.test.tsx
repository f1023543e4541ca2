/** 克隆实例: the source, the hosts it can go to (and why others cannot), the options, the price, and the URL 下一步 carries. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { InstanceView, MarketHost } from '../../../api/compute';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, page, renderPage, testQueryClient, type Handler } from '../../ctrl-cost-center/testing';
import { queryKeys } from '../../../api/queryKeys';
import { InstanceActions } from '../containerInstances/components/InstanceActions';
import { RUNNING_INSTANCE } from '../testing';
import CloneInstancesPage from './index';

afterEach(cleanup);

/** A stopped pay-as-you-go instance with 2 RTX 4090 and an 80 GB data disk, on 北京A区-4090-01. */
const OFF: InstanceView = { ...RUNNING_INSTANCE, status: 'PoweredOff', runStartedAt: null, dataDiskGb: 80, imageId: 'pytorch-2.5.1-cu124' };
const ENTRY = `/c?instanceId=${OFF.instanceId}`;

function host(hostId: string, overrides: Partial<MarketHost> = {}): MarketHost {
  const zoneId = hostId.startsWith('nm-b') ? 'nm-b' : 'bj-a';
  return {
    hostId,
    hostName: `${zoneId === 'bj-a' ? '北京A区' : '内蒙B区'}-${hostId.slice(5).toUpperCase()}`,
    zoneId,
    zoneName: zoneId === 'bj-a' ? '北京A区' : '内蒙B区',
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
    ...overrides,
  };
}

const HOSTS: MarketHost[] = [
  host('bj-a-4090-01', { gpuFree: 6 }),
  host('bj-a-4090-02'),
  host('bj-a-4090-03', { gpuFree: 1 }),
  host('bj-a-4090-04', { gpuFree: 0 }),
  host('bj-a-4090-05', { dataDiskFreeGb: 60 }),
  host('bj-a-4090-06', { cudaVersion: '12.2' }),
  host('nm-b-4090-01'),
];

const figures = { hostCount: 1, gpuTotal: 8, gpuFree: 8, maxFreeOnHost: 8, minPricePerGpuFen: 198 };
const OVERVIEW = {
  chargingRuleId: 1,
  unit: '时',
  gpuModels: [{ gpuModelId: 'rtx4090', gpuModelName: 'RTX 4090', gpuMemoryGb: 24, ...figures }],
  zones: [
    { zoneId: 'bj-a', zoneName: '北京A区', region: '华北', ...figures },
    { zoneId: 'nm-b', zoneName: '内蒙B区', region: '华北', ...figures },
  ],
  cells: [
    { zoneId: 'bj-a', gpuModelId: 'rtx4090', ...figures },
    { zoneId: 'nm-b', gpuModelId: 'rtx4090', ...figures },
  ],
};

const IMAGES = [{ id: 'pytorch-2.5.1-cu124', name: 'PyTorch 2.5.1', framework: 'PyTorch', frameworkVersion: '2.5.1', python: '3.12', cuda: '12.4', ubuntu: '22.04' }];
const VOUCHER = { id: 9, name: '克隆立减券', amount: 1000, minOrderAmount: 0, scope: ['CLONE_INSTANCE'], validFrom: '2020-01-01T00:00:00Z', validTo: '2099-01-01T00:00:00Z', status: 'UNUSED', usedAt: null, usedOrderNo: null };

/** A month is 520 hours of the hourly price; voucher 9 takes 10 yuan off. */
function priced(hostToPrice: MarketHost, chargingRuleId: number): MarketHost {
  return chargingRuleId === 4 ? { ...hostToPrice, chargingRuleId, pricePerGpuFen: hostToPrice.pricePerGpuFen * 520, unit: '月' } : hostToPrice;
}

const market: Handler = (url) => {
  const rule = Number(url.searchParams.get('chargingRuleId'));
  const one = url.searchParams.get('hostId');
  const list = HOSTS.filter((item) =>
    one ? item.hostId === one : item.zoneId === url.searchParams.get('zoneId') && (!url.searchParams.get('gpuModelId') || item.gpuModelId === url.searchParams.get('gpuModelId')),
  ).map((item) => priced(item, rule));
  return page(list);
};

const prepay: Handler = (_url, init) => {
  const body = JSON.parse(String(init?.body)) as { gpuNum: number; chargingRuleId: number; rentAmount?: number; voucherId?: number; copyData: boolean };
  const dataDiskGb = body.copyData ? 80 : 50;
  const common = { pricePerGpuFen: 198, dataDiskGb, diskRateFenPerDay: body.copyData ? 30 : 0, sourceInstanceId: OFF.instanceId };
  if (body.chargingRuleId === 4) {
    const amount = 198 * 520 * body.gpuNum * (body.rentAmount ?? 0);
    const discount = body.voucherId === 9 ? 1000 : 0;
    return ok({ ...common, pricePerGpuFen: 198 * 520, amount, discount, payable: amount - discount, unit: '个月', balanceRequired: amount - discount, expiresAt: '2026-12-24T04:00:00.000Z' });
  }
  return ok({ ...common, amount: 198 * body.gpuNum, discount: 0, payable: 198 * body.gpuNum, unit: '时', balanceRequired: 198 * body.gpuNum, expiresAt: null });
};

function mock(instance: InstanceView = OFF, overrides: Record<string, Handler> = {}) {
  return mockApi({
    'GET /rental/detail': () => ok(instance),
    'GET /comppower': market,
    'GET /comppower/overview': () => ok(OVERVIEW),
    'GET /meta/images/public': () => ok(IMAGES),
    'POST /rental/clone/prepay': prepay,
    'POST /rental/clone/v2/prepay': prepay,
    'GET /voucher': () => page([VOUCHER]),
    'GET /account/': () => ok({ totalBalance: 1_000_000 }),
    ...overrides,
  });
}

/** The first load renders antd's table cold: it may take more than findBy's default second. */
const hostsShown = () => screen.findByText('北京A区-4090-02', undefined, { timeout: 5_000 });
const input = (label: string) => screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;
const lastBody = (fetchMock: ReturnType<typeof mockApi>['fetchMock'], path: string) =>
  JSON.parse(String(callsTo(fetchMock, 'POST', path).at(-1)?.[1]?.body)) as Record<string, unknown>;

/** The host list's market calls (the chosen host is asked for alone, with `hostId`). */
function listQueries(fetchMock: ReturnType<typeof mockApi>['fetchMock']): URLSearchParams[] {
  return callsTo(fetchMock, 'GET', '/comppower')
    .map(([url]) => new URL(String(url), 'http://localhost').searchParams)
    .filter((query) => !query.has('hostId'));
}

describe('克隆实例', () => {
  it('starts from the source as the server has it now, not as a cache from before a change had it', async () => {
    mock();
    const queryClient = testQueryClient();
    // The list cached the instance with 1 GPU before 升降配置 made it 2.
    queryClient.setQueryData([...queryKeys.instances, 'detail', OFF.instanceId], { ...OFF, gpuNum: 1 });
    renderPage(<CloneInstancesPage />, ENTRY, queryClient);
    expect(await hostsShown()).toBeTruthy();
    expect(screen.getByText('RTX 4090 × 2')).toBeTruthy();
    expect(input('2 卡').checked).toBe(true);
  });

  it('lists the region’s hosts like the market, disables those that cannot take the clone with the reason, and carries the choice to the order', async () => {
    const { fetchMock } = mock();
    const { router } = renderPage(<CloneInstancesPage />, ENTRY);
    expect(await hostsShown()).toBeTruthy();
    expect(screen.getByText('RTX 4090 × 2')).toBeTruthy();
    expect(screen.getByText('80 GB')).toBeTruthy();
    // The source's region and model, priced for 按量, and every host (no gpuNum filter: the full ones are shown disabled).
    const query = listQueries(fetchMock)[0];
    expect(query?.get('zoneId')).toBe('bj-a');
    expect(query?.get('gpuModelId')).toBe('rtx4090');
    expect(query?.get('chargingRuleId')).toBe('1');
    expect(query?.has('gpuNum')).toBe(false);

    expect(input('选择 北京A区-4090-04').disabled).toBe(true);
    expect(screen.getByText('已租满')).toBeTruthy();
    expect(input('选择 北京A区-4090-03').disabled).toBe(true);
    expect(screen.getByText('仅空闲 1 卡，不足 2 卡')).toBeTruthy();
    expect(input('选择 北京A区-4090-05').disabled).toBe(true);
    expect(screen.getByText('数据盘空间不足：可用 60 GB，需要 80 GB')).toBeTruthy();
    expect(screen.getByText('空间不足（可用 60 GB）')).toBeTruthy();
    expect(await screen.findByText('镜像需要 CUDA 12.4，该主机最高支持 12.2')).toBeTruthy();
    expect(input('选择 北京A区-4090-06').disabled).toBe(true);
    // A plain clone may stay on the source's host; free GPUs and the price per GPU are on every row.
    expect(input('选择 北京A区-4090-01').disabled).toBe(false);
    expect(screen.getByText('北京A区 · 源实例所在主机')).toBeTruthy();
    expect(screen.getAllByText('¥1.98').length).toBe(6);
    expect(screen.getAllByText('可复制（80 GB）').length).toBe(5);

    // One GPU fits the host with one free.
    fireEvent.click(input('1 卡'));
    expect(input('选择 北京A区-4090-03').disabled).toBe(false);
    fireEvent.click(input('2 卡'));

    fireEvent.click(input('选择 北京A区-4090-02'));
    expect(await screen.findByText('¥3.96/时')).toBeTruthy();
    expect(screen.getByText('¥0.30/天')).toBeTruthy();
    expect(lastBody(fetchMock, '/rental/clone/prepay')).toEqual({ instanceId: OFF.instanceId, hostId: 'bj-a-4090-02', gpuNum: 2, chargingRuleId: 1, copyData: true });
    const asked = callsTo(fetchMock, 'POST', '/rental/clone/prepay').length;
    fireEvent.change(screen.getByLabelText('新实例名称'), { target: { value: '副本' } });
    // The name does not change the price: typing it asks nothing.
    expect(callsTo(fetchMock, 'POST', '/rental/clone/prepay')).toHaveLength(asked);

    fireEvent.click(buttonByText('下一步'));
    expect(router.state.location.pathname).toBe('/ctrl-container-instances/confirm-clone-order');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      instanceId: OFF.instanceId,
      hostId: 'bj-a-4090-02',
      zoneId: 'bj-a',
      gpuNum: '2',
      chargingRuleId: '1',
      copyData: '1',
      name: '副本',
    });
  });

  it('迁移 (move=1) preselects the release of the source, names its effect, keeps the data disk and leaves out the source host', async () => {
    const { fetchMock } = mock();
    const { router } = renderPage(<CloneInstancesPage />, `${ENTRY}&move=1`);
    expect(await screen.findByText('迁移实例')).toBeTruthy();
    await hostsShown();
    expect(input('迁移：新实例运行后释放原实例').checked).toBe(true);
    expect(screen.getByText('新实例运行后，原实例「训练机」（slg-aaaaaaaaaa）将被释放，其系统盘和数据盘删除且不可恢复；新实例创建失败时原实例保留。')).toBeTruthy();
    const copy = input('同时复制数据盘（80 GB）');
    expect(copy.checked).toBe(true);
    expect(copy.disabled).toBe(true);
    // The source's host has GPUs free, but a move must leave it.
    expect(input('选择 北京A区-4090-01').disabled).toBe(true);
    expect(screen.getByText('迁移须选择其他主机')).toBeTruthy();

    fireEvent.click(input('选择 北京A区-4090-02'));
    await screen.findByText('¥3.96/时');
    expect(lastBody(fetchMock, '/rental/clone/prepay')).toEqual({ instanceId: OFF.instanceId, hostId: 'bj-a-4090-02', gpuNum: 2, chargingRuleId: 1, copyData: true, releaseSource: true });
    fireEvent.click(buttonByText('下一步'));
    const query = new URLSearchParams(router.state.location.search);
    expect(query.get('move')).toBe('1');
    expect(query.get('releaseSource')).toBe('1');
    expect(query.get('copyData')).toBe('1');
  });

  it('unticking 迁移 turns it into a plain clone: the data disk becomes optional and the source host choosable', async () => {
    mock();
    renderPage(<CloneInstancesPage />, `${ENTRY}&move=1`);
    await hostsShown();
    fireEvent.click(input('迁移：新实例运行后释放原实例'));
    expect(input('同时复制数据盘（80 GB）').disabled).toBe(false);
    expect(input('选择 北京A区-4090-01').disabled).toBe(false);
    expect(screen.queryByText(/将被释放/)).toBeNull();
  });

  it('a package source cannot be released by a move: the option is off with the way out', async () => {
    mock({ ...OFF, chargingRuleId: 2, expiresAt: '2099-01-01T00:00:00Z' });
    renderPage(<CloneInstancesPage />, `${ENTRY}&move=1`);
    await hostsShown();
    const release = input('迁移：新实例运行后释放原实例');
    expect(release.checked).toBe(false);
    expect(release.disabled).toBe(true);
    expect(screen.getByText('包年包月实例迁移后不能释放原实例：请先转为按量计费（未使用部分退回余额），再迁移。')).toBeTruthy();
  });

  it('another region: system disk only (said on every host and on the options), priced and sent by clone/v2', async () => {
    const { fetchMock } = mock();
    const { router } = renderPage(<CloneInstancesPage />, ENTRY);
    await hostsShown();
    fireEvent.click(input('其他地区'));
    expect(await screen.findByText('内蒙B区-4090-01')).toBeTruthy();
    expect(listQueries(fetchMock).at(-1)?.get('zoneId')).toBe('nm-b');
    expect(screen.getByText('仅系统盘')).toBeTruthy();
    expect(screen.getByText('跨地区只复制系统盘：新实例的数据盘为新的 50 GB 空盘，不能复制数据盘，也不能迁移。')).toBeTruthy();
    const copy = input('同时复制数据盘（80 GB）');
    expect(copy.checked).toBe(false);
    expect(copy.disabled).toBe(true);
    expect(input('迁移：新实例运行后释放原实例').disabled).toBe(true);

    fireEvent.click(input('选择 内蒙B区-4090-01'));
    expect(await screen.findByText('新的 50 GB 空盘')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/rental/clone/prepay')).toHaveLength(0);
    expect(lastBody(fetchMock, '/rental/clone/v2/prepay')).toEqual({ instanceId: OFF.instanceId, hostId: 'nm-b-4090-01', gpuNum: 2, chargingRuleId: 1, copyData: false });
    fireEvent.click(buttonByText('下一步'));
    const query = new URLSearchParams(router.state.location.search);
    expect(query.get('copyData')).toBe('0');
    expect(query.get('zoneId')).toBe('nm-b');
  });

  it('a package: hosts priced per month, duration and a voucher for the clone order, and the amount to pay', async () => {
    const { fetchMock } = mock();
    const { router } = renderPage(<CloneInstancesPage />, ENTRY);
    await hostsShown();
    fireEvent.click(input('包月'));
    fireEvent.click(await screen.findByLabelText('3 个月', { selector: 'input' }));
    await waitFor(() => expect(listQueries(fetchMock).at(-1)?.get('chargingRuleId')).toBe('4'));
    expect((await screen.findAllByText('¥1,029.60')).length).toBeGreaterThan(0);
    fireEvent.click(input('选择 北京A区-4090-02'));
    // 198 × 520 × 2 GPUs × 3 months: 原价 and 应付 until a voucher is chosen.
    expect(await screen.findAllByText('¥6,177.60')).toHaveLength(2);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '代金券' }));
    fireEvent.click(await screen.findByText('克隆立减券（抵扣 ¥10.00）'));
    expect(await screen.findByText('-¥10.00')).toBeTruthy();
    expect(screen.getByText('¥6,167.60')).toBeTruthy();
    expect(lastBody(fetchMock, '/rental/clone/prepay')).toEqual({ instanceId: OFF.instanceId, hostId: 'bj-a-4090-02', gpuNum: 2, chargingRuleId: 4, rentAmount: 3, voucherId: 9, copyData: true });
    fireEvent.click(buttonByText('下一步'));
    const query = new URLSearchParams(router.state.location.search);
    expect([query.get('chargingRuleId'), query.get('rentAmount'), query.get('voucherId')]).toEqual(['4', '3', '9']);
  });

  it('a price the server refuses is shown in place and 下一步 stays off', async () => {
    mock(OFF, { 'POST /rental/clone/prepay': () => failure(400, 40000, '该主机最多 8 卡') });
    renderPage(<CloneInstancesPage />, ENTRY);
    await hostsShown();
    fireEvent.click(input('选择 北京A区-4090-02'));
    expect(await screen.findByText('该主机最多 8 卡')).toBeTruthy();
    expect(screen.getByText('无法按此配置克隆')).toBeTruthy();
    expect(buttonByText('下一步').disabled).toBe(true);
  });

  it('a running source is told to power off first, and 下一步 stays off', async () => {
    mock(RUNNING_INSTANCE);
    renderPage(<CloneInstancesPage />, `${ENTRY}&hostId=bj-a-4090-02`);
    expect(await screen.findByText('实例当前为「运行中」，须先关机才能克隆。关机后本页会自动更新。')).toBeTruthy();
    await screen.findByText('¥3.96/时');
    expect(buttonByText('下一步').disabled).toBe(true);
  });

  it('a bad or unknown instance in the link is said so, with the way back', async () => {
    const { fetchMock } = mock();
    renderPage(<CloneInstancesPage />, '/c?instanceId=nope');
    expect(await screen.findByText('链接中的实例ID不正确')).toBeTruthy();
    expect(callsTo(fetchMock, 'GET', '/rental/detail')).toHaveLength(0);
    cleanup();
    mock(OFF, { 'GET /rental/detail': () => failure(404, 40400, '实例不存在') });
    renderPage(<CloneInstancesPage />, ENTRY);
    expect(await screen.findByText('实例不存在或已释放')).toBeTruthy();
    expect(screen.getAllByText('返回实例列表').length).toBeGreaterThan(0);
  });
});

describe('the ways in', () => {
  it('更多 › 克隆实例 opens the page for the instance', async () => {
    mockApi({});
    const { router } = renderPage(<InstanceActions instance={OFF} />);
    fireEvent.click(buttonByText('更多'));
    fireEvent.click(await screen.findByText('克隆实例'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/cloneInstances'));
    expect(router.state.location.search).toBe(`?instanceId=${OFF.instanceId}`);
  });

  it('主机GPU不足 at power-on offers 迁移: the page with move=1', async () => {
    mockApi({ 'POST /rental/power_on': () => failure(409, 40940, '主机GPU不足：该主机当前空闲 0 卡，需要 2 卡') });
    renderPage(<InstanceActions instance={OFF} />);
    fireEvent.click(buttonByText('开机'));
    const dialog = await findDialog();
    fireEvent.click(buttonByText('有卡开机', dialog));
    await within(dialog).findByText(/该主机当前空闲 0 卡/);
    const move = within(dialog).getByText('迁移到同地区有空闲GPU的主机').closest('a');
    expect(move?.getAttribute('href')).toBe(`/ctrl-container-instances/cloneInstances?instanceId=${OFF.instanceId}&move=1`);
  });
});
