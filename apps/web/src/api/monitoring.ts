/**
 * 实例监控: the series of one metric of an instance (`GET /prometheus/query/metric`) and the instance
 * itself. Types and calls only: the page keeps its query hooks, so this file (grouped with the console
 * shell) stays a few hundred bytes.
 */
import type { MonitorMetricValue } from '@slg/shared';
import { request } from './client';
import type { InstanceView } from './compute';

/** `[unix seconds, value]`. */
export type MetricPoint = [number, number];

export interface MetricSeries {
  /** "GPU 0", "GPU 1"… for GPU utilisation; the metric's label otherwise. */
  name: string;
  /** In time order; no point where the instance was not running. */
  points: MetricPoint[];
}

export interface MetricAnswer {
  metric: MonitorMetricValue;
  unit: string;
  step: number;
  series: MetricSeries[];
}

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
