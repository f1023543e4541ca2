import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { call, createTestApp, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { hosts, instanceEvents, instances, orders, simMachines, users, vouchers } from '../../db/schema/index.js';
import { walletsOutOfBalance } from '../billing/ledger.js';
import type { InstanceView } from './views.js';

let t: TestApp;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
const SOURCE_HOST = 'bj-a-4090-05';
const TARGET_HOST = 'bj-a-4090-06';

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '3', SIM_START_SECONDS: '2', SIM_STOP_SECONDS: '2', SIM_DESTROY_SECONDS: '2' } });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;
type User = { telephone: string; jwtToken: string };
const send = <T = unknown>(user: User, method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, payload?: Record<string, unknown>) =>
  call<T>(t.app, { method, url, token: user.jwtToken, ...(payload ? { payload } : {}) });

const settle = (seconds = 4) => settleMachines(t, seconds);

async function detail(user: User, instanceId: string) {
  return send<InstanceView>(user, 'GET', `/api/v1/rental/detail?instanceId=${instanceId}`);
}

/** A funded user with a pay-as-you-go instance on SOURCE_HOST, powered off, its data disk holding 20 GB. */
async function offSource(options: { chargingRuleId?: number; rentAmount?: number } = {}): Promise<{ user: User; instanceId: string }> {
  const user = await registerUser(t);
  await rechargeThroughSandbox(t, user.jwtToken, 200_000);
  const created = await send<{ instanceId: string }>(user, 'POST', '/api/v1/rental', { hostId: SOURCE_HOST, gpuNum: 1, imageId: IMAGE, chargingRuleId: options.chargingRuleId ?? 1, rentAmount: options.rentAmount, name: '源实例' });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const { instanceId } = created.body.result;
  await settle();
  await db().update(simMachines).set({ dataDiskUsedGb: 20 }).where(eq(simMachines.instanceId, instanceId));
  expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
  await settle(3);
  return { user, instanceId };
}

