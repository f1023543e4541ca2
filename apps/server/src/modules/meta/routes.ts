import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { dbOf } from '../../deps.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import {
  CHARGING_RULE_LIST,
  INSTANCE_HEALTH_LIST,
  INSTANCE_STATUS_LIST,
  MetaService,
  RENTAL_EVENT_TYPE_LIST,
} from './service.js';

const TAGS = ['字典'];
const errors = { 429: errorEnvelope };

const zone = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string().describe('大区，如 华北'),
  description: z.string(),
});

const gpu = z.object({
  id: z.string(),
  name: z.string(),
  memoryGb: z.number().int().describe('显存 GB'),
  vendor: z.string(),
  architecture: z.string(),
  fp32Tflops: z.number().describe('FP32 峰值算力 TFLOPS'),
  pricePerHourFen: z.number().int().describe('参考按量价格，分/卡时'),
});

const cpu = z.object({
  id: z.string(),
  name: z.string(),
  cores: z.number().int(),
  baseClockGhz: z.number().describe('基础频率 GHz'),
});

const publicImage = z.object({
  id: z.string(),
  name: z.string(),
  framework: z.string(),
  frameworkVersion: z.string(),
  python: z.string(),
  cuda: z.string(),
  ubuntu: z.string(),
  sizeGb: z.number().describe('镜像大小 GB'),
});

const chargingRule = z.object({
  id: z.number().int().describe('1 按量；2、3、4 同时为包日、包周、包月时长包的 key'),
  name: z.string(),
  showName: z.string(),
  isFilter: z.boolean(),
  unit: z.string().describe('计费单位；按量计费按天显示'),
});

const instanceStatus = z.object({
  id: z.number().int(),
  name: z.string().describe('状态值，如 Running'),
  showName: z.string().describe('中文名，如 运行中'),
  color: z.string().describe('antd Tag 颜色：success / processing / default / error / warning'),
  isFilter: z.boolean().describe('是否作为列表筛选项'),
});

const namedItem = z.object({ id: z.number().int(), name: z.string(), showName: z.string() });

/** Public dictionaries the console loads at start (spec §7 "Metadata lists"). */
export const metaRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const service = new MetaService(dbOf(deps));
  const route = <T extends z.ZodType>(summary: string, result: T) => ({
    config: { public: true },
    schema: { tags: TAGS, summary, response: { 200: envelopeOf(z.array(result)), ...errors } },
  });

  app.get('/meta/zone', route('可用区列表', zone), async () => ok(await service.zones()));
  app.get('/meta/gpu', route('GPU 型号列表', gpu), async () => ok(await service.gpus()));
  app.get('/meta/cpu', route('CPU 型号列表', cpu), async () => ok(await service.cpus()));
  app.get('/meta/images/public', route('公共镜像列表', publicImage), async () => ok(await service.publicImages()));
  app.get('/meta/charging_rule', route('计费方式列表', chargingRule), async () => ok(CHARGING_RULE_LIST));
  app.get('/meta/instance_status', route('实例状态列表', instanceStatus), async () => ok(INSTANCE_STATUS_LIST));
  app.get('/meta/instance_health', route('实例健康状态列表', namedItem), async () => ok(INSTANCE_HEALTH_LIST));
  app.get('/meta/rental_event_type', route('实例事件类型列表', namedItem), async () => ok(RENTAL_EVENT_TYPE_LIST));
};
