/** 实例列表 × 包日/包周/包月: billing shown per instance, 续费 (dialog), 批量续费 and switching (to their pages), 自动续费, 定时关机. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { InstanceView, RenewBody } from '../../../api/compute';
import { IDEMPOTENCY_HEADER } from '../../../api/idempotency';
import type { VoucherDto } from '../../../api/vouchers';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, page, queryDialog, renderPage, type Handler } from '../../ctrl-cost-center/testing';
import { billingMenuItems } from './components/BillingMenu';
import { expiryState } from './components/InstanceBilling';
import { scheduleProblem } from './components/ShutdownDialog';
import ContainerInstancesPage from './index';
import { canDo, releaseBlocker } from './instanceRules';

afterEach(() => cleanup());
import { RUNNING_INSTANCE } from '../testing';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();

const USAGE: InstanceView = { ...RUNNING_INSTANCE, instanceId: 'slg-uuuuuuuuuu', rentalUid: '11111111-1111-4111-8111-111111111111', name: '按量机' };

const WEEKLY: InstanceView = {
  ...USAGE,
  instanceId: 'slg-wwwwwwwwww',
  rentalId: 2,
  rentalUid: '22222222-2222-4222-8222-222222222222',
  name: '包周机',
  chargingRuleId: 3,
  expiresAt: inFuture(3 * DAY),
  autoRenew: false,
};

const DAILY: InstanceView = {
  ...USAGE,
  instanceId: 'slg-dddddddddd',
  rentalId: 3,
  rentalUid: '33333333-3333-4333-8333-333333333333',
  name: '包日机',
  status: 'PoweredOff',
  sshCommand: null,
  chargingRuleId: 2,
  expiresAt: inFuture(5 * HOUR),
  autoRenew: true,
};

const VOUCHER: VoucherDto = {
  id: 9,
  name: '续费立减券',
  amount: 1000,
  minOrderAmount: 0,
  scope: [],
  validFrom: '2025-01-01T00:00:00Z',
  validTo: inFuture(30 * DAY),
  status: 'UNUSED',
  usedAt: null,
  usedOrderNo: null,
};

/** A week of 2 × RTX 4090 costs ¥1,108.80 here, a day ¥174.24: the server's prices, not the console's. */
const PERIOD_PRICE: Record<string, number> = { [WEEKLY.instanceId]: 110880, [DAILY.instanceId]: 17424 };

function renewPrepay(url: URL, init: RequestInit | undefined) {
  void url;
  const body = JSON.parse(String(init?.body)) as RenewBody;
  const items = body.instanceIds.map((id) => {
    const instance = [WEEKLY, DAILY].find((item) => item.instanceId === id) as InstanceView;
    const days = instance === WEEKLY ? 7 : 1;
    return {
      instanceId: id,
      name: instance.name,
      packageName: instance === WEEKLY ? '包周' : '包日',
      amount: (PERIOD_PRICE[id] ?? 0) * body.rentAmount,
      expiresAt: new Date(Date.parse(instance.expiresAt ?? '') + days * body.rentAmount * DAY).toISOString(),
    };
  });
  const amount = items.reduce((total, item) => total + item.amount, 0);
  const discount = body.voucherId === VOUCHER.id ? VOUCHER.amount : 0;
  return ok({ amount, discount, payable: amount - discount, items });
}

function api(list: InstanceView[], routes: Record<string, Handler> = {}) {
  return mockApi({
    'GET /rental': () => page(list),
    'GET /account/': () => ok({ totalBalance: 500_000 }),
    'GET /voucher': () => page([VOUCHER]),
    'POST /rental/renew/prepay': renewPrepay,
    ...routes,
  });
}

function rowOf(name: string): HTMLElement {
  return screen.getByText(name, { selector: 'strong' }).closest('tr') as HTMLElement;
}

/** Opens the 更多 menu of a row and picks an entry; returns the dialog it opens. */
async function openFromMenu(name: string, entry: string): Promise<HTMLElement> {
  fireEvent.click(buttonByText('更多', rowOf(name)));
  fireEvent.click(await screen.findByText(entry, { selector: '.ant-dropdown-menu-title-content, .ant-dropdown-menu-title-content *' }));
  return findDialog();
}

