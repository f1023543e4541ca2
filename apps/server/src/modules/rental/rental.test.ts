import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCodes, runCharge } from '@slg/shared';
import { call, createTestApp, loginToken, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { hosts, instanceEvents, instances, simMachines } from '../../db/schema/index.js';
import { unbalancedTransactions, walletsOutOfBalance } from '../billing/ledger.js';
import type { InstanceView } from './views.js';

let t: TestApp;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
/** RTX 4090 at the seed price, 198 fen per GPU-hour. */
const HOST = 'bj-a-4090-01';

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '4', SIM_START_SECONDS: '2', SIM_STOP_SECONDS: '2', SIM_DESTROY_SECONDS: '2' } });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;
const settle = (seconds = 5) => settleMachines(t, seconds);

async function fundedUser(fen: number) {
  const user = await registerUser(t);
  await rechargeThroughSandbox(t, user.jwtToken, fen);
  return user;
}

async function balanceOf(token: string): Promise<number> {
  const account = await call<{ totalBalance: number }>(t.app, { method: 'GET', url: '/api/v1/account/', token });
  return account.body.result.totalBalance;
}

async function create(token: string, body: Record<string, unknown> = {}) {
  return call<{ instanceId: string; rentalId: number; rentalUid: string; orderId: string }>(t.app, {
    method: 'POST',
    url: '/api/v1/rental',
    token,
    payload: { hostId: HOST, gpuNum: 1, imageId: IMAGE, chargingRuleId: 1, ...body },
  });
}

async function detail(token: string, instanceId: string): Promise<InstanceView> {
  const found = await call<InstanceView>(t.app, { method: 'GET', url: `/api/v1/rental/detail?instanceId=${instanceId}`, token });
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  return found.body.result;
}

const post = (token: string, url: string, payload: Record<string, unknown>) => call<InstanceView>(t.app, { method: 'POST', url, token, payload });

