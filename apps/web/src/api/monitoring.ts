/**
 * 实例监控: the series of one metric of an instance (`GET /prometheus/query/metric`) and the instance
 * itself. Types and calls only: the page keeps its query hooks, so this file (grouped with the console
 * shell) stays a few hundred bytes.
 */
import type { MonitorMetricValue } from '@slg/shared';
import type { MetricAnswer } from '@slg/shared/views/monitoring';
import { request } from './client';
import type { InstanceView } from './compute';

export type { MetricAnswer, MetricPoint, MetricSeries } from '@slg/shared/views/monitoring';

export interface MetricQuery {
  instanceId: string;
  metric: MonitorMetricValue;
  /** Unix seconds. */
  start: number;
  end: number;
  step: number;
}

/** Silent: the page shows failures in place, and a failing 30-second refresh must not toast. */
export function fetchMetric(query: MetricQuery, signal?: AbortSignal): Promise<MetricAnswer> {
  return request<MetricAnswer>({ url: '/prometheus/query/metric', params: { ...query }, silent: true, signal });
}

export function fetchInstanceDetail(instanceId: string, signal?: AbortSignal): Promise<InstanceView> {
  return request<InstanceView>({ url: '/rental/detail', params: { instanceId }, silent: true, signal });
}
