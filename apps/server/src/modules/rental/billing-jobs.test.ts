import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { ErrorCodes, runCharge, type Page } from '@slg/shared';
import { call, createTestApp, loginToken, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { hosts, instances, ledgerEntries, notifications, orders, simMachines, smsOutbox } from '../../db/schema/index.js';
import { Reconciler } from './reconciler.js';
import { claimJobRun } from '../../jobs/leases.js';
import { unbalancedTransactions, walletsOutOfBalance } from '../billing/ledger.js';
import { ARREARS_REASON, InstanceBillingJobs } from './billing-jobs.js';
import { meterOpenRuns } from './metering.js';
import type { InstanceView } from './views.js';

let t: TestApp;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '4', SIM_START_SECONDS: '2', SIM_STOP_SECONDS: '2', SIM_DESTROY_SECONDS: '2' } });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;
const jobs = () => new InstanceBillingJobs(t.deps);

const settle = (seconds = 5) => settleMachines(t, seconds);

type User = Awaited<ReturnType<typeof registerUser>>;

async function fundedUser(fen: number): Promise<User> {
  const user = await registerUser(t);
  await rechargeThroughSandbox(t, user.jwtToken, fen);
  return user;
}

/** Signs in again: the clock moves hours and days here, past the access token's 15 minutes. */
async function fresh(user: User): Promise<string> {
  user.jwtToken = await loginToken(t, user.telephone);
  return user.jwtToken;
}

async function createOn(user: User, hostId: string, gpuNum = 1) {
  return call<{ instanceId: string }>(t.app, {
    method: 'POST',
    url: '/api/v1/rental',
    token: user.jwtToken,
    payload: { hostId, gpuNum, imageId: IMAGE, chargingRuleId: 1 },
  });
}

async function runningInstance(user: User, hostId: string): Promise<string> {
  const created = await createOn(user, hostId);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await settle(5);
  return created.body.result.instanceId;
}

async function detail(user: User, instanceId: string): Promise<InstanceView> {
  const found = await call<InstanceView>(t.app, { method: 'GET', url: `/api/v1/rental/detail?instanceId=${instanceId}`, token: await fresh(user) });
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  return found.body.result;
}

async function rowOf(instanceId: string) {
  const [row] = await db().select().from(instances).where(eq(instances.instanceId, instanceId));
  if (!row) throw new Error(`no instance ${instanceId}`);
  return row;
}

async function balanceOf(user: User): Promise<number> {
  const account = await call<{ totalBalance: number }>(t.app, { method: 'GET', url: '/api/v1/account/', token: await fresh(user) });
  return account.body.result.totalBalance;
}

describe('GPU allocation', () => {
  it('gives a host’s 8 free GPUs to exactly 8 of 50 concurrent creations; the rest are refused with 主机GPU不足', async () => {
    const user = await fundedUser(100_000);
    const answers = await Promise.all(Array.from({ length: 50 }, () => createOn(user, 'nm-b-4090-01')));
    const created = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(created.length).toBe(8);
    expect(new Set(created.map((answer) => answer.body.result.instanceId)).size).toBe(8);
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(answer.body.rspcode).toBe(ErrorCodes.HOST_GPU_SHORTAGE.code);
      expect(answer.body.rspmsg).toContain('主机GPU不足');
    }
    const [host] = await db().select().from(hosts).where(eq(hosts.id, 'nm-b-4090-01'));
    expect(host?.gpuAllocated).toBe(8);
    // Every creation is a NEW_PURCHASE order; refused ones left none behind.
    const [purchases] = await db()
      .select({ count: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.type, 'NEW_PURCHASE'), eq(orders.ownerId, (await rowOf(created[0]?.body.result.instanceId ?? '')).ownerId)));
    expect(purchases?.count).toBe(8);
  });
});

