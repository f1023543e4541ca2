/** 升降配置: the counts offered, the price before paying, the confirm that names the effect, and the refusals. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { InstanceView } from '../../../api/compute';
import { IDEMPOTENCY_HEADER } from '../../../api/idempotency';
import { callsTo, failure, findDialog, mockApi, ok, page, renderPage } from '../../ctrl-cost-center/testing';
import { RUNNING_INSTANCE } from '../testing';
import UpDownSettingPage from './index';

afterEach(cleanup);

const PATH = '/ctrl-container-instances/upDownSetting?instanceId=slg-aaaaaaaaaa';
const OFF_USAGE: InstanceView = { ...RUNNING_INSTANCE, status: 'PoweredOff', runStartedAt: null, poweredOffAt: '2025-01-01T01:00:00Z' };
const IN_A_DAY = new Date(Date.now() + 86_400_000).toISOString();
const OFF_PACKAGE: InstanceView = { ...OFF_USAGE, chargingRuleId: 2, expiresAt: IN_A_DAY };
const HOST = { hostId: RUNNING_INSTANCE.hostId, chargingRuleId: 1, gpuTotal: 8, gpuFree: 3, pricePerGpuFen: 198 };

function quote(from: number, to: number, money: { payable?: number; refund?: number } = {}) {
  return { fromGpuNum: from, toGpuNum: to, maxGpuNum: 8, hostFreeGpus: 3, hourlyFen: 198 * to, payable: money.payable ?? 0, refund: money.refund ?? 0, expiresAt: null };
}

function mock(instance: InstanceView, extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /rental/detail': () => ok(instance),
    'GET /comppower': () => page([HOST]),
    'GET /account/': () => ok({ totalBalance: 100_000, cashBalance: 100_000, giftBalance: 0 }),
    ...extra,
  });
}

describe('升降配置', () => {
  it('a running instance is told to power off first and cannot choose', async () => {
    mock(RUNNING_INSTANCE);
    renderPage(<UpDownSettingPage />, PATH);
    expect(await screen.findByText('实例须先关机才能变更GPU数量。关机后再回到本页即可。')).toBeTruthy();
    expect((screen.getByRole('radio', { name: '4 卡' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: '确认变更' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('pay-as-you-go: shows the new hourly rate, confirms naming it, and sends the count once with an Idempotency-Key', async () => {
    const { fetchMock } = mock(OFF_USAGE, {
      'POST /rental/change_gpu_num/prepay': (_url, init) => {
        const body = JSON.parse(String(init?.body)) as { gpuNum: number };
        return ok(quote(2, body.gpuNum));
      },
      'POST /rental/change_gpu_num': () => ok({ ...quote(2, 4), orderId: null }),
    });
    renderPage(<UpDownSettingPage />, PATH);
    // Pay-as-you-go holds no GPUs while off: every count of the host is offered.
    fireEvent.click(await screen.findByRole('radio', { name: '8 卡' }));
    fireEvent.click(screen.getByRole('radio', { name: '4 卡' }));
    await waitFor(() => expect(screen.getByText('¥7.92/时')).toBeTruthy());
    expect(screen.getByText('¥3.96/时')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '确认变更' }));
    const dialog = await findDialog();
    expect(within(dialog).getByText('实例将从 2 卡变为 4 卡，下次开机起按 ¥7.92/时 计费。')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '确认变更' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/rental/change_gpu_num')).toHaveLength(1));
    const [, init] = callsTo(fetchMock, 'POST', '/rental/change_gpu_num')[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ instanceId: 'slg-aaaaaaaaaa', gpuNum: 4 });
    expect(new Headers(init?.headers).get(IDEMPOTENCY_HEADER)).toBeTruthy();
  });

  it('a package offers no more than the host has free, shows what to pay or what comes back, and keeps a refusal on the page', async () => {
    const { fetchMock } = mock(OFF_PACKAGE, {
      'POST /rental/change_gpu_num/prepay': (_url, init) => {
        const body = JSON.parse(String(init?.body)) as { gpuNum: number };
        return ok(body.gpuNum > 2 ? quote(2, body.gpuNum, { payable: 1_234 }) : quote(2, body.gpuNum, { refund: 2_000 }));
      },
      'POST /rental/change_gpu_num': () => failure(409, 40900, '主机GPU不足：该主机当前空闲 0 卡，需要 3 卡'),
    });
    renderPage(<UpDownSettingPage />, PATH);
    // 2 held + 3 free: 6 or more cannot be had.
    await screen.findByText('该主机当前空闲 3 卡，共 8 卡');
    expect((screen.getByRole('radio', { name: '6 卡' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('radio', { name: '5 卡' }) as HTMLInputElement).disabled).toBe(false);

    fireEvent.click(screen.getByRole('radio', { name: '1 卡' }));
    expect(await screen.findByText('¥20.00')).toBeTruthy();
    expect(screen.getByText('退回余额')).toBeTruthy();
    expect(screen.getByRole('button', { name: '确认降配' })).toBeTruthy();

    fireEvent.click(screen.getByRole('radio', { name: '5 卡' }));
    fireEvent.click(await screen.findByRole('button', { name: '确认升配并支付 ¥12.34' }));
    const dialog = await findDialog();
    expect(within(dialog).getByText('实例将从 2 卡变为 5 卡，立即占用增加的GPU并从余额支付 ¥12.34。')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '确认变更' }));
    expect(await screen.findByText('主机GPU不足：该主机当前空闲 0 卡，需要 3 卡')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/rental/change_gpu_num')).toHaveLength(1);
  });

  it('a malformed id and a released instance say so', async () => {
    mock(OFF_USAGE, { 'GET /rental/detail': () => failure(404, 40400, '实例不存在') });
    renderPage(<UpDownSettingPage />, '/ctrl-container-instances/upDownSetting?instanceId=x');
    expect(await screen.findByText('链接中的实例ID不正确')).toBeTruthy();
    cleanup();
    mock(OFF_USAGE, { 'GET /rental/detail': () => failure(404, 40400, '实例不存在') });
    renderPage(<UpDownSettingPage />, PATH);
    expect(await screen.findByText('实例不存在或已释放')).toBeTruthy();
  });
});
