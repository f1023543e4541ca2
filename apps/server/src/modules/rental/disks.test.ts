import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { call, createTestApp, loginToken, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { hosts, instanceEvents, instances, orders, simMachines } from '../../db/schema/index.js';
import { unbalancedTransactions, walletsOutOfBalance } from '../billing/ledger.js';
import { DiskService, meterOpenDisks } from './disks.js';
import type { DiskInfo } from './disks.js';
import type { InstanceView } from './views.js';

let t: TestApp;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
const DAY_S = 86_400;

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '4', SIM_START_SECONDS: '2', SIM_STOP_SECONDS: '2', SIM_DESTROY_SECONDS: '2' } });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;
type User = { telephone: string; jwtToken: string };
type Resized = DiskInfo & { orderId: string | null };

const settle = (seconds = 5) => settleMachines(t, seconds);

async function fundedUser(fen: number): Promise<User> {
  const user = await registerUser(t);
  if (fen > 0) await rechargeThroughSandbox(t, user.jwtToken, fen);
  return user;
}

const send = <T = unknown>(user: User, method: 'POST' | 'GET' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  call<T>(t.app, { method, url, token: user.jwtToken, ...(payload ? { payload } : {}) });

async function balanceOf(user: User): Promise<number> {
  user.jwtToken = await loginToken(t, user.telephone);
  const account = await send<{ totalBalance: number }>(user, 'GET', '/api/v1/account/');
  return account.body.result.totalBalance;
}

/** Moves the clock and logs in again (access tokens expire over the hours the tests skip). */
async function advance(user: User, seconds: number): Promise<void> {
  t.clock.advance(seconds);
  user.jwtToken = await loginToken(t, user.telephone);
}

async function hostDisk(hostId: string): Promise<{ allocated: number; total: number }> {
  const [host] = await db().select().from(hosts).where(eq(hosts.id, hostId));
  return { allocated: host?.dataDiskAllocatedGb ?? -1, total: host?.dataDiskTotalGb ?? -1 };
}

async function row(instanceId: string) {
  const [found] = await db().select().from(instances).where(eq(instances.instanceId, instanceId));
  if (!found) throw new Error(`no instance ${instanceId}`);
  return found;
}

async function machine(instanceId: string) {
  const [found] = await db().select().from(simMachines).where(eq(simMachines.instanceId, instanceId));
  return found;
}

async function diskEvents(instanceId: string): Promise<string[]> {
  const { id } = await row(instanceId);
  const events = await db()
    .select()
    .from(instanceEvents)
    .where(and(eq(instanceEvents.instanceRowId, id), sql`${instanceEvents.type} in ('EXTEND_DISK', 'SHRINK_DISK')`))
    .orderBy(instanceEvents.id);
  return events.map((event) => event.detail ?? '');
}

/** A running pay-as-you-go instance on `hostId`. */
async function runningInstance(user: User, hostId: string): Promise<string> {
  const created = await send<{ instanceId: string }>(user, 'POST', '/api/v1/rental', { hostId, gpuNum: 1, imageId: IMAGE, chargingRuleId: 1 });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await settle(5);
  return created.body.result.instanceId;
}

/** The same, powered off (no metered run, so every later charge is the disk's). */
async function offInstance(user: User, hostId: string): Promise<string> {
  const instanceId = await runningInstance(user, hostId);
  expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
  await settle(3);
  const view = await send<InstanceView>(user, 'GET', `/api/v1/rental/detail?instanceId=${instanceId}`);
  expect(view.body.result.status).toBe('PoweredOff');
  return instanceId;
}

const extend = (user: User, instanceId: string, sizeGb: number) => send<Resized>(user, 'POST', '/api/v1/rental/extend_disk', { instanceId, sizeGb });
const shrink = (user: User, instanceId: string, sizeGb: number) => send<Resized>(user, 'POST', '/api/v1/rental/shrink_disk', { instanceId, sizeGb });

/** Every host's allocation equals the disks of the instances it holds (nothing leaked, nothing counted twice). */
async function hostMatchesInstances(hostId: string): Promise<void> {
  const [sum] = await db()
    .select({ gb: sql<number>`coalesce(sum(${instances.dataDiskGb}), 0)`.mapWith(Number) })
    .from(instances)
    .where(and(eq(instances.hostId, hostId), isNull(instances.releasedAt)));
  expect((await hostDisk(hostId)).allocated).toBe(sum?.gb);
}

async function meteredOn(orderId: number | null): Promise<number> {
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId ?? 0));
  return order?.meteredFen ?? -1;
}

