import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { redeemResultSchema, voucherViewSchema } from '@slg/shared/views/billing';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { text } from '../../http/fields.js';
import { once } from '../../http/idempotency.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { VOUCHER_STATUSES, VoucherService } from './service.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope };

export const voucherRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const service = new VoucherService(deps);
  const cost = requireAuthority('INVOICE');

  app.get(
    '/voucher',
    {
      preValidation: cost,
      schema: {
        tags: ['代金券'],
        summary: '我的代金券',
        querystring: pageQuery.extend({
          status: z.enum(VOUCHER_STATUSES, { error: '代金券状态必须是 UNUSED、USED 或 EXPIRED' }).optional(),
        }),
        response: { 200: envelopeOf(pageSchema(voucherViewSchema)), ...errors },
      },
    },
    async (request) => ok(await service.list(principalOf(request), request.query)),
  );

  app.post(
    '/voucher/redeem',
    {
      preValidation: cost,
      schema: {
        tags: ['代金券'],
        summary: '兑换码兑换代金券或余额（支持 Idempotency-Key）',
        body: z.object({ code: text('兑换码').trim().min(1, '请输入兑换码').max(64, '兑换码不存在或已失效') }),
        response: { 200: envelopeOf(redeemResultSchema), ...errors },
      },
    },
    async (request, reply) =>
      service.redeem(principalOf(request), request.body.code, (work) => once(deps, request, reply, async (tx) => ok(await work(tx)))),
  );
};
