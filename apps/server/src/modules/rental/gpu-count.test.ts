import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { PACKAGE_PRICE_HOURS } from '@slg/shared';
import { call, createTestApp, loginToken, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { hosts, instanceEvents, instances, orders } from '../../db/schema/index.js';
import { unbalancedTransactions, walletsOutOfBalance } from '../billing/ledger.js';
import type { InstanceView } from './views.js';

let t: TestApp;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
/** RTX 4090 hosts at the seed price: 198 fen per GPU-hour, 8 GPUs each. */
const HOURLY = 198;
const DAY = HOURLY * PACKAGE_PRICE_HOURS.day;

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '4', SIM_START_SECONDS: '2', SIM_STOP_SECONDS: '2', SIM_DESTROY_SECONDS: '2' } });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;
type User = { telephone: string; jwtToken: string };
type Quote = { fromGpuNum: number; toGpuNum: number; maxGpuNum: number; hostFreeGpus: number; hourlyFen: number; payable: number; refund: number; orderId?: string | null };

const settle = (seconds = 5) => settleMachines(t, seconds);

async function fundedUser(fen: number): Promise<User> {
  const user = await registerUser(t);
  if (fen > 0) await rechargeThroughSandbox(t, user.jwtToken, fen);
  return user;
}

const send = <T = unknown>(user: User, method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, payload?: Record<string, unknown>) =>
  call<T>(t.app, { method, url, token: user.jwtToken, ...(payload ? { payload } : {}) });

async function balanceOf(user: User): Promise<number> {
  user.jwtToken = await loginToken(t, user.telephone);
  const account = await send<{ totalBalance: number }>(user, 'GET', '/api/v1/account/');
  return account.body.result.totalBalance;
}

async function allocated(hostId: string): Promise<number> {
  const [host] = await db().select().from(hosts).where(eq(hosts.id, hostId));
  return host?.gpuAllocated ?? -1;
}

async function detail(user: User, instanceId: string): Promise<InstanceView> {
  const found = await send<InstanceView>(user, 'GET', `/api/v1/rental/detail?instanceId=${instanceId}`);
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  return found.body.result;
}