async function ledgerBalanced(): Promise<void> {
  expect(await unbalancedTransactions(db())).toEqual([]);
  expect(await walletsOutOfBalance(db())).toEqual([]);
}

describe('extending the data disk', () => {
  it('takes the host’s space, opens the EXPAND_DISK order and meters round(rate × s / 86400) whether on or off', async () => {
    const host = 'hd-a-4090-02';
    const user = await fundedUser(10_000);
    const instanceId = await offInstance(user, host);
    const hostBefore = await hostDisk(host);
    const balanceBefore = await balanceOf(user);

    const info = await send<DiskInfo>(user, 'GET', `/api/v1/rental/disk?instanceId=${instanceId}`);
    expect(info.status, JSON.stringify(info.body)).toBe(200);
    expect(info.body.result).toMatchObject({ sizeGb: 50, freeGb: 50, maxGb: 1500, priceFenPerGbDay: 1, rateFenPerDay: 0, hostFreeGb: hostBefore.total - hostBefore.allocated });
    expect(info.body.result.usedGb).toBeGreaterThanOrEqual(1);
    expect(info.body.result.usedGb).toBeLessThanOrEqual(5);

    const extended = await extend(user, instanceId, 150);
    expect(extended.status, JSON.stringify(extended.body)).toBe(200);
    expect(extended.body.result).toMatchObject({ sizeGb: 150, rateFenPerDay: 100 });
    expect(extended.body.result.orderId).toMatch(/\S/);
    expect((await hostDisk(host)).allocated).toBe(hostBefore.allocated + 100);
    expect((await machine(instanceId))?.dataDiskGb).toBe(150);
    const view = await send<InstanceView>(user, 'GET', `/api/v1/rental/detail?instanceId=${instanceId}`);
    expect(view.body.result).toMatchObject({ dataDiskGb: 150, diskRateFenPerDay: 100 });
    const meter = await row(instanceId);
    expect(meter).toMatchObject({ diskRateFenPerDay: 100, diskChargedFen: 0 });
    expect(Math.abs((meter.diskMeterStartedAt?.getTime() ?? 0) - t.deps.now().getTime())).toBeLessThan(1000);
    const [order] = await db().select().from(orders).where(eq(orders.id, meter.diskOrderId ?? 0));
    expect(order).toMatchObject({ type: 'EXPAND_DISK', billingType: 'USAGE', status: 'PLACED', orderNo: extended.body.result.orderId });

    // 7 hours: round(100 × 25200 / 86400) = round(29.17) = 29 fen; two passes at one moment charge it once.
    t.clock.advance(7 * 3600);
    const at = t.deps.now();
    await Promise.all([meterOpenDisks(db(), at), meterOpenDisks(db(), at)]);
    expect(await meteredOn(meter.diskOrderId)).toBe(29);
    await meterOpenDisks(db(), at);
    expect(await meteredOn(meter.diskOrderId)).toBe(29);
    expect((await row(instanceId)).diskChargedFen).toBe(29);
    // 5000 s more: round(100 × 30200 / 86400) = round(34.95) = 35, i.e. 6 more.
    t.clock.advance(5000);
    await meterOpenDisks(db(), t.deps.now());
    expect(await meteredOn(meter.diskOrderId)).toBe(35);
    expect(await balanceOf(user)).toBe(balanceBefore - 35);

    // A second extend settles the old rate and restarts the meter at the new one, on the same order.
    await advance(user, DAY_S - 30_200);
    const again = await extend(user, instanceId, 250);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.result).toMatchObject({ sizeGb: 250, rateFenPerDay: 200, orderId: null });
    expect(await balanceOf(user)).toBe(balanceBefore - 100);
    expect(await row(instanceId)).toMatchObject({ diskRateFenPerDay: 200, diskChargedFen: 0, diskOrderId: meter.diskOrderId });
    expect(await diskEvents(instanceId)).toEqual(['扩容数据盘：50 → 150 GB，超出免费 50 GB 的部分每天¥1.00', '扩容数据盘：150 → 250 GB，超出免费 50 GB 的部分每天¥2.00']);
    await hostMatchesInstances(host);
    await ledgerBalanced();
  });

  it('refuses beyond the host’s maximum or free space, not larger, and a balance short of a day, changing nothing', async () => {
    const host = 'hd-a-4090-03';
    const user = await fundedUser(1_000);
    const instanceId = await runningInstance(user, host);

    const beyondMax = await extend(user, instanceId, 1600);
    expect(beyondMax.status).toBe(400);
    expect(beyondMax.body.rspmsg).toBe('该主机单个实例的数据盘最大 1500 GB');

    const same = await extend(user, instanceId, 50);
    expect(same.status).toBe(400);
    expect(same.body.rspmsg).toBe('数据盘已是 50 GB');
    const below = await extend(user, instanceId, 40);
    expect(below.status).toBe(400);
    expect(below.body.rspmsg).toContain('最小 50 GB');
    const fraction = await extend(user, instanceId, 60.5);
    expect(fraction.status).toBe(400);
    expect(fraction.body.rspmsg).toContain('整数');

    // ¥14.50 a day for 1500 GB, more than what is left of ¥10.
    const poor = await extend(user, instanceId, 1500);
    expect(poor.status).toBe(400);
    expect(poor.body.rspmsg).toContain('余额需至少可支付1天');

    const { allocated } = await hostDisk(host);
    await db().update(hosts).set({ dataDiskTotalGb: allocated + 30 }).where(eq(hosts.id, host));
    const short = await extend(user, instanceId, 100);
    expect(short.status).toBe(409);
    expect(short.body.rspmsg).toBe('主机数据盘空间不足：该主机当前剩余 30 GB，本次扩容需要 50 GB');

    expect((await hostDisk(host)).allocated).toBe(allocated);
    expect(await row(instanceId)).toMatchObject({ dataDiskGb: 50, diskRateFenPerDay: 0, diskMeterStartedAt: null, diskOrderId: null });
    expect((await machine(instanceId))?.dataDiskGb).toBe(50);
    expect(await diskEvents(instanceId)).toEqual([]);

    const within = await extend(user, instanceId, 80);
    expect(within.status, JSON.stringify(within.body)).toBe(200);
    expect((await hostDisk(host)).allocated).toBe(allocated + 30);
    await hostMatchesInstances(host);
  });

  it('undoes the database change when the machine refuses', async () => {
    const host = 'hd-a-4090-04';
    const user = await fundedUser(10_000);
    const instanceId = await offInstance(user, host);
    const before = await hostDisk(host);
    await db().update(hosts).set({ simFault: 'error', simFaultReason: '存储控制器故障' }).where(eq(hosts.id, host));

    const refused = await extend(user, instanceId, 200);
    expect(refused.status).toBe(409);
    expect(refused.body.rspmsg).toBe('扩容数据盘失败：存储控制器故障');
    expect((await hostDisk(host)).allocated).toBe(before.allocated);
    expect(await row(instanceId)).toMatchObject({ dataDiskGb: 50, diskRateFenPerDay: 0, diskMeterStartedAt: null, diskOrderId: null });
    expect((await machine(instanceId))?.dataDiskGb).toBe(50);
    expect(await diskEvents(instanceId)).toEqual([
      '扩容数据盘：50 → 200 GB，超出免费 50 GB 的部分每天¥1.50',
      '扩容数据盘失败：存储控制器故障，数据盘恢复为 50 GB',
    ]);

    await db().update(hosts).set({ simFault: null, simFaultReason: null }).where(eq(hosts.id, host));
    expect((await extend(user, instanceId, 200)).status).toBe(200);
    await hostMatchesInstances(host);
    await ledgerBalanced();
  });

  it('sets the machine to the database’s size after a crash between the commit and the machine’s answer', async () => {
    const host = 'hd-a-4090-04';
    const user = await fundedUser(10_000);
    const instanceId = await offInstance(user, host);
    expect((await extend(user, instanceId, 80)).status).toBe(200);
    // A resize the machine confirmed leaves nothing pending.
    expect(await row(instanceId)).toMatchObject({ dataDiskGb: 80, dataDiskResizePending: false });

    // The process dies once the resize committed, before the machine heard of it.
    const driver = t.deps.compute.driver;
    const resize = driver.resizeDataDisk.bind(driver);
    driver.resizeDataDisk = () => Promise.reject(new Error('进程被杀死'));
    try {
      expect((await extend(user, instanceId, 120)).status).toBe(500);
    } finally {
      driver.resizeDataDisk = resize;
    }
    expect(await row(instanceId)).toMatchObject({ dataDiskGb: 120, dataDiskResizePending: true });
    expect((await machine(instanceId))?.dataDiskGb).toBe(80);

    // A host that cannot be asked keeps it pending; once it answers, the job sets the size, once.
    await db().update(hosts).set({ simFault: 'unreachable', simFaultReason: '主机失联' }).where(eq(hosts.id, host));
    const disks = new DiskService(t.deps);
    try {
      expect(await disks.syncPending()).toBe(0);
    } finally {
      await db().update(hosts).set({ simFault: null, simFaultReason: null }).where(eq(hosts.id, host));
    }
    expect((await row(instanceId)).dataDiskResizePending).toBe(true);
    expect(await disks.syncPending()).toBe(1);
    expect((await machine(instanceId))?.dataDiskGb).toBe(120);
    expect((await row(instanceId)).dataDiskResizePending).toBe(false);
    expect(await disks.syncPending()).toBe(0);
    await hostMatchesInstances(host);
    await ledgerBalanced();
  });
});