/** Picks an option of the antd Select labelled `label` inside `container`. */
async function choose(container: HTMLElement, label: string, option: string) {
  fireEvent.mouseDown(within(container).getByLabelText(label));
  const options = await waitFor(() => {
    const found = [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].filter(
      (element) => element.textContent === option,
    );
    if (found.length === 0) throw new Error(`no option ${option}`);
    return found;
  });
  fireEvent.click(options[options.length - 1] as HTMLElement);
}

const bodiesOf = (fetchMock: ReturnType<typeof mockApi>['fetchMock'], method: string, path: string) =>
  callsTo(fetchMock, method, path).map(([, init]) => JSON.parse(String(init?.body)) as unknown);

describe('billing in the list', () => {
  it('shows 按量计费 with its price, and a package with its end (highlighted in its last day), 自动续费 and a scheduled power-off with 取消', async () => {
    const scheduled = { ...USAGE, scheduledPowerOffAt: '2026-12-01T14:00:00.000Z' };
    const fetched = api([scheduled, WEEKLY, DAILY], { 'DELETE /rental/power_off/cancel': () => ok({ ...scheduled, scheduledPowerOffAt: null }) });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('按量机');

    const usage = rowOf('按量机');
    expect(within(usage).getByText('按量计费')).toBeTruthy();
    expect(within(usage).getByText('¥3.96/时')).toBeTruthy();
    const scheduledAt = dayjs('2026-12-01T14:00:00.000Z').format('YYYY-MM-DD HH:mm');
    const schedule = within(usage).getByText(scheduledAt, { selector: 'time' });
    expect(schedule.getAttribute('dateTime')).toBe('2026-12-01T14:00:00.000Z');
    expect(schedule.parentElement?.textContent).toBe(`定时关机 ${scheduledAt}`);

    const weekly = rowOf('包周机');
    expect(within(weekly).getByText('包周')).toBeTruthy();
    expect(within(weekly).getByText(`到期 ${dayjs(WEEKLY.expiresAt).format('YYYY-MM-DD HH:mm:ss')}`)).toBeTruthy();
    expect(within(weekly).getByText('自动续费：关')).toBeTruthy();
    expect(within(weekly).queryByText(/不足 24 小时/)).toBeNull();

    const daily = rowOf('包日机');
    expect(within(daily).getByText('包日')).toBeTruthy();
    expect(within(daily).getByText(/不足 24 小时/).closest('.ant-typography-warning')).toBeTruthy();
    expect(within(daily).getByText(/自动续费：开/)).toBeTruthy();
    // A stopped package keeps its GPUs and is not released before its end: 释放 is there, disabled.
    expect(buttonByText('释放', daily).disabled).toBe(true);

    fireEvent.click(buttonByText('取消', usage));
    await waitFor(() => expect(callsTo(fetched.fetchMock, 'DELETE', '/rental/power_off/cancel')).toHaveLength(1));
    const url = new URL(String(callsTo(fetched.fetchMock, 'DELETE', '/rental/power_off/cancel')[0]?.[0]), 'http://localhost');
    expect(url.searchParams.get('instanceId')).toBe(USAGE.instanceId);
  });

  it('powers a package on with its kept GPUs only: no 无卡模式, no hourly price', async () => {
    const fetched = api([DAILY], { 'POST /rental/power_on': () => ok({ ...DAILY, operation: 'power_on' }) });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('包日机');
    fireEvent.click(buttonByText('开机'));
    const dialog = await findDialog();
    expect((within(dialog).getByLabelText(/^无卡模式开机/, { selector: 'input' }) as HTMLInputElement).disabled).toBe(true);
    expect(dialog.textContent).toContain('使用为你保留的 RTX 4090 × 2，已预付');
    fireEvent.click(buttonByText('有卡开机', dialog));
    await waitFor(() => expect(bodiesOf(fetched.fetchMock, 'POST', '/rental/power_on')).toEqual([{ instanceId: DAILY.instanceId, mode: 'gpu' }]));
  });

  it('offers the billing actions by charging rule and state', () => {
    expect(canDo(WEEKLY, 'renew')).toBe(true);
    expect(canDo(USAGE, 'renew')).toBe(false);
    expect(canDo(WEEKLY, 'auto_renew')).toBe(true);
    expect(canDo(USAGE, 'auto_renew')).toBe(false);
    expect(canDo({ ...WEEKLY, operation: 'power_off' }, 'renew')).toBe(true);
    expect(canDo({ ...WEEKLY, operation: 'power_off' }, 'switch_charging')).toBe(false);
    expect(canDo({ ...USAGE, status: 'PoweredOnNoGPU' }, 'switch_charging')).toBe(false);
    expect(canDo(USAGE, 'schedule_power_off')).toBe(true);
    expect(canDo(DAILY, 'schedule_power_off')).toBe(false);
    // 无卡模式 only for pay-as-you-go; 释放 not before a package ends.
    expect(canDo(DAILY, 'power_on')).toBe(true);
    expect(canDo(DAILY, 'power_on_nogpu')).toBe(false);
    expect(canDo({ ...USAGE, status: 'PoweredOff' }, 'power_on_nogpu')).toBe(true);
    expect(canDo(DAILY, 'release')).toBe(false);
    expect(releaseBlocker(DAILY)).toBe('switch_to_usage_first');
    expect(releaseBlocker(WEEKLY)).toBe('switch_to_usage_first');
    expect(canDo({ ...DAILY, expiresAt: inFuture(-HOUR) }, 'release')).toBe(true);
    expect(canDo({ ...USAGE, status: 'PoweredOff' }, 'release')).toBe(true);
    expect(releaseBlocker(USAGE)).toBe('power_off_first');
    // A copy from or into the instance holds back what would destroy an end; the rest stays.
    const copying = { ...USAGE, status: 'PoweredOff' as const, copyTask: { taskId: 't-1', role: 'target' as const, peerInstanceId: 'slg-bbbbbbbbbb', progress: 40, path: '/root/slg-data' } };
    for (const action of ['release', 'reset', 'switch_image'] as const) expect(canDo(copying, action)).toBe(false);
    expect(canDo(copying, 'power_on')).toBe(true);
    expect(releaseBlocker(copying)).toBe('copy_running');
  });

  it('highlights the last day and schedules only within the server window', () => {
    const now = Date.parse('2026-11-30T12:00:00Z');
    expect(expiryState('2026-12-02T12:00:00Z', now)).toBe('later');
    expect(expiryState('2026-12-01T11:00:00Z', now)).toBe('soon');
    expect(expiryState('2026-11-30T11:00:00Z', now)).toBe('expired');
    const local = (ms: number) => dayjs(now + ms).format('YYYY-MM-DDTHH:mm');
    expect(scheduleProblem('', now)).toBe('请选择关机时间');
    expect(scheduleProblem(local(30_000), now)).toBe('关机时间须晚于当前时间至少 1 分钟');
    expect(scheduleProblem(local(5 * 60_000), now)).toBeNull();
    expect(scheduleProblem(local(30 * DAY), now)).toBeNull();
    expect(scheduleProblem(local(30 * DAY + 60_000), now)).toBe('关机时间不能晚于 30 天后');
  });
});

