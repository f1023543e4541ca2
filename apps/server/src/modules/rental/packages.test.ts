import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { PACKAGE_PRICE_HOURS } from '@slg/shared';
import { call, createTestApp, loginToken, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { hosts, instanceEvents, instances, notifications, orders, users, vouchers } from '../../db/schema/index.js';
import { unbalancedTransactions, walletsOutOfBalance } from '../billing/ledger.js';
import { InstanceBillingJobs } from './billing-jobs.js';
import { PackageService } from './packages.js';
import type { InstanceView } from './views.js';

let t: TestApp;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
/** RTX 4090 hosts at the seed price, 198 fen per GPU-hour, 8 GPUs each: a test that needs a host of its own takes another. */
let HOST = 'bj-a-4090-01';
const HOURLY = 198;
const DAY = HOURLY * PACKAGE_PRICE_HOURS.day;
const WEEK = HOURLY * PACKAGE_PRICE_HOURS.week;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '4', SIM_START_SECONDS: '2', SIM_STOP_SECONDS: '2', SIM_DESTROY_SECONDS: '2' } });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;

const settle = (seconds = 5) => settleMachines(t, seconds);

type User = { telephone: string; jwtToken: string };

async function fundedUser(fen: number): Promise<User> {
  const user = await registerUser(t);
  if (fen > 0) await rechargeThroughSandbox(t, user.jwtToken, fen);
  return user;
}

async function fresh(user: User): Promise<string> {
  user.jwtToken = await loginToken(t, user.telephone);
  return user.jwtToken;
}

async function balanceOf(user: User): Promise<number> {
  const account = await call<{ totalBalance: number }>(t.app, { method: 'GET', url: '/api/v1/account/', token: await fresh(user) });
  return account.body.result.totalBalance;
}

async function allocated(): Promise<number> {
  const [host] = await db().select().from(hosts).where(eq(hosts.id, HOST));
  return host?.gpuAllocated ?? -1;
}

async function create(user: User, body: Record<string, unknown>) {
  return call<{ instanceId: string; rentalUid: string; orderId: string }>(t.app, {
    method: 'POST',
    url: '/api/v1/rental',
    token: user.jwtToken,
    payload: { hostId: HOST, gpuNum: 1, imageId: IMAGE, ...body },
  });
}

async function detail(user: User, instanceId: string): Promise<InstanceView> {
  const found = await call<InstanceView>(t.app, { method: 'GET', url: `/api/v1/rental/detail?instanceId=${instanceId}`, token: user.jwtToken });
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  return found.body.result;
}

async function running(user: User, body: Record<string, unknown>): Promise<{ instanceId: string; rentalUid: string }> {
  const created = await create(user, body);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await settle(5);
  expect((await detail(user, created.body.result.instanceId)).status).toBe('PoweredOn');
  return created.body.result;
}

const send = <T = unknown>(user: User, method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, payload?: Record<string, unknown>) =>
  call<T>(t.app, { method, url, token: user.jwtToken, ...(payload ? { payload } : {}) });

