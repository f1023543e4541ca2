import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import { MONITOR_METRICS, NO_GPU_CPU_CORES, NO_GPU_MEMORY_GB, SYSTEM_DISK_GB, type GpuMode, type MonitorMetricValue } from '@slg/shared';
import type { Database } from '../../db/client.js';
import { instanceEvents } from '../../db/schema/index.js';
import { evaluationTimes, type MetricRange, type MetricSeries, type MetricsSource, type MonitoredInstance } from './metrics-source.js';

/** System-disk usage of an image the platform knows no size of (a private image). */
const UNKNOWN_IMAGE_GB = 12;

/** A stretch of time the machine ran, in ms; `endMs` is Infinity while it still runs. */
export interface RunInterval {
  startMs: number;
  endMs: number;
  mode: GpuMode;
}

const RUNNING_MODES: Readonly<Record<string, GpuMode>> = { PoweredOn: 'gpu', PoweredOnNoGPU: 'nogpu' };

/**
 * When the machine ran, from the instance's recorded transitions: the reconciler writes an event with
 * `toStatus` PoweredOn / PoweredOnNoGPU when it sees the machine running (create or power-on done,
 * or a host that answers again) and one with PoweredOff / Error / OutOfConnection when it stopped or
 * was lost. Requests (a power-off asked for) keep the status, so the machine counts as running until
 * it really stopped. A release ends everything.
 */
export function runIntervals(events: readonly { toStatus: string | null; createdAt: Date }[], releasedAt: Date | null): RunInterval[] {
  const intervals: RunInterval[] = [];
  let open: RunInterval | null = null;
  for (const event of events) {
    if (event.toStatus === null) continue;
    const at = event.createdAt.getTime();
    const mode = RUNNING_MODES[event.toStatus];
    if (open && open.mode !== mode) {
      open.endMs = at;
      open = null;
    }
    if (mode && !open) {
      open = { startMs: at, endMs: Number.POSITIVE_INFINITY, mode };
      intervals.push(open);
    }
  }
  if (open && releasedAt) open.endMs = releasedAt.getTime();
  return intervals;
}

// ---- deterministic noise -------------------------------------------------------------------------

