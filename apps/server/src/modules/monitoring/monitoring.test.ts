import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { NO_PERMISSIONS, SYSTEM_DISK_GB, type PermissionMap } from '@slg/shared';
import { call, createTestApp, loginToken, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { instanceEvents, instances, users, wallets } from '../../db/schema/index.js';
import { SessionService } from '../auth/sessions.js';
import type { MetricAnswer } from './service.js';
import { runIntervals } from './sim-source.js';

let t: TestApp;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
/** RTX 4090 host of the seed: 16 cores and 90 GB per GPU. */
const HOST = 'bj-a-4090-02';

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '4', SIM_START_SECONDS: '2', SIM_STOP_SECONDS: '2', SIM_DESTROY_SECONDS: '2' } });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;
const nowSeconds = () => Math.floor(t.deps.now().getTime() / 1000);

/** A reconciliation pass, then `seconds` later another (the machine got where it was asked to go). */
const settle = (seconds = 5) => settleMachines(t, seconds);

interface Session {
  telephone: string;
  jwtToken: string;
}

/** Moves the clock and signs in again (access tokens live 15 minutes). */
async function later(user: Session, seconds: number): Promise<void> {
  t.clock.advance(seconds);
  user.jwtToken = await loginToken(t, user.telephone);
}

async function query(token: string, params: Record<string, string | number>) {
  const search = new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)]));
  return call<MetricAnswer>(t.app, { method: 'GET', url: `/api/v1/prometheus/query/metric?${search.toString()}`, token });
}

async function series(token: string, instanceId: string, metric: string, start: number, end: number, step = 15) {
  const answer = await query(token, { instanceId, metric, start, end, step });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.result.series;
}

/** When the reconciler saw the machine reach each status after its creation was asked for, in order. */
async function transitions(instanceId: string): Promise<{ toStatus: string; at: number }[]> {
  const rows = await db()
    .select({ toStatus: instanceEvents.toStatus, createdAt: instanceEvents.createdAt, type: instanceEvents.type, fromStatus: instanceEvents.fromStatus })
    .from(instanceEvents)
    .innerJoin(instances, eq(instances.id, instanceEvents.instanceRowId))
    .where(eq(instances.instanceId, instanceId))
    .orderBy(asc(instanceEvents.createdAt), asc(instanceEvents.id));
  return rows.filter((row) => row.fromStatus !== null && row.toStatus !== null && row.toStatus !== row.fromStatus).map((row) => ({ toStatus: row.toStatus ?? '', at: row.createdAt.getTime() / 1000 }));
}