describe('buying a package', () => {
  it('pays the package upfront, keeps the GPUs while off, powers on without a balance and refuses early release', async () => {
    const user = await fundedUser(WEEK + 500);
    const before = await allocated();

    const prepay = await send<{ amount: number; payable: number; expiresAt: string; unit: string }>(user, 'POST', '/api/v1/rental/prepay', { hostId: HOST, gpuNum: 1, chargingRuleId: 3, rentAmount: 1 });
    expect(prepay.status, JSON.stringify(prepay.body)).toBe(200);
    expect(prepay.body.result).toMatchObject({ amount: WEEK, payable: WEEK, unit: '周' });
    expect(Math.abs(new Date(prepay.body.result.expiresAt).getTime() - (t.deps.now().getTime() + 7 * DAY_MS))).toBeLessThan(1000);

    const { instanceId } = await running(user, { chargingRuleId: 3, rentAmount: 1, autoRenew: true });
    expect(await balanceOf(user)).toBe(500);
    const view = await detail(user, instanceId);
    expect(view).toMatchObject({ chargingRuleId: 3, autoRenew: true });
    expect(view.expiresAt).not.toBeNull();

    // Running on a package costs nothing more per minute.
    t.clock.advance(3600);
    await new InstanceBillingJobs(t.deps).meter();
    expect(await balanceOf(user)).toBe(500);

    expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
    await settle(3);
    expect((await detail(user, instanceId)).status).toBe('PoweredOff');
    // The GPUs stay reserved for the package.
    expect(await allocated()).toBe(before + 1);

    const noGpu = await send(user, 'POST', '/api/v1/rental/power_on', { instanceId, mode: 'nogpu' });
    expect(noGpu.status).toBe(400);
    expect(noGpu.body.rspmsg).toContain('不提供无卡模式');

    const release = await send(user, 'DELETE', `/api/v1/rental?instanceId=${instanceId}`);
    expect(release.status).toBe(409);
    expect(release.body.rspmsg).toContain('请先转为按量计费');

    // 500 fen would not cover an hour of pay-as-you-go for many GPUs, but a package needs no cover.
    expect((await send(user, 'POST', '/api/v1/rental/power_on', { instanceId, mode: 'gpu' })).status).toBe(200);
    await settle(3);
    expect((await detail(user, instanceId)).status).toBe('PoweredOn');
    expect(await allocated()).toBe(before + 1);
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });

  it('refuses counts a package does not sell, a short balance (creating nothing) and vouchers on pay-as-you-go', async () => {
    const user = await fundedUser(DAY);
    const before = await allocated();
    const count = await db().$count(instances);

    const badCount = await create(user, { chargingRuleId: 4, rentAmount: 11 });
    expect(badCount.status).toBe(400);
    expect(badCount.body.rspmsg).toContain('包月可选 1、2、3、4、5、6、7、8、9、10、20、50、100 个月');
    const missing = await create(user, { chargingRuleId: 2 });
    expect(missing.status).toBe(400);
    expect(missing.body.rspmsg).toContain('请选择包日时长');

    const short = await create(user, { chargingRuleId: 2, rentAmount: 2 });
    expect(short.status).toBe(400);
    expect(short.body.rspmsg).toContain(`需支付¥${((2 * DAY) / 100).toFixed(2)}`);
    expect(await db().$count(instances)).toBe(count);
    expect(await allocated()).toBe(before);

    const voucherOnUsage = await create(user, { chargingRuleId: 1, voucherId: 1 });
    expect(voucherOnUsage.status).toBe(400);
    expect(voucherOnUsage.body.rspmsg).toContain('按量计费不能使用代金券');
  });
});