/** FNV-1a of a text, 32 bits. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** MurmurHash3's finaliser: spreads every input bit over the output. */
function mix(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A number in [0, 1) fixed by the seed and the bucket index. */
function unit(seed: number, index: number): number {
  return mix(seed ^ mix(index + 0x9e3779b9)) / 0x1_0000_0000;
}

/** Value noise: random levels every `period` seconds, eased into each other (no jumps). */
function smooth(seed: number, seconds: number, period: number): number {
  const position = seconds / period;
  const index = Math.floor(position);
  const fraction = position - index;
  const eased = fraction * fraction * (3 - 2 * fraction);
  const from = unit(seed, index);
  return from + (unit(seed, index + 1) - from) * eased;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

// ---- the simulated workload ----------------------------------------------------------------------

/** The seeds of one instance's curves: the same instance always gets the same workload. */
export class Workload {
  private readonly seed: number;

  constructor(instanceId: string) {
    this.seed = hashText(instanceId);
  }

  private seedOf(part: string): number {
    return mix(this.seed ^ hashText(part));
  }

  /**
   * How busy the user's job is, 0 (idle) to 1. After each boot: a few minutes of logging in and
   * setting up, then a first job of 30–90 minutes; afterwards long stretches of work with pauses
   * between (about a quarter of the time idle). Light set-up work only in no-GPU mode.
   */
  activity(seconds: number, run: RunInterval): number {
    const sinceBoot = seconds - run.startMs / 1000;
    const warmUp = clamp((sinceBoot - 120) / 180, 0, 1);
    const firstJobEnd = 300 + 1800 + 3600 * this.trait('first-job');
    const firstJob = clamp((firstJobEnd - sinceBoot) / 300, 0, 1);
    const level = smooth(this.seedOf('activity'), seconds, 2700);
    const busy = clamp((level - 0.22) / 0.16, 0, 1);
    const eased = busy * busy * (3 - 2 * busy);
    return Math.max(eased, firstJob) * warmUp * (run.mode === 'nogpu' ? 0.3 : 1);
  }

  /** Jitter in [-0.5, 0.5) per 15-second scrape. */
  jitter(part: string, seconds: number): number {
    return unit(this.seedOf(part), Math.floor(seconds / 15)) - 0.5;
  }

  curve(part: string, seconds: number, period: number): number {
    return smooth(this.seedOf(part), seconds, period);
  }

  /** A constant of the instance in [0, 1). */
  trait(part: string): number {
    return unit(this.seedOf(part), 0);
  }
}

/** Hours the machine had run by `ms`, over every earlier run. */
function runHoursBefore(intervals: readonly RunInterval[], ms: number): number {
  let total = 0;
  for (const interval of intervals) {
    if (interval.startMs >= ms) break;
    total += Math.min(ms, interval.endMs) - interval.startMs;
  }
  return total / 3_600_000;
}

const LABELS = Object.fromEntries(MONITOR_METRICS.map((item) => [item.value, item.label])) as Record<MonitorMetricValue, string>;

/**
 * Series of the simulated fleet, computed rather than stored: a value exists at a time only while the
 * instance's machine ran then (from its recorded transitions), and is a pure function of the instance
 * id and the time — the same query always gets the same answer, and overlapping queries agree.
 * Utilisation follows a smooth, plausible training workload; sizes come from the instance (GPUs,
 * CPU and memory per GPU of its host, its data disk); disks fill slowly with running time and never
 * beyond their capacity. No-GPU mode has no GPU values and 0 GPUs. File storage is not mounted into
 * simulated machines (the platform has no file storage yet), so PVC_SHARE_USAGE has no series.
 */
export class SimulatedMetricsSource implements MetricsSource {
  readonly kind = 'sim' as const;

  constructor(private readonly db: Database) {}

  async query(instance: MonitoredInstance, metric: MonitorMetricValue, range: MetricRange): Promise<MetricSeries[]> {
    if (metric === 'PVC_SHARE_USAGE') return [];
    const events = await this.db
      .select({ toStatus: instanceEvents.toStatus, createdAt: instanceEvents.createdAt })
      .from(instanceEvents)
      .where(and(eq(instanceEvents.instanceRowId, instance.rowId), isNotNull(instanceEvents.toStatus), lte(instanceEvents.createdAt, new Date(range.end * 1000))))
      .orderBy(asc(instanceEvents.createdAt), asc(instanceEvents.id));
    const intervals = runIntervals(events, instance.releasedAt);
    const workload = new Workload(instance.instanceId);
    const gpuSeries = metric === 'GPU' ? Array.from({ length: instance.gpuNum }, (_, index) => index) : [0];
    const series: MetricSeries[] = gpuSeries.map((gpu) => ({ name: metric === 'GPU' ? `GPU ${gpu}` : LABELS[metric], points: [] }));

    let current = 0;
    for (const seconds of evaluationTimes(range)) {
      const ms = seconds * 1000;
      while (current < intervals.length && (intervals[current]?.endMs ?? 0) <= ms) current += 1;
      const run = intervals[current];
      if (!run || run.startMs > ms) continue;
      series.forEach((line, gpu) => {
        const value = simulatedValue(metric, instance, workload, run, intervals, seconds, gpu);
        if (value !== null) line.points.push([seconds, value]);
      });
    }
    return series;
  }
}

/** The metric at one time of a run; null where it has no value (GPU metrics in no-GPU mode). */
export function simulatedValue(
  metric: Exclude<MonitorMetricValue, 'PVC_SHARE_USAGE'>,
  instance: MonitoredInstance,
  workload: Workload,
  run: RunInterval,
  intervals: readonly RunInterval[],
  seconds: number,
  gpu: number,
): number | null {
  const withGpus = run.mode === 'gpu';
  const activity = workload.activity(seconds, run);
  const memoryTotal = withGpus ? instance.memoryGbPerGpu * instance.gpuNum : NO_GPU_MEMORY_GB;
  switch (metric) {
    case 'GPU': {
      if (!withGpus) return null;
      // Data-parallel training: the GPUs move together, each with its own wobble.
      const shared = workload.curve('gpu', seconds, 600);
      const own = workload.curve(`gpu-${gpu}`, seconds, 180);
      const busy = 62 + 34 * (0.7 * shared + 0.3 * own) + 6 * workload.jitter(`gpu-jitter-${gpu}`, seconds);
      const idle = 1.5 * (workload.jitter(`gpu-idle-${gpu}`, seconds) + 0.5);
      return round(clamp(activity * busy + (1 - activity) * idle, 0, 100), 1);
    }
    case 'CPU': {
      const busy = 18 + 22 * workload.curve('cpu', seconds, 900);
      return round(clamp(3 + activity * busy + 3 * workload.jitter('cpu-jitter', seconds), 0, 100), 1);
    }
    case 'MEMORY': {
      const share = 0.06 + activity * (0.25 + 0.35 * workload.curve('memory', seconds, 3600)) + 0.01 * workload.jitter('memory-jitter', seconds);
      return round(memoryTotal * clamp(share, 0.02, 0.95), 2);
    }
    case 'MEMORY_COUNT':
      return memoryTotal;
    case 'CPU_COUNT':
      return withGpus ? instance.cpuPerGpu * instance.gpuNum : NO_GPU_CPU_CORES;
    case 'GPU_COUNT':
      return withGpus ? instance.gpuNum : 0;
    case 'PVC_CAPACITY':
      return instance.dataDiskGb;
    case 'PVC_USAGE': {
      // Datasets and checkpoints pile up with running time, fast at first, then levelling off.
      const hours = runHoursBefore(intervals, seconds * 1000);
      const fill = 0.3 + 0.5 * workload.trait('data-fill');
      const pace = 24 + 72 * workload.trait('data-pace');
      return round(instance.dataDiskGb * Math.min(0.95, 0.01 + fill * (1 - Math.exp(-hours / pace))), 2);
    }
    case 'SYS_DISK_COUNT':
      return SYSTEM_DISK_GB;
    case 'SYS_DISK_USAGE': {
      const hours = runHoursBefore(intervals, seconds * 1000);
      const base = (instance.imageSizeGb ?? UNKNOWN_IMAGE_GB) + 0.3;
      const installed = (2 + 4 * workload.trait('system-fill')) * (1 - Math.exp(-hours / 48));
      return round(Math.min(SYSTEM_DISK_GB * 0.95, base + installed), 2);
    }
  }
}