describe('shrinking the data disk', () => {
  it('refuses while running and below what is used (naming it), and closes the meter back at the free size', async () => {
    const host = 'hd-a-4090-05';
    const user = await fundedUser(10_000);
    const instanceId = await runningInstance(user, host);
    expect((await extend(user, instanceId, 200)).status).toBe(200);

    const running = await shrink(user, instanceId, 100);
    expect(running.status).toBe(409);
    expect(running.body.rspmsg).toBe('实例当前状态为「运行中」，不能缩容数据盘');

    expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
    await settle(3);
    await db().update(simMachines).set({ dataDiskUsedGb: 80 }).where(eq(simMachines.instanceId, instanceId));
    const hostBefore = await hostDisk(host);
    const meterBefore = await row(instanceId);

    const belowUsed = await shrink(user, instanceId, 60);
    expect(belowUsed.status).toBe(400);
    expect(belowUsed.body.rspmsg).toBe('数据盘已使用 80 GB，不能缩容到 60 GB，请先清理数据或选择不小于 80 GB 的容量');
    expect(await row(instanceId)).toMatchObject({
      dataDiskGb: 200,
      diskRateFenPerDay: 150,
      diskMeterStartedAt: meterBefore.diskMeterStartedAt,
      diskChargedFen: meterBefore.diskChargedFen,
    });
    expect((await hostDisk(host)).allocated).toBe(hostBefore.allocated);
    expect((await machine(instanceId))?.dataDiskGb).toBe(200);
    const larger = await shrink(user, instanceId, 300);
    expect(larger.status).toBe(400);
    expect(larger.body.rspmsg).toContain('缩容后的容量须小于当前的 200 GB');

    // Half a day at 150 fen a day, then 100 GB down.
    await advance(user, DAY_S / 2);
    const balance = await balanceOf(user);
    const shrunk = await shrink(user, instanceId, 100);
    expect(shrunk.status, JSON.stringify(shrunk.body)).toBe(200);
    expect(shrunk.body.result).toMatchObject({ sizeGb: 100, rateFenPerDay: 50, usedGb: 80, minGb: 80 });
    expect(await balanceOf(user)).toBe(balance - 75);
    expect((await hostDisk(host)).allocated).toBe(hostBefore.allocated - 100);
    expect((await machine(instanceId))?.dataDiskGb).toBe(100);

    // Back to the free size: the last settlement, then no meter and no order held.
    await db().update(simMachines).set({ dataDiskUsedGb: 20 }).where(eq(simMachines.instanceId, instanceId));
    await advance(user, DAY_S);
    const free = await shrink(user, instanceId, 50);
    expect(free.status, JSON.stringify(free.body)).toBe(200);
    expect(free.body.result).toMatchObject({ sizeGb: 50, rateFenPerDay: 0 });
    expect(await balanceOf(user)).toBe(balance - 75 - 50);
    expect(await row(instanceId)).toMatchObject({ dataDiskGb: 50, diskRateFenPerDay: 0, diskMeterStartedAt: null, diskChargedFen: 0, diskOrderId: null });
    const [order] = await db().select().from(orders).where(eq(orders.id, meterBefore.diskOrderId ?? 0));
    expect(order).toMatchObject({ status: 'PLACED', meteredFen: 125 });
    t.clock.advance(DAY_S);
    await meterOpenDisks(db(), t.deps.now());
    expect(await balanceOf(user)).toBe(balance - 125);
    expect((await diskEvents(instanceId)).slice(1)).toEqual(['缩容数据盘：200 → 100 GB，超出免费 50 GB 的部分每天¥0.50', '缩容数据盘：100 → 50 GB，数据盘不再计费']);
    await hostMatchesInstances(host);
    await ledgerBalanced();
  });
});