describe('switching a package to pay-as-you-go', () => {
  it('refunds paid − hourly price × hours begun, exactly as previewed, never the voucher part', async () => {
    const user = await fundedUser(DAY + 1000);
    const [owner] = await db().select({ id: users.id }).from(users).where(eq(users.telephone, user.telephone));
    const now = t.deps.now();
    const [voucher] = await db()
      .insert(vouchers)
      .values({ ownerId: owner?.id ?? 0, name: '新人券', amountFen: 1000, validFrom: new Date(now.getTime() - 1000), validTo: new Date(now.getTime() + 30 * DAY_MS), source: 'GRANT' })
      .returning();

    const prepay = await send<{ amount: number; discount: number; payable: number }>(user, 'POST', '/api/v1/rental/prepay', { hostId: HOST, gpuNum: 1, chargingRuleId: 2, rentAmount: 1, voucherId: voucher?.id });
    expect(prepay.body.result).toMatchObject({ amount: DAY, discount: 1000, payable: DAY - 1000 });
    const { instanceId, rentalUid } = await running(user, { chargingRuleId: 2, rentAmount: 1, voucherId: voucher?.id });
    expect(await balanceOf(user)).toBe(2000);

    // 3 h 5 min later: 4 hours begun.
    t.clock.advance(3 * 3600 + 300);
    await fresh(user);
    const preview = await send<{ paid: number; used: number; refund: number }>(user, 'GET', `/api/v1/order/preview/refund?rentalUid=${rentalUid}`);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.result).toEqual({ paid: DAY - 1000, used: 4 * HOURLY, refund: DAY - 1000 - 4 * HOURLY });

    // A duration means nothing for pay-as-you-go: rentAmount=0 (what a form sends for 按量) is ignored, not refused.
    const switched = await send<{ refund: number }>(user, 'PUT', `/api/v1/rental/update_charging_rule?instanceId=${instanceId}&chargingRuleId=1&rentAmount=0`);
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    expect(switched.body.result.refund).toBe(preview.body.result.refund);
    expect(await balanceOf(user)).toBe(2000 + preview.body.result.refund);

    // Now pay-as-you-go: the run is metered from the switch on.
    const view = await detail(user, instanceId);
    expect(view).toMatchObject({ chargingRuleId: 1, expiresAt: null, autoRenew: false });
    t.clock.advance(1800);
    await new InstanceBillingJobs(t.deps).meter();
    expect(await balanceOf(user)).toBe(2000 + preview.body.result.refund - 99);

    const again = await send(user, 'GET', `/api/v1/order/preview/refund?rentalUid=${rentalUid}`);
    expect(again.status).toBe(400);
    expect(await walletsOutOfBalance(db())).toEqual([]);
    expect(await unbalancedTransactions(db())).toEqual([]);
  });

  it('refunds nothing once the hours used cost more than was paid, and gives an off instance’s GPUs back', async () => {
    const user = await fundedUser(DAY);
    const { instanceId, rentalUid } = await running(user, { chargingRuleId: 2, rentAmount: 1 });
    await send(user, 'POST', '/api/v1/rental/power_off', { instanceId });
    await settle(3);
    const held = await allocated();
    t.clock.advance(23 * 3600);
    await fresh(user);
    const preview = await send<{ paid: number; used: number; refund: number }>(user, 'GET', `/api/v1/order/preview/refund?rentalUid=${rentalUid}`);
    expect(preview.body.result).toEqual({ paid: DAY, used: DAY, refund: 0 });
    expect((await send(user, 'PUT', `/api/v1/rental/update_charging_rule?instanceId=${instanceId}&chargingRuleId=1`)).status).toBe(200);
    expect(await allocated()).toBe(held - 1);
    expect(await detail(user, instanceId)).toMatchObject({ status: 'PoweredOff', chargingRuleId: 1 });
    expect(await balanceOf(user)).toBe(0);
  });
});

describe('switching pay-as-you-go to a package', () => {
  it('settles the run so far, pays the package and runs on without metering', async () => {
    const user = await fundedUser(WEEK + 10_000);
    const { instanceId } = await running(user, { chargingRuleId: 1 });
    t.clock.advance(3600);
    await fresh(user);
    const switched = await send<{ payable: number }>(user, 'PUT', `/api/v1/rental/update_charging_rule?instanceId=${instanceId}&chargingRuleId=3&rentAmount=1`);
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    expect(switched.body.result.payable).toBe(WEEK);
    const after = await balanceOf(user);
    expect(after).toBe(WEEK + 10_000 - HOURLY - WEEK);
    t.clock.advance(3600);
    await new InstanceBillingJobs(t.deps).meter();
    expect(await balanceOf(user)).toBe(after);
    expect(await detail(user, instanceId)).toMatchObject({ chargingRuleId: 3, status: 'PoweredOn' });

    const twice = await send(user, 'PUT', `/api/v1/rental/update_charging_rule?instanceId=${instanceId}&chargingRuleId=2&rentAmount=1`);
    expect(twice.status).toBe(400);
    expect(twice.body.rspmsg).toContain('如需更长时间请续费');
  });
});

