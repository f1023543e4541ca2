import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, rechargeThroughSandbox, registerUser, type TestApp } from '../../../test/helpers.js';
import type { MetricAnswer } from './service.js';
import { MetricsUnavailableError } from './metrics-source.js';
import { PrometheusMetricsSource, promqlFor } from './prometheus-source.js';

/** What the fake Prometheus was asked. */
interface Received {
  method: string;
  path: string;
  params: URLSearchParams;
  authorization: string | undefined;
}

type Answer = (received: Received, response: ServerResponse) => void;

/**
 * A fake Prometheus (a test double, not Prometheus): a local server that answers `/prom/api/v1/query_range` the way Prometheus does: a matrix for a
 * query it knows, `bad_data` for anything else; each test may swap the answer.
 */
class FakePrometheus {
  readonly received: Received[] = [];
  answer: Answer = (received, response) => this.matrix(received, response);
  private server: Server | undefined;

  async start(): Promise<number> {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const received = { method: request.method ?? '', path: url.pathname, params: url.searchParams, authorization: request.headers.authorization };
      this.received.push(received);
      if (url.pathname !== '/prom/api/v1/query_range') {
        response.writeHead(404).end('404 page not found');
        return;
      }
      this.answer(received, response);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return (this.server?.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** Values at every `start + k·step` up to `end`, as Prometheus evaluates a range. */
  private times(params: URLSearchParams): number[] {
    const start = Number(params.get('start'));
    const end = Number(params.get('end'));
    const step = Number(params.get('step'));
    const times: number[] = [];
    for (let time = start; time <= end; time += step) times.push(time);
    return times;
  }

  matrix(received: Received, response: ServerResponse): void {
    const query = received.params.get('query') ?? '';
    const times = this.times(received.params);
    let result: { metric: Record<string, string>; values: [number, string][] }[];
    if (query.startsWith('max by (gpu) (DCGM_FI_DEV_GPU_UTIL{')) {
      // Prometheus orders series as it likes, and a gap is simply a missing sample; NaN can occur.
      result = [
        { metric: { gpu: '1' }, values: times.map((time, index) => [time, index === 0 ? 'NaN' : String(40 + index)]) },
        { metric: { gpu: '0' }, values: times.slice(1).map((time, index) => [time, String(90.1234 - index)]) },
      ];
    } else if (query.includes('container_fs_usage_bytes')) {
      result = [{ metric: {}, values: times.map((time) => [time, String(12.5)]) }];
    } else {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: 'error', errorType: 'bad_data', error: `unexpected query in the fake: ${query}` }));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ status: 'success', data: { resultType: 'matrix', result } }));
  }
}

let t: TestApp;
const prometheus = new FakePrometheus();
let instanceId = '';
let token = '';

beforeAll(async () => {
  const port = await prometheus.start();
  t = await createTestApp({ env: { PROMETHEUS_URL: `http://grafana:s3cret@127.0.0.1:${port}/prom/` } });
  const user = await registerUser(t);
  await rechargeThroughSandbox(t, user.jwtToken, 100_000);
  const created = await call<{ instanceId: string }>(t.app, {
    method: 'POST',
    url: '/api/v1/rental',
    token: user.jwtToken,
    payload: { hostId: 'bj-a-4090-03', gpuNum: 2, imageId: 'pytorch-2.5.1-py3.12-cu124', chargingRuleId: 1 },
  });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  instanceId = created.body.result.instanceId;
  token = user.jwtToken;
});
afterAll(async () => {
  await t.close();
  await prometheus.stop();
});
beforeEach(() => {
  // The server clamps `end` to now: a frozen clock keeps now from crossing a second between the test and the server.
  t.clock.freeze();
  prometheus.received.length = 0;
  prometheus.answer = (received, response) => prometheus.matrix(received, response);
});

const nowSeconds = () => Math.floor(t.deps.now().getTime() / 1000);

async function query(params: { metric: string; start: number; end: number; step: number; instanceId?: string }, as = token) {
  const search = new URLSearchParams({ instanceId, ...Object.fromEntries(Object.entries(params).map(([key, value]) => [key, String(value)])) });
  return call<MetricAnswer>(t.app, { method: 'GET', url: `/api/v1/prometheus/query/metric?${search.toString()}`, token: as });
}