describe('metering', () => {
  it('charges a 3 h 7 s run at ¥2.58/h exactly round(258 × 10807 / 3600) fen, whatever the settlement boundaries', async () => {
    await db().update(hosts).set({ usagePriceFen: 258 }).where(eq(hosts.id, 'nm-b-4090-02'));
    const user = await fundedUser(10_000);
    const instanceId = await runningInstance(user, 'nm-b-4090-02');
    const started = (await rowOf(instanceId)).runStartedAt;
    if (!started) throw new Error('the run has not started');
    const end = started.getTime() + 10_807_000;

    // Passes at odd moments, two of them racing each other, until a few seconds before the end.
    const steps = [59, 61, 1, 3599, 7, 1234, 60, 2, 3333];
    for (const step of steps) {
      t.clock.advance(step);
      await Promise.all([meterOpenRuns(db(), t.deps.now()), meterOpenRuns(db(), t.deps.now())]);
    }
    const charged = (await rowOf(instanceId)).runChargedFen;
    expect(charged).toBe(runCharge(258, Math.floor((t.deps.now().getTime() - started.getTime()) / 1000)));

    // The power-off lands exactly 10,807 s after the run started, racing one more pass.
    t.clock.advance((end - t.deps.now().getTime()) / 1000);
    const token = await fresh(user);
    const [off] = await Promise.all([
      call(t.app, { method: 'POST', url: '/api/v1/rental/power_off', token, payload: { instanceId } }),
      meterOpenRuns(db(), t.deps.now()),
    ]);
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const expected = Math.round((258 * 10_807) / 3600);
    expect(expected).toBe(775);
    expect(await balanceOf(user)).toBe(10_000 - expected);
    const row = await rowOf(instanceId);
    const [usageOrder] = await db().select().from(orders).where(eq(orders.id, row.usageOrderId ?? 0));
    expect(usageOrder?.meteredFen).toBe(expected);
    const [spent] = await db()
      .select({ total: sql<number>`coalesce(sum(${ledgerEntries.amountFen}), 0)::int` })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.walletId, row.walletId), sql`${ledgerEntries.amountFen} < 0`));
    expect(spent?.total).toBe(-expected);

    // Stopped: later passes charge nothing.
    await settle(3);
    t.clock.advance(600);
    await meterOpenRuns(db(), t.deps.now());
    expect(await balanceOf(user)).toBe(10_000 - expected);
    expect(await walletsOutOfBalance(db())).toEqual([]);
    expect(await unbalancedTransactions(db())).toEqual([]);
  });

  it('shows a run’s minute settlements in 账单明细 as one row per hour, and every one in 收支明细', async () => {
    const user = await fundedUser(10_000);
    const instanceId = await runningInstance(user, 'nm-b-4090-03');
    for (let minute = 0; minute < 5; minute += 1) {
      t.clock.advance(60);
      await meterOpenRuns(db(), t.deps.now());
    }
    const token = await fresh(user);
    const bills = await call<Page<{ title: string; amount: number }>>(t.app, { method: 'GET', url: '/api/v1/bills?page=1&pageSize=20', token });
    expect(bills.status, JSON.stringify(bills.body)).toBe(200);
    const metered = bills.body.result.list.filter((bill) => bill.title.includes(instanceId));
    expect(metered.length).toBeGreaterThanOrEqual(1);
    expect(metered.length).toBeLessThanOrEqual(2);
    expect(metered.every((bill) => /\d{2}:00-\d{2}:00（\d+次结算）$/.test(bill.title))).toBe(true);
    const billed = -metered.reduce((sum, bill) => sum + bill.amount, 0);
    expect(Math.abs(billed)).toBe((await rowOf(instanceId)).runChargedFen);
  });
});

