import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MAX_GPUS_PER_INSTANCE } from '@slg/shared';
import { marketHostSchema, marketOverviewSchema } from '@slg/shared/views/market';
import type { AppDeps } from '../../deps.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { text } from '../../http/fields.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { sendRepresentation } from '../meta/cache.js';
import { fleetAdminRoutes } from './admin-routes.js';
import { AnswerCache } from './cache.js';
import { hostIdField } from '../rental/routes.js';
import { chargingRuleQuery, dictionaryIdField } from './fields.js';
import { MarketService, overviewOf } from './service.js';

const errors = { 400: errorEnvelope, 429: errorEnvelope };

/** How old a market answer may be: each view is read from the database once a second per process at most. */
export const MARKET_MAX_AGE_MS = 1000;
/** Distinct views (filters, pages, searches) kept at once. */
const MARKET_MAX_ENTRIES = 2000;

const gpuNumQuery = z.coerce
  .number({ error: 'GPU数量必须是数字' })
  .int('GPU数量必须是整数')
  .min(1, 'GPU数量至少为1')
  .max(MAX_GPUS_PER_INSTANCE, `GPU数量不能超过${MAX_GPUS_PER_INSTANCE}`);

/**
 * 算力市场 (public: the market is visible without signing in, spec §2) and the operator's fleet calls.
 * The answers are the same for everyone, so the bearer token is not even looked at.
 */
export const marketRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const market = new MarketService(deps);
  const tags = ['算力市场'];
  const everyone = { config: { public: true, anonymous: true } };
  const answers = new AnswerCache(deps.now, MARKET_MAX_AGE_MS, MARKET_MAX_ENTRIES);
  app.get(
    '/comppower',
    {
      ...everyone,
      schema: {
        tags,
        summary: '算力市场主机列表：按可用区、GPU型号、GPU数量筛选，默认价格从低到高（至多1秒前的数据）',
        querystring: pageQuery.extend({
          hostId: hostIdField.optional().describe('只看这一台主机（创建实例页按主机ID取主机）'),
          zoneId: dictionaryIdField('可用区').optional(),
          gpuModelId: dictionaryIdField('GPU型号').optional(),
          gpuNum: gpuNumQuery.optional().describe('只列出当前能租到这么多卡（以及免费数据盘）的主机'),
          chargingRuleId: chargingRuleQuery,
          sort: z
            .enum(['price', 'free'], { error: '排序方式必须是 price（价格从低到高）或 free（空闲卡数从多到少）' })
            .default('price')
            .describe('price：价格从低到高，同价空闲多的在前；free：空闲卡数从多到少，同数价格低的在前'),
        }),
        response: { 200: envelopeOf(pageSchema(marketHostSchema)), ...errors },
      },
    },
    async (request, reply) => {
      const { page, pageSize, hostId, zoneId, gpuModelId, gpuNum, chargingRuleId, sort } = request.query;
      const key = JSON.stringify(['list', page, pageSize, hostId ?? null, zoneId ?? null, gpuModelId ?? null, gpuNum ?? null, chargingRuleId, sort]);
      return sendRepresentation(request, reply, await answers.get(key, async () => ok(await market.list(request.query))));
    },
  );

  app.get(
    '/comppower/search',
    {
      ...everyone,
      schema: {
        tags,
        summary: '按主机名称、可用区或GPU型号搜索主机（不区分大小写；至多1秒前的数据）',
        querystring: pageQuery.extend({
          name: text('搜索内容').trim().max(64, '搜索内容不能超过64个字符').optional(),
          chargingRuleId: chargingRuleQuery,
        }),
        response: { 200: envelopeOf(pageSchema(marketHostSchema)), ...errors },
      },
    },
    async (request, reply) => {
      const { page, pageSize, name, chargingRuleId } = request.query;
      const key = JSON.stringify(['search', page, pageSize, name ?? '', chargingRuleId]);
      return sendRepresentation(request, reply, await answers.get(key, async () => ok(await market.search(request.query))));
    },
  );

  app.get(
    '/comppower/overview',
    {
      ...everyone,
      schema: {
        tags,
        summary: '算力市场概览：每个GPU型号、可用区及其组合的空闲/总卡数与最低价（至多1秒前的数据）',
        querystring: z.object({ chargingRuleId: chargingRuleQuery }),
        response: { 200: envelopeOf(marketOverviewSchema), ...errors },
      },
    },
    async (request, reply) => {
      const rule = request.query.chargingRuleId;
      return sendRepresentation(request, reply, await answers.get(JSON.stringify(['overview', rule]), async () => ok(overviewOf(await market.overviewCells(), rule))));
    },
  );

  // The operator's edits show in this process's market at once.
  await app.register(fleetAdminRoutes(deps, () => answers.clear()));
};