describe('instance monitoring from Prometheus (PROMETHEUS_URL)', () => {
  it('asks query_range with the PromQL of the metric for the instance’s series and turns the matrix into series', async () => {
    expect(t.deps.metrics.kind).toBe('prometheus');
    const end = nowSeconds();
    const answer = await query({ metric: 'GPU', start: end - 600, end: end + 600, step: 60 });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);

    expect(prometheus.received).toHaveLength(1);
    const [received] = prometheus.received;
    expect(received?.method).toBe('GET');
    expect(received?.path).toBe('/prom/api/v1/query_range');
    expect(received?.params.get('query')).toBe(`max by (gpu) (DCGM_FI_DEV_GPU_UTIL{container_label_slg_io_instance_id="${instanceId}"})`);
    // The end is never in the future.
    expect(Object.fromEntries(received?.params ?? [])).toMatchObject({ start: String(end - 600), end: String(end), step: '60' });
    // The credentials of PROMETHEUS_URL travel as Basic authorization.
    expect(received?.authorization).toBe(`Basic ${Buffer.from('grafana:s3cret').toString('base64')}`);

    const { series } = answer.body.result;
    expect(series.map((line) => line.name)).toEqual(['GPU 0', 'GPU 1']);
    expect(series[0]?.points[0]).toEqual([end - 540, 90.12]);
    expect(series[0]?.points).toHaveLength(10);
    // The NaN sample is dropped, not sent as null.
    expect(series[1]?.points[0]).toEqual([end - 540, 41]);
    expect(series[1]?.points).toHaveLength(10);
  });

  it('reads the data disk from the host exporter’s volume usage', async () => {
    const end = nowSeconds();
    const answer = await query({ metric: 'PVC_USAGE', start: end - 300, end, step: 60 });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(prometheus.received[0]?.params.get('query')).toBe(`sum(container_fs_usage_bytes{container_label_slg_io_instance_id="${instanceId}",device="/root/slg-data"}) / 1073741824`);
    expect(answer.body.result).toMatchObject({ metric: 'PVC_USAGE', unit: 'GB', series: [{ name: '数据盘使用量' }] });
    expect(answer.body.result.series[0]?.points).toHaveLength(6);
  });

  it.each([
    ['docker', /container_label_slg_io_instance_id="slg-abcdefghij"/],
    ['kubernetes', /"slg-abcdefghij-(0|data|system[^"]*)"/],
  ] as const)('writes one PromQL expression per metric for %s series, each naming only this instance', (style, selector) => {
    const metrics = ['GPU', 'CPU', 'MEMORY', 'MEMORY_COUNT', 'CPU_COUNT', 'GPU_COUNT', 'PVC_USAGE', 'PVC_CAPACITY', 'PVC_SHARE_USAGE', 'SYS_DISK_USAGE', 'SYS_DISK_COUNT'] as const;
    const instance = { instanceId: 'slg-abcdefghij', dataDiskGb: 50 };
    const expressions = metrics.map((metric) => promqlFor(metric, instance, 120, style));
    expect(new Set(expressions).size).toBe(metrics.length);
    for (const expression of expressions) {
      expect(expression).toMatch(selector);
      // Instance ids are slg- and at least ten characters: no other instance's is named.
      expect(expression.match(/slg-[a-z0-9]{6,}/g)?.every((name) => name === 'slg-abcdefghij')).toBe(true);
    }
    // The rate window follows the step so no sample between two points is skipped.
    expect(promqlFor('CPU', instance, 120, style)).toContain('[120s]');
    expect(promqlFor('CPU', instance, 15, style)).toContain('[60s]');
  });

  it('answers 503 in Chinese when Prometheus refuses, breaks or is down', async () => {
    const end = nowSeconds();
    const range = { metric: 'CPU', start: end - 600, end, step: 60 };
    // The fake refuses the CPU query as bad_data.
    const refused = await query(range);
    expect(refused.status).toBe(503);
    expect(refused.body.rspmsg).toBe('监控服务暂不可用，请稍后再试');

    prometheus.answer = (_received, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html>Bad Gateway</html>');
    };
    expect((await query({ ...range, metric: 'GPU' })).status).toBe(503);

    prometheus.answer = (_received, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [] } }));
    };
    expect((await query({ ...range, metric: 'GPU' })).status).toBe(503);

    // Nothing listens there: the source says the backend is unavailable, with the cause for the log.
    const down = new PrometheusMetricsSource({ baseUrl: 'http://127.0.0.1:1' });
    const instance = { rowId: 1, instanceId, gpuNum: 1, dataDiskGb: 50, cpuPerGpu: 16, memoryGbPerGpu: 90, imageSizeGb: null, releasedAt: null };
    const failure = await down.query(instance, 'GPU', { start: end - 600, end, step: 60 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MetricsUnavailableError);
    expect((failure as MetricsUnavailableError).message).toBe('监控服务暂不可用，请稍后再试');
    expect((failure as MetricsUnavailableError).detail).toContain('not reachable');
  });

  it('never asks Prometheus about someone else’s instance or a bad range', async () => {
    const stranger = await registerUser(t);
    const end = nowSeconds();
    expect((await query({ metric: 'GPU', start: end - 600, end, step: 60 }, stranger.jwtToken)).status).toBe(404);
    expect((await query({ metric: 'GPU', start: end - 600, end, step: 1 })).status).toBe(400);
    expect((await query({ metric: 'GPU', start: end, end: end - 600, step: 60 })).status).toBe(400);
    expect(prometheus.received).toHaveLength(0);
  });
});
