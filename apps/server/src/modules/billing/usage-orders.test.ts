/**
 * 我的订单 of a pay-as-you-go instance (issue 17): its order has no price up front (原价 and 实付 stay 0),
 * so the order views must say it is 按量 and report what its runs have been charged so far — after each
 * metering pass and after the power-off settles — in the list and in the detail alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { call, createTestApp, loginToken, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { orders } from '../../db/schema/index.js';
import { InstanceBillingJobs } from '../rental/billing-jobs.js';
import type { OrderDetail, OrderSummary } from './order-views.js';

let t: TestApp;
const HOURLY = 198;

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '2', SIM_START_SECONDS: '1', SIM_STOP_SECONDS: '1', SIM_DESTROY_SECONDS: '1' } });
});
afterAll(async () => {
  await t.close();
});

const settle = (seconds = 3) => settleMachines(t, seconds);

async function views(token: string, orderNo: string): Promise<{ listed: OrderSummary | undefined; detail: OrderDetail; stored: number }> {
  const list = await call<{ list: OrderSummary[] }>(t.app, { method: 'GET', url: '/api/v1/order?page=1&pageSize=10', token });
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  const detail = await call<OrderDetail>(t.app, { method: 'GET', url: `/api/v1/order/${orderNo}`, token });
  expect(detail.status, JSON.stringify(detail.body)).toBe(200);
  const [row] = await t.deps.database.db.select({ metered: orders.meteredFen }).from(orders).where(eq(orders.orderNo, orderNo));
  return { listed: list.body.result.list.find((order) => order.orderNo === orderNo), detail: detail.body.result, stored: row?.metered ?? -1 };
}

describe('pay-as-you-go orders in 我的订单', () => {
  it('report 按量 and the amount charged so far, in the list and the detail, as the runs are settled', async () => {
    const main = await registerUser(t);
    await rechargeThroughSandbox(t, main.jwtToken, 100_000);
    const created = await call<{ instanceId: string; orderId: string }>(t.app, {
      method: 'POST',
      url: '/api/v1/rental',
      token: main.jwtToken,
      payload: { hostId: 'bj-a-4090-02', gpuNum: 1, imageId: 'pytorch-2.5.1-py3.12-cu124', chargingRuleId: 1, rentAmount: 1 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { instanceId, orderId: orderNo } = created.body.result;
    await settle();

    const fresh = await views(main.jwtToken, orderNo);
    expect(fresh.listed).toMatchObject({ billingType: 'USAGE', status: 'PLACED', originalAmount: 0, paidAmount: 0, meteredAmount: 0 });
    expect(fresh.detail).toMatchObject({ billingType: 'USAGE', meteredAmount: 0 });
    expect(fresh.detail.items[0]).toMatchObject({ unit: '时', unitPrice: HOURLY, amount: 0 });

    // Half an hour of running, settled by the metering job.
    t.clock.advance(1800);
    const token = await loginToken(t, main.telephone);
    await new InstanceBillingJobs(t.deps).meterAndEnforce();
    const running = await views(token, orderNo);
    expect(running.stored).toBeGreaterThanOrEqual(HOURLY / 2);
    expect(running.listed?.meteredAmount).toBe(running.stored);
    expect(running.detail.meteredAmount).toBe(running.stored);
    expect(running.detail.transactions.reduce((total, transaction) => total + transaction.amount, 0)).toBe(-running.stored);

    // The power-off settles the rest of the run; the order keeps what it cost.
    t.clock.advance(600);
    const off = await call(t.app, { method: 'POST', url: '/api/v1/rental/power_off', token, payload: { instanceId } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    await settle();
    const stopped = await views(token, orderNo);
    expect(stopped.stored).toBeGreaterThan(running.stored);
    expect(stopped.listed).toMatchObject({ billingType: 'USAGE', status: 'PLACED', paidAmount: 0, meteredAmount: stopped.stored });
    expect(stopped.detail.meteredAmount).toBe(stopped.stored);
  }, 60_000);
});