describe('releasing', () => {
  it('closes the meter at the release, and the host gets the whole disk back', async () => {
    const host = 'hd-a-4090-06';
    const user = await fundedUser(10_000);
    const instanceId = await offInstance(user, host);
    const hostBefore = await hostDisk(host);
    expect((await extend(user, instanceId, 110)).status).toBe(200);
    const balance = await balanceOf(user);

    await advance(user, DAY_S / 4);
    expect((await send(user, 'DELETE', `/api/v1/rental?instanceId=${instanceId}`)).status).toBe(200);
    await settle(3);
    const released = await row(instanceId);
    expect(released.releasedAt).not.toBeNull();
    expect((await hostDisk(host)).allocated).toBe(hostBefore.allocated - 50);

    // The job runs later; it charges only up to the release: 60 fen a day for 6 h 3 s.
    t.clock.advance(DAY_S);
    const seconds = Math.floor(((released.releasedAt?.getTime() ?? 0) - (released.diskMeterStartedAt?.getTime() ?? 0)) / 1000);
    expect(Math.floor((60 * seconds + 43_200) / 86_400)).toBe(15);
    await meterOpenDisks(db(), t.deps.now());
    expect(await row(instanceId)).toMatchObject({ diskMeterStartedAt: null, diskRateFenPerDay: 0, diskOrderId: null });
    expect(await meteredOn(released.diskOrderId)).toBe(15);
    expect(await balanceOf(user)).toBe(balance - 15);
    t.clock.advance(DAY_S);
    await meterOpenDisks(db(), t.deps.now());
    expect(await balanceOf(user)).toBe(balance - 15);
    await ledgerBalanced();
  });
});