describe('续费', () => {
  it('shows the server price for the chosen count and voucher, and pays exactly that with an Idempotency-Key', async () => {
    const fetched = api([WEEKLY], { 'POST /rental/renew': () => ok({ orderIds: ['R1'] }) });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('包周机');
    const dialog = await openFromMenu('包周机', '续费');
    expect(within(dialog).getByText(dayjs(WEEKLY.expiresAt).format('YYYY-MM-DD HH:mm:ss'))).toBeTruthy();
    // 原价 and 应付 (no voucher yet).
    expect(await within(dialog).findAllByText('¥1,108.80')).toHaveLength(2);
    expect(within(dialog).getByText(dayjs(Date.parse(WEEKLY.expiresAt ?? '') + 7 * DAY).format('YYYY-MM-DD HH:mm:ss'))).toBeTruthy();
    expect(buttonByText('确认续费 ¥1,108.80', dialog)).toBeTruthy();

    await choose(dialog, '续费时长', '2 周');
    expect(await within(dialog).findAllByText('¥2,217.60')).toHaveLength(2);
    expect(within(dialog).getByText(dayjs(Date.parse(WEEKLY.expiresAt ?? '') + 14 * DAY).format('YYYY-MM-DD HH:mm:ss'))).toBeTruthy();
    await choose(dialog, '代金券', '续费立减券（抵扣 ¥10.00）');
    expect(await within(dialog).findByText('-¥10.00')).toBeTruthy();
    expect(within(dialog).getByText('¥2,207.60')).toBeTruthy();
    const confirm = await waitFor(() => buttonByText('确认续费 ¥2,207.60', dialog));
    expect(bodiesOf(fetched.fetchMock, 'POST', '/rental/renew')).toHaveLength(0);
    await waitFor(() => expect(confirm.disabled).toBe(false));
    fireEvent.click(confirm);

    await waitFor(() => expect(callsTo(fetched.fetchMock, 'POST', '/rental/renew')).toHaveLength(1));
    expect(bodiesOf(fetched.fetchMock, 'POST', '/rental/renew')).toEqual([{ instanceIds: [WEEKLY.instanceId], rentAmount: 2, voucherId: 9 }]);
    const headers = new Headers(callsTo(fetched.fetchMock, 'POST', '/rental/renew')[0]?.[1]?.headers);
    expect(headers.get(IDEMPOTENCY_HEADER)).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(queryDialog()).toBeNull());
  });

  it('shows a refusal in the dialog, once (no toast)', async () => {
    const fetched = api([WEEKLY], { 'POST /rental/renew': () => failure(402, 40200, '余额不足：需支付 ¥1,108.80，当前余额 ¥5,000.00') });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('包周机');
    const dialog = await openFromMenu('包周机', '续费');
    const confirm = await waitFor(() => buttonByText('确认续费 ¥1,108.80', dialog));
    await waitFor(() => expect(confirm.disabled).toBe(false));
    fireEvent.click(confirm);
    expect(await within(dialog).findByText('余额不足：需支付 ¥1,108.80，当前余额 ¥5,000.00')).toBeTruthy();
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(fetched.notify).not.toHaveBeenCalled();
  });

  it('批量续费 takes the chosen packages to the 续费 page (pay-as-you-go cannot be chosen)', async () => {
    const fetched = api([USAGE, WEEKLY, DAILY]);
    const { router } = renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('包周机');
    expect(buttonByText('批量续费').disabled).toBe(true);
    expect((rowOf('按量机').querySelector('input[type="checkbox"]') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(rowOf('包周机').querySelector('input[type="checkbox"]') as HTMLInputElement);
    fireEvent.click(rowOf('包日机').querySelector('input[type="checkbox"]') as HTMLInputElement);
    fireEvent.click(buttonByText('批量续费（2）'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/renew'));
    expect(router.state.location.search).toBe(`?instanceIds=${WEEKLY.instanceId},${DAILY.instanceId}`);
    // Nothing is priced or paid from the list: the page does that.
    expect(queryDialog()).toBeNull();
    expect(callsTo(fetched.fetchMock, 'POST', '/rental/renew/prepay')).toHaveLength(0);
  });
});

describe('switching the charging rule', () => {
  it('转按量计费 and 转包年包月 in 更多 open their pages, by charging rule', async () => {
    const labels = (instance: InstanceView) => billingMenuItems(instance).map((item) => item.label);
    expect(labels(WEEKLY)).toContain('转按量计费');
    expect(labels(WEEKLY)).not.toContain('转包年包月');
    expect(labels(USAGE)).toContain('转包年包月');
    expect(labels(USAGE)).not.toContain('转按量计费');
    api([USAGE, WEEKLY]);
    const { router } = renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('包周机');
    fireEvent.click(buttonByText('更多', rowOf('包周机')));
    fireEvent.click(await screen.findByText('转按量计费', { selector: '.ant-dropdown-menu-title-content' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/payByVolume'));
    expect(router.state.location.search).toBe(`?instanceId=${WEEKLY.instanceId}`);
    expect(queryDialog()).toBeNull();

    await act(() => router.navigate('/x'));
    await screen.findByText('按量机');
    fireEvent.click(buttonByText('更多', rowOf('按量机')));
    fireEvent.click(await screen.findByText('转包年包月', { selector: '.ant-dropdown-menu-title-content' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/yearMonthPackages'));
    expect(router.state.location.search).toBe(`?instanceId=${USAGE.instanceId}`);
  });
});

describe('自动续费 and 定时关机', () => {
  it('turns auto-renew on with its price said first, and off', async () => {
    const fetched = api([WEEKLY, DAILY], { 'PUT /rental/auto_renew': () => ok(null) });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('包周机');
    const dialog = await openFromMenu('包周机', '开启自动续费');
    expect(await within(dialog).findByText(/到期时从余额自动续费 1 周（当前价格 ¥1,108.80）/)).toBeTruthy();
    fireEvent.click(buttonByText('开启自动续费', dialog));
    await waitFor(() => expect(callsTo(fetched.fetchMock, 'PUT', '/rental/auto_renew')).toHaveLength(1));
    await waitFor(() => expect(queryDialog()).toBeNull());

    const off = await openFromMenu('包日机', '关闭自动续费');
    fireEvent.click(buttonByText('关闭自动续费', off));
    await waitFor(() => expect(callsTo(fetched.fetchMock, 'PUT', '/rental/auto_renew')).toHaveLength(2));
    expect(bodiesOf(fetched.fetchMock, 'PUT', '/rental/auto_renew')).toEqual([
      { instanceId: WEEKLY.instanceId, autoRenew: true },
      { instanceId: DAILY.instanceId, autoRenew: false },
    ]);
  });

  it('schedules a power-off at the chosen China time as ISO, refusing one too soon; 立即关机 sends no time', async () => {
    const fetched = api([USAGE], { 'POST /rental/power_off': () => ok({ ...USAGE, scheduledPowerOffAt: inFuture(DAY) }) });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('按量机');
    const dialog = await openFromMenu('按量机', '定时关机');
    const input = within(dialog).getByLabelText('关机时间') as HTMLInputElement;

    fireEvent.change(input, { target: { value: dayjs().subtract(1, 'hour').format('YYYY-MM-DDTHH:mm') } });
    expect(await within(dialog).findByText('关机时间须晚于当前时间至少 1 分钟')).toBeTruthy();
    expect(buttonByText('设置定时关机', dialog).disabled).toBe(true);

    const at = dayjs().add(2, 'day').hour(22).minute(0).second(0).millisecond(0);
    fireEvent.change(input, { target: { value: at.format('YYYY-MM-DDTHH:mm') } });
    fireEvent.click(buttonByText(`定时关机 ${at.format('YYYY-MM-DD HH:mm')}`, dialog));
    await waitFor(() => expect(callsTo(fetched.fetchMock, 'POST', '/rental/power_off')).toHaveLength(1));
    const [sent] = bodiesOf(fetched.fetchMock, 'POST', '/rental/power_off') as { instanceId: string; at: string }[];
    expect(sent).toEqual({ instanceId: USAGE.instanceId, at: at.toISOString() });
    expect(sent?.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    await waitFor(() => expect(queryDialog()).toBeNull());

    const now = await openFromMenu('按量机', '定时关机');
    fireEvent.click(within(now).getByText('立即关机'));
    expect(now.textContent).toContain('GPU 将被释放');
    fireEvent.click(buttonByText('立即关机', now));
    await waitFor(() => expect(callsTo(fetched.fetchMock, 'POST', '/rental/power_off')).toHaveLength(2));
    expect(bodiesOf(fetched.fetchMock, 'POST', '/rental/power_off')[1]).toEqual({ instanceId: USAGE.instanceId });
  });
});
