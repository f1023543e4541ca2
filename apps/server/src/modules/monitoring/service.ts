import { rentedBy } from '../rental/scope.js';
import { and, eq } from 'drizzle-orm';
import { MONITOR_METRICS, type MonitorMetricValue } from '@slg/shared';
import type { MetricAnswer } from '@slg/shared/views/monitoring';
import type { AppDeps } from '../../deps.js';
import { hosts, instances, publicImages } from '../../db/schema/index.js';
import {} from '../../db/scope.js';
import { AppError, badRequest } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import type { MonitoredInstance } from './metrics-source.js';

/** The bounds of one query (the console asks for at most 7 days at about 360 points). */
export const MONITOR_LIMITS = {
  /** The longest range: the console's longest choice, well inside Prometheus's default 15-day retention. */
  maxRangeSeconds: 7 * 86_400,
  /** Points per series: a chart is at most a screen wide; Prometheus itself stops at 11,000. */
  maxPoints: 1_100,
  /** Below the usual 15 s scrape interval a finer step only repeats values. */
  minStepSeconds: 15,
  maxStepSeconds: 86_400,
  /** A client clock this far ahead of ours may still ask for "now". */
  clockSkewSeconds: 300,
} as const;

export interface MetricQuery {
  instanceId: string;
  metric: MonitorMetricValue;
  /** Unix seconds. */
  start: number;
  end: number;
  step: number;
}

/** The answer's shape: the schema in packages/shared (views/monitoring), which the console reads too. */
export type { MetricAnswer };

/** The smallest step that keeps a range within `maxPoints`. */
export function minimumStep(rangeSeconds: number): number {
  return Math.max(MONITOR_LIMITS.minStepSeconds, Math.ceil(rangeSeconds / (MONITOR_LIMITS.maxPoints - 1)));
}

/** Refuses a range the charts cannot use, saying what to change (400). */
export function assertUsableRange(query: Pick<MetricQuery, 'start' | 'end' | 'step'>, nowSeconds: number): void {
  const { start, end, step } = query;
  if (end <= start) throw badRequest('结束时间必须晚于开始时间');
  if (start > nowSeconds + MONITOR_LIMITS.clockSkewSeconds) throw badRequest('开始时间不能晚于当前时间');
  if (end - start > MONITOR_LIMITS.maxRangeSeconds) throw badRequest(`查询时间范围不能超过${MONITOR_LIMITS.maxRangeSeconds / 86_400}天`);
  const points = Math.floor((end - start) / step) + 1;
  if (points > MONITOR_LIMITS.maxPoints) {
    throw badRequest(`数据点过多：按步长${step}秒共${points}个点，每条曲线最多${MONITOR_LIMITS.maxPoints}个，请将步长调大到至少${minimumStep(end - start)}秒`);
  }
}

/** The columns of a MonitoredInstance, from `instances` joined with `hosts` and (left) `public_images`. */
export const MONITORED_INSTANCE_COLUMNS = {
  rowId: instances.id,
  instanceId: instances.instanceId,
  gpuNum: instances.gpuNum,
  dataDiskGb: instances.dataDiskGb,
  cpuPerGpu: hosts.cpuPerGpu,
  memoryGbPerGpu: hosts.memoryGbPerGpu,
  imageSizeGb: publicImages.sizeGb,
  releasedAt: instances.releasedAt,
};

const UNITS = Object.fromEntries(MONITOR_METRICS.map((item) => [item.value, item.unit])) as Record<MonitorMetricValue, string>;

/**
 * 实例监控: the series of one metric of one of the caller's instances. Released instances keep their
 * history (as their events do): the record stays, and the series simply end at the release.
 */
export class MonitoringService {
  constructor(private readonly deps: AppDeps) {}

  async query(principal: Principal, query: MetricQuery): Promise<MetricAnswer> {
    const nowSeconds = Math.floor(this.deps.now().getTime() / 1000);
    assertUsableRange(query, nowSeconds);
    const [row] = await this.deps.database.db
      .select(MONITORED_INSTANCE_COLUMNS)
      .from(instances)
      .innerJoin(hosts, eq(hosts.id, instances.hostId))
      .leftJoin(publicImages, eq(publicImages.id, instances.imageId))
      .where(and(rentedBy(principal), eq(instances.instanceId, query.instanceId)));
    if (!row) throw new AppError('NOT_FOUND', '实例不存在');
    const instance: MonitoredInstance = row;
    // Nothing is known about the future: the last point is now at the latest.
    const end = Math.min(query.end, nowSeconds);
    const answer = { metric: query.metric, unit: UNITS[query.metric], step: query.step };
    if (end < query.start) return { ...answer, series: [] };
    // A backend that cannot answer throws MetricsUnavailableError: the route logs it and answers 503.
    return { ...answer, series: await this.deps.metrics.query(instance, query.metric, { start: query.start, end, step: query.step }) };
  }
}