async function runningInstance(gpuNum: number): Promise<{ user: Session; instanceId: string }> {
  const user = await registerUser(t);
  await rechargeThroughSandbox(t, user.jwtToken, 100_000);
  const created = await call<{ instanceId: string }>(t.app, {
    method: 'POST',
    url: '/api/v1/rental',
    token: user.jwtToken,
    payload: { hostId: HOST, gpuNum, imageId: IMAGE, chargingRuleId: 1 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await settle(5);
  return { user, instanceId: created.body.result.instanceId };
}

async function powerOff(user: Session, instanceId: string): Promise<void> {
  const off = await call(t.app, { method: 'POST', url: '/api/v1/rental/power_off', token: user.jwtToken, payload: { instanceId } });
  expect(off.status, JSON.stringify(off.body)).toBe(200);
  await settle(3);
}

async function powerOn(user: Session, instanceId: string, mode: 'gpu' | 'nogpu'): Promise<void> {
  const on = await call(t.app, { method: 'POST', url: '/api/v1/rental/power_on', token: user.jwtToken, payload: { instanceId, mode } });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
  await settle(3);
}

describe('instance monitoring on the simulated fleet', () => {
  it('gives one series per GPU while the instance runs, none while it is off, and the same answer every time', async () => {
    const { user, instanceId } = await runningInstance(2);
    const createdAt = nowSeconds() - 5;
    await later(user, 3600);

    const [started] = await transitions(instanceId);
    expect(started?.toStatus).toBe('PoweredOn');
    const runStart = started?.at ?? 0;
    const gpus = await series(user.jwtToken, instanceId, 'GPU', createdAt - 60, nowSeconds());
    expect(gpus.map((line) => line.name)).toEqual(['GPU 0', 'GPU 1']);
    for (const line of gpus) {
      // Nothing while it was being created; every 15 s since it ran.
      expect(line.points[0]?.[0]).toBeGreaterThanOrEqual(runStart);
      expect(line.points[0]?.[0]).toBeLessThan(runStart + 15);
      expect(line.points.length).toBeGreaterThanOrEqual(Math.floor((nowSeconds() - runStart) / 15));
      expect(line.points.every(([, value]) => value >= 0 && value <= 100)).toBe(true);
      expect(line.points.slice(1).every(([time], index) => time - (line.points[index]?.[0] ?? 0) === 15)).toBe(true);
      const values = line.points.map(([, value]) => value);
      // A workload, not a constant: idle while the user logs in, then a first job keeps the GPUs busy.
      expect(values[0]).toBeLessThan(5);
      expect(Math.max(...values)).toBeGreaterThan(55);
      expect(new Set(values).size).toBeGreaterThan(50);
    }
    expect(gpus[0]?.points.map(([, value]) => value)).not.toEqual(gpus[1]?.points.map(([, value]) => value));

    // The same query twice, and an overlapping one, agree point for point.
    const again = await series(user.jwtToken, instanceId, 'GPU', createdAt - 60, nowSeconds());
    expect(again).toEqual(gpus);
    const overlap = await series(user.jwtToken, instanceId, 'GPU', createdAt - 60 + 600, nowSeconds());
    const byTime = new Map(gpus[0]?.points);
    for (const [time, value] of overlap[0]?.points ?? []) expect(byTime.get(time)).toBe(value);

    // Sizes come from the instance and its host.
    const end = nowSeconds();
    const one = async (metric: string) => (await series(user.jwtToken, instanceId, metric, end - 600, end, 60))[0]?.points.map(([, value]) => value) ?? [];
    expect(new Set(await one('GPU_COUNT'))).toEqual(new Set([2]));
    expect(new Set(await one('CPU_COUNT'))).toEqual(new Set([32]));
    expect(new Set(await one('MEMORY_COUNT'))).toEqual(new Set([180]));
    expect(new Set(await one('PVC_CAPACITY'))).toEqual(new Set([50]));
    expect(new Set(await one('SYS_DISK_COUNT'))).toEqual(new Set([SYSTEM_DISK_GB]));
    const memory = await one('MEMORY');
    expect(memory.length).toBe(11);
    expect(memory.every((value) => value > 0 && value < 180)).toBe(true);
    const cpu = await one('CPU');
    expect(cpu.every((value) => value >= 0 && value <= 100)).toBe(true);
    const system = await one('SYS_DISK_USAGE');
    expect(system.every((value) => value > 5 && value < SYSTEM_DISK_GB)).toBe(true);
    // No file storage is mounted into the machines.
    expect(await series(user.jwtToken, instanceId, 'PVC_SHARE_USAGE', end - 600, end)).toEqual([]);
  });

  it('stops at the power-off, resumes at the power-on, has no GPU values in no-GPU mode, and keeps the history of a released instance', async () => {
    const { user, instanceId } = await runningInstance(1);
    const from = nowSeconds() - 10;
    await later(user, 1800);
    await powerOff(user, instanceId);
    await later(user, 1800);
    await powerOn(user, instanceId, 'gpu');
    await later(user, 1200);
    await powerOff(user, instanceId);
    await later(user, 600);
    await powerOn(user, instanceId, 'nogpu');
    await later(user, 900);

    const steps = await transitions(instanceId);
    expect(steps.map((step) => step.toStatus)).toEqual(['PoweredOn', 'PoweredOff', 'PoweredOn', 'PoweredOff', 'PoweredOnNoGPU']);
    const at = steps.map((step) => step.at);
    const [firstOn = 0, firstOff = 0, secondOn = 0, secondOff = 0, noGpuAt = 0] = at;
    const noGpuOn = Math.ceil(noGpuAt);
    const to = nowSeconds();
    const inRun = (time: number) => (time >= firstOn && time < firstOff) || (time >= secondOn && time < secondOff);

    const [gpu] = await series(user.jwtToken, instanceId, 'GPU', from, to);
    const times = gpu?.points.map(([time]) => time) ?? [];
    expect(times.every(inRun)).toBe(true);
    // Both GPU runs are there, whole: nothing after the stop, points again after the start.
    expect(times.filter((time) => time < firstOff).length).toBeGreaterThanOrEqual(Math.floor((firstOff - firstOn) / 15));
    expect(times.filter((time) => time >= secondOn).length).toBeGreaterThanOrEqual(Math.floor((secondOff - secondOn) / 15));
    expect(times.some((time) => time >= firstOff && time < secondOn)).toBe(false);

    // No-GPU mode: the CPU keeps reporting, the GPU does not; 0 GPUs, 2 cores.
    const [cpu] = await series(user.jwtToken, instanceId, 'CPU', noGpuOn, to);
    expect(cpu?.points.length).toBeGreaterThanOrEqual(Math.floor((to - noGpuOn) / 15));
    expect((await series(user.jwtToken, instanceId, 'GPU', noGpuOn, to))[0]?.points).toEqual([]);
    expect(new Set((await series(user.jwtToken, instanceId, 'GPU_COUNT', noGpuOn, to, 60))[0]?.points.map(([, value]) => value))).toEqual(new Set([0]));
    expect(new Set((await series(user.jwtToken, instanceId, 'CPU_COUNT', noGpuOn, to, 60))[0]?.points.map(([, value]) => value))).toEqual(new Set([2]));

    // The data disk fills with running time only, never past its size.
    const [usage] = await series(user.jwtToken, instanceId, 'PVC_USAGE', from, to, 60);
    const used = usage?.points.map(([, value]) => value) ?? [];
    expect(used.slice(1).every((value, index) => value >= (used[index] ?? 0))).toBe(true);
    expect((used.at(-1) ?? 0) > (used[0] ?? 0)).toBe(true);
    expect(used.every((value) => value > 0 && value <= 50)).toBe(true);

    // Released: the history stays readable and ends at the release.
    await powerOff(user, instanceId);
    const released = await call(t.app, { method: 'DELETE', url: `/api/v1/rental?instanceId=${instanceId}`, token: user.jwtToken });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    await settle(3);
    await later(user, 600);
    const [history] = await series(user.jwtToken, instanceId, 'GPU', from, nowSeconds());
    expect(history?.points).toEqual(gpu?.points);
    expect((await series(user.jwtToken, instanceId, 'CPU', nowSeconds() - 300, nowSeconds()))[0]?.points).toEqual([]);
  });

  it('answers a creating instance with empty series and hides other accounts’ instances', async () => {
    const owner = await registerUser(t);
    await rechargeThroughSandbox(t, owner.jwtToken, 100_000);
    const created = await call<{ instanceId: string }>(t.app, {
      method: 'POST',
      url: '/api/v1/rental',
      token: owner.jwtToken,
      payload: { hostId: HOST, gpuNum: 1, imageId: IMAGE, chargingRuleId: 1 },
    });
    const { instanceId } = created.body.result;
    const range = { instanceId, metric: 'GPU', start: nowSeconds() - 3600, end: nowSeconds(), step: 60 };
    const creating = await query(owner.jwtToken, range);
    expect(creating.status).toBe(200);
    expect(creating.body.result).toEqual({ metric: 'GPU', unit: '%', step: 60, series: [{ name: 'GPU 0', points: [] }] });

    const stranger = await registerUser(t);
    const hidden = await query(stranger.jwtToken, range);
    expect(hidden.status).toBe(404);
    expect(hidden.body.rspmsg).toBe('实例不存在');

    // Sub-accounts: SELF sees only what it created, NONE may not look at instances at all.
    const ownerInfo = await call<{ userId: number }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: owner.jwtToken });
    const subToken = async (username: string, permissions: PermissionMap) => {
      const [sub] = await db()
        .insert(users)
        .values({ accountType: 2, parentId: ownerInfo.body.result.userId, username, nickName: '训练组', permissions, sharedMainBalance: false })
        .returning({ id: users.id });
      if (!sub) throw new Error('no sub-account');
      await db().insert(wallets).values({ accountId: sub.id, balanceFen: 0 });
      return (await db().transaction((tx) => new SessionService(t.deps).start(tx, sub.id))).jwtToken;
    };
    expect((await query(await subToken(`mon_self_${instanceId}`, { ...NO_PERMISSIONS, CONTAINER: 'SELF' }), range)).status).toBe(404);
    expect((await query(await subToken(`mon_all_${instanceId}`, { ...NO_PERMISSIONS, CONTAINER: 'ALL' }), range)).status).toBe(200);
    expect((await query(await subToken(`mon_none_${instanceId}`, NO_PERMISSIONS), range)).status).toBe(403);
    expect((await call(t.app, { method: 'GET', url: `/api/v1/prometheus/query/metric?instanceId=${instanceId}` })).status).toBe(401);
  });

  it('refuses unusable ranges and unknown metrics with a Chinese message, never a 500', async () => {
    const user = await registerUser(t);
    const instanceId = 'slg-0000000000';
    const now = nowSeconds();
    const base = { instanceId, metric: 'CPU', start: now - 3600, end: now, step: 15 };
    const cases: [Record<string, string | number>, string][] = [
      [{ ...base, end: base.start }, '结束时间必须晚于开始时间'],
      [{ ...base, start: now - 8 * 86_400 }, '查询时间范围不能超过7天'],
      [{ ...base, start: now - 86_400 }, '请将步长调大到至少79秒'],
      [{ ...base, start: now + 3600, end: now + 7200 }, '开始时间不能晚于当前时间'],
      [{ ...base, metric: 'DISK' }, '监控指标不正确'],
      [{ ...base, start: (now - 3600) * 1000 }, '以秒为单位的 Unix 时间戳'],
      [{ ...base, start: 'yesterday' }, '开始时间必须是整数（单位：秒）'],
      [{ ...base, step: 5 }, '步长应在15秒到86400秒之间'],
      [{ ...base, step: '' }, '请输入步长'],
      [{ ...base, instanceId: 'abc' }, '实例ID格式不正确'],
    ];
    for (const [params, message] of cases) {
      const refused = await query(user.jwtToken, params);
      expect(refused.status, JSON.stringify(params)).toBe(400);
      expect(refused.body.rspmsg).toContain(message);
    }
    const { step: _step, ...withoutStep } = base;
    const missing = await query(user.jwtToken, withoutStep);
    expect(missing.status).toBe(400);
    expect(missing.body.rspmsg).toContain('步长');
    expect(missing.body.rspmsg).toMatch(/[\u4e00-\u9fa5]/);
    // A good range of an instance that is not there.
    expect((await query(user.jwtToken, base)).status).toBe(404);
  });
});

describe('run intervals from the recorded transitions', () => {
  const at = (seconds: number) => new Date(seconds * 1000);
  it('runs from the event that saw the machine up to the one that saw it stop, and a mode change starts a new run', () => {
    const events = [
      { toStatus: 'CreationStarted', createdAt: at(0) },
      { toStatus: 'PoweredOn', createdAt: at(4) },
      // A power-off asked for keeps the status: the machine still runs.
      { toStatus: 'PoweredOn', createdAt: at(100) },
      { toStatus: 'PoweredOff', createdAt: at(102) },
      { toStatus: 'PoweredOnNoGPU', createdAt: at(200) },
      { toStatus: 'OutOfConnection', createdAt: at(300) },
      { toStatus: 'PoweredOn', createdAt: at(400) },
    ];
    expect(runIntervals(events, null)).toEqual([
      { startMs: 4000, endMs: 102_000, mode: 'gpu' },
      { startMs: 200_000, endMs: 300_000, mode: 'nogpu' },
      { startMs: 400_000, endMs: Number.POSITIVE_INFINITY, mode: 'gpu' },
    ]);
    expect(runIntervals(events, at(500)).at(-1)).toEqual({ startMs: 400_000, endMs: 500_000, mode: 'gpu' });
    expect(runIntervals([{ toStatus: 'Error', createdAt: at(1) }], null)).toEqual([]);
  });

});
