import type { MonitorMetricValue } from '@slg/shared';

/** One line of a chart: its name ("GPU 0", "CPU 利用率") and `[unixSeconds, value]` pairs in time order. */
export interface MetricSeries {
  name: string;
  points: [number, number][];
}

/**
 * The evaluation times of a query, as Prometheus's `query_range` takes them: every `start + k × step`
 * up to `end`, all in unix seconds. `end` is already clipped to the present by the service.
 */
export interface MetricRange {
  start: number;
  end: number;
  step: number;
}

/** What a source needs to know about the instance it is asked about. */
export interface MonitoredInstance {
  /** `instances.id`: the key of its events. */
  rowId: number;
  instanceId: string;
  gpuNum: number;
  dataDiskGb: number;
  cpuPerGpu: number;
  memoryGbPerGpu: number;
  /** Size of its public image (GB); null for an image the platform knows no size of. */
  imageSizeGb: number | null;
  releasedAt: Date | null;
}

/** The metrics backend could not answer (down, timed out, refused the query): the API answers 503. */
export class MetricsUnavailableError extends Error {
  /** `message` is for the user (Chinese); `detail` says what went wrong, for the log. */
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
  }
}

/**
 * Where monitoring series come from: the simulated fleet computes them from the instance's history,
 * production asks Prometheus. The service has validated the range and the caller's access already.
 */
export interface MetricsSource {
  readonly kind: 'sim' | 'prometheus';
  query(instance: MonitoredInstance, metric: MonitorMetricValue, range: MetricRange): Promise<MetricSeries[]>;
}

/** The evaluation times of a range, oldest first. */
export function evaluationTimes(range: MetricRange): number[] {
  const times: number[] = [];
  for (let time = range.start; time <= range.end; time += range.step) times.push(time);
  return times;
}
