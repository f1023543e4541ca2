import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DATA_DISK_MOUNT_PATH } from '@slg/shared';
import { call, createTestApp, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { copyTasks, hosts, instances, simMachines } from '../../db/schema/index.js';
import { simPathSizeGb } from '../../compute/sim/copies.js';
import { AUTO_RELEASE_DAYS } from '@slg/shared';
import { InstanceBillingJobs } from './billing-jobs.js';
import { CopyDataService, type CopyTaskView } from './copy-data.js';
import type { InstanceView } from './views.js';

let t: TestApp;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
const TENSORFLOW = 'tensorflow-2.15.0-py3.10-cu122';
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

const settle = (seconds = 3) => settleMachines(t, seconds);

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
    // The copy moves 1 GB per second of the test clock: on a loaded machine real time alone moved it between two requests.
    t.clock.freeze();
    try {
      const started = await copy(user, source, target, `${DATA_DISK_MOUNT_PATH}//`);
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      expect(started.body.result).toMatchObject({ role: 'source', toInstanceId: target, peerInstanceId: target, path: DATA_DISK_MOUNT_PATH, status: 'running', progress: 0, totalGb: 30, copiedGb: 0 });

      const whileRunning = await listed(user);
      expect(whileRunning.get(source)?.copyTask).toEqual({ taskId: started.body.result.taskId, role: 'source', peerInstanceId: target, progress: 0, path: DATA_DISK_MOUNT_PATH });
      expect(whileRunning.get(target)?.copyTask).toMatchObject({ taskId: started.body.result.taskId, role: 'target', peerInstanceId: source });

      t.clock.advance(12);
      expect(await runJob()).toBe(1);
      const [midway] = await history(user, target);
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
    } finally {
      t.clock.thaw();
    }
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

  it('starts a copy whose process died before asking the machines, and fails one whose target’s disk the machines lose', async () => {
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
    // The platform refuses to release it meanwhile; the machines lose the disk all the same.
    expect((await send(user, 'DELETE', `/api/v1/rental?instanceId=${target}`)).status).toBe(409);
    await db().update(simMachines).set({ state: 'deleted' }).where(eq(simMachines.instanceId, target));
    await runJob();
    expect((await history(user, source))[0]).toMatchObject({ taskId: uid, status: 'failed', statusReason: '目标实例的数据盘已不存在', progress: running?.progress });
    expect((await listed(user)).get(source)?.copyTask).toBeNull();
  });
});

const cancel = (user: User, taskId: string) => send<CopyTaskView>(user, 'DELETE', `/api/v1/rental/copy_data?taskId=${taskId}`);
const onMachines = async (taskId: string) => (await t.deps.compute.driver.observeCopies([taskId])).get(taskId);

async function named(instanceId: string, name: string): Promise<void> {
  await db().update(instances).set({ name }).where(eq(instances.instanceId, instanceId));
}

