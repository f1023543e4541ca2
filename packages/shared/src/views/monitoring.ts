/**
 * What 实例监控 answers (`GET /prometheus/query/metric`): the server's response schema, and the type the
 * console reads it with (`import type` only).
 */
import { z } from 'zod';
import { MONITOR_METRICS, valuesOf } from '../dictionaries.js';

export const metricAnswerSchema = z.object({
  metric: z.enum(valuesOf(MONITOR_METRICS)),
  unit: z.string().describe('数值的单位：% / GB / 核 / 卡'),
  step: z.number().int(),
  series: z.array(
    z.object({
      name: z.string().describe('曲线名称：GPU 指标每卡一条（GPU 0、GPU 1…），其余为指标名称'),
      points: z.array(z.tuple([z.number().int(), z.number()])).describe('[Unix 秒, 数值]，按时间排列；实例未运行的时刻没有点'),
    }),
  ),
});
export type MetricAnswer = z.infer<typeof metricAnswerSchema>;
export type MetricSeries = MetricAnswer['series'][number];
/** `[unix seconds, value]`. */
export type MetricPoint = MetricSeries['points'][number];
