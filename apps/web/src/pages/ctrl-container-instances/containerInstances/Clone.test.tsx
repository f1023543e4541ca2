/** 克隆实例 / 迁移: hosts of the region with enough GPUs, the price before confirming, and what is sent. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { InstanceView } from '../../../api/compute';
import { IDEMPOTENCY_HEADER } from '../../../api/idempotency';
import { callsTo, mockApi, ok, page, renderPage } from '../../ctrl-cost-center/testing';
import { RUNNING_INSTANCE } from '../testing';
import { CloneDialog } from './components/CloneDialog';

afterEach(cleanup);

const OFF: InstanceView = { ...RUNNING_INSTANCE, status: 'PoweredOff', runStartedAt: null, dataDiskGb: 80 };
const HOSTS = [
  { hostId: 'bj-a-4090-01', hostName: '北京A区-4090-01', zoneName: '北京A区', gpuFree: 0, pricePerGpuFen: 198 },
  { hostId: 'bj-a-4090-02', hostName: '北京A区-4090-02', zoneName: '北京A区', gpuFree: 6, pricePerGpuFen: 198 },
];

function mock() {
  return mockApi({
    'GET /comppower': () => page(HOSTS),
    'GET /account/': () => ok({ totalBalance: 100_000, cashBalance: 100_000, giftBalance: 0 }),
    'POST /rental/clone/prepay': () => ok({ amount: 396, discount: 0, payable: 396, pricePerGpuFen: 198, unit: '时', balanceRequired: 396, expiresAt: null, dataDiskGb: 80, diskRateFenPerDay: 30, sourceInstanceId: OFF.instanceId }),
    'POST /rental/clone': () => ok({ instanceId: 'slg-bbbbbbbbbb', rentalId: 2, rentalUid: 'r-2', orderId: '1' }),
  });
}

describe('克隆实例', () => {
  it('asks the market for hosts of the region, shows the hourly and disk price, and sends the clone with its data disk once', async () => {
    const { fetchMock } = mock();
    renderPage(<CloneDialog instance={OFF} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/comppower').length).toBeGreaterThan(0));
    const [url] = callsTo(fetchMock, 'GET', '/comppower')[0] ?? [];
    const query = new URL(String(url), 'http://localhost').searchParams;
    expect(query.get('zoneId')).toBe('bj-a');
    expect(query.get('gpuNum')).toBe('2');

    fireEvent.mouseDown(within(dialog).getByLabelText('目标主机'));
    fireEvent.click(await screen.findByText('北京A区 · 北京A区-4090-02（空闲 6 卡，¥1.98/卡·时）'));
    expect(await within(dialog).findByText('¥3.96/时')).toBeTruthy();
    expect(within(dialog).getByText('¥0.30/天')).toBeTruthy();
    expect((within(dialog).getByRole('checkbox', { name: '同时复制数据盘（80 GB）' }) as HTMLInputElement).checked).toBe(true);

    fireEvent.click(within(dialog).getByRole('button', { name: '确认克隆' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/rental/clone')).toHaveLength(1));
    const [, init] = callsTo(fetchMock, 'POST', '/rental/clone')[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ instanceId: OFF.instanceId, hostId: 'bj-a-4090-02', gpuNum: 2, chargingRuleId: 1, copyData: true });
    expect(new Headers(init?.headers).get(IDEMPOTENCY_HEADER)).toBeTruthy();
  }, 20_000);

  it('a move keeps to the GPU model, leaves out the source host, and warns that the source will be released', async () => {
    const { fetchMock } = mock();
    renderPage(<CloneDialog instance={{ ...OFF, hostId: 'bj-a-4090-02' }} open move onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('原实例的系统盘和数据盘将在新实例运行后删除，请确认数据已随克隆复制。')).toBeTruthy();
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/comppower').length).toBeGreaterThan(0));
    const [url] = callsTo(fetchMock, 'GET', '/comppower')[0] ?? [];
    expect(new URL(String(url), 'http://localhost').searchParams.get('gpuModelId')).toBe('rtx4090');
    fireEvent.mouseDown(within(dialog).getByLabelText('目标主机'));
    expect(await screen.findByText('北京A区 · 北京A区-4090-01（空闲 0 卡，¥1.98/卡·时）')).toBeTruthy();
    expect(screen.queryByText(/北京A区-4090-02（/)).toBeNull();
    expect(within(dialog).getByRole('button', { name: '确认迁移' })).toBeTruthy();
  }, 20_000);
});
