import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MAX_WAITING_STOCK_ALERTS, STOCK_ALERT_STATUSES } from '@slg/shared';
import { stockAlertSchema } from '@slg/shared/views/stock-alerts';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { emptyEnvelope, envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { text } from '../../http/fields.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { dictionaryIdField } from '../market/fields.js';
import { gpuNumField } from '../rental/routes.js';
import { StockAlertService } from './service.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope };

const statusValues = STOCK_ALERT_STATUSES.map((item) => item.value) as ['WAITING', 'NOTIFIED'];

const createBody = z.object({
  zoneId: dictionaryIdField('地区'),
  gpuModelId: dictionaryIdField('GPU型号'),
  gpuNum: gpuNumField.describe('需要的GPU数量：该地区有一台主机空闲这么多卡时提醒'),
});

/** 到货提醒: subscribe to a GPU model in a zone and be told once (console notice and SMS) when that many GPUs are free on one host. */
export const subscriptionRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const service = new StockAlertService(deps);
  // Before validation, as the instance routes: a caller without the authority learns nothing about the body's rules.
  const containers = { preValidation: requireAuthority('CONTAINER') };
  const tags = ['到货提醒'];

  app.get(
    '/subscriptions',
    {
      ...containers,
      schema: {
        tags,
        summary: '我的到货提醒（等待中与已提醒，最新在前）',
        querystring: pageQuery.extend({ status: z.enum(statusValues, { error: '状态必须是 WAITING 或 NOTIFIED' }).optional() }),
        response: { 200: envelopeOf(pageSchema(stockAlertSchema)), ...errors },
      },
    },
    async (request) => ok(await service.list(principalOf(request), request.query)),
  );

  app.post(
    '/subscriptions',
    {
      ...containers,
      schema: {
        tags,
        summary: `订阅到货提醒（每人最多同时等待${MAX_WAITING_STOCK_ALERTS}个；相同地区、型号与卡数的等待中提醒不能重复订阅，40028）`,
        body: createBody,
        response: { 200: envelopeOf(stockAlertSchema), ...errors },
      },
    },
    async (request) => ok(await service.create(principalOf(request), request.body)),
  );

  app.delete(
    '/subscriptions',
    {
      ...containers,
      schema: {
        tags,
        summary: '取消到货提醒（已提醒的则从列表删除）',
        querystring: z.object({
          id: text('到货提醒ID')
            .regex(/^[1-9]\d{0,14}$/, '到货提醒ID必须是正整数')
            .transform(Number),
        }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await service.remove(principalOf(request), request.query.id);
      return ok(null);
    },
  );
};
