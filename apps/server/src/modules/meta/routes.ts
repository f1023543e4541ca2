import { z } from 'zod';
import { AUTO_RELEASE_DAYS, BALANCE_COVER_HOURS, FREE_DATA_DISK_GB, PRIVATE_IMAGE_QUOTA_GB, SYSTEM_DISK_GB } from '@slg/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { dbOf } from '../../deps.js';
import type { PageLists } from '../../http/web.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { DictionaryCache, representationOf, sendRepresentation } from './cache.js';
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
  imageRef: z.string().describe('Docker 主机上运行的镜像引用（运营方可指向自己的镜像仓库）'),
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

/** How long an operator's edit of a dictionary table may take to reach every server process. */
export const DICTIONARY_MAX_AGE_MS = 1000;

/**
 * The lists the console page carries (zones, GPU models, public images, keyed by their API path), from
 * memory like the dictionaries themselves: the page changes within DICTIONARY_MAX_AGE_MS of an edit.
 */
export function pageListsOf(deps: AppDeps): PageLists {
  const service = new MetaService(dbOf(deps), deps.config.compute.docker.baseImage);
  const cache = new DictionaryCache(
    async () => ({ page: { zone: await service.zones(), gpu: await service.gpus(), 'images/public': await service.publicImages() } }),
    deps.now,
    DICTIONARY_MAX_AGE_MS,
  );
  return async () => (await cache.get('page')).identity.toString('utf8');
}

/**
 * Public dictionaries the console loads at start (spec §7 "Metadata lists"), answered from memory
 * with an ETag: a browser that holds the current version gets 304. See DictionaryCache for when the
 * table-backed ones are reloaded.
 */
export const metaRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const service = new MetaService(dbOf(deps), deps.config.compute.docker.baseImage);
  const tables = new DictionaryCache(
    async () => ({
      zones: ok(await service.zones()),
      gpus: ok(await service.gpus()),
      cpus: ok(await service.cpus()),
      publicImages: ok(await service.publicImages()),
    }),
    deps.now,
    DICTIONARY_MAX_AGE_MS,
  );
  const route = <T extends z.ZodType>(summary: string, result: T) => ({
    config: { public: true, anonymous: true },
    schema: { tags: TAGS, summary, response: { 200: envelopeOf(z.array(result)), ...errors } },
  });
  const fromTable = (name: 'zones' | 'gpus' | 'cpus' | 'publicImages') => async (request: FastifyRequest, reply: FastifyReply) =>
    sendRepresentation(request, reply, await tables.get(name));
  const fixed = (list: unknown) => {
    const representation = representationOf(ok(list));
    return async (request: FastifyRequest, reply: FastifyReply) => sendRepresentation(request, reply, representation);
  };

  app.get('/meta/zone', route('可用区列表', zone), fromTable('zones'));
  app.get('/meta/gpu', route('GPU 型号列表', gpu), fromTable('gpus'));
  app.get('/meta/cpu', route('CPU 型号列表', cpu), fromTable('cpus'));
  app.get('/meta/images/public', route('公共镜像列表', publicImage), fromTable('publicImages'));
  app.get('/meta/charging_rule', route('计费方式列表', chargingRule), fixed(CHARGING_RULE_LIST));
  app.get('/meta/instance_status', route('实例状态列表', instanceStatus), fixed(INSTANCE_STATUS_LIST));
  app.get('/meta/instance_health', route('实例健康状态列表', namedItem), fixed(INSTANCE_HEALTH_LIST));
  app.get('/meta/rental_event_type', route('实例事件类型列表', namedItem), fixed(RENTAL_EVENT_TYPE_LIST));

  // The platform's prices besides the GPUs' (those are per host, on the market): set by the operator's configuration.
  const fees = {
    noGpuPricePerHourFen: deps.config.compute.noGpuPriceFen,
    diskPriceFenPerGbDay: deps.config.compute.diskPriceFenPerGbDay,
    freeDataDiskGb: FREE_DATA_DISK_GB,
    systemDiskGb: SYSTEM_DISK_GB,
    privateImageQuotaGb: PRIVATE_IMAGE_QUOTA_GB,
    balanceCoverHours: BALANCE_COVER_HOURS,
    autoReleaseDays: AUTO_RELEASE_DAYS,
  };
  app.get(
    '/meta/fees',
    {
      config: { public: true, anonymous: true },
      schema: {
        tags: TAGS,
        summary: '平台其他费用：无卡模式、数据盘扩容、保留实例、私有镜像额度等（GPU 价格见算力市场）',
        response: {
          200: envelopeOf(
            z.object({
              noGpuPricePerHourFen: z.number().int().describe('无卡模式每小时（分）'),
              diskPriceFenPerGbDay: z.number().int().describe('数据盘超出免费部分、保留实例的磁盘，每 GB 每天（分）'),
              freeDataDiskGb: z.number().int(),
              systemDiskGb: z.number().int(),
              privateImageQuotaGb: z.number().int(),
              balanceCoverHours: z.number().int().describe('按量实例创建、开机时余额须覆盖的小时数'),
              autoReleaseDays: z.number().int().describe('按量实例持续关机多少天后自动释放'),
            }),
          ),
          ...errors,
        },
      },
    },
    fixed(fees),
  );
};
