import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { MonitorMetricValue } from '@slg/shared';
import { call, createTestApp, listenLocally, loginToken, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { prometheusBinary, prometheusPort, prometheusRequired, startPrometheus, expectSoon } from '../../../test/prometheus.js';
import { hosts, instances, publicImages } from '../../db/schema/index.js';
import type { MonitoredInstance } from './metrics-source.js';
import { MONITORED_INSTANCE_COLUMNS, type MetricAnswer } from './service.js';
import { SimulatedMetricsSource } from './sim-source.js';

const GIB = 1024 ** 3;
const ID_LABEL = 'container_label_slg_io_instance_id';
/** Two RTX 4090s of the seed: 16 cores and 90 GB of memory per GPU. */
const RENTAL = { hostId: 'bj-a-4090-03', gpuNum: 2, imageId: 'pytorch-2.5.1-py3.12-cu124', chargingRuleId: 1 };

/** The value of one sample of an exposition text, found by its name and some of its labels. */
function sampleOf(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text
    .split('\n')
    .find((candidate) => candidate.startsWith(`${name}{`) && Object.entries(labels).every(([key, value]) => candidate.includes(`${key}="${value}"`)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** A user with a running two-GPU simulated machine. */
async function rentRunning(test: TestApp): Promise<{ token: string; telephone: string; instanceId: string }> {
  const user = await registerUser(test);
  await rechargeThroughSandbox(test, user.jwtToken, 100_000);
  const created = await call<{ instanceId: string }>(test.app, { method: 'POST', url: '/api/v1/rental', token: user.jwtToken, payload: RENTAL });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await settleMachines(test, 10);
  const [row] = await test.deps.database.db.select({ status: instances.status }).from(instances).where(eq(instances.instanceId, created.body.result.instanceId));
  expect(row?.status).toBe('PoweredOn');
  return { token: user.jwtToken, telephone: user.telephone, instanceId: created.body.result.instanceId };
}

/** The last point of each series of a metric's chart through the API (whatever source the platform reads). */
async function chartAt(test: TestApp, token: string, instanceId: string, metric: MonitorMetricValue, at: number): Promise<number[]> {
  const search = new URLSearchParams({ instanceId, metric, start: String(at - 60), end: String(at), step: '15' });
  const answer = await call<MetricAnswer>(test.app, { method: 'GET', url: `/api/v1/prometheus/query/metric?${search.toString()}`, token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.result.series.map((line) => line.points.find(([time]) => time === at)?.[1] ?? Number.NaN);
}

describe('the simulated fleet’s series (GET /metrics/sim-fleet)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const scrape = async (remoteAddress = '127.0.0.1') => t.app.inject({ method: 'GET', url: '/metrics/sim-fleet', remoteAddress });

  it('serves each running machine under the Docker exporter’s names, with the values its 监控 charts show', async () => {
    const { token, instanceId } = await rentRunning(t);
    // Frozen on a whole second after the machine came up (freezing rounds down).
    t.clock.advance(1);
    t.clock.freeze();
    const now = Math.floor(t.deps.now().getTime() / 1000);
    const scraped = await scrape();
    expect(scraped.statusCode).toBe(200);
    expect(scraped.headers['content-type']).toContain('text/plain');
    const text = scraped.body;
    const id = { [ID_LABEL]: instanceId };

    const [gpu0, gpu1] = await chartAt(t, token, instanceId, 'GPU', now);
    expect(sampleOf(text, 'DCGM_FI_DEV_GPU_UTIL', { ...id, gpu: '0' })).toBe(gpu0);
    expect(sampleOf(text, 'DCGM_FI_DEV_GPU_UTIL', { ...id, gpu: '1' })).toBe(gpu1);
    expect(sampleOf(text, 'DCGM_FI_DEV_GPU_UTIL', { ...id, gpu: '2' })).toBeUndefined();
    expect(sampleOf(text, 'DCGM_FI_DEV_GPU_TEMP', { ...id, gpu: '0' })).toBeGreaterThan(25);

    const quota = sampleOf(text, 'container_spec_cpu_quota', id) ?? 0;
    const period = sampleOf(text, 'container_spec_cpu_period', id) ?? 1;
    expect(quota / period).toBe(32);
    expect((await chartAt(t, token, instanceId, 'CPU_COUNT', now))[0]).toBe(32);
    expect((sampleOf(text, 'container_spec_memory_limit_bytes', id) ?? 0) / GIB).toBe(180);
    const [memory] = await chartAt(t, token, instanceId, 'MEMORY', now);
    expect(Math.round(((sampleOf(text, 'container_memory_working_set_bytes', id) ?? 0) / GIB) * 100) / 100).toBe(memory);
    const [system] = await chartAt(t, token, instanceId, 'SYS_DISK_USAGE', now);
    expect(Math.round(((sampleOf(text, 'container_fs_usage_bytes', { ...id, device: '/' }) ?? 0) / GIB) * 100) / 100).toBe(system);
    const [data] = await chartAt(t, token, instanceId, 'PVC_USAGE', now);
    expect(Math.round(((sampleOf(text, 'container_fs_usage_bytes', { ...id, device: '/root/slg-data' }) ?? 0) / GIB) * 100) / 100).toBe(data);

    // CPU time grows by what the CPU chart shows over the same minutes, on every core of the machine.
    const before = sampleOf(text, 'container_cpu_usage_seconds_total', id) ?? Number.NaN;
    t.clock.advance(600);
    const after = sampleOf((await scrape()).body, 'container_cpu_usage_seconds_total', id) ?? Number.NaN;
    const charted = (await Promise.all(Array.from({ length: 40 }, (_, step) => chartAt(t, token, instanceId, 'CPU', now + 15 * step)))).map(([value]) => value ?? 0);
    const chartedMean = charted.reduce((sum, value) => sum + value, 0) / charted.length;
    expect(after).toBeGreaterThan(before);
    expect(Math.abs(((after - before) / 600 / 32) * 100 - chartedMean)).toBeLessThan(4);
    t.clock.thaw();
  });

  it('drops a machine that was powered off, and answers only this machine or the bearer of METRICS_TOKEN', async () => {
    const { token, instanceId } = await rentRunning(t);
    expect((await scrape()).body).toContain(`${ID_LABEL}="${instanceId}"`);
    const off = await call(t.app, { method: 'POST', url: '/api/v1/rental/power_off', token, payload: { instanceId } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    await settleMachines(t, 10);
    expect((await scrape()).body).not.toContain(`${ID_LABEL}="${instanceId}"`);

    const remote = await scrape('192.168.0.9');
    expect(remote.statusCode).toBe(403);
    expect(remote.json()).toMatchObject({ rspmsg: '监控指标只对本机开放，远程抓取请设置 METRICS_TOKEN' });
  });
});

/**
 * One query path: with PROMETHEUS_URL set, a platform on the sim driver charts what Prometheus scraped
 * from its /metrics/sim-fleet, through the same PromQL as for Docker hosts, and the charts agree with
 * those computed without Prometheus. The clock stands still a little ahead of Prometheus's, so every
 * scrape holds the values of one known time.
 */
describe.runIf(prometheusBinary || prometheusRequired)('监控 of the simulated fleet through Debian’s Prometheus', () => {
  let t: TestApp;
  let prometheus: { stop: () => void } | undefined;
  beforeAll(async () => {
    const port = prometheusPort();
    t = await createTestApp({ env: { PROMETHEUS_URL: `http://127.0.0.1:${port}` } });
    const platform = new URL(await listenLocally(t));
    prometheus = await startPrometheus(port, [{ job: 'slg-sim-fleet', target: platform.host, path: '/metrics/sim-fleet' }]);
  });
  afterAll(async () => {
    prometheus?.stop();
    await t?.close();
  });

  it('shows the same values as the simulated source for every metric it scrapes', async () => {
    const { telephone, instanceId } = await rentRunning(t);
    t.clock.useRealTime();
    t.clock.advance(30);
    t.clock.freeze();
    // Months later than the rental: a new sign-in.
    const token = await loginToken(t, telephone);
    const now = Math.floor(t.deps.now().getTime() / 1000);
    expect(t.deps.metrics.kind).toBe('prometheus');
    await expectSoon(async () => (await chartAt(t, token, instanceId, 'GPU', now)).length === 2, 'Prometheus holding the fleet’s GPU series');

    const [row] = await t.deps.database.db
      .select(MONITORED_INSTANCE_COLUMNS)
      .from(instances)
      .innerJoin(hosts, eq(hosts.id, instances.hostId))
      .leftJoin(publicImages, eq(publicImages.id, instances.imageId))
      .where(eq(instances.instanceId, instanceId));
    const instance: MonitoredInstance | undefined = row;
    if (!instance) throw new Error('no instance row');
    const simulated = new SimulatedMetricsSource(t.deps.database.db);
    const metrics: MonitorMetricValue[] = ['GPU', 'MEMORY', 'MEMORY_COUNT', 'CPU_COUNT', 'GPU_COUNT', 'PVC_USAGE', 'PVC_CAPACITY', 'SYS_DISK_USAGE', 'SYS_DISK_COUNT'];
    for (const metric of metrics) {
      const expected = (await simulated.query(instance, metric, { start: now, end: now, step: 15 })).map((line) => line.points[0]?.[1]);
      expect(await chartAt(t, token, instanceId, metric, now), metric).toEqual(expected);
    }
    t.clock.thaw();
  }, 120_000);
});
