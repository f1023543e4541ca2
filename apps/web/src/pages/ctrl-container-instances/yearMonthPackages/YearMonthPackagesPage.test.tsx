/** 转包年包月 page: the package priced from the market before paying, the tip saying what changes, exactly that sent, refusals once. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { InstanceView } from '../../../api/compute';
import { IDEMPOTENCY_HEADER } from '../../../api/idempotency';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, page, renderPage, type Handler } from '../../ctrl-cost-center/testing';
import { RUNNING_INSTANCE } from '../testing';
import YearMonthPackagesPage from './index';

afterEach(cleanup);

const USAGE: InstanceView = { ...RUNNING_INSTANCE, name: '按量机' };
const PATH = `/ctrl-container-instances/yearMonthPackages?instanceId=${USAGE.instanceId}`;
/** ¥40.00 per GPU-day, ¥250.00 per GPU-week, ¥990.00 per GPU-month on this host. */
const PRICES: Record<string, number> = { '2': 4_000, '3': 25_000, '4': 99_000 };

const market: Handler = (url) =>
  page([
    {
      hostId: USAGE.hostId,
      chargingRuleId: Number(url.searchParams.get('chargingRuleId')),
      pricePerGpuFen: PRICES[url.searchParams.get('chargingRuleId') ?? ''] ?? 0,
      gpuFree: 1,
      gpuTotal: 8,
    },
  ]);

function api(instance: InstanceView, routes: Record<string, Handler> = {}) {
  return mockApi({
    'GET /rental/detail': () => ok(instance),
    'GET /comppower': market,
    'GET /account/': () => ok({ totalBalance: 1_000_000 }),
    ...routes,
  });
}

/** Picks an option of the antd Select labelled `label`. */
async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByLabelText(label));
  const options = await waitFor(() => {
    const found = [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].filter(
      (element) => element.textContent === option,
    );
    if (found.length === 0) throw new Error(`no option ${option}`);
    return found;
  });
  fireEvent.click(options[options.length - 1] as HTMLElement);
}

const sent = (fetchMock: ReturnType<typeof mockApi>['fetchMock']) =>
  callsTo(fetchMock, 'PUT', '/rental/update_charging_rule').map(([input]) => Object.fromEntries(new URL(String(input), 'http://localhost').searchParams));

describe('转包年包月 page', () => {
  it('prices the chosen package before paying, says what changes in the tip, and sends that rule and count', async () => {
    const fetched = api(USAGE, { 'PUT /rental/update_charging_rule': () => ok({ orderId: 'S2', refund: 0, payable: 594_000 }) });
    const { router } = renderPage(<YearMonthPackagesPage />, PATH);
    expect(await screen.findByText('按量计费（¥3.96/时）')).toBeTruthy();
    // 包日 × 1 by default: ¥40.00 per GPU-day × 2 GPUs.
    expect(await screen.findByText('¥80.00')).toBeTruthy();
    expect(screen.getByText('转包年包月暂不支持使用代金券，费用全部从余额支付。')).toBeTruthy();
    fireEvent.click(screen.getByText('包月'));
    expect(await screen.findByText('¥1,980.00')).toBeTruthy();
    await choose('时长', '3 个月');
    expect(await screen.findByText('¥5,940.00')).toBeTruthy();
    expect(screen.getByText('¥990.00/卡·月')).toBeTruthy();
    expect(screen.getByText('到期时间（从支付时起算）')).toBeTruthy();

    fireEvent.click(buttonByText('支付 ¥5,940.00 并转换'));
    const tip = await findDialog();
    expect(within(tip).getByText('确认转为包月')).toBeTruthy();
    expect(within(tip).getByText('实例「按量机」将转为包月（3 个月），从余额支付 ¥5,940.00。')).toBeTruthy();
    expect(tip.textContent).toContain('按周期计费');
    expect(tip.textContent).toContain('GPU 全程为你保留');
    expect(tip.textContent).toContain('如中途转回按量计费');
    expect(sent(fetched.fetchMock)).toHaveLength(0);
    fireEvent.click(buttonByText('支付 ¥5,940.00 并转换', tip));

    await waitFor(() => expect(sent(fetched.fetchMock)).toEqual([{ instanceId: USAGE.instanceId, chargingRuleId: '4', rentAmount: '3' }]));
    expect(new Headers(callsTo(fetched.fetchMock, 'PUT', '/rental/update_charging_rule')[0]?.[1]?.headers).get(IDEMPOTENCY_HEADER)).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/containerInstances'));
    expect(await screen.findByText(/^已转为包月，到期时间 /)).toBeTruthy();
  });

  it('a powered-off instance is warned when the host has too few free GPUs to keep for it', async () => {
    api({ ...USAGE, status: 'PoweredOff' });
    renderPage(<YearMonthPackagesPage />, PATH);
    expect(await screen.findByText('主机当前空闲 1 卡，转包年包月需要为关机的实例重新预留 2 卡，可能失败')).toBeTruthy();
  });

  it('a refusal is shown once, on the page', async () => {
    const refusal = '余额不足：需支付 ¥80.00，当前余额 ¥1.00';
    const fetched = api(USAGE, { 'PUT /rental/update_charging_rule': () => failure(402, 40200, refusal) });
    renderPage(<YearMonthPackagesPage />, PATH);
    fireEvent.click(await waitFor(() => buttonByText('支付 ¥80.00 并转换')));
    fireEvent.click(buttonByText('支付 ¥80.00 并转换', await findDialog()));
    expect(await screen.findByText(refusal)).toBeTruthy();
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(screen.getAllByText(refusal)).toHaveLength(1);
    expect(screen.getByText(refusal).closest('[role="dialog"]')).toBeNull();
    expect(fetched.notify).not.toHaveBeenCalled();
  });

  it('a host that left the market cannot be switched to a package', async () => {
    api(USAGE, { 'GET /comppower': () => page([]) });
    renderPage(<YearMonthPackagesPage />, PATH);
    expect(await screen.findByText('实例所在主机已下架，不能转包年包月')).toBeTruthy();
    expect(buttonByText('支付并转换').disabled).toBe(true);
  });

  it('no-GPU mode running cannot switch now, and says why', async () => {
    api({ ...USAGE, status: 'PoweredOnNoGPU' });
    renderPage(<YearMonthPackagesPage />, PATH);
    expect(await screen.findByText(/「无卡模式运行中」，此时不能变更计费方式/)).toBeTruthy();
    expect((await waitFor(() => buttonByText('支付 ¥80.00 并转换'))).disabled).toBe(true);
  });

  it('a package already offers 续费 and 转按量计费 instead; a malformed link says so', async () => {
    api({ ...USAGE, chargingRuleId: 3, expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    renderPage(<YearMonthPackagesPage />, PATH);
    expect(await screen.findByText('该实例已是包周')).toBeTruthy();
    expect(screen.getByRole('link', { name: '去续费' }).getAttribute('href')).toBe(`/ctrl-container-instances/renew?instanceIds=${USAGE.instanceId}`);
    expect(screen.getByRole('link', { name: '转按量计费' }).getAttribute('href')).toBe(`/ctrl-container-instances/payByVolume?instanceId=${USAGE.instanceId}`);
    cleanup();

    api(USAGE);
    renderPage(<YearMonthPackagesPage />, '/ctrl-container-instances/yearMonthPackages');
    expect(await screen.findByText('链接中的实例ID不正确')).toBeTruthy();
  });
});
