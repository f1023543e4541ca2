import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MONITOR_METRICS } from '@slg/shared';
import { metricAnswerSchema } from '@slg/shared/views/monitoring';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { AppError } from '../../core/errors.js';
import { text } from '../../http/fields.js';
import { instanceIdField } from '../rental/routes.js';
import { MetricsUnavailableError } from './metrics-source.js';
import { MONITOR_LIMITS, MonitoringService } from './service.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope, 503: errorEnvelope };

const METRIC_VALUES = MONITOR_METRICS.map((item) => item.value) as [(typeof MONITOR_METRICS)[number]['value'], ...(typeof MONITOR_METRICS)[number]['value'][]];
/** 2000-01-01 and 2100-01-01 (UTC), in unix seconds: anything outside is a mistake (often milliseconds). */
const EARLIEST_UNIX = 946_684_800;
const LATEST_UNIX = 4_102_444_800;

/** A whole number of seconds in a query string, with Chinese messages naming the field. */
function secondsField(label: string, min: number, max: number, outOfRange: string) {
  return text(label)
    .trim()
    .min(1, `请输入${label}`)
    .regex(/^\d{1,13}$/, `${label}必须是整数（单位：秒）`)
    .transform(Number)
    .pipe(z.number().min(min, outOfRange).max(max, outOfRange));
}

const unixField = (label: string) =>
  secondsField(label, EARLIEST_UNIX, LATEST_UNIX, `${label}应为以秒为单位的 Unix 时间戳（2000 年至 2100 年之间）`).describe(`${label}，Unix 时间戳（秒）`);

const metricQuery = z.object({
  instanceId: instanceIdField,
  metric: z.enum(METRIC_VALUES, { error: `监控指标不正确，可选：${METRIC_VALUES.join('、')}` }).describe(MONITOR_METRICS.map((item) => `${item.value} ${item.label}（${item.unit}）`).join('；')),
  start: unixField('开始时间'),
  end: unixField('结束时间'),
  step: secondsField(
    '步长',
    MONITOR_LIMITS.minStepSeconds,
    MONITOR_LIMITS.maxStepSeconds,
    `步长应在${MONITOR_LIMITS.minStepSeconds}秒到${MONITOR_LIMITS.maxStepSeconds}秒之间`,
  ).describe('相邻两个数据点的间隔（秒）'),
});

export const monitoringRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const monitoring = new MonitoringService(deps);

  app.get(
    '/prometheus/query/metric',
    {
      preValidation: requireAuthority('CONTAINER'),
      schema: {
        tags: ['容器实例'],
        summary: '实例监控数据：某一指标在时间范围内的曲线（仅实例运行期间有数据）',
        description: `时间范围不超过${MONITOR_LIMITS.maxRangeSeconds / 86_400}天，每条曲线不超过${MONITOR_LIMITS.maxPoints}个点；已释放的实例可查询其历史。`,
        querystring: metricQuery,
        response: { 200: envelopeOf(metricAnswerSchema), ...errors },
      },
    },
    async (request) => {
      try {
        return ok(await monitoring.query(principalOf(request), request.query));
      } catch (error) {
        if (!(error instanceof MetricsUnavailableError)) throw error;
        request.log.warn({ detail: error.detail, source: deps.metrics.kind }, 'metrics source unavailable');
        throw new AppError('SERVICE_UNAVAILABLE', error.message);
      }
    },
  );
};