describe('renewing', () => {
  it('renews three instances at once, charging each once and extending each from its current end', async () => {
    const user = await fundedUser(3 * DAY + 3 * 2 * DAY);
    const created = [];
    for (let index = 0; index < 3; index += 1) created.push(await running(user, { chargingRuleId: 2, rentAmount: 1 }));
    const ids = created.map((item) => item.instanceId);
    const ends = await Promise.all(ids.map(async (id) => (await detail(user, id)).expiresAt));

    const withVoucher = await send(user, 'POST', '/api/v1/rental/renew/prepay', { instanceIds: ids, rentAmount: 2, voucherId: 1 });
    expect(withVoucher.status).toBe(400);
    expect(withVoucher.body.rspmsg).toContain('批量续费不能使用代金券');

    const prepay = await send<{ payable: number; items: { expiresAt: string }[] }>(user, 'POST', '/api/v1/rental/renew/prepay', { instanceIds: ids, rentAmount: 2 });
    expect(prepay.status, JSON.stringify(prepay.body)).toBe(200);
    expect(prepay.body.result.payable).toBe(3 * 2 * DAY);
    const renewed = await send<{ orderIds: string[] }>(user, 'POST', '/api/v1/rental/renew', { instanceIds: ids, rentAmount: 2 });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body.result.orderIds).toHaveLength(3);
    expect(await balanceOf(user)).toBe(0);
    for (const [index, id] of ids.entries()) {
      const end = new Date(ends[index] ?? 0).getTime();
      expect((await detail(user, id)).expiresAt).toBe(new Date(end + 2 * DAY_MS).toISOString());
    }
    const rows = await db().select().from(orders).where(and(eq(orders.type, 'RENEWAL_CONTAINER'), inArray(orders.orderNo, renewed.body.result.orderIds)));
    expect(rows.map((row) => row.paidFen)).toEqual([2 * DAY, 2 * DAY, 2 * DAY]);

    // A balance that covers two of three renews none.
    await rechargeThroughSandbox(t, user.jwtToken, 2 * DAY);
    const short = await send(user, 'POST', '/api/v1/rental/renew', { instanceIds: ids, rentAmount: 1 });
    expect(short.status).toBe(400);
    expect(await balanceOf(user)).toBe(2 * DAY);
    expect(await db().$count(orders, and(eq(orders.type, 'RENEWAL_CONTAINER'), eq(orders.status, 'PAID'), inArray(orders.resourceId, created.map((item) => item.rentalUid))))).toBe(3);

    const usage = await running(user, { chargingRuleId: 1 });
    const refused = await send(user, 'POST', '/api/v1/rental/renew', { instanceIds: [usage.instanceId], rentAmount: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body.rspmsg).toContain('按量计费，无需续费');
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });
});

describe('expiry', () => {
  beforeAll(() => {
    HOST = 'bj-a-4090-02';
  });
  it('falls back to pay-as-you-go and powers off without auto-renew; renews once with it, even with two passes at once', async () => {
    const plain = await fundedUser(DAY + 1000);
    const auto = await fundedUser(2 * DAY);
    const broke = await fundedUser(DAY);
    const plainOne = await running(plain, { chargingRuleId: 2, rentAmount: 1 });
    const autoOne = await running(auto, { chargingRuleId: 2, rentAmount: 1, autoRenew: true });
    const brokeOne = await running(broke, { chargingRuleId: 2, rentAmount: 1, autoRenew: true });
    const autoEnd = new Date((await detail(auto, autoOne.instanceId)).expiresAt ?? 0).getTime();
    const held = await allocated();

    t.clock.advance(DAY_MS / 1000 + 60);
    const passes = await Promise.all([new PackageService(t.deps).expirePackages(), new PackageService(t.deps).expirePackages()]);
    expect(passes.reduce((sum, pass) => sum + pass.renewed, 0)).toBe(1);
    expect(passes.reduce((sum, pass) => sum + pass.expired, 0)).toBeGreaterThanOrEqual(2);

    await fresh(auto);
    expect((await detail(auto, autoOne.instanceId)).expiresAt).toBe(new Date(autoEnd + DAY_MS).toISOString());
    expect(await balanceOf(auto)).toBe(0);

    for (const [user, one] of [[plain, plainOne], [broke, brokeOne]] as const) {
      await fresh(user);
      expect(await detail(user, one.instanceId)).toMatchObject({ chargingRuleId: 1, expiresAt: null, operation: 'power_off' });
    }
    await settle(3);
    expect(await detail(plain, plainOne.instanceId)).toMatchObject({ status: 'PoweredOff' });
    expect(await allocated()).toBe(held - 2);
    expect(await balanceOf(plain)).toBe(1000);

    const rows = await db().select({ type: instanceEvents.type }).from(instanceEvents).innerJoin(instances, eq(instances.id, instanceEvents.instanceRowId)).where(eq(instances.instanceId, brokeOne.instanceId));
    expect(rows.map((row) => row.type)).toContain('EXPIRE');
    const notices = await db().select({ kind: notifications.kind, body: notifications.body }).from(notifications).innerJoin(instances, eq(instances.id, notifications.instanceRowId)).where(eq(instances.instanceId, brokeOne.instanceId));
    expect(notices).toEqual([expect.objectContaining({ kind: 'PACKAGE_EXPIRED', body: expect.stringContaining('余额不足未能自动续费') })]);
    expect(await walletsOutOfBalance(db())).toEqual([]);
    expect(await unbalancedTransactions(db())).toEqual([]);
  });
});