describe('clone and move (克隆实例 / 迁移)', () => {
  it('clones a stopped instance with its data disk to another host of the region, paid as CLONE_INSTANCE; the source stays', async () => {
    const { user, instanceId } = await offSource();
    // The source's data disk was extended to 80 GB: the clone's is too, and its extra 30 GB are metered.
    await db().update(instances).set({ dataDiskGb: 80 }).where(eq(instances.instanceId, instanceId));
    const prepay = await send<{ amount: number; dataDiskGb: number; sourceInstanceId: string }>(user, 'POST', '/api/v1/rental/clone/prepay', {
      instanceId,
      hostId: TARGET_HOST,
      gpuNum: 2,
      chargingRuleId: 1,
      copyData: true,
    });
    expect(prepay.status, JSON.stringify(prepay.body)).toBe(200);
    expect(prepay.body.result).toMatchObject({ amount: 2 * 198, dataDiskGb: 80, diskRateFenPerDay: 30, sourceInstanceId: instanceId });

    const cloned = await send<{ instanceId: string; orderId: string }>(user, 'POST', '/api/v1/rental/clone', { instanceId, hostId: TARGET_HOST, gpuNum: 2, chargingRuleId: 1, copyData: true });
    expect(cloned.status, JSON.stringify(cloned.body)).toBe(200);
    const [order] = await db().select().from(orders).where(eq(orders.orderNo, cloned.body.result.orderId));
    expect(order?.type).toBe('CLONE_INSTANCE');
    await settle();
    const view = (await detail(user, cloned.body.result.instanceId)).body.result;
    expect(view).toMatchObject({ status: 'PoweredOn', hostId: TARGET_HOST, gpuNum: 2, imageId: IMAGE, name: '源实例-克隆', dataDiskGb: 80, diskRateFenPerDay: 30 });
    // The data disk came along with what it holds.
    const [machine] = await db().select().from(simMachines).where(eq(simMachines.instanceId, cloned.body.result.instanceId));
    expect(machine?.dataDiskUsedGb).toBe(20);
    expect((await detail(user, instanceId)).body.result.status).toBe('PoweredOff');
    const [source] = await db().select().from(instances).where(eq(instances.instanceId, instanceId));
    const events = await db().select().from(instanceEvents).where(and(eq(instanceEvents.instanceRowId, source?.id ?? 0), eq(instanceEvents.type, 'CLONE')));
    expect(events.map((event) => event.detail)).toEqual([`克隆为实例 ${cloned.body.result.instanceId}`]);
  });

  it('prices a clone package with a voucher as the CLONE_INSTANCE order it pays, so preview and payment agree', async () => {
    const { user, instanceId } = await offSource();
    const [owner] = await db().select({ id: users.id }).from(users).where(eq(users.telephone, user.telephone));
    const now = t.deps.now();
    const valid = { ownerId: owner?.id ?? 0, amountFen: 1000, validFrom: new Date(now.getTime() - 1000), validTo: new Date(now.getTime() + 86_400_000), source: 'GRANT' };
    const [newOnly, cloneOnly] = await db()
      .insert(vouchers)
      .values([
        { ...valid, name: '新购专用券', scope: ['NEW_PURCHASE'] },
        { ...valid, name: '克隆专用券', scope: ['CLONE_INSTANCE'] },
      ])
      .returning();
    const body = (voucherId: number | undefined) => ({ instanceId, hostId: TARGET_HOST, gpuNum: 1, chargingRuleId: 2, rentAmount: 1, copyData: true, voucherId });
    const refused = await send(user, 'POST', '/api/v1/rental/clone/prepay', body(newOnly?.id));
    expect(refused.status).toBe(400);
    const priced = await send<{ amount: number; discount: number; payable: number }>(user, 'POST', '/api/v1/rental/clone/prepay', body(cloneOnly?.id));
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
    expect(priced.body.result.discount).toBe(1000);
    const cloned = await send<{ orderId: string }>(user, 'POST', '/api/v1/rental/clone', body(cloneOnly?.id));
    expect(cloned.status, JSON.stringify(cloned.body)).toBe(200);
    const [order] = await db().select().from(orders).where(eq(orders.orderNo, cloned.body.result.orderId));
    expect(order).toMatchObject({ type: 'CLONE_INSTANCE', discountFen: 1000, paidFen: priced.body.result.payable });
  });

  it('moves an instance off a full host: the clone runs on a host with free GPUs, then the source is released', async () => {
    const { user, instanceId } = await offSource();
    // The source's host is full now: powering on with GPUs is refused.
    await db().update(hosts).set({ gpuAllocated: 8 }).where(eq(hosts.id, SOURCE_HOST));
    const refused = await send(user, 'POST', '/api/v1/rental/power_on', { instanceId, mode: 'gpu' });
    expect(refused.status).toBe(409);

    const moved = await send<{ instanceId: string }>(user, 'POST', '/api/v1/rental/clone', { instanceId, hostId: TARGET_HOST, gpuNum: 1, chargingRuleId: 1, copyData: true, releaseSource: true });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await settle();
    expect((await detail(user, moved.body.result.instanceId)).body.result.status).toBe('PoweredOn');
    // The source's release was started once the clone ran, and finishes like any release.
    await settle(3);
    expect((await detail(user, instanceId)).status).toBe(404);
    const [source] = await db().select().from(instances).where(eq(instances.instanceId, instanceId));
    expect(source?.releasedAt).not.toBeNull();
    await db().update(hosts).set({ gpuAllocated: 0 }).where(eq(hosts.id, SOURCE_HOST));
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });

  it('clone/v2 copies the system disk to another region, with a fresh free data disk', async () => {
    const { user, instanceId } = await offSource();
    const cloned = await send<{ instanceId: string }>(user, 'POST', '/api/v1/rental/clone/v2', { instanceId, hostId: 'nm-b-4090-01', gpuNum: 1, chargingRuleId: 1, copyData: false, name: '内蒙副本' });
    expect(cloned.status, JSON.stringify(cloned.body)).toBe(200);
    await settle();
    const view = (await detail(user, cloned.body.result.instanceId)).body.result;
    expect(view).toMatchObject({ status: 'PoweredOn', zoneId: 'nm-b', name: '内蒙副本', dataDiskGb: 50 });
    const [machine] = await db().select().from(simMachines).where(eq(simMachines.instanceId, cloned.body.result.instanceId));
    expect(machine?.dataDiskUsedGb).not.toBe(20);
  });

  it('refuses a running source, another region for clone (v1), data across regions, moving a package and moving without data', async () => {
    const { user, instanceId } = await offSource();
    const body = { instanceId, hostId: TARGET_HOST, gpuNum: 1, chargingRuleId: 1, copyData: true };

    const otherRegion = await send(user, 'POST', '/api/v1/rental/clone', { ...body, hostId: 'nm-b-4090-01' });
    expect(otherRegion.status).toBe(400);
    expect(otherRegion.body.rspmsg).toBe('克隆只能选择源实例所在地区的主机；跨地区克隆请使用 clone/v2（只复制系统盘）');
    const v2Data = await send(user, 'POST', '/api/v1/rental/clone/v2', body);
    expect(v2Data.status).toBe(400);
    expect(v2Data.body.rspmsg).toBe('跨地区克隆只复制系统盘，不能复制数据盘');
    const noData = await send(user, 'POST', '/api/v1/rental/clone', { ...body, copyData: false, releaseSource: true });
    expect(noData.status).toBe(400);
    expect(noData.body.rspmsg).toBe('迁移会释放原实例，须在同一地区并复制数据盘，以免数据丢失');

    expect((await send(user, 'POST', '/api/v1/rental/power_on', { instanceId, mode: 'gpu' })).status).toBe(200);
    await settle(3);
    const running = await send(user, 'POST', '/api/v1/rental/clone', body);
    expect(running.status).toBe(409);
    expect(running.body.rspmsg).toBe('实例当前状态为「运行中」，不能克隆');

    const packaged = await offSource({ chargingRuleId: 2, rentAmount: 1 });
    const movePackage = await send(packaged.user, 'POST', '/api/v1/rental/clone', { ...body, instanceId: packaged.instanceId, releaseSource: true });
    expect(movePackage.status).toBe(400);
    expect(movePackage.body.rspmsg).toBe('包年包月实例迁移后不能释放原实例：请先转为按量计费（未使用部分退回余额），再迁移');

    const stranger = await registerUser(t);
    expect((await send(stranger, 'POST', '/api/v1/rental/clone', body)).status).toBe(404);
  });
});
