import { z } from 'zod';
import { MONITOR_METRICS, SYSTEM_DISK_GB, type MonitorMetricValue } from '@slg/shared';
import { DATA_DISK_DEVICE, INSTANCE_SERIES_LABEL, SYSTEM_DISK_DEVICE } from '../../compute/container-series.js';
import { MetricsUnavailableError, type MetricRange, type MetricSeries, type MetricsSource, type MonitoredInstance } from './metrics-source.js';

const GIB = 1024 ** 3;
const LABELS = Object.fromEntries(MONITOR_METRICS.map((item) => [item.value, item.label])) as Record<MonitorMetricValue, string>;

/**
 * Which exporters' series Prometheus holds: `kubernetes` — cAdvisor in the kubelet, kubelet volume stats,
 * kube-state-metrics and DCGM with pod labels; `docker` — the host exporter of this repository
 * (`npm run exporter`, compute/docker/exporter.ts): the same cAdvisor and DCGM names, every series
 * labelled with the instance id.
 */
export type SeriesStyle = 'kubernetes' | 'docker';

/**
 * The PromQL of each metric for one instance, built on the server from the instance id (never taken
 * from the client). Every query yields values only while the machine runs, as the simulated fleet does.
 */
export function promqlFor(metric: MonitorMetricValue, instance: Pick<MonitoredInstance, 'instanceId' | 'dataDiskGb'>, stepSeconds: number, style: SeriesStyle = 'docker'): string {
  return style === 'kubernetes' ? kubernetesPromql(metric, instance.instanceId, stepSeconds) : dockerPromql(metric, instance, stepSeconds);
}

/** Wide enough to hold several scrapes, and at least the step so no sample between two points is skipped. */
function rateWindow(stepSeconds: number): string {
  return `${Math.max(60, stepSeconds)}s`;
}

/**
 * On Docker hosts every series carries `container_label_slg_io_instance_id` (exporter.ts). The local
 * volume driver sets no size, so the data disk's capacity is the platform's books (the instance's
 * size), drawn while the machine reports; the system disk is the platform's SYSTEM_DISK_GB. File
 * storage is not mounted into instances yet: 0 while it runs.
 */
function dockerPromql(metric: MonitorMetricValue, instance: Pick<MonitoredInstance, 'instanceId' | 'dataDiskGb'>, stepSeconds: number): string {
  const selector = `${INSTANCE_SERIES_LABEL}="${instance.instanceId}"`;
  const cores = `sum(container_spec_cpu_quota{${selector}} / container_spec_cpu_period{${selector}})`;
  const running = `0 * ${cores}`;
  switch (metric) {
    case 'GPU':
      return `max by (gpu) (DCGM_FI_DEV_GPU_UTIL{${selector}})`;
    case 'CPU':
      return `100 * sum(rate(container_cpu_usage_seconds_total{${selector}}[${rateWindow(stepSeconds)}])) / ${cores}`;
    case 'MEMORY':
      return `sum(container_memory_working_set_bytes{${selector}}) / ${GIB}`;
    case 'MEMORY_COUNT':
      return `sum(container_spec_memory_limit_bytes{${selector}}) / ${GIB}`;
    case 'CPU_COUNT':
      return cores;
    case 'GPU_COUNT':
      return `count(DCGM_FI_DEV_GPU_UTIL{${selector}}) or ${running}`;
    case 'PVC_USAGE':
      return `sum(container_fs_usage_bytes{${selector},device="${DATA_DISK_DEVICE}"}) / ${GIB}`;
    case 'PVC_CAPACITY':
      return `${instance.dataDiskGb} + ${running}`;
    case 'PVC_SHARE_USAGE':
      return running;
    case 'SYS_DISK_USAGE':
      return `sum(container_fs_usage_bytes{${selector},device="${SYSTEM_DISK_DEVICE}"}) / ${GIB}`;
    case 'SYS_DISK_COUNT':
      return `${SYSTEM_DISK_GB} + ${running}`;
  }
}

/**
 * Names follow docs/compute.md's Kubernetes mapping: the instance's pod is `<instanceId>-0` (its
 * StatefulSet's only replica), its data disk the PVC `<instanceId>-data` and its system disk the PVC
 * `<instanceId>-system[-<reinstall>]`. Sources: the NVIDIA DCGM exporter with pod labels (GPU
 * utilisation per `gpu`), cAdvisor in the kubelet (CPU, memory), kubelet volume stats (both disks) and
 * kube-state-metrics (the pod's other PVCs).
 */
