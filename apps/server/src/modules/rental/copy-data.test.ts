import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DATA_DISK_MOUNT_PATH } from '@slg/shared';
import { call, createTestApp, rechargeThroughSandbox, registerUser, type TestApp } from '../../../test/helpers.js';
import { copyTasks, hosts, instances, simMachines } from '../../db/schema/index.js';
import { Reconciler } from '../../compute/reconciler.js';
import { simPathSizeGb } from '../../compute/sim/copies.js';
import { CopyDataService, type CopyTaskView } from './copy-data.js';
import type { InstanceView } from './views.js';

let t: TestApp;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
const HOST = 'bj-a-4090-05';
const OTHER_HOST = 'bj-a-4090-06';
/** Spread over the zone's hosts, so no host runs out of GPUs within this file. */
const MORE_HOSTS = ['bj-a-4090-01', 'bj-a-4090-02', 'bj-a-4090-03', 'bj-a-4090-04', 'bj-a-4090-07'] as const;
/** Made unreachable for a moment in one test. */
const FAULTY_HOST = 'bj-a-4090-08';
const OTHER_ZONE_HOST = 'nm-b-4090-04';

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '2', SIM_START_SECONDS: '2', SIM_STOP_SECONDS: '2', SIM_DESTROY_SECONDS: '2' } });
});
afterAll(async () => {
  await t.close();
});

