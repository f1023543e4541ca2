import { z } from 'zod';
import { AUTO_RELEASE_DAYS, BALANCE_COVER_HOURS, FREE_DATA_DISK_GB, PRIVATE_IMAGE_QUOTA_GB, SYSTEM_DISK_GB } from '@slg/shared';
import {
  chargingRuleSchema,
  cpuModelSchema,
  gpuModelSchema,
  instanceStatusItemSchema,
  namedItemSchema,
  platformFeesSchema,
  publicImageSchema,
  zoneSchema,
} from '@slg/shared/views/meta';
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

  app.get('/meta/zone', route('可用区列表', zoneSchema), fromTable('zones'));
  app.get('/meta/gpu', route('GPU 型号列表', gpuModelSchema), fromTable('gpus'));
  app.get('/meta/cpu', route('CPU 型号列表', cpuModelSchema), fromTable('cpus'));
  app.get('/meta/images/public', route('公共镜像列表', publicImageSchema), fromTable('publicImages'));
  app.get('/meta/charging_rule', route('计费方式列表', chargingRuleSchema), fixed(CHARGING_RULE_LIST));
  app.get('/meta/instance_status', route('实例状态列表', instanceStatusItemSchema), fixed(INSTANCE_STATUS_LIST));
  app.get('/meta/instance_health', route('实例健康状态列表', namedItemSchema), fixed(INSTANCE_HEALTH_LIST));
  app.get('/meta/rental_event_type', route('实例事件类型列表', namedItemSchema), fixed(RENTAL_EVENT_TYPE_LIST));

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
          200: envelopeOf(platformFeesSchema),
          ...errors,
        },
      },
    },
    fixed(fees),
  );
};