describe('取消拷贝 (cancel a copy)', () => {
  it('cancels a running copy: the task is cancelled, the machines stop, what was copied stays on the target', async () => {
    // Copies of earlier tests land first, so the job's count below is about this one.
    t.clock.advance(3600);
    await runJob();
    const user = await customer();
    const [source = '', target = ''] = await runningInstances(user, [HOST, OTHER_HOST]);
    await disk(source, { dataDiskUsedGb: 30 });
    await disk(target, { dataDiskGb: 200 });
    const before = await usedGb(target);
    const started = await copy(user, source, target);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { taskId } = started.body.result;
    expect((await listed(user)).get(target)?.copyTask?.taskId).toBe(taskId);
    // The copy reads a snapshot of the source: its ends may power off meanwhile.
    expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId: source })).status).toBe(200);

    t.clock.advance(10);
    const cancelled = await cancel(user, taskId);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.result).toMatchObject({ taskId, status: 'cancelled', statusReason: '已取消', totalGb: 30 });
    expect(cancelled.body.result.finishedAt).not.toBeNull();
    const copied = cancelled.body.result.copiedGb;
    expect(copied).toBeGreaterThanOrEqual(10);
    expect(copied).toBeLessThan(11);
    expect(cancelled.body.result.progress).toBe(Math.floor((copied / 30) * 100));
    expect(await onMachines(taskId)).toMatchObject({ state: 'cancelled', totalGb: 30, copiedGb: copied });
    expect(await usedGb(target)).toBe(before + Math.round(copied));

    // Long after the copy would have landed, nothing more arrives and the job leaves the task alone.
    t.clock.advance(60);
    expect(await runJob()).toBe(0);
    expect(await onMachines(taskId)).toMatchObject({ state: 'cancelled', copiedGb: copied });
    expect(await usedGb(target)).toBe(before + Math.round(copied));
    expect((await history(user, target))[0]).toMatchObject({ taskId, role: 'target', status: 'cancelled', statusReason: '已取消', copiedGb: copied });
    expect((await listed(user)).get(target)?.copyTask).toBeNull();

    const again = await cancel(user, taskId);
    expect(again.status).toBe(409);
    expect(again.body.rspmsg).toBe('拷贝任务已取消，请勿重复操作');
    // The target takes the next copy (once the source is off).
    await settle();
    const next = await copy(user, source, target);
    expect(next.status, JSON.stringify(next.body)).toBe(200);
  });

  it('keeps an instance due for automatic release while a copy runs into it, and releases it once the copy ends', async () => {
    const user = await customer();
    const [source = '', target = ''] = await runningInstances(user, MORE_HOSTS.slice(0, 2));
    await disk(source, { dataDiskUsedGb: 40 });
    await disk(target, { dataDiskGb: 200 });
    expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId: target })).status).toBe(200);
    await settle();
    const started = await copy(user, source, target);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    // Powered off longer than the automatic release allows.
    await db()
      .update(instances)
      .set({ poweredOffAt: new Date(t.clock.now().getTime() - (AUTO_RELEASE_DAYS + 1) * 86_400_000) })
      .where(eq(instances.instanceId, target));
    const jobs = new InstanceBillingJobs(t.deps);
    expect((await jobs.releasePoweredOff()).released).toBe(0);
    expect((await listed(user)).get(target)?.status).toBe('PoweredOff');

    expect((await cancel(user, started.body.result.taskId)).status).toBe(200);
    expect((await jobs.releasePoweredOff()).released).toBe(1);
    expect((await listed(user)).get(target)?.status).toBe('DestroyStarted');
  });

  it('refuses a copy that is done (409), someone else’s or an unknown task (404) and a malformed id (400)', async () => {
    const user = await customer();
    const [source = '', target = ''] = await runningInstances(user, [MORE_HOSTS[4], MORE_HOSTS[4]]);
    await disk(source, { dataDiskUsedGb: 20 });
    // Registering moves the clock a minute: before the copy starts.
    const stranger = await customer();
    const started = await copy(user, source, target);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { taskId } = started.body.result;

    const theirs = await cancel(stranger, taskId);
    expect(theirs.status).toBe(404);
    expect(theirs.body.rspmsg).toBe('拷贝任务不存在');
    expect((await onMachines(taskId))?.state).toBe('running');
    const unknown = await cancel(user, randomUUID());
    expect(unknown.status).toBe(404);
    expect(unknown.body.rspmsg).toBe('拷贝任务不存在');
    const malformed = await cancel(user, 'task-1');
    expect(malformed.status).toBe(400);
    expect(malformed.body.rspmsg).toContain('拷贝任务ID格式不正确');

    t.clock.advance(21);
    await runJob();
    const done = await cancel(user, taskId);
    expect(done.status).toBe(409);
    expect(done.body.rspmsg).toBe('拷贝任务已完成，无法取消（数据已全部拷贝到目标实例）');
    expect((await history(user, source))[0]).toMatchObject({ taskId, status: 'done', progress: 100 });
  });

  it('decides a cancel racing the end of the copy and other cancels by one conditional update: exactly one wins', async () => {
    const user = await customer();
    const [source = '', ...targets] = await runningInstances(user, [MORE_HOSTS[2], MORE_HOSTS[2], MORE_HOSTS[3], MORE_HOSTS[3]]);
    await disk(source, { dataDiskUsedGb: 10 });
    const outcomes = new Set<string>();
    for (const target of targets) {
      const before = await usedGb(target);
      const started = await copy(user, source, target);
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const { taskId } = started.body.result;
      // Its last byte is due: the job's pass finishes it while three cancels arrive at once.
      t.clock.advance(11);
      const [job, ...answers] = await Promise.all([runJob(), cancel(user, taskId), cancel(user, taskId), cancel(user, taskId)]);
      const won = answers.filter((answer) => answer.status === 200);
      const [task] = await history(user, target);
      expect(won.length, JSON.stringify(answers.map((answer) => answer.body))).toBeLessThanOrEqual(1);
      if (won.length === 1) {
        expect(task).toMatchObject({ taskId, status: 'cancelled', statusReason: '已取消' });
        expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.rspmsg)).toEqual(['拷贝任务已取消，请勿重复操作', '拷贝任务已取消，请勿重复操作']);
      } else {
        expect(task).toMatchObject({ taskId, status: 'done', progress: 100 });
        expect(job).toBeGreaterThanOrEqual(1);
        expect(answers.map((answer) => answer.body.rspmsg)).toEqual(Array(3).fill('拷贝任务已完成，无法取消（数据已全部拷贝到目标实例）'));
      }
      outcomes.add(task?.status ?? '');
      // Cancelled at its end or landed: the data reached the target exactly once.
      expect(await usedGb(target)).toBe(before + 10);
      expect((await onMachines(taskId))?.state).not.toBe('running');
    }
    expect([...outcomes].every((status) => status === 'done' || status === 'cancelled')).toBe(true);
  });

  it('stops the copy on the machines later when they could not be asked at the cancel, and one a late start set going again', async () => {
    const user = await customer();
    const [source = '', target = ''] = await runningInstances(user, [MORE_HOSTS[1], FAULTY_HOST]);
    await disk(source, { dataDiskUsedGb: 40 });
    await disk(target, { dataDiskGb: 200 });
    const before = await usedGb(target);
    const started = await copy(user, source, target);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { taskId } = started.body.result;
    t.clock.advance(5);

    await db().update(hosts).set({ simFault: 'unreachable', simFaultReason: '主机网络中断' }).where(eq(hosts.id, FAULTY_HOST));
    const cancelled = await cancel(user, taskId);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.result).toMatchObject({ status: 'cancelled', statusReason: '已取消' });
    // The cancel stands, but the machines did not hear it: the copy still moves.
    expect((await onMachines(taskId))?.state).toBe('running');
    t.clock.advance(5);
    expect(await runJob()).toBe(0);
    expect((await onMachines(taskId))?.state).toBe('running');

    await db().update(hosts).set({ simFault: null, simFaultReason: null }).where(eq(hosts.id, FAULTY_HOST));
    expect(await runJob()).toBeGreaterThanOrEqual(1);
    const stopped = await onMachines(taskId);
    expect(stopped?.state).toBe('cancelled');
    expect(stopped?.copiedGb).toBeGreaterThanOrEqual(10);
    expect(stopped?.copiedGb).toBeLessThan(40);
    expect(await usedGb(target)).toBe(before + Math.round(stopped?.copiedGb ?? 0));
    // What it had moved when it stopped is what the task shows.
    expect((await history(user, target))[0]).toMatchObject({ taskId, status: 'cancelled', copiedGb: stopped?.copiedGb, progress: Math.floor(((stopped?.copiedGb ?? 0) / 40) * 100) });
    expect(await runJob()).toBe(0);

    // A task written but not yet started on the machines is cancelled; the start (a request or the job
    // racing the cancel) reaches the machines after it, and the next pass stops it.
    const [from] = await db().select().from(instances).where(eq(instances.instanceId, source));
    const [to] = await db().select().from(instances).where(eq(instances.instanceId, target));
    const late = randomUUID();
    await db()
      .insert(copyTasks)
      .values({ uid: late, ownerId: from?.ownerId ?? 0, creatorId: from?.creatorId ?? 0, fromInstanceRowId: from?.id ?? 0, toInstanceRowId: to?.id ?? 0, path: DATA_DISK_MOUNT_PATH, status: 'running', createdAt: t.deps.now(), updatedAt: t.deps.now() });
    expect((await cancel(user, late)).status).toBe(200);
    await t.deps.compute.driver.copyData(late, source, target, DATA_DISK_MOUNT_PATH);
    expect((await onMachines(late))?.state).toBe('running');
    expect(await runJob()).toBeGreaterThanOrEqual(1);
    expect((await onMachines(late))?.state).toBe('cancelled');
  });
});