describe('arrears', () => {
  it('powers off the running pay-as-you-go instances of a wallet below zero, says why on the instance, notifies once and texts', async () => {
    const user = await fundedUser(300);
    const instanceId = await runningInstance(user, 'nm-b-4090-04');
    t.clock.advance(2 * 3600);
    const first = await jobs().meterAndEnforce();
    expect(first.arrears).toMatchObject({ wallets: 1, instances: 1 });
    expect(await balanceOf(user)).toBeLessThan(0);
    const stopping = await detail(user, instanceId);
    expect(stopping).toMatchObject({ operation: 'power_off', statusReason: ARREARS_REASON });
    await settle(3);
    expect(await detail(user, instanceId)).toMatchObject({ status: 'PoweredOff', statusReason: ARREARS_REASON });

    // Running the job again changes nothing and texts nobody twice.
    const second = await jobs().meterAndEnforce();
    expect(second.arrears.instances).toBe(0);
    const row = await rowOf(instanceId);
    const notes = await db().select().from(notifications).where(eq(notifications.instanceRowId, row.id));
    expect(notes.map((note) => note.kind)).toEqual(['ARREARS_POWER_OFF']);
    expect(notes[0]?.body).toContain(instanceId);
    const texts = await db().select().from(smsOutbox).where(and(eq(smsOutbox.telephone, user.telephone), eq(smsOutbox.type, 'arrears')));
    expect(texts.length).toBe(1);
    expect(texts[0]?.content).toContain(instanceId);

    const list = await call<Page<{ title: string; read: boolean }>>(t.app, { method: 'GET', url: '/api/v1/notifications', token: await fresh(user) });
    expect(list.body.result.list[0]).toMatchObject({ title: '账户余额不足，实例已自动关机', read: false });
    const unread = await call<{ unread: number }>(t.app, { method: 'GET', url: '/api/v1/notifications/unread-count', token: user.jwtToken });
    expect(unread.body.result.unread).toBe(1);
    await call(t.app, { method: 'POST', url: '/api/v1/notifications/read', token: user.jwtToken, payload: {} });
    const after = await call<{ unread: number }>(t.app, { method: 'GET', url: '/api/v1/notifications/unread-count', token: user.jwtToken });
    expect(after.body.result.unread).toBe(0);
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });
});

describe('automatic release', () => {
  it('reminds 3 and 1 days before, then releases an instance powered off for 15 days, each once', async () => {
    const user = await fundedUser(10_000);
    const instanceId = await runningInstance(user, 'nm-b-4090-05');
    await call(t.app, { method: 'POST', url: '/api/v1/rental/power_off', token: await fresh(user), payload: { instanceId } });
    await settle(3);
    const kinds = async () =>
      (await db().select({ kind: notifications.kind }).from(notifications).where(eq(notifications.instanceRowId, (await rowOf(instanceId)).id))).map(
        (note) => note.kind,
      );

    // Other tests' instances stay off too: only this instance's notifications are looked at.
    t.clock.advance(11 * 86_400);
    await jobs().releasePoweredOff();
    expect(await kinds()).toEqual([]);
    t.clock.advance(86_400 + 60);
    await jobs().releasePoweredOff();
    await jobs().releasePoweredOff();
    expect(await kinds()).toEqual(['RELEASE_REMINDER']);
    t.clock.advance(2 * 86_400);
    await jobs().releasePoweredOff();
    expect(await kinds()).toEqual(['RELEASE_REMINDER', 'RELEASE_REMINDER']);
    const reminders = await db().select().from(smsOutbox).where(and(eq(smsOutbox.telephone, user.telephone), eq(smsOutbox.type, 'release_reminder')));
    expect(reminders.length).toBe(2);
    expect((await rowOf(instanceId)).status).toBe('PoweredOff');

    t.clock.advance(86_400);
    await jobs().releasePoweredOff();
    expect((await rowOf(instanceId)).status).toBe('DestroyStarted');
    await settle(3);
    expect((await rowOf(instanceId)).releasedAt).not.toBeNull();
    expect(await kinds()).toEqual(['RELEASE_REMINDER', 'RELEASE_REMINDER', 'AUTO_RELEASED']);
    await jobs().releasePoweredOff();
    expect(await kinds()).toEqual(['RELEASE_REMINDER', 'RELEASE_REMINDER', 'AUTO_RELEASED']);
  });
});