describe('scheduled power-off', () => {
  beforeAll(() => {
    HOST = 'bj-a-4090-03';
  });
  it('fires at its time from whichever process runs the job, and can be cancelled', async () => {
    const user = await fundedUser(10_000);
    const { instanceId } = await running(user, { chargingRuleId: 1 });
    const at = new Date(t.deps.now().getTime() + 10 * 60_000);

    const past = await send(user, 'POST', '/api/v1/rental/power_off', { instanceId, at: new Date(t.deps.now().getTime() - 1000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.rspmsg).toContain('须晚于当前时间');
    const garbage = await send(user, 'POST', '/api/v1/rental/power_off', { instanceId, at: '明天晚上' });
    expect(garbage.status).toBe(400);
    expect(garbage.body.rspmsg).toContain('定时关机时间格式不正确');

    const scheduled = await send<InstanceView>(user, 'POST', '/api/v1/rental/power_off', { instanceId, at: at.toISOString() });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    expect(scheduled.body.result).toMatchObject({ status: 'PoweredOn', operation: null, scheduledPowerOffAt: at.toISOString() });

    // Not yet.
    t.clock.advance(9 * 60);
    expect(await new InstanceBillingJobs(t.deps).powerOffScheduled()).toBe(0);
    // A new process (as after a restart) finds it in the database and fires it once.
    t.clock.advance(61);
    const jobs = [new InstanceBillingJobs(t.deps), new InstanceBillingJobs(t.deps)];
    const fired = await Promise.all(jobs.map((job) => job.powerOffScheduled()));
    expect(fired.reduce((sum, count) => sum + count, 0)).toBe(1);
    await fresh(user);
    expect(await detail(user, instanceId)).toMatchObject({ operation: 'power_off', scheduledPowerOffAt: null });
    await settle(3);
    expect((await detail(user, instanceId)).status).toBe('PoweredOff');

    // Cancelling.
    await send(user, 'POST', '/api/v1/rental/power_on', { instanceId, mode: 'gpu' });
    await settle(3);
    const later = new Date(t.deps.now().getTime() + 3600_000).toISOString();
    expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId, at: later })).status).toBe(200);
    const cancelled = await send<InstanceView>(user, 'DELETE', `/api/v1/rental/power_off/cancel?instanceId=${instanceId}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.result.scheduledPowerOffAt).toBeNull();
    t.clock.advance(3700);
    expect(await new InstanceBillingJobs(t.deps).powerOffScheduled()).toBe(0);
    await fresh(user);
    expect((await detail(user, instanceId)).status).toBe('PoweredOn');
    const none = await send(user, 'DELETE', `/api/v1/rental/power_off/cancel?instanceId=${instanceId}`);
    expect(none.status).toBe(409);
  });
});
