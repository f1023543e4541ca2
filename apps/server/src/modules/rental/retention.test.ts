import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { call, createTestApp, loginToken, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { instances, notifications, orders } from '../../db/schema/index.js';
import { unbalancedTransactions, walletsOutOfBalance } from '../billing/ledger.js';
import { InstanceBillingJobs } from './billing-jobs.js';
import type { InstanceView } from './views.js';

let t: TestApp;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
const HOST = 'bj-a-4090-07';
const DAY_S = 86_400;
/** 30 GB system disk + 50 GB data disk at 1 fen per GB and day. */
const DAILY = 80;

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '2', SIM_START_SECONDS: '2', SIM_STOP_SECONDS: '2', SIM_DESTROY_SECONDS: '2' } });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;
type User = { telephone: string; jwtToken: string };
const send = <T = unknown>(user: User, method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, payload?: Record<string, unknown>) =>
  call<T>(t.app, { method, url, token: user.jwtToken, ...(payload ? { payload } : {}) });

const settle = (seconds = 3) => settleMachines(t, seconds);

/** A pay-as-you-go instance that ran a moment and is off; the balance left is `left` fen. */
async function offInstance(recharge: number): Promise<{ user: User; instanceId: string }> {
  const user = await registerUser(t);
  await rechargeThroughSandbox(t, user.jwtToken, recharge);
  const created = await send<{ instanceId: string }>(user, 'POST', '/api/v1/rental', { hostId: HOST, gpuNum: 1, imageId: IMAGE, chargingRuleId: 1 });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await settle();
  const { instanceId } = created.body.result;
  expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
  await settle();
  return { user, instanceId };
}

async function row(instanceId: string) {
  const [found] = await db().select().from(instances).where(eq(instances.instanceId, instanceId));
  return found;
}

async function balance(user: User): Promise<number> {
  user.jwtToken = await loginToken(t, user.telephone);
  return (await send<{ totalBalance: number }>(user, 'GET', '/api/v1/account/')).body.result.totalBalance;
}

describe('keeping an instance that stays off (保留实例)', () => {
  it('a kept instance pays its disks a day at a time past day 15 and is not released; switched off, it goes once the paid day ends', async () => {
    const { user, instanceId } = await offInstance(10_000);
    const keep = await send<{ keepWhenOff: boolean; rateFenPerDay: number }>(user, 'PUT', '/api/v1/rental/keep_when_off', { instanceId, keep: true });
    expect(keep.status, JSON.stringify(keep.body)).toBe(200);
    expect(keep.body.result).toEqual({ keepWhenOff: true, rateFenPerDay: DAILY });
    const view = (await send<InstanceView & { keepWhenOff: boolean }>(user, 'GET', `/api/v1/rental/detail?instanceId=${instanceId}`)).body.result;
    expect(view).toMatchObject({ keepWhenOff: true, releaseAt: null });
    const before = await balance(user);

    // Day 15: no reminder is needed, the first day is paid and nothing is released.
    t.clock.advance(15 * DAY_S + 60);
    await new InstanceBillingJobs(t.deps).releasePoweredOff();
    await new InstanceBillingJobs(t.deps).releasePoweredOff();
    expect((await row(instanceId))?.releasedAt).toBeNull();
    expect(await balance(user)).toBe(before - DAILY);
    const kept = await row(instanceId);
    const [order] = await db().select().from(orders).where(eq(orders.id, kept?.retentionOrderId ?? 0));
    expect(order).toMatchObject({ type: 'NEW_STORAGE', status: 'PLACED', meteredFen: DAILY });

    // Two more days pass while the job was down: both are paid at once.
    t.clock.advance(2 * DAY_S);
    await new InstanceBillingJobs(t.deps).releasePoweredOff();
    expect(await balance(user)).toBe(before - 3 * DAILY);
    const until = (await row(instanceId))?.retainedUntil;

    // Switched off, the paid day still holds; after it, the instance is released.
    expect((await send(user, 'PUT', '/api/v1/rental/keep_when_off', { instanceId, keep: false })).status).toBe(200);
    await new InstanceBillingJobs(t.deps).releasePoweredOff();
    expect((await row(instanceId))?.releasedAt).toBeNull();
    t.clock.advance(Math.ceil(((until?.getTime() ?? 0) - t.deps.now().getTime()) / 1000) + 1);
    await new InstanceBillingJobs(t.deps).releasePoweredOff();
    await settle();
    expect((await row(instanceId))?.releasedAt).not.toBeNull();
    expect(await balance(user)).toBe(before - 3 * DAILY);
    expect(await unbalancedTransactions(db())).toEqual([]);
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });

  it('a balance that cannot pay the next day stops the keeping and the instance is released, with a notice naming the loss', async () => {
    const { user, instanceId } = await offInstance(300);
    expect((await send(user, 'PUT', '/api/v1/rental/keep_when_off', { instanceId, keep: true })).status).toBe(200);
    const left = await balance(user);
    expect(left).toBeLessThan(DAILY * 4);
    // Pays as many days as it can, then stops.
    for (let day = 0; day <= 4; day += 1) {
      t.clock.advance(day === 0 ? 15 * DAY_S + 60 : DAY_S);
      await new InstanceBillingJobs(t.deps).releasePoweredOff();
      await settle();
    }
    const released = await row(instanceId);
    expect(released?.releasedAt).not.toBeNull();
    expect(released?.keepWhenOff).toBe(false);
    expect(await balance(user)).toBe(left - Math.floor(left / DAILY) * DAILY);
    const notices = await db().select().from(notifications).where(eq(notifications.instanceRowId, released?.id ?? 0));
    expect(notices.map((notice) => notice.title)).toContain('余额不足，实例不再保留');
    expect(notices.find((notice) => notice.title === '余额不足，实例不再保留')?.body).toContain('系统盘和数据盘的数据将被删除且无法恢复');
  });

  it('refuses packages, other users and released instances', async () => {
    const { user, instanceId } = await offInstance(10_000);
    const stranger = await registerUser(t);
    expect((await send(stranger, 'PUT', '/api/v1/rental/keep_when_off', { instanceId, keep: true })).status).toBe(404);
    const bad = await send(user, 'PUT', '/api/v1/rental/keep_when_off', { instanceId, keep: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.rspmsg).toContain('keep 必须是 true 或 false');

    const packaged = await send<{ instanceId: string }>(user, 'POST', '/api/v1/rental', { hostId: HOST, gpuNum: 1, imageId: IMAGE, chargingRuleId: 2, rentAmount: 1 });
    const refused = await send(user, 'PUT', '/api/v1/rental/keep_when_off', { instanceId: packaged.body.result.instanceId, keep: true });
    expect(refused.status).toBe(400);
    expect(refused.body.rspmsg).toBe('包年包月实例到期前不会被自动释放，无需保留');
  });
});
