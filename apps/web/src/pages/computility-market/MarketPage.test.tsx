/** 算力市场: the choices become the query of /comppower, hosts show their facts and lead to 创建实例. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MarketHost, MarketOverview } from '../../api/compute';
import { useUserStore } from '../../stores/user';
import { buttonByText, callsTo, failure, mockApi, ok, page, pending, renderPage } from '../ctrl-cost-center/testing';
import MarketPage from './index';
import { marketStepOf, parseMarketFilters } from './marketFilters';

afterEach(() => cleanup());

const HOST: MarketHost = {
  hostId: 'bj-a-4090-01',
  hostName: '北京A区-4090-01',
  zoneId: 'bj-a',
  zoneName: '北京A区',
  gpuModelId: 'rtx4090',
  gpuModelName: 'RTX 4090',
  gpuMemoryGb: 24,
  gpuTotal: 8,
  gpuFree: 6,
  chargingRuleId: 1,
  pricePerGpuFen: 198,
  unit: '时',
  cpuModelId: 'xeon',
  cpuModelName: 'Intel Xeon Platinum 8352V',
  cpuPerGpu: 16,
  memoryGbPerGpu: 64,
  dataDiskFreeGb: 800,
  dataDiskMaxGb: 1000,
  cudaVersion: '12.4',
  driverVersion: '550.107.02',
};

const figures = { hostCount: 2, gpuTotal: 16, gpuFree: 9, maxFreeOnHost: 6, minPricePerGpuFen: 198 };
const OVERVIEW: MarketOverview = {
  chargingRuleId: 1,
  unit: '时',
  gpuModels: [
    { gpuModelId: 'rtx4090', gpuModelName: 'RTX 4090', gpuMemoryGb: 24, ...figures },
    { gpuModelId: 'a800-80g', gpuModelName: 'A800', gpuMemoryGb: 80, ...figures, gpuFree: 0, minPricePerGpuFen: 880 },
  ],
  zones: [
    { zoneId: 'bj-a', zoneName: '北京A区', region: '华北', ...figures },
    { zoneId: 'sh-a', zoneName: '上海A区', region: '华东', ...figures },
  ],
  cells: [
    { zoneId: 'bj-a', gpuModelId: 'rtx4090', ...figures },
    { zoneId: 'sh-a', gpuModelId: 'a800-80g', ...figures, gpuFree: 0 },
  ],
};

function lastHostsQuery(fetchMock: ReturnType<typeof mockApi>['fetchMock']): Record<string, string> {
  const calls = callsTo(fetchMock, 'GET', '/comppower');
  return Object.fromEntries(new URL(String(calls.at(-1)?.[0]), 'http://localhost').searchParams);
}

describe('算力市场', () => {
  it('sends the choices of the URL as the query, and a new choice goes back to page 1', async () => {
    const api = mockApi({ 'GET /comppower/overview': () => ok(OVERVIEW), 'GET /comppower': () => page([HOST], 25) });
    const { router } = renderPage(<MarketPage />, '/computility-market?gpuNum=2&zoneId=bj-a&page=2');
    expect(await screen.findByText('北京A区-4090-01')).toBeTruthy();
    expect(lastHostsQuery(api.fetchMock)).toEqual({ page: '2', pageSize: '10', chargingRuleId: '1', gpuNum: '2', zoneId: 'bj-a', sort: 'price' });

    fireEvent.click(screen.getByLabelText(/RTX 4090/, { selector: 'input' }));
    await waitFor(() => expect(lastHostsQuery(api.fetchMock)).toMatchObject({ page: '1', gpuModelId: 'rtx4090', gpuNum: '2', zoneId: 'bj-a' }));
    expect(new URLSearchParams(router.state.location.search).get('gpuModelId')).toBe('rtx4090');

    fireEvent.click(screen.getByLabelText('4 卡', { selector: 'input' }));
    await waitFor(() => expect(lastHostsQuery(api.fetchMock)).toMatchObject({ gpuNum: '4' }));
    fireEvent.click(screen.getByLabelText('不限', { selector: 'input' }));
    await waitFor(() => expect(lastHostsQuery(api.fetchMock)).not.toHaveProperty('gpuNum'));
  });

  it('starts with pay-as-you-go and prices the hosts for a package once one is chosen', async () => {
    const api = mockApi({ 'GET /comppower/overview': () => ok(OVERVIEW), 'GET /comppower': () => page([HOST]) });
    renderPage(<MarketPage />, '/computility-market');
    await screen.findByText('北京A区-4090-01');
    const usage = screen.getByLabelText('按量计费', { selector: 'input' }) as HTMLInputElement;
    expect(usage.checked).toBe(true);
    fireEvent.click(screen.getByLabelText('包月', { selector: 'input' }));
    await waitFor(() => expect(lastHostsQuery(api.fetchMock).chargingRuleId).toBe('4'));
    expect(screen.getByText('预付更便宜，关机期间 GPU 仍为你保留；价格为每卡每个周期。')).toBeTruthy();
  });

  it('shows free / total GPUs per model and zone from the overview, narrowed by the other choice', async () => {
    mockApi({ 'GET /comppower/overview': () => ok(OVERVIEW), 'GET /comppower': () => page([HOST]) });
    renderPage(<MarketPage />, '/computility-market?zoneId=bj-a');
    await screen.findByText('北京A区-4090-01');
    const model = screen.getByLabelText(/RTX 4090/, { selector: 'input' }).closest('label') as HTMLElement;
    expect(model.textContent).toContain('空闲 9/16');
    expect(model.textContent).toContain('¥1.98/卡·时起');
    // No A800 in 北京A区: shown, but not a choice.
    const a800 = screen.getByLabelText(/A800/, { selector: 'input' }) as HTMLInputElement;
    expect(a800.disabled).toBe(true);
    expect(a800.closest('label')?.textContent).toContain('此组合暂无主机');
  });

  it('lists a host with its facts and 租用 leads to 创建实例 with the host and the GPUs asked for', async () => {
    mockApi({ 'GET /comppower/overview': () => ok(OVERVIEW), 'GET /comppower': () => page([HOST, { ...HOST, hostId: 'bj-a-4090-02', hostName: '北京A区-4090-02', gpuFree: 1 }]) });
    renderPage(<MarketPage />, '/computility-market?gpuNum=2');
    const row = (await screen.findByText('北京A区-4090-01')).closest('tr') as HTMLElement;
    for (const text of ['RTX 4090', '显存 24GB', '¥1.98', '/卡·时', '16 核 · 64GB', '可扩容至 800GB', 'CUDA ≤ 12.4', '驱动 550.107.02']) {
      expect(within(row).getByText(text)).toBeTruthy();
    }
    expect(row.textContent).toContain('6 / 8');
    const rent = within(row).getByLabelText('租用 北京A区-4090-01');
    const target = new URL(rent.getAttribute('href') ?? '', 'http://localhost');
    expect(target.pathname).toBe('/ctrl-container-instances/createInstances');
    expect(Object.fromEntries(target.searchParams)).toEqual({ hostId: 'bj-a-4090-01', gpuNum: '2', chargingRuleId: '1' });
    // A host with fewer free GPUs than asked for cannot be rented.
    const small = (screen.getByText('北京A区-4090-02').closest('tr') as HTMLElement);
    expect(small.querySelector('a')).toBeNull();
    expect((within(small).getByText('仅空闲 1 卡').closest('button') as HTMLButtonElement).disabled).toBe(true);
  });

  it('is open signed out: 租用 is a link the sign-in guard sends through the login', async () => {
    mockApi({ 'GET /comppower/overview': () => ok(OVERVIEW), 'GET /comppower': () => page([HOST]) });
    useUserStore.getState().clear();
    renderPage(<MarketPage />, '/computility-market');
    expect((await screen.findByLabelText('租用 北京A区-4090-01')).tagName).toBe('A');
    expect(screen.queryByText('我的实例')).toBeNull();
  });

  it('focuses the step of its sub-path', async () => {
    mockApi({ 'GET /comppower/overview': () => ok(OVERVIEW), 'GET /comppower': () => page([HOST]) });
    renderPage(<MarketPage />, '/computility-market/region');
    await screen.findByText('北京A区-4090-01');
    expect(document.activeElement?.textContent).toBe('地区');
    expect(document.activeElement?.closest('section')?.className).toContain('is-focused');
  });

  it('shows loading, empty (with 清除筛选) and error (with 重试) states', async () => {
    mockApi({ 'GET /comppower/overview': pending, 'GET /comppower': pending });
    const loading = renderPage(<MarketPage />, '/computility-market');
    expect(loading.container.querySelector('.ant-skeleton')).toBeTruthy();
    cleanup();

    const api = mockApi({ 'GET /comppower/overview': () => ok(OVERVIEW), 'GET /comppower': () => page([]) });
    renderPage(<MarketPage />, '/computility-market?gpuNum=8');
    expect(await screen.findByText('没有符合条件的主机，换个型号、数量或地区试试')).toBeTruthy();
    fireEvent.click(screen.getByText('清除筛选'));
    await waitFor(() => expect(lastHostsQuery(api.fetchMock)).not.toHaveProperty('gpuNum'));
    expect(await screen.findByText('暂无可租主机')).toBeTruthy();
    cleanup();

    mockApi({ 'GET /comppower/overview': () => ok(OVERVIEW), 'GET /comppower': () => failure(500, 50000, '数据库连接失败') });
    renderPage(<MarketPage />, '/computility-market');
    expect(await screen.findByText('主机列表加载失败')).toBeTruthy();
    expect(screen.getByText('数据库连接失败')).toBeTruthy();
    expect(buttonByText('重试')).toBeTruthy();
  });
});

describe('market filters of the URL', () => {
  it('keep what can be right and drop the rest', () => {
    expect(parseMarketFilters({ gpuModelId: 'rtx4090', gpuNum: '3', zoneId: 'bj-a', sort: 'free' })).toEqual({
      chargingRuleId: 1,
      gpuModelId: 'rtx4090',
      gpuNum: 3,
      zoneId: 'bj-a',
      sort: 'free',
    });
    expect(parseMarketFilters({ gpuModelId: 'RTX 4090!', gpuNum: '9', zoneId: '', sort: 'cheap' })).toEqual({
      chargingRuleId: 1,
      gpuModelId: undefined,
      gpuNum: undefined,
      zoneId: undefined,
      sort: 'price',
    });
    expect(parseMarketFilters({ gpuNum: '0' }).gpuNum).toBeUndefined();
    expect(parseMarketFilters({ gpuNum: '1.5' }).gpuNum).toBeUndefined();
  });

  it('name the step of a sub-path', () => {
    expect(marketStepOf('/computility-market/quantity')).toBe('quantity');
    expect(marketStepOf('/computility-market/Region/')).toBe('region');
    expect(marketStepOf('/computility-market')).toBeNull();
  });
});
