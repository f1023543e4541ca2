import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { principalOf } from '../../http/auth.js';
import { countryCodeField, smsCodeField, smsTypeField, telephoneField } from '../../http/fields.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { SmsCodeService } from './service.js';

const sent = envelopeOf(z.object({ expiresIn: z.number(), resendAfter: z.number() }));
const errors = { 400: errorEnvelope, 401: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope, 503: errorEnvelope };

export const smsRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const codes = new SmsCodeService(deps);
  const db = deps.database.db;

  const registered = async (telephone: string) =>
    (await db.select({ id: users.id }).from(users).where(eq(users.telephone, telephone))).length > 0;

  app.get(
    '/smscode/phone',
    {
      config: { public: true },
      schema: {
        tags: ['验证码'],
        summary: '向手机号发送6位验证码（5分钟有效，60秒一次，每天10次）',
        querystring: z.object({ telephone: telephoneField, countryCode: countryCodeField, type: smsTypeField }),
        response: { 200: sent, ...errors },
      },
    },
    async (request) => {
      const { telephone, type } = request.query;
      // Registration and reset make no sense for the wrong side of "registered"; say so before sending.
      if (type === 'register' && (await registered(telephone))) throw new AppError('PHONE_REGISTERED');
      if (type === 'reset' && !(await registered(telephone))) throw new AppError('PHONE_NOT_REGISTERED');
      if (type === 'bind' && (await registered(telephone))) throw new AppError('PHONE_REGISTERED', '该手机号已绑定其他账号');
      return ok(await codes.send(telephone, type));
    },
  );

  app.get(
    '/smscode',
    {
      schema: {
        tags: ['验证码'],
        summary: '向当前登录账号绑定的手机号发送验证码',
        querystring: z.object({ type: smsTypeField }),
        response: { 200: sent, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const [user] = await db.select({ telephone: users.telephone }).from(users).where(eq(users.id, principal.userId));
      if (!user?.telephone) throw new AppError('VALIDATION', '当前账号未绑定手机号');
      return ok(await codes.send(user.telephone, request.query.type));
    },
  );

  app.post(
    '/smscode/validate',
    {
      config: { public: true },
      schema: {
        tags: ['验证码'],
        summary: '校验验证码（不消耗；错误5次后验证码作废）',
        querystring: z.object({
          type: smsTypeField,
          countryCode: countryCodeField,
          telephone: telephoneField,
          code: smsCodeField,
        }),
        response: { 200: envelopeOf(z.object({ valid: z.literal(true) })), ...errors },
      },
    },
    async (request) => {
      const { telephone, type, code } = request.query;
      await codes.check(telephone, type, code);
      return ok({ valid: true as const });
    },
  );
};
