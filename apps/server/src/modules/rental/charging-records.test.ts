import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PACKAGE_PRICE_HOURS } from '@slg/shared';
import type { ChargingRecord } from '@slg/shared/views/rental';
import { call, createTestApp, loginToken, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { orders } from '../../db/schema/index.js';
import { InstanceBillingJobs } from './billing-jobs.js';

let t: TestApp;
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
const HOST = 'bj-a-4090-02';
const HOURLY = 198;
const DAY = HOURLY * PACKAGE_PRICE_HOURS.day;

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '2', SIM_START_SECONDS: '1', SIM_STOP_SECONDS: '1', SIM_DESTROY_SECONDS: '1' } });
});
afterAll(async () => {
  await t.close();
});

type Records = { list: ChargingRecord[]; total: number; totals: { usageFen: number; packageFen: number; diskFen: number; totalFen: number } };

const settle = (seconds = 3) => settleMachines(t, seconds);

async function create(token: string, chargingRuleId: number, rentAmount = 1): Promise<string> {
  const created = await call<{ instanceId: string }>(t.app, {
    method: 'POST',
    url: '/api/v1/rental',
    token,
    payload: { hostId: HOST, gpuNum: 1, imageId: IMAGE, chargingRuleId, rentAmount },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.result.instanceId;
}

const records = (token: string, query = '') => call<Records>(t.app, { method: 'GET', url: `/api/v1/rental/charging_records?${query}`, token });

describe('计费记录', () => {
  it('shows what each instance cost — metered usage, a package, released ones — scoped like the instance list', async () => {
    const main = await registerUser(t);
    await rechargeThroughSandbox(t, main.jwtToken, 100_000);
    const usage = await create(main.jwtToken, 1);
    const daily = await create(main.jwtToken, 2);
    await settle();
    // Half an hour of running, settled by the metering job.
    t.clock.advance(1800);
    const token = await loginToken(t, main.telephone);
    await new InstanceBillingJobs(t.deps).meterAndEnforce();

    const all = await records(token);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.result.total).toBe(2);
    const byId = new Map(all.body.result.list.map((record) => [record.instanceId, record]));
    const usageRecord = byId.get(usage);
    const [usageOrder] = await t.deps.database.db.select().from(orders).where(eq(orders.resourceId, usageRecord?.rentalUid ?? ''));
    expect(usageOrder?.meteredFen).toBeGreaterThanOrEqual(HOURLY / 2);
    expect(usageRecord).toMatchObject({ usageFen: usageOrder?.meteredFen, packageFen: 0, diskFen: 0, totalFen: usageOrder?.meteredFen, released: false, gpuNum: 1 });
    expect(byId.get(daily)).toMatchObject({ usageFen: 0, packageFen: DAY, diskFen: 0, totalFen: DAY, chargingRuleId: 2 });
    expect(all.body.result.totals).toEqual({
      usageFen: usageRecord?.usageFen,
      packageFen: DAY,
      diskFen: 0,
      totalFen: (usageRecord?.usageFen ?? 0) + DAY,
    });

    // Powered off and released, it stays in the records with what it cost.
    await call(t.app, { method: 'POST', url: '/api/v1/rental/power_off', token, payload: { instanceId: usage } });
    await settle();
    const released = await call(t.app, { method: 'DELETE', url: `/api/v1/rental?instanceId=${usage}`, token });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    await settle();
    const releasedOnly = await records(token, 'state=released');
    expect(releasedOnly.body.result.list.map((record) => record.instanceId)).toEqual([usage]);
    expect(releasedOnly.body.result.list[0]?.released).toBe(true);
    expect(releasedOnly.body.result.list[0]?.usageFen).toBeGreaterThanOrEqual(usageRecord?.usageFen ?? 0);
    expect((await records(token, 'state=active')).body.result.list.map((record) => record.instanceId)).toEqual([daily]);
    expect((await records(token, `keyword=${daily.slice(4, 9).toUpperCase()}`)).body.result.list.map((record) => record.instanceId)).toEqual([daily]);
    expect((await records(token, 'keyword=%')).body.result.total).toBe(0);

    // A SELF sub-account sees its own instance only; the main account sees all three.
    const username = `rec_${process.pid}`;
    const sub = await call<{ id: number }>(t.app, {
      method: 'POST',
      url: '/api/v1/subuser/create',
      token,
      payload: { username, password: 'team2026pass', sharedMainBalance: true, permissions: [{ authorityType: 'CONTAINER', level: 'SELF' }] },
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const subLogin = await call<{ jwtToken: string }>(t.app, { method: 'POST', url: '/api/v1/subuser/login', payload: { username, password: 'team2026pass' } });
    const subInstance = await create(subLogin.body.result.jwtToken, 2);
    const subRecords = await records(subLogin.body.result.jwtToken);
    expect(subRecords.body.result.list.map((record) => record.instanceId)).toEqual([subInstance]);
    expect(subRecords.body.result.totals.totalFen).toBe(DAY);
    expect((await records(token)).body.result.total).toBe(3);

    // A stranger sees nothing of it.
    const stranger = await registerUser(t);
    expect((await records(stranger.jwtToken)).body.result).toMatchObject({ total: 0, list: [], totals: { totalFen: 0 } });
  });

  it('refuses bad filters with a clear message, and a sub-account without the container permission', async () => {
    const main = await registerUser(t);
    const bad = await records(main.jwtToken, 'state=gone');
    expect(bad.status).toBe(400);
    expect(bad.body.rspmsg).toBe('实例状态只能是 all、active 或 released');
    const long = await records(main.jwtToken, `keyword=${'x'.repeat(65)}`);
    expect(long.status).toBe(400);
    expect(long.body.rspmsg).toBe('搜索内容不能超过64个字符');

    const username = `none_${process.pid}`;
    await call(t.app, { method: 'POST', url: '/api/v1/subuser/create', token: main.jwtToken, payload: { username, password: 'team2026pass', permissions: [{ authorityType: 'CONTAINER', level: 'NONE' }] } });
    const subLogin = await call<{ jwtToken: string }>(t.app, { method: 'POST', url: '/api/v1/subuser/login', payload: { username, password: 'team2026pass' } });
    const refused = await records(subLogin.body.result.jwtToken);
    expect(refused.status).toBe(403);
    expect(refused.body.rspmsg).toBe('没有权限访问该资源');
  });
});
