/** 转按量计费 page: the refund as previewed, the confirm naming it, exactly rule 1 sent, refusals once, and the links that lead nowhere. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { InstanceView } from '../../../api/compute';
import { IDEMPOTENCY_HEADER } from '../../../api/idempotency';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, pending, renderPage, type Handler } from '../../ctrl-cost-center/testing';
import { RUNNING_INSTANCE } from '../testing';
import PayByVolumePage, { refundRows } from './index';

afterEach(cleanup);

const WEEKLY: InstanceView = {
  ...RUNNING_INSTANCE,
  instanceId: 'slg-wwwwwwwwww',
  rentalUid: '22222222-2222-4222-8222-222222222222',
  name: '包周机',
  chargingRuleId: 3,
  expiresAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
  autoRenew: true,
};
const PATH = `/ctrl-container-instances/payByVolume?instanceId=${WEEKLY.instanceId}`;
/** Paid ¥1,108.80, 8 hours used at ¥3.96/时: ¥1,077.12 back. */
const PREVIEW = { paid: 110_880, used: 3_168, refund: 107_712 };

function api(instance: InstanceView, routes: Record<string, Handler> = {}) {
  return mockApi({
    'GET /rental/detail': () => ok(instance),
    'GET /order/preview/refund': () => ok(PREVIEW),
    'GET /account/': () => ok({ totalBalance: 500_000 }),
    ...routes,
  });
}