/** A running instance on `hostId`, then powered off. */
async function offInstance(user: User, hostId: string, body: Record<string, unknown>): Promise<string> {
  const created = await send<{ instanceId: string }>(user, 'POST', '/api/v1/rental', { hostId, gpuNum: 1, imageId: IMAGE, chargingRuleId: 1, ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const { instanceId } = created.body.result;
  await settle(5);
  expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
  await settle(3);
  expect((await detail(user, instanceId)).status).toBe('PoweredOff');
  return instanceId;
}

describe('changing the GPU count', () => {
  it('pay-as-you-go: only the count and the next run change; the next power-on takes the new count', async () => {
    const host = 'bj-a-4090-04';
    const user = await fundedUser(10_000);
    const instanceId = await offInstance(user, host, { gpuNum: 1 });
    const before = await allocated(host);
    const balance = await balanceOf(user);

    const quote = await send<Quote>(user, 'POST', '/api/v1/rental/change_gpu_num/prepay', { instanceId, gpuNum: 3 });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.result).toMatchObject({ fromGpuNum: 1, toGpuNum: 3, maxGpuNum: 8, hourlyFen: 3 * HOURLY, payable: 0, refund: 0 });

    const changed = await send<Quote>(user, 'POST', '/api/v1/rental/change_gpu_num', { instanceId, gpuNum: 3 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.result.orderId).toBeNull();
    expect(await allocated(host)).toBe(before);
    expect(await balanceOf(user)).toBe(balance);
    expect((await detail(user, instanceId)).gpuNum).toBe(3);

    expect((await send(user, 'POST', '/api/v1/rental/power_on', { instanceId, mode: 'gpu' })).status).toBe(200);
    await settle(3);
    const view = await detail(user, instanceId);
    expect(view.status).toBe('PoweredOn');
    expect(await allocated(host)).toBe(before + 3);
    const [row] = await db().select().from(instances).where(eq(instances.instanceId, instanceId));
    expect(row?.runRateFen).toBe(3 * HOURLY);
    const events = await db().select().from(instanceEvents).where(and(eq(instanceEvents.instanceRowId, row?.id ?? 0), eq(instanceEvents.type, 'CHANGE_GPU_NUM')));
    expect(events.map((event) => event.detail)).toEqual(['变更GPU数量：1 → 3 卡']);
  });

  it('refuses a running instance, the same count, more than the host has, and another user', async () => {
    const host = 'bj-a-4090-05';
    const user = await fundedUser(10_000);
    const created = await send<{ instanceId: string }>(user, 'POST', '/api/v1/rental', { hostId: host, gpuNum: 2, imageId: IMAGE, chargingRuleId: 1 });
    const { instanceId } = created.body.result;
    await settle(5);

    const whileRunning = await send(user, 'POST', '/api/v1/rental/change_gpu_num', { instanceId, gpuNum: 1 });
    expect(whileRunning.status).toBe(409);
    expect(whileRunning.body.rspmsg).toBe('实例当前状态为「运行中」，不能变更GPU数量');

    expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
    await settle(3);
    const same = await send(user, 'POST', '/api/v1/rental/change_gpu_num/prepay', { instanceId, gpuNum: 2 });
    expect(same.status).toBe(400);
    expect(same.body.rspmsg).toBe('实例已是 2 卡，请选择其他GPU数量');
    await db().update(hosts).set({ gpuTotal: 4 }).where(eq(hosts.id, host));
    const tooMany = await send(user, 'POST', '/api/v1/rental/change_gpu_num', { instanceId, gpuNum: 5 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.rspmsg).toBe('该主机最多 4 卡');
    await db().update(hosts).set({ gpuTotal: 8 }).where(eq(hosts.id, host));
    const zero = await send(user, 'POST', '/api/v1/rental/change_gpu_num', { instanceId, gpuNum: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.rspmsg).toContain('GPU数量至少为1');

    const stranger = await fundedUser(0);
    const theirs = await send(stranger, 'POST', '/api/v1/rental/change_gpu_num', { instanceId, gpuNum: 1 });
    expect(theirs.status).toBe(404);
    expect((await detail(user, instanceId)).gpuNum).toBe(2);
  });

  it('a package takes the added GPUs now and pays their remaining time; fewer GPUs refund theirs; the ledger balances', async () => {
    const host = 'bj-a-4090-06';
    const user = await fundedUser(2 * DAY + 5_000);
    const instanceId = await offInstance(user, host, { gpuNum: 1, chargingRuleId: 2, rentAmount: 1 });
    const before = await allocated(host);
    // Ten hours of the day are gone (the off instance's package time runs on): 14 whole hours remain.
    t.clock.advance(10 * 3600 - 8);
    const balance = await balanceOf(user);
    user.jwtToken = await loginToken(t, user.telephone);

    const quote = await send<Quote>(user, 'POST', '/api/v1/rental/change_gpu_num/prepay', { instanceId, gpuNum: 3 });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const upgrade = Math.ceil((DAY * 2 * 14) / 24);
    expect(quote.body.result).toMatchObject({ payable: upgrade, refund: 0 });

    const up = await send<Quote>(user, 'POST', '/api/v1/rental/change_gpu_num', { instanceId, gpuNum: 3 });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.result.payable).toBe(upgrade);
    expect(up.body.result.orderId).toMatch(/^\d+$/);
    expect(await balanceOf(user)).toBe(balance - upgrade);
    expect(await allocated(host)).toBe(before + 2);
    const [order] = await db().select().from(orders).where(eq(orders.orderNo, up.body.result.orderId ?? ''));
    expect(order).toMatchObject({ type: 'UPGRADE_CONTAINER', status: 'PAID', paidFen: upgrade });

    t.clock.advance(3600);
    user.jwtToken = await loginToken(t, user.telephone);
    const down = await send<Quote>(user, 'POST', '/api/v1/rental/change_gpu_num/prepay', { instanceId, gpuNum: 2 });
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    const refund = Math.floor((DAY * 1 * 12) / 24);
    expect(down.body.result).toMatchObject({ payable: 0, refund });
    const applied = await send<Quote>(user, 'POST', '/api/v1/rental/change_gpu_num', { instanceId, gpuNum: 2 });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.result.refund).toBe(refund);
    expect(await balanceOf(user)).toBe(balance - upgrade + refund);
    expect(await allocated(host)).toBe(before + 1);
    const [row] = await db().select().from(instances).where(eq(instances.instanceId, instanceId));
    expect(row).toMatchObject({ gpuNum: 2, gpuHeld: 2, packagePaidFen: DAY + upgrade - refund });

    // Powering on uses the reserved GPUs: nothing more is taken.
    expect((await send(user, 'POST', '/api/v1/rental/power_on', { instanceId, mode: 'gpu' })).status).toBe(200);
    await settle(3);
    expect((await detail(user, instanceId)).status).toBe('PoweredOn');
    expect(await allocated(host)).toBe(before + 1);
    expect(await unbalancedTransactions(db())).toEqual([]);
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });

  it('a switch to pay-as-you-go after a GPU-count change prices each hour at the most GPUs in force during it (no second refund of removed GPUs)', async () => {
    // The case: 8 GPUs for a day, 1 GPU from the second hour, then pay-as-you-go. Before, the
    // switch priced both hours at 1 GPU, so the removed GPUs' used hour was refunded a second time.
    const paths = [
      { host: 'bj-a-4090-01', from: 8, to: 1, expectedNet: 2 * 8 * HOURLY },
      { host: 'bj-a-4090-02', from: 8, to: null, expectedNet: 2 * 8 * HOURLY },
      // An increase prices the hour in progress at the new count (the added GPUs paid for it), the
      // hours before at the old one; before, every hour was priced at 8 GPUs.
      { host: 'bj-a-4090-08', from: 1, to: 8, expectedNet: 1 * HOURLY + 8 * HOURLY },
    ];
    for (const path of paths) {
      await db().update(hosts).set({ gpuAllocated: 0 }).where(eq(hosts.id, path.host));
      const user = await fundedUser(16 * DAY);
      const instanceId = await offInstance(user, path.host, { gpuNum: path.from, chargingRuleId: 2, rentAmount: 1 });
      user.jwtToken = await loginToken(t, user.telephone);
      const start = await balanceOf(user);
      const [bought] = await db().select().from(instances).where(eq(instances.instanceId, instanceId));
      const paid = bought?.packagePaidFen ?? 0;
      expect(paid).toBe(path.from * DAY);
      t.clock.advance(3600);
      user.jwtToken = await loginToken(t, user.telephone);
      if (path.to !== null) {
        const changed = await send<Quote>(user, 'POST', '/api/v1/rental/change_gpu_num', { instanceId, gpuNum: path.to });
        expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      }
      const [row] = await db().select().from(instances).where(eq(instances.instanceId, instanceId));
      const preview = await send<{ refund: number }>(user, 'GET', `/api/v1/order/preview/refund?rentalUid=${row?.uid ?? ''}`);
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      const switched = await send<{ refund: number }>(user, 'PUT', `/api/v1/rental/update_charging_rule?instanceId=${instanceId}&chargingRuleId=1`);
      expect(switched.status, JSON.stringify(switched.body)).toBe(200);
      expect(switched.body.result.refund).toBe(preview.body.result.refund);
      const end = await balanceOf(user);
      expect({ host: path.host, net: paid - (end - start) }).toEqual({ host: path.host, net: path.expectedNet });
    }
    expect(await unbalancedTransactions(db())).toEqual([]);
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });

  it('a package refuses more GPUs than the host has free and a balance that cannot pay, changing nothing', async () => {
    const host = 'bj-a-4090-07';
    const user = await fundedUser(DAY);
    const instanceId = await offInstance(user, host, { gpuNum: 1, chargingRuleId: 2, rentAmount: 1 });
    const before = await allocated(host);

    const poor = await send(user, 'POST', '/api/v1/rental/change_gpu_num', { instanceId, gpuNum: 2 });
    expect(poor.status).toBe(400);
    expect(poor.body.rspmsg).toContain('账户余额不足');
    expect(await allocated(host)).toBe(before);

    await rechargeThroughSandbox(t, user.jwtToken, 50_000);
    await db().update(hosts).set({ gpuAllocated: 7 }).where(eq(hosts.id, host));
    const full = await send(user, 'POST', '/api/v1/rental/change_gpu_num', { instanceId, gpuNum: 3 });
    expect(full.status).toBe(409);
    expect(full.body.rspmsg).toBe('主机GPU不足：该主机当前空闲 1 卡，需要 2 卡');
    const [row] = await db().select().from(instances).where(eq(instances.instanceId, instanceId));
    expect(row).toMatchObject({ gpuNum: 1, gpuHeld: 1 });
    expect(await allocated(host)).toBe(7);
  });

  it('concurrent changes never over-allocate: one instance asked twice at once, and two instances racing for the last GPUs', async () => {
    const host = 'bj-a-4090-08';
    const user = await fundedUser(20 * DAY);
    const first = await offInstance(user, host, { gpuNum: 1, chargingRuleId: 2, rentAmount: 1 });
    const second = await offInstance(user, host, { gpuNum: 1, chargingRuleId: 2, rentAmount: 1 });
    user.jwtToken = await loginToken(t, user.telephone);

    // The same instance asked for 4 and 6 GPUs at once: both may apply, one after the other, and
    // what the host lends is what the instance holds.
    const same = await Promise.all([4, 6].map((gpuNum) => send<Quote>(user, 'POST', '/api/v1/rental/change_gpu_num', { instanceId: first, gpuNum })));
    expect(same.every((answer) => answer.status === 200 || answer.status === 409), JSON.stringify(same.map((a) => a.body))).toBe(true);
    const [afterSame] = await db().select().from(instances).where(eq(instances.instanceId, first));
    expect(afterSame?.gpuHeld).toBe(afterSame?.gpuNum);
    expect(await allocated(host)).toBe((afterSame?.gpuNum ?? 0) + 1);

    // Two instances each wanting the GPUs that are left: at most one gets them.
    const free = 8 - (await allocated(host));
    const race = await Promise.all(
      [first, second].map((instanceId, index) =>
        send<Quote>(user, 'POST', '/api/v1/rental/change_gpu_num', { instanceId, gpuNum: (index === 0 ? (afterSame?.gpuNum ?? 0) : 1) + free }),
      ),
    );
    expect(race.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const succeeded = race.filter((answer) => answer.status === 200);
    expect(succeeded.length, JSON.stringify(race.map((answer) => answer.body))).toBeLessThanOrEqual(1);
    const rows = await db().select().from(instances).where(eq(instances.hostId, host));
    const held = rows.filter((row) => row.releasedAt === null).reduce((sum, row) => sum + row.gpuHeld, 0);
    expect(await allocated(host)).toBe(held);
    expect(held).toBeLessThanOrEqual(8);
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });
});
