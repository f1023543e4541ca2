import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { REJECT_REASON_MAX, VERIFICATION_KINDS, VERIFICATION_STATUSES } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireRole } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { text } from '../../http/fields.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { VerificationService } from './service.js';
import { VERIFICATION_TEXTS as T } from './texts.js';
import { adminVerificationSchema } from './views.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope };

const idParams = z.object({
  id: z.coerce.number({ error: '认证申请ID必须是数字' }).int('认证申请ID必须是整数').positive('认证申请ID必须是正整数').max(Number.MAX_SAFE_INTEGER, '认证申请ID不正确'),
});

/** 认证审核: operators list requests with their full details and decide each exactly once. */
export const verificationAdminRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const service = new VerificationService(deps);
  const operator = requireRole('operator');
  const tags = ['运营'];

  app.get(
    '/admin/verifications',
    {
      preValidation: operator,
      schema: {
        tags,
        summary: '实名认证申请（完整信息与账户手机号；审核中按提交时间先后，其余按时间倒序）',
        querystring: pageQuery.extend({
          status: z.enum(VERIFICATION_STATUSES, { error: '认证状态必须是 PENDING、APPROVED 或 REJECTED' }).optional(),
          kind: z.enum(VERIFICATION_KINDS, { error: '认证类型必须是 PERSON、ENTERPRISE 或 STUDENT' }).optional(),
        }),
        response: { 200: envelopeOf(pageSchema(adminVerificationSchema)), ...errors },
      },
    },
    async (request) => ok(await service.listAll(request.query)),
  );

  app.post(
    '/admin/verifications/:id/approve',
    {
      preValidation: operator,
      schema: { tags, summary: '通过认证申请（仅审核中；重复审核返回409）', params: idParams, response: { 200: envelopeOf(adminVerificationSchema), ...errors } },
    },
    async (request) => ok(await service.decide(principalOf(request).userId, request.params.id, { approve: true })),
  );

  app.post(
    '/admin/verifications/:id/reject',
    {
      preValidation: operator,
      schema: {
        tags,
        summary: '驳回认证申请（仅审核中；原因展示给用户）',
        params: idParams,
        body: z.object({ reason: text(T.fields.reason).trim().min(1, T.fields.reasonRequired).max(REJECT_REASON_MAX, T.fields.reasonLength) }),
        response: { 200: envelopeOf(adminVerificationSchema), ...errors },
      },
    },
    async (request) => ok(await service.decide(principalOf(request).userId, request.params.id, { approve: false, reason: request.body.reason })),
  );
};