describe('转按量计费 page', () => {
  it('shows the instance, the refund breakdown as previewed, that the voucher part and the GPUs are not kept; confirms naming the refund and sends rule 1', async () => {
    const fetched = api(WEEKLY, { 'PUT /rental/update_charging_rule': () => ok({ orderId: 'S1', refund: 107_712, payable: 0 }) });
    const { router } = renderPage(<PayByVolumePage />, PATH);
    expect(await screen.findByText('包周机（slg-wwwwwwwwww）')).toBeTruthy();
    expect(screen.getByText('包周')).toBeTruthy();
    expect(screen.getByText(dayjs(WEEKLY.expiresAt).format('YYYY-MM-DD HH:mm:ss'))).toBeTruthy();

    const figures = await waitFor(() => {
      const found = document.querySelector('dl[aria-label="退款明细"]');
      if (!found) throw new Error('no breakdown');
      return found as HTMLElement;
    });
    expect(within(figures).getByText('已支付（现金）').nextSibling?.textContent).toBe('¥1,108.80');
    expect(within(figures).getByText('已用部分（¥3.96/时 × 8 小时）').nextSibling?.textContent).toBe('-¥31.68');
    expect(within(figures).getByText('退回余额').nextSibling?.textContent).toBe('¥1,077.12');
    expect(screen.getByText('代金券抵扣的部分不退：「已支付」只含你用余额支付的金额。')).toBeTruthy();
    expect(screen.getByText(/GPU 不再为你保留/)).toBeTruthy();
    const preview = new URL(String(callsTo(fetched.fetchMock, 'GET', '/order/preview/refund')[0]?.[0]), 'http://localhost');
    expect(preview.searchParams.get('rentalUid')).toBe(WEEKLY.rentalUid);

    fireEvent.click(buttonByText('转按量计费，退回 ¥1,077.12'));
    const dialog = await findDialog();
    expect(within(dialog).getByText('实例「包周机」将立即改为按量计费，退回 ¥1,077.12 到余额。')).toBeTruthy();
    expect(callsTo(fetched.fetchMock, 'PUT', '/rental/update_charging_rule')).toHaveLength(0);
    fireEvent.click(buttonByText('转按量计费，退回 ¥1,077.12', dialog));
    await waitFor(() => expect(callsTo(fetched.fetchMock, 'PUT', '/rental/update_charging_rule')).toHaveLength(1));
    const [[input, init]] = callsTo(fetched.fetchMock, 'PUT', '/rental/update_charging_rule') as [[string, RequestInit]];
    expect(Object.fromEntries(new URL(String(input), 'http://localhost').searchParams)).toEqual({ instanceId: WEEKLY.instanceId, chargingRuleId: '1' });
    expect(new Headers(init.headers).get(IDEMPOTENCY_HEADER)).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/containerInstances'));
    expect(await screen.findByText('已转为按量计费，退回 ¥1,077.12')).toBeTruthy();
  });

  it('names the hours only when the figure is exactly rate × hours, and says when the use took all that was paid', () => {
    const label = (preview: typeof PREVIEW) => refundRows(preview, 396)[1]?.label;
    expect(label(PREVIEW)).toBe('已用部分（¥3.96/时 × 8 小时）');
    expect(label({ paid: 1_000, used: 1_000, refund: 0 })).toBe('已用部分达到已支付金额');
    expect(label({ paid: 110_880, used: 3_000, refund: 107_880 })).toBe('已用部分（按量单价 × 已用小时）');
  });

  it('a refusal is shown once, on the page', async () => {
    const refusal = '实例所在主机已下架';
    const fetched = api(WEEKLY, { 'PUT /rental/update_charging_rule': () => failure(409, 40900, refusal) });
    const { router } = renderPage(<PayByVolumePage />, PATH);
    fireEvent.click(await waitFor(() => buttonByText('转按量计费，退回 ¥1,077.12')));
    const dialog = await findDialog();
    fireEvent.click(buttonByText('转按量计费，退回 ¥1,077.12', dialog));
    expect(await screen.findByText(refusal)).toBeTruthy();
    // On the page under the button, not in the dialog that asked.
    expect(screen.getByText(refusal).closest('[role="dialog"]')).toBeNull();
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(screen.getAllByText(refusal)).toHaveLength(1);
    expect(fetched.notify).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/ctrl-container-instances/payByVolume');
  });

  it('a failed preview offers 重试 and nothing can be confirmed meanwhile', async () => {
    let down = true;
    api(WEEKLY, { 'GET /order/preview/refund': () => (down ? failure(500, 50000, '退款计算失败') : ok(PREVIEW)) });
    renderPage(<PayByVolumePage />, PATH);
    expect(await screen.findByText('退款预览加载失败')).toBeTruthy();
    expect(buttonByText('转按量计费').disabled).toBe(true);
    down = false;
    fireEvent.click(buttonByText('重试'));
    expect(await waitFor(() => buttonByText('转按量计费，退回 ¥1,077.12'))).toBeTruthy();
  });

  it('an instance busy with an operation cannot switch now, and says why', async () => {
    api({ ...WEEKLY, operation: 'power_off' });
    renderPage(<PayByVolumePage />, PATH);
    expect(await screen.findByText(/此时不能变更计费方式/)).toBeTruthy();
    expect((await waitFor(() => buttonByText('转按量计费，退回 ¥1,077.12'))).disabled).toBe(true);
  });

  it('pay-as-you-go already, a malformed link and a released instance each say so with the way back', async () => {
    api({ ...WEEKLY, chargingRuleId: 1, expiresAt: null });
    renderPage(<PayByVolumePage />, PATH);
    expect(await screen.findByText('该实例已是按量计费')).toBeTruthy();
    expect(screen.getByRole('link', { name: '转包年包月' }).getAttribute('href')).toBe(`/ctrl-container-instances/yearMonthPackages?instanceId=${WEEKLY.instanceId}`);
    cleanup();

    const malformed = api(WEEKLY);
    renderPage(<PayByVolumePage />, '/ctrl-container-instances/payByVolume?instanceId=nope');
    expect(await screen.findByText('链接中的实例ID不正确')).toBeTruthy();
    expect(callsTo(malformed.fetchMock, 'GET', '/rental/detail')).toHaveLength(0);
    cleanup();

    api(WEEKLY, { 'GET /rental/detail': () => failure(404, 40400, '实例不存在') });
    renderPage(<PayByVolumePage />, PATH);
    expect(await screen.findByText('实例不存在或已释放')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: '返回实例列表' }).length).toBeGreaterThan(0);
    cleanup();

    api(WEEKLY, { 'GET /rental/detail': () => pending() });
    renderPage(<PayByVolumePage />, PATH);
    await waitFor(() => expect(document.querySelector('.ant-skeleton')).toBeTruthy());
  });
});