function kubernetesPromql(metric: MonitorMetricValue, instanceId: string, stepSeconds: number): string {
  const pod = `pod="${instanceId}-0"`;
  // cAdvisor also reports the pod's sandbox ("POD") and a pod-level total (container=""): only the real container counts.
  const container = `${pod},container!="",container!="POD"`;
  const dataDisk = `persistentvolumeclaim="${instanceId}-data"`;
  // The system disk's claim: `<id>-system`, after a reinstall `<id>-system-<request>`.
  const systemDisk = `persistentvolumeclaim=~"${instanceId}-system(-[0-9a-z]+)?"`;
  const window = rateWindow(stepSeconds);
  const cores = `sum(container_spec_cpu_quota{${container}} / container_spec_cpu_period{${container}})`;
  switch (metric) {
    case 'GPU':
      return `max by (gpu) (DCGM_FI_DEV_GPU_UTIL{${pod}})`;
    case 'CPU':
      return `100 * sum(rate(container_cpu_usage_seconds_total{${container}}[${window}])) / ${cores}`;
    case 'MEMORY':
      return `sum(container_memory_working_set_bytes{${container}}) / ${GIB}`;
    case 'MEMORY_COUNT':
      return `sum(container_spec_memory_limit_bytes{${container}}) / ${GIB}`;
    case 'CPU_COUNT':
      return cores;
    case 'GPU_COUNT':
      // No DCGM series at all in no-GPU mode: 0 while the pod runs, nothing while it does not.
      return `count(DCGM_FI_DEV_GPU_UTIL{${pod}}) or 0 * ${cores}`;
    case 'PVC_USAGE':
      return `sum(kubelet_volume_stats_used_bytes{${dataDisk}}) / ${GIB}`;
    case 'PVC_CAPACITY':
      return `sum(kubelet_volume_stats_capacity_bytes{${dataDisk}}) / ${GIB}`;
    case 'PVC_SHARE_USAGE':
      // File storage: every other PVC the pod mounts.
      return `sum(kubelet_volume_stats_used_bytes * on (namespace, persistentvolumeclaim) group_left () kube_pod_spec_volumes_persistentvolumeclaims_info{${pod},persistentvolumeclaim!="${instanceId}-data",persistentvolumeclaim!~"${instanceId}-system.*"}) / ${GIB}`;
    case 'SYS_DISK_USAGE':
      return `max(kubelet_volume_stats_used_bytes{${systemDisk}}) / ${GIB}`;
    case 'SYS_DISK_COUNT':
      return `max(kubelet_volume_stats_capacity_bytes{${systemDisk}}) / ${GIB}`;
  }
}

/** A `query_range` answer (https://prometheus.io/docs/prometheus/latest/querying/api/#range-queries). */
const matrixAnswer = z.object({
  status: z.literal('success'),
  data: z.object({
    resultType: z.literal('matrix'),
    result: z.array(z.object({ metric: z.record(z.string(), z.string()), values: z.array(z.tuple([z.number(), z.string()])) })),
  }),
});
const errorAnswer = z.object({ status: z.literal('error'), errorType: z.string().optional(), error: z.string().optional() });

export interface PrometheusOptions {
  /** PROMETHEUS_URL: the server's base address, possibly with a path prefix and `user:password@`. */
  baseUrl: string;
  fetchImpl?: typeof fetch;
  /** How long one query may take before the answer is 503. */
  timeoutMs?: number;
  /** Whose series to query (default `docker`: the host exporter's). */
  style?: SeriesStyle;
}

export const PROMETHEUS_UNAVAILABLE = '监控服务暂不可用，请稍后再试';

/** Series from Prometheus's `/api/v1/query_range`, one query per metric (see `promqlFor`). */
export class PrometheusMetricsSource implements MetricsSource {
  readonly kind = 'prometheus' as const;
  private readonly endpoint: URL;
  private readonly authorization: string | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly style: SeriesStyle;

  constructor(options: PrometheusOptions) {
    this.style = options.style ?? 'docker';
    const base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    // fetch refuses URLs that carry credentials: they travel as Basic authorization instead.
    if (base.username || base.password) {
      const credentials = `${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}`;
      this.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
      base.username = '';
      base.password = '';
    }
    this.endpoint = new URL('api/v1/query_range', base);
    this.fetchImpl = options.fetchImpl ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async query(instance: MonitoredInstance, metric: MonitorMetricValue, range: MetricRange): Promise<MetricSeries[]> {
    const url = new URL(this.endpoint);
    url.search = new URLSearchParams({
      query: promqlFor(metric, instance, range.step, this.style),
      start: String(range.start),
      end: String(range.end),
      step: String(range.step),
    }).toString();
    let response: Response;
    let body: unknown;
    try {
      response = await this.fetchImpl(url, {
        headers: { accept: 'application/json', ...(this.authorization ? { authorization: this.authorization } : {}) },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      body = await response.json().catch(() => undefined);
    } catch (error) {
      throw new MetricsUnavailableError(PROMETHEUS_UNAVAILABLE, `Prometheus not reachable: ${String(error)}`);
    }
    const answer = matrixAnswer.safeParse(body);
    if (!response.ok || !answer.success) {
      const refusal = errorAnswer.safeParse(body);
      const detail = refusal.success ? `${refusal.data.errorType ?? 'error'}: ${refusal.data.error ?? ''}` : 'not a matrix answer';
      throw new MetricsUnavailableError(PROMETHEUS_UNAVAILABLE, `Prometheus answered HTTP ${response.status}, ${detail}`);
    }
    const series = answer.data.data.result.map((line, index) => ({
      gpu: Number.parseInt(line.metric.gpu ?? String(index), 10),
      series: {
        name: metric === 'GPU' ? `GPU ${line.metric.gpu ?? index}` : LABELS[metric],
        points: line.values
          .map(([time, value]): [number, number] => [Number(time), Math.round(Number(value) * 100) / 100])
          .filter(([time, value]) => Number.isFinite(time) && Number.isFinite(value)),
      },
    }));
    return series.sort((a, b) => a.gpu - b.gpu).map((entry) => entry.series);
  }
}
