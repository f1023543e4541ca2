import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { call, createTestApp, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { users, wallets } from '../../db/schema/index.js';

let t: TestApp;
const TOKEN = 'scrape-token-0123456789';

beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '1', METRICS_TOKEN: TOKEN } });
});
afterAll(async () => {
  await t.close();
});

async function scrape(headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }, remoteAddress = '10.1.2.3') {
  return t.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });
}

/** The value of one series of the exposition text (labels as written by prom-client, in their order). */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics (the platform in Prometheus)', () => {
  it('needs METRICS_TOKEN from another machine', async () => {
    const without = await scrape({});
    expect(without.statusCode).toBe(403);
    expect(without.json()).toMatchObject({ rspmsg: '监控指标需要正确的 METRICS_TOKEN' });
    expect((await scrape({ authorization: 'Bearer scrape-token-wrong-value' })).statusCode).toBe(403);
    const allowed = await scrape();
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['content-type']).toContain('text/plain');
  });

  it('counts requests by route template, the reconciler queue and its lag, operation durations, jobs and wallets in arrears', async () => {
    const user = await registerUser(t);
    await rechargeThroughSandbox(t, user.jwtToken, 10_000);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/meta/zone' })).status).toBe(200);
    const created = await call<{ instanceId: string }>(t.app, {
      method: 'POST',
      url: '/api/v1/rental',
      token: user.jwtToken,
      payload: { hostId: 'bj-a-4090-02', gpuNum: 1, imageId: 'pytorch-2.5.1-py3.12-cu124', chargingRuleId: 1 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    t.clock.advance(30);

    let text = (await scrape()).body;
    expect(valueOf(text, 'slg_http_request_duration_seconds_count{method="GET",route="/api/v1/meta/zone",status_code="200"}')).toBe(1);
    expect(valueOf(text, 'slg_http_request_duration_seconds_count{method="POST",route="/api/v1/rental",status_code="200"}')).toBe(1);
    expect(valueOf(text, 'slg_operations_pending')).toBe(1);
    expect(valueOf(text, 'slg_oldest_operation_age_seconds')).toBeGreaterThanOrEqual(30);
    expect(valueOf(text, 'slg_wallets_in_arrears')).toBe(0);

    await settleMachines(t, 3);
    const [account] = await t.deps.database.db.select({ id: users.id }).from(users).where(eq(users.telephone, user.telephone));
    await t.deps.database.db.update(wallets).set({ balanceFen: -500 }).where(eq(wallets.accountId, account?.id ?? 0));
    await t.deps.telemetry.timeJob('meter-instances', async () => undefined);
    await expect(t.deps.telemetry.timeJob('fire-reminders', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');

    text = (await scrape()).body;
    expect(valueOf(text, 'slg_operations_pending')).toBe(0);
    expect(valueOf(text, 'slg_oldest_operation_age_seconds')).toBe(0);
    expect(valueOf(text, 'slg_operation_duration_seconds_count{operation="create",outcome="done"}')).toBe(1);
    expect(valueOf(text, 'slg_wallets_in_arrears')).toBe(1);
    expect(valueOf(text, 'slg_job_duration_seconds_count{job="meter-instances"}')).toBe(1);
    expect(valueOf(text, 'slg_job_runs_total{job="fire-reminders",outcome="failed"}')).toBe(1);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('answers this machine only', async () => {
    const local = await createTestApp();
    try {
      expect((await local.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
      const remote = await local.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '192.168.0.9' });
      expect(remote.statusCode).toBe(403);
      expect(remote.json()).toMatchObject({ rspmsg: '监控指标只对本机开放，远程抓取请设置 METRICS_TOKEN' });
    } finally {
      await local.close();
    }
  });
});