describe('operations refused while a copy runs', () => {
  it('refuses release, shrink, reset, switch image and move of either end, names the copy, and allows them after cancel or done', async () => {
    const user = await customer();
    const [a = '', b = ''] = await runningInstances(user, [MORE_HOSTS[0], MORE_HOSTS[1]]);
    await named(a, '训练机');
    await named(b, '推理机');
    await disk(a, { dataDiskUsedGb: 20 });
    for (const instanceId of [a, b]) {
      expect((await send(user, 'POST', '/api/v1/rental/extend_disk', { instanceId, sizeGb: 60 })).status).toBe(200);
      expect((await send(user, 'POST', '/api/v1/rental/power_off', { instanceId })).status).toBe(200);
    }
    await settle();
    const first = await copy(user, a, b);
    expect(first.status, JSON.stringify(first.body)).toBe(200);

    const operations = {
      释放: (instanceId: string) => send(user, 'DELETE', `/api/v1/rental?instanceId=${instanceId}`),
      缩容数据盘: (instanceId: string) => send(user, 'POST', '/api/v1/rental/shrink_disk', { instanceId, sizeGb: 50 }),
      重置系统: (instanceId: string) => send(user, 'POST', '/api/v1/rental/reset', { instanceId }),
      更换镜像: (instanceId: string) => send(user, 'POST', '/api/v1/rental/switch_image/v2', { instanceId, imageId: TENSORFLOW }),
      迁移: (instanceId: string) => send(user, 'POST', '/api/v1/rental/clone', { instanceId, hostId: HOST, gpuNum: 1, chargingRuleId: 1, copyData: true, releaseSource: true }),
    };
    for (const instanceId of [a, b]) {
      for (const [verb, operate] of Object.entries(operations)) {
        const refused = await operate(instanceId);
        expect(refused.status, `${verb} ${instanceId}`).toBe(409);
        expect(refused.body.rspmsg).toBe(`实例正在进行跨实例拷贝（从「训练机」到「推理机」），请等待完成或取消拷贝后再${verb}`);
      }
      const price = await send(user, 'POST', '/api/v1/rental/clone/prepay', { instanceId, hostId: HOST, gpuNum: 1, chargingRuleId: 1, copyData: true, releaseSource: true });
      expect(price.status).toBe(409);
    }
    // Nothing changed: both ends still off and idle, their disks as they were.
    const during = await listed(user);
    for (const instanceId of [a, b]) expect(during.get(instanceId)).toMatchObject({ status: 'PoweredOff', operation: null, dataDiskGb: 60 });
    // Extending the disk cuts nothing.
    expect((await send(user, 'POST', '/api/v1/rental/extend_disk', { instanceId: b, sizeGb: 70 })).status).toBe(200);

    expect((await cancel(user, first.body.result.taskId)).status).toBe(200);
    expect((await operations.缩容数据盘(b)).status).toBe(200);
    expect((await operations.重置系统(a)).status).toBe(200);
    await settle(7);

    const second = await copy(user, a, b);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    t.clock.advance(21);
    await runJob();
    expect((await history(user, b))[0]).toMatchObject({ taskId: second.body.result.taskId, status: 'done' });
    const moved = await operations.迁移(a);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    // Until the clone runs, the move's source is about to be released: no copy starts from or into it.
    const intoMoving = await copy(user, b, a);
    expect(intoMoving.status).toBe(409);
    expect(intoMoving.body.rspmsg).toMatch(/^目标实例正在迁移到实例 slg-[a-z0-9]{10}，迁移完成后将被释放，不能跨实例拷贝$/);
    expect((await operations.更换镜像(b)).status).toBe(200);
    await settle(7);
    expect((await operations.释放(b)).status).toBe(200);
  });
});