type User = { telephone: string; jwtToken: string };
const db = () => t.deps.database.db;
const send = <T = unknown>(user: User, method: 'POST' | 'GET' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  call<T>(t.app, { method, url, token: user.jwtToken, ...(payload ? { payload } : {}) });
const copy = (user: User, fromInstanceId: string, toInstanceId: string, path: string = DATA_DISK_MOUNT_PATH) =>
  send<CopyTaskView>(user, 'POST', '/api/v1/rental/copy_data', { fromInstanceId, toInstanceId, path });
const runJob = () => new CopyDataService(t.deps).observeRunning();

async function settle(seconds = 3): Promise<void> {
  await new Reconciler(t.deps).tick();
  t.clock.advance(seconds);
  await new Reconciler(t.deps).tick();
}

async function customer(): Promise<User> {
  const user = await registerUser(t);
  await rechargeThroughSandbox(t, user.jwtToken, 50_000);
  return user;
}

/** Instances created together and brought up by one reconciler pass. */
async function runningInstances(user: User, hostIds: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const hostId of hostIds) {
    const created = await send<{ instanceId: string }>(user, 'POST', '/api/v1/rental', { hostId, gpuNum: 1, imageId: IMAGE, chargingRuleId: 1 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ids.push(created.body.result.instanceId);
  }
  await settle();
  return ids;
}

async function disk(instanceId: string, values: { dataDiskUsedGb?: number; dataDiskGb?: number }): Promise<void> {
  await db().update(simMachines).set(values).where(eq(simMachines.instanceId, instanceId));
}

async function usedGb(instanceId: string): Promise<number> {
  const [machine] = await db().select({ used: simMachines.dataDiskUsedGb }).from(simMachines).where(eq(simMachines.instanceId, instanceId));
  return machine?.used ?? -1;
}

async function listed(user: User): Promise<Map<string, InstanceView>> {
  const page = await send<{ list: InstanceView[] }>(user, 'GET', '/api/v1/rental?page=1&pageSize=100');
  expect(page.status).toBe(200);
  return new Map(page.body.result.list.map((item) => [item.instanceId, item]));
}

const history = async (user: User, instanceId: string) => (await send<CopyTaskView[]>(user, 'GET', `/api/v1/rental/copy_data?instanceId=${instanceId}`)).body.result;

describe('跨实例拷贝 (copy data between instances)', () => {
  it('copies with the clock, shows progress on both instances, lands once on the target and is done', async () => {
    const user = await customer();
    const [source = '', target = ''] = await runningInstances(user, [HOST, OTHER_HOST]);
    await disk(source, { dataDiskUsedGb: 30 });
    const before = await usedGb(target);

    const started = await copy(user, source, target, `${DATA_DISK_MOUNT_PATH}//`);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.result).toMatchObject({ role: 'source', toInstanceId: target, peerInstanceId: target, path: DATA_DISK_MOUNT_PATH, status: 'running', progress: 0, totalGb: 30, copiedGb: 0 });

    const whileRunning = await listed(user);
    expect(whileRunning.get(source)?.copyTask).toEqual({ role: 'source', peerInstanceId: target, progress: 0, path: DATA_DISK_MOUNT_PATH });
    expect(whileRunning.get(target)?.copyTask).toMatchObject({ role: 'target', peerInstanceId: source });

    t.clock.advance(12);
    expect(await runJob()).toBe(1);
    const [midway] = await history(user, target);
    // The test clock runs on with real time too: a few tenths of a GB more may have arrived.
    expect(midway).toMatchObject({ role: 'target', peerInstanceId: source, status: 'running', totalGb: 30, finishedAt: null });
    expect(midway?.copiedGb).toBeGreaterThanOrEqual(12);
    expect(midway?.copiedGb).toBeLessThan(13);
    expect(midway?.progress).toBe(Math.floor(((midway?.copiedGb ?? 0) / 30) * 100));
    expect((await listed(user)).get(target)?.copyTask?.progress).toBe(midway?.progress);
    expect(await usedGb(target)).toBe(before);

    t.clock.advance(20);
    expect(await runJob()).toBe(1);
    // A second pass (another process, a restart) finds nothing left to do and lands nothing twice.
    expect(await runJob()).toBe(0);
    expect((await t.deps.compute.driver.observeCopies([started.body.result.taskId])).get(started.body.result.taskId)?.state).toBe('done');
    expect(await usedGb(target)).toBe(before + 30);

    const [done] = await history(user, source);
    expect(done).toMatchObject({ role: 'source', status: 'done', progress: 100, copiedGb: 30, statusReason: null });
    expect(done?.finishedAt).not.toBeNull();
    const afterwards = await listed(user);
    expect(afterwards.get(source)?.copyTask).toBeNull();
    expect(afterwards.get(target)?.copyTask).toBeNull();
  });

  it('copies a sub-path its share of the disk, into a powered-off target', async () => {
    const user = await customer();
    const [source = '', target = ''] = await runningInstances(user, [MORE_HOSTS[4], MORE_HOSTS[4]]);
    await disk(source, { dataDiskUsedGb: 20 });
    expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId: target })).status).toBe(200);
    await settle();
    const path = `${DATA_DISK_MOUNT_PATH}/datasets/imagenet`;
    const started = await copy(user, source, target, path);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const size = simPathSizeGb(20, path);
    expect(started.body.result).toMatchObject({ path, totalGb: size });
    const before = await usedGb(target);
    t.clock.advance(size + 1);
    await runJob();
    expect((await history(user, target))[0]).toMatchObject({ status: 'done', progress: 100 });
    expect(await usedGb(target)).toBe(before + size);
  });

  it('refuses other users, the same instance, another region, bad paths and instances busy with an operation', async () => {
    const user = await customer();
    const [source = '', target = '', faraway = ''] = await runningInstances(user, [HOST, OTHER_HOST, OTHER_ZONE_HOST]);
    const stranger = await customer();
    const [strangers = ''] = await runningInstances(stranger, [MORE_HOSTS[4]]);

    const notTheirs = await copy(stranger, source, strangers);
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body.rspmsg).toBe('源实例不存在');
    const intoStranger = await copy(user, source, strangers);
    expect(intoStranger.status).toBe(404);
    expect(intoStranger.body.rspmsg).toBe('目标实例不存在');
    expect((await send(stranger, 'GET', `/api/v1/rental/copy_data?instanceId=${source}`)).status).toBe(404);

    const same = await copy(user, source, source);
    expect(same.status).toBe(400);
    expect(same.body.rspmsg).toBe('源实例和目标实例不能是同一个实例');

    const region = await copy(user, source, faraway);
    expect(region.status).toBe(400);
    expect(region.body.rspmsg).toBe('不支持跨地区拷贝：源实例在北京A区，目标实例在内蒙B区，请选择同一地区的实例');

    const badPaths: [string, string][] = [
      ['/root/other', `只能拷贝数据盘中的数据：路径须以 ${DATA_DISK_MOUNT_PATH} 开头`],
      [`${DATA_DISK_MOUNT_PATH}x/a`, `只能拷贝数据盘中的数据：路径须以 ${DATA_DISK_MOUNT_PATH} 开头`],
      ['slg-data/a', `只能拷贝数据盘中的数据：路径须以 ${DATA_DISK_MOUNT_PATH} 开头`],
      [`${DATA_DISK_MOUNT_PATH}/../../etc`, '路径不能包含 . 或 .. 目录'],
      [`${DATA_DISK_MOUNT_PATH}/a\nb`, '路径不能包含换行或控制字符'],
      [`${DATA_DISK_MOUNT_PATH}/${'a'.repeat(600)}`, '路径最长 512 个字符'],
      ['', '请输入要拷贝的路径'],
    ];
    for (const [path, message] of badPaths) {
      const bad = await copy(user, source, target, path);
      expect(bad.status, path).toBe(400);
      expect(bad.body.rspmsg, path).toContain(message);
    }
    // NUL never reaches the route: the input guard refuses it for every field.
    expect((await copy(user, source, target, `${DATA_DISK_MOUNT_PATH}/a\u0000b`)).status).toBe(400);
    const notText = await send(user, 'POST', '/api/v1/rental/copy_data', { fromInstanceId: source, toInstanceId: target, path: 42 });
    expect(notText.status).toBe(400);
    expect(notText.body.rspmsg).toContain('路径必须是文本');

    expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId: target })).status).toBe(200);
    const busy = await copy(user, source, target);
    expect(busy.status).toBe(409);
    expect(busy.body.rspmsg).toBe('目标实例正在关机，请稍后再跨实例拷贝');
    const busySource = await copy(user, target, source);
    expect(busySource.status).toBe(409);
    expect(busySource.body.rspmsg).toBe('源实例正在关机，请稍后再跨实例拷贝');
    await settle();

    expect(await history(user, source)).toEqual([]);
  });

  it('answers the machines’ refusals — no data, no space (naming both sizes), host unreachable — and keeps them as failed tasks', async () => {
    const user = await customer();
    const [source = '', target = ''] = await runningInstances(user, [MORE_HOSTS[4], FAULTY_HOST]);

    await disk(source, { dataDiskUsedGb: 0 });
    const empty = await copy(user, source, target);
    expect(empty.status).toBe(409);
    expect(empty.body.rspmsg).toBe(`跨实例拷贝失败：源实例的 ${DATA_DISK_MOUNT_PATH} 中没有数据`);

    await disk(source, { dataDiskUsedGb: 40 });
    await disk(target, { dataDiskGb: 50, dataDiskUsedGb: 30 });
    const full = await copy(user, source, target);
    expect(full.status).toBe(409);
    expect(full.body.rspmsg).toBe('跨实例拷贝失败：目标实例数据盘空间不足：需要 40 GB，剩余 20 GB');
    expect(await usedGb(target)).toBe(30);

    await disk(target, { dataDiskUsedGb: 5 });
    await db().update(hosts).set({ simFault: 'unreachable', simFaultReason: '主机网络中断' }).where(eq(hosts.id, FAULTY_HOST));
    const unreachable = await copy(user, source, target);
    await db().update(hosts).set({ simFault: null, simFaultReason: null }).where(eq(hosts.id, FAULTY_HOST));
    expect(unreachable.status).toBe(503);
    expect(unreachable.body.rspmsg).toBe('跨实例拷贝失败：主机网络中断，请稍后再试');

    const tasks = await history(user, target);
    expect(tasks.map((task) => [task.status, task.statusReason])).toEqual([
      ['failed', '主机网络中断'],
      ['failed', '目标实例数据盘空间不足：需要 40 GB，剩余 20 GB'],
      ['failed', `源实例的 ${DATA_DISK_MOUNT_PATH} 中没有数据`],
    ]);
    expect(tasks.every((task) => task.finishedAt !== null)).toBe(true);
    // Nothing blocks the next copy once the failed ones are recorded.
    expect((await copy(user, source, target)).status).toBe(200);
  });

  it('lets one copy run into an instance at a time, also under concurrent requests, and never reads from an instance being written', async () => {
    const user = await customer();
    const [target = '', ...sources] = await runningInstances(user, [MORE_HOSTS[0], MORE_HOSTS[0], MORE_HOSTS[1], MORE_HOSTS[1], MORE_HOSTS[2], MORE_HOSTS[2], MORE_HOSTS[3]]);
    for (const source of sources) await disk(source, { dataDiskUsedGb: 10 });
    await disk(target, { dataDiskGb: 500 });

    const answers = await Promise.all(sources.map((source) => copy(user, source, target)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.body.rspmsg).toBe('目标实例正在接收另一个拷贝任务，请等待其完成后再拷贝');
    }
    expect((await history(user, target)).filter((task) => task.status === 'running')).toHaveLength(1);

    const fromTarget = await copy(user, target, sources[0] ?? '');
    expect(fromTarget.status).toBe(409);
    expect(fromTarget.body.rspmsg).toBe('源实例正在接收其他实例拷贝来的数据，请等拷贝完成后再从它拷贝');

    t.clock.advance(11);
    await runJob();
    expect((await copy(user, sources[1] ?? '', target)).status).toBe(200);
  });

  it('starts a copy whose process died before asking the machines, and fails one whose target is released meanwhile', async () => {
    const user = await customer();
    const [source = '', target = ''] = await runningInstances(user, [MORE_HOSTS[3], FAULTY_HOST]);
    await disk(source, { dataDiskUsedGb: 25 });
    const [from] = await db().select().from(instances).where(eq(instances.instanceId, source));
    const [to] = await db().select().from(instances).where(eq(instances.instanceId, target));
    const uid = randomUUID();
    // What the request had committed when its process died: the task, and no driver call.
    await db()
      .insert(copyTasks)
      .values({ uid, ownerId: from?.ownerId ?? 0, creatorId: from?.creatorId ?? 0, fromInstanceRowId: from?.id ?? 0, toInstanceRowId: to?.id ?? 0, path: DATA_DISK_MOUNT_PATH, status: 'running', createdAt: t.deps.now(), updatedAt: t.deps.now() });
    expect((await t.deps.compute.driver.observeCopies([uid])).get(uid)?.state).toBe('absent');
    await runJob();
    expect((await t.deps.compute.driver.observeCopies([uid])).get(uid)).toMatchObject({ state: 'running', totalGb: 25 });
    t.clock.advance(5);
    await runJob();
    const [running] = await history(user, target);
    expect(running).toMatchObject({ taskId: uid, status: 'running', totalGb: 25 });
    expect(running?.progress).toBeGreaterThanOrEqual(20);

    expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId: target })).status).toBe(200);
    await settle();
    expect((await send(user, 'DELETE', `/api/v1/rental?instanceId=${target}`)).status).toBe(200);
    await settle();
    await runJob();
    expect((await history(user, source))[0]).toMatchObject({ taskId: uid, status: 'failed', statusReason: '目标实例的数据盘已不存在', progress: running?.progress });
    expect((await listed(user)).get(source)?.copyTask).toBeNull();
  });
});