describe('creating and running a pay-as-you-go instance', () => {
  it('creates, runs, meters from the moment it runs, powers off and on without GPUs, and releases', async () => {
    const user = await fundedUser(10_000);
    const created = await create(user.jwtToken, { name: '训练机' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { instanceId } = created.body.result;
    expect(instanceId).toMatch(/^slg-[a-z0-9]{10}$/);
    expect(await detail(user.jwtToken, instanceId)).toMatchObject({ status: 'CreationStarted', operation: 'create', name: '训练机', gpuNum: 1, priceFen: 198 });
    const [host] = await db().select().from(hosts).where(eq(hosts.id, HOST));
    expect(host?.gpuAllocated).toBe(1);

    // Creating takes 4 s in the simulated fleet: nothing is charged meanwhile.
    await settle(2);
    expect((await detail(user.jwtToken, instanceId)).status).toBe('CreationStarted');
    await settle(3);
    const running = await detail(user.jwtToken, instanceId);
    expect(running).toMatchObject({ status: 'PoweredOn', operation: null, health: 'Normal' });
    expect(running.sshCommand).toMatch(/^ssh -p \d+ root@bj-a\.connect\./);
    expect(await balanceOf(user.jwtToken)).toBe(10_000);

    // The run started when the machine came up (4 s after the request), not when it was seen.
    const [row] = await db().select().from(instances).where(eq(instances.instanceId, instanceId));
    const [machine] = await db().select().from(simMachines).where(eq(simMachines.instanceId, instanceId));
    expect(row?.runStartedAt?.toISOString()).toBe(machine?.runningSince?.toISOString());

    const password = await call<{ password: string }>(t.app, { method: 'GET', url: `/api/v1/rental/password?instanceId=${instanceId}`, token: user.jwtToken });
    expect(password.body.result.password).toMatch(/^[A-Za-z\d]{16}$/);

    // 3 h 7 s later: power off settles exactly round(198 × seconds / 3600).
    const runStarted = row?.runStartedAt ?? new Date();
    t.clock.advance(3 * 3600 + 7);
    const seconds = Math.floor((t.deps.now().getTime() - runStarted.getTime()) / 1000);
    // (The access token lives 15 minutes: sign in again after moving the clock.)
    user.jwtToken = await loginToken(t, user.telephone);
    const off = await post(user.jwtToken, '/api/v1/rental/power_off', { instanceId });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.result).toMatchObject({ status: 'PoweredOn', operation: 'power_off' });
    const charged = runCharge(198, seconds);
    expect(await balanceOf(user.jwtToken)).toBe(10_000 - charged);
    await settle(3);
    expect(await detail(user.jwtToken, instanceId)).toMatchObject({ status: 'PoweredOff', operation: null });
    expect((await db().select().from(hosts).where(eq(hosts.id, HOST)))[0]?.gpuAllocated).toBe(0);
    // Stopped: nothing more is charged.
    t.clock.advance(3600);
    user.jwtToken = await loginToken(t, user.telephone);
    expect(await balanceOf(user.jwtToken)).toBe(10_000 - charged);

    // No-GPU mode: its own rate (10 fen/h), no GPU taken.
    const noGpu = await post(user.jwtToken, '/api/v1/rental/power_on', { instanceId, mode: 'nogpu' });
    expect(noGpu.status, JSON.stringify(noGpu.body)).toBe(200);
    await settle(3);
    expect(await detail(user.jwtToken, instanceId)).toMatchObject({ status: 'PoweredOnNoGPU', gpuMode: 'nogpu', priceFen: 10, cpuCores: 2 });
    expect((await db().select().from(hosts).where(eq(hosts.id, HOST)))[0]?.gpuAllocated).toBe(0);
    t.clock.advance(1800);
    user.jwtToken = await loginToken(t, user.telephone);
    await post(user.jwtToken, '/api/v1/rental/power_off', { instanceId });
    expect(await balanceOf(user.jwtToken)).toBe(10_000 - charged - 5);
    await settle(3);

    // Release: refused while running, fine when off; the data is gone and the record stays.
    const released = await call(t.app, { method: 'DELETE', url: `/api/v1/rental?instanceId=${instanceId}`, token: user.jwtToken });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect((await detail(user.jwtToken, instanceId)).status).toBe('DestroyStarted');
    await settle(3);
    const gone = await call(t.app, { method: 'GET', url: `/api/v1/rental/detail?instanceId=${instanceId}`, token: user.jwtToken });
    expect(gone.status).toBe(404);
    const [record] = await db().select().from(instances).where(eq(instances.instanceId, instanceId));
    expect(record?.releasedAt).not.toBeNull();
    expect((await db().select().from(hosts).where(eq(hosts.id, HOST)))[0]).toMatchObject({ gpuAllocated: 0, dataDiskAllocatedGb: 0 });
    const events = await db().select({ type: instanceEvents.type }).from(instanceEvents).where(eq(instanceEvents.instanceRowId, record?.id ?? 0));
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['CREATE', 'POWER_OFF', 'POWER_ON', 'RELEASE']),
    );
    expect(await walletsOutOfBalance(db())).toEqual([]);
    expect(await unbalancedTransactions(db())).toEqual([]);
  });

  it('refuses operations in the wrong state, naming the state, and hides other accounts’ instances', async () => {
    const user = await fundedUser(10_000);
    const { instanceId } = (await create(user.jwtToken)).body.result;
    const early = await post(user.jwtToken, '/api/v1/rental/power_off', { instanceId });
    expect(early.status).toBe(409);
    expect(early.body.rspmsg).toBe('实例正在创建，请稍后再关机');
    await settle(5);
    const on = await post(user.jwtToken, '/api/v1/rental/power_on', { instanceId, mode: 'gpu' });
    expect(on.status).toBe(409);
    expect(on.body.rspmsg).toBe('实例当前状态为「运行中」，不能开机');
    const release = await call(t.app, { method: 'DELETE', url: `/api/v1/rental?instanceId=${instanceId}`, token: user.jwtToken });
    expect(release.status).toBe(409);
    expect(release.body.rspmsg).toBe('实例当前状态为「运行中」，不能释放');

    const stranger = await fundedUser(100);
    for (const attempt of [
      () => post(stranger.jwtToken, '/api/v1/rental/power_off', { instanceId }),
      () => call(t.app, { method: 'GET', url: `/api/v1/rental/password?instanceId=${instanceId}`, token: stranger.jwtToken }),
      () => call(t.app, { method: 'PUT', url: '/api/v1/rental/name', token: stranger.jwtToken, payload: { instanceId, name: 'x' } }),
      () => call(t.app, { method: 'DELETE', url: `/api/v1/rental?instanceId=${instanceId}`, token: stranger.jwtToken }),
    ]) {
      const answer = await attempt();
      expect(answer.status).toBe(404);
      expect(answer.body.rspmsg).toBe('实例不存在');
    }
    const list = await call<{ total: number }>(t.app, { method: 'GET', url: '/api/v1/rental', token: stranger.jwtToken });
    expect(list.body.result.total).toBe(0);
  });

  it('needs a balance that covers one hour, and creates nothing otherwise', async () => {
    const user = await fundedUser(197);
    const refused = await create(user.jwtToken);
    expect(refused.status).toBe(400);
    expect(refused.body.rspcode).toBe(ErrorCodes.INSUFFICIENT_BALANCE.code);
    expect(refused.body.rspmsg).toContain('¥1.98');
    const list = await call<{ total: number }>(t.app, { method: 'GET', url: '/api/v1/rental', token: user.jwtToken });
    expect(list.body.result.total).toBe(0);
  });

  it('refuses a voucher for pay-as-you-go and names a short data disk as such, not as a GPU shortage', async () => {
    const user = await fundedUser(10_000);
    const withVoucher = await create(user.jwtToken, { voucherId: 1 });
    expect(withVoucher.status).toBe(400);
    expect(withVoucher.body.rspmsg).toBe('按量计费不能使用代金券，代金券可用于包日、包周、包月');
    const diskFull = 'cq-a-4090-01';
    const [host] = await db().select().from(hosts).where(eq(hosts.id, diskFull));
    await db().update(hosts).set({ dataDiskAllocatedGb: (host?.dataDiskTotalGb ?? 0) - 10 }).where(eq(hosts.id, diskFull));
    const refused = await create(user.jwtToken, { hostId: diskFull });
    expect(refused.status).toBe(409);
    expect(refused.body.rspmsg).toBe('主机数据盘空间不足：该主机当前剩余 10 GB，需要 50 GB，请选择其他主机');
    await db().update(hosts).set({ dataDiskAllocatedGb: 0 }).where(eq(hosts.id, diskFull));
  });

  it('refuses an image that needs a newer CUDA than the host’s driver', async () => {
    const user = await fundedUser(10_000);
    const refused = await create(user.jwtToken, { hostId: 'bj-a-3090-01' });
    expect(refused.status).toBe(400);
    expect(refused.body.rspmsg).toBe('镜像需要 CUDA 12.4，该主机驱动最高支持 CUDA 12.2，请选择 CUDA 版本不高于 12.2 的镜像或其他主机');
    const [host] = await db().select().from(hosts).where(eq(hosts.id, 'bj-a-3090-01'));
    expect(host?.gpuAllocated).toBe(0);
  });
});