describe('concurrency', () => {
  it('parallel extends on one host never over-allocate its disk: the ones that fit win, the rest are refused cleanly', async () => {
    const host = 'hn-a-4090d-02';
    const user = await fundedUser(100_000);
    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const created = await send<{ instanceId: string }>(user, 'POST', '/api/v1/rental', { hostId: host, gpuNum: 1, imageId: IMAGE, chargingRuleId: 1 });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      ids.push(created.body.result.instanceId);
    }
    await settle(5);
    const { allocated } = await hostDisk(host);
    await db().update(hosts).set({ dataDiskTotalGb: allocated + 250 }).where(eq(hosts.id, host));

    const answers = await Promise.all(ids.map((instanceId) => extend(user, instanceId, 150)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 409, 409, 409, 409]);
    for (const answer of answers.filter((each) => each.status === 409)) expect(answer.body.rspmsg).toMatch(/^主机数据盘空间不足：该主机当前剩余 50 GB/);
    expect((await hostDisk(host)).allocated).toBe(allocated + 200);
    await hostMatchesInstances(host);
    for (const instanceId of ids) expect((await machine(instanceId))?.dataDiskGb).toBe((await row(instanceId)).dataDiskGb);
  });

  it('two parallel resizes of one instance leave machine, size, host and meter consistent', async () => {
    const host = 'hn-a-4090d-03';
    const user = await fundedUser(10_000);
    const instanceId = await offInstance(user, host);
    for (const [a, b] of [
      [150, 250],
      [400, 300],
    ] as const) {
      const answers = await Promise.all([extend(user, instanceId, a), extend(user, instanceId, b)]);
      for (const answer of answers) expect([200, 400, 409], JSON.stringify(answer.body)).toContain(answer.status);
      expect(answers.some((answer) => answer.status === 200)).toBe(true);
      const after = await row(instanceId);
      expect([a, b]).toContain(after.dataDiskGb);
      expect(after.diskRateFenPerDay).toBe(after.dataDiskGb - 50);
      expect(after.diskMeterStartedAt).not.toBeNull();
      expect((await machine(instanceId))?.dataDiskGb).toBe(after.dataDiskGb);
      await hostMatchesInstances(host);
    }
    const orderCount = await db().$count(orders, and(eq(orders.type, 'EXPAND_DISK'), eq(orders.resourceId, (await row(instanceId)).uid)));
    expect(orderCount).toBe(1);

    const both = await Promise.all([shrink(user, instanceId, 100), extend(user, instanceId, 500)]);
    expect(both.some((answer) => answer.status === 200)).toBe(true);
    const final = await row(instanceId);
    expect((await machine(instanceId))?.dataDiskGb).toBe(final.dataDiskGb);
    expect(final.diskRateFenPerDay).toBe(final.dataDiskGb - 50);
    await hostMatchesInstances(host);
    await ledgerBalanced();
  });
});
