/** 价格详情: each GPU model's lowest price per charging rule from the market, and the operator's fees. */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { failure, mockApi, ok, renderPage } from '../../ctrl-cost-center/testing';
import PriceDetailPage from './index';

afterEach(cleanup);

const UNITS: Record<string, string> = { '1': '时', '2': '天', '3': '周', '4': '月' };
const PRICES: Record<string, number> = { '1': 198, '2': 4356, '3': 27720, '4': 102960 };
const FEES = { noGpuPricePerHourFen: 10, diskPriceFenPerGbDay: 1, freeDataDiskGb: 50, systemDiskGb: 30, privateImageQuotaGb: 30, balanceCoverHours: 1, autoReleaseDays: 15 };

function overview(rule: string) {
  const figures = { hostCount: 8, gpuTotal: 64, gpuFree: 40, maxFreeOnHost: 8, minPricePerGpuFen: PRICES[rule] ?? 0 };
  return {
    chargingRuleId: Number(rule),
    unit: UNITS[rule],
    gpuModels: [
      { ...figures, gpuModelId: 'rtx4090', gpuModelName: 'RTX 4090', gpuMemoryGb: 24 },
      // A model with no host selling this rule has no price.
      { ...figures, hostCount: rule === '1' ? 2 : 0, gpuModelId: 'h800', gpuModelName: 'H800', gpuMemoryGb: 80, minPricePerGpuFen: rule === '1' ? 1_500 : 0 },
    ],
    zones: [],
    cells: [],
  };
}

describe('价格详情', () => {
  it('lists the lowest price of each model per rule, links to the market, and shows the fees', async () => {
    mockApi({
      'GET /comppower/overview': (url) => ok(overview(url.searchParams.get('chargingRuleId') ?? '1')),
      'GET /meta/fees': () => ok(FEES),
    });
    renderPage(<PriceDetailPage />, '/ctrl-container-instances/priceDetail');
    const row = (await screen.findByText('RTX 4090')).closest('tr') as HTMLElement;
    for (const text of ['¥1.98/时', '¥43.56/天', '¥277.20/周', '¥1,029.60/月', '40 / 64']) expect(within(row).getByText(text)).toBeTruthy();
    expect(within(row).getByRole('link', { name: '去租用' }).getAttribute('href')).toBe('/computility-market?gpuModelId=rtx4090');
    const h800 = screen.getByText('H800').closest('tr') as HTMLElement;
    expect(within(h800).getByText('¥15.00/时')).toBeTruthy();
    expect(within(h800).getAllByText('暂无')).toHaveLength(3);
    expect(await screen.findByText('每个实例 50 GB 免费；超出部分 ¥0.01/GB/天，开机关机都计费')).toBeTruthy();
    expect(screen.getByText(/¥0\.10\/时（2 核 CPU、4 GB 内存/)).toBeTruthy();
  });

  it('a failed market answer says so with a retry', async () => {
    mockApi({ 'GET /comppower/overview': () => failure(503, 50300, '服务暂不可用'), 'GET /meta/fees': () => ok(FEES) });
    renderPage(<PriceDetailPage />, '/ctrl-container-instances/priceDetail');
    expect(await screen.findByText('价格加载失败')).toBeTruthy();
  });
});