describe('restarts', () => {
  /** A process claims the operation and dies: its lease holds the instance until it lapses, then another process finishes. */
  async function crashMidOperation(instanceId: string): Promise<void> {
    const row = await rowOf(instanceId);
    await db()
      .update(instances)
      .set({ operationLeaseUntil: new Date(t.deps.now().getTime() + 30_000), operationAttempts: row.operationAttempts + 1 })
      .where(eq(instances.id, row.id));
    await t.deps.compute.driver.observe([instanceId]);
  }

  it('finishes a create, a power-on and a release whose process died mid-way', async () => {
    const user = await fundedUser(10_000);
    const created = await createOn(user, 'nm-b-4090-06');
    const { instanceId } = created.body.result;
    // The first process asked for the machine, then died before recording anything.
    await new Reconciler(t.deps).tick();
    await crashMidOperation(instanceId);
    t.clock.advance(5);
    expect(await new Reconciler(t.deps).tick()).toBe(0);
    expect((await rowOf(instanceId)).status).toBe('CreationStarted');
    t.clock.advance(31);
    await new Reconciler(t.deps).tick();
    expect(await detail(user, instanceId)).toMatchObject({ status: 'PoweredOn', operation: null });

    await call(t.app, { method: 'POST', url: '/api/v1/rental/power_off', token: await fresh(user), payload: { instanceId } });
    await settle(3);
    await call(t.app, { method: 'POST', url: '/api/v1/rental/power_on', token: await fresh(user), payload: { instanceId, mode: 'gpu' } });
    await crashMidOperation(instanceId);
    t.clock.advance(31);
    await settle(3);
    expect(await detail(user, instanceId)).toMatchObject({ status: 'PoweredOn', operation: null });

    await call(t.app, { method: 'POST', url: '/api/v1/rental/power_off', token: await fresh(user), payload: { instanceId } });
    await settle(3);
    await call(t.app, { method: 'DELETE', url: `/api/v1/rental?instanceId=${instanceId}`, token: await fresh(user) });
    await crashMidOperation(instanceId);
    t.clock.advance(31);
    await settle(3);
    const released = await rowOf(instanceId);
    expect(released.releasedAt).not.toBeNull();
    const [host] = await db().select().from(hosts).where(eq(hosts.id, 'nm-b-4090-06'));
    expect(host).toMatchObject({ gpuAllocated: 0, dataDiskAllocatedGb: 0 });
  });
});

describe('watching running instances', () => {
  it('stops billing a host that became unreachable, and frees the GPUs when it comes back with the machine stopped', async () => {
    const user = await fundedUser(10_000);
    const first = await runningInstance(user, 'hd-a-4090-01');
    const second = await runningInstance(user, 'hd-a-4090-01');
    await db().update(hosts).set({ simFault: 'unreachable', simFaultReason: '机房网络中断' }).where(eq(hosts.id, 'hd-a-4090-01'));
    // A batch of one: the watch goes through every running instance, not only the first batch.
    expect(await new Reconciler(t.deps).watch(1)).toBe(2);
    for (const instanceId of [first, second]) {
      expect(await detail(user, instanceId)).toMatchObject({ status: 'OutOfConnection', statusReason: '机房网络中断，已停止计费' });
      expect((await rowOf(instanceId)).runStartedAt).toBeNull();
    }
    const charged = await balanceOf(user);
    t.clock.advance(3600);
    await meterOpenRuns(db(), t.deps.now());
    expect(await balanceOf(user)).toBe(charged);

    // Back online: one machine was stopped meanwhile, the other still runs.
    await db().update(simMachines).set({ state: 'stopped', runningSince: null }).where(eq(simMachines.instanceId, first));
    await db().update(hosts).set({ simFault: null, simFaultReason: null }).where(eq(hosts.id, 'hd-a-4090-01'));
    expect(await new Reconciler(t.deps).watch(1)).toBe(2);
    expect(await detail(user, first)).toMatchObject({ status: 'PoweredOff', statusReason: '主机恢复连接，实例已关机' });
    expect(await detail(user, second)).toMatchObject({ status: 'PoweredOn' });
    const [host] = await db().select().from(hosts).where(eq(hosts.id, 'hd-a-4090-01'));
    expect(host?.gpuAllocated).toBe(1);
    // The stopped one can be powered on again.
    const on = await call(t.app, { method: 'POST', url: '/api/v1/rental/power_on', token: await fresh(user), payload: { instanceId: first, mode: 'gpu' } });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
  });
});

describe('job leases', () => {
  it('lets one of two processes run a tick, and the next tick only after the interval', async () => {
    const now = t.deps.now();
    const claims = await Promise.all([
      claimJobRun(db(), 'test-job', 'process-a', 60_000, now),
      claimJobRun(db(), 'test-job', 'process-b', 60_000, now),
    ]);
    expect(claims.filter(Boolean).length).toBe(1);
    expect(await claimJobRun(db(), 'test-job', 'process-b', 60_000, new Date(now.getTime() + 30_000))).toBe(false);
    expect(await claimJobRun(db(), 'test-job', 'process-b', 60_000, new Date(now.getTime() + 60_000))).toBe(true);
  });
});
