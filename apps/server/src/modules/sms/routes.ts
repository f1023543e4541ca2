import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { HUMAN_CHECK_PROVIDERS } from '@slg/shared';
import { humanCheckChallengeSchema, smsSentSchema } from '@slg/shared/views/account';
import type { AppDeps } from '../../deps.js';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import { principalOf, requireMainAccount } from '../../http/auth.js';
import { countryCodeField, smsCodeField, smsTypeField, telephoneField } from '../../http/fields.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { createHumanCheck, HumanCheckUnavailable } from '../../providers/captcha/index.js';
import { SmsCodeService, type SmsSender } from './service.js';
import { PhoneChangeService, requireMainForPhoneChange, SUB_ACCOUNT_PHONE_MESSAGE, ticketField } from '../users/phone-change.js';

/** Codes of a phone change go out only through the signed-in sends below, never to any phone on request. */
const PHONE_CHANGE_TYPES: ReadonlySet<string> = new Set(['change_phone_old', 'change_phone_new']);

const sent = envelopeOf(smsSentSchema);
const errors = { 400: errorEnvelope, 401: errorEnvelope, 409: errorEnvelope, 428: errorEnvelope, 429: errorEnvelope, 503: errorEnvelope };

/** The solved human check a send may carry (needed once the 428 HUMAN_CHECK_REQUIRED said so). */
const captchaField = z
  .string({ error: '人机验证结果必须是文本' })
  .min(1, '人机验证结果不能为空')
  .max(8192, '人机验证结果过长')
  .optional()
  .describe('人机验证结果：ALTCHA 组件的 payload，阿里云的 CaptchaVerifyParam，或腾讯云的 {"ticket","randstr"} JSON');


export const smsRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const codes = new SmsCodeService(deps);
  const phoneChange = new PhoneChangeService(deps);
  const db = deps.database.db;
  const humanCheck = createHumanCheck(deps.config, db, deps.now);

  /** Who is sending: a solution that was given must pass (and is spent), else the send is refused. */
  async function senderOf(request: FastifyRequest, captcha: string | undefined): Promise<SmsSender> {
    if (captcha === undefined) return { clientAddress: request.ip, humanChecked: false };
    let passed: boolean;
    try {
      passed = await humanCheck.verify(captcha, request.ip);
    } catch (error) {
      if (!(error instanceof HumanCheckUnavailable)) throw error;
      request.log.error({ err: error }, 'human check provider unavailable');
      throw new AppError('SERVICE_UNAVAILABLE', '人机验证服务暂不可用，请稍后再试');
    }
    if (!passed) throw new AppError('HUMAN_CHECK_FAILED');
    return { clientAddress: request.ip, humanChecked: true };
  }

  app.get(
    '/captcha/challenge',
    {
      config: { public: true },
      schema: {
        tags: ['验证码'],
        summary: `人机验证的题目（发送验证码被 428 拒绝后完成它，再把结果放在 captcha 参数里重发）；provider 为 ${HUMAN_CHECK_PROVIDERS.join(' / ')}`,
        response: { 200: envelopeOf(humanCheckChallengeSchema), 503: errorEnvelope },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await humanCheck.challenge());
    },
  );

  const registered = async (telephone: string) =>
    (await db.select({ id: users.id }).from(users).where(eq(users.telephone, telephone))).length > 0;

  app.get(
    '/smscode/phone',
    {
      config: { public: true },
      schema: {
        tags: ['验证码'],
        summary: '向手机号发送6位验证码（5分钟有效，60秒一次，每天10次；超过人机验证阈值时需带 captcha）',
        querystring: z.object({ telephone: telephoneField, countryCode: countryCodeField, type: smsTypeField, captcha: captchaField }),
        response: { 200: sent, ...errors },
      },
    },
    async (request) => {
      const { telephone, type, captcha } = request.query;
      if (PHONE_CHANGE_TYPES.has(type)) throw new AppError('VALIDATION', '修改手机号的验证码请在账号设置中获取');
      // Registration and reset make no sense for the wrong side of "registered"; say so before sending.
      if (type === 'register' && (await registered(telephone))) throw new AppError('PHONE_REGISTERED');
      if (type === 'reset' && !(await registered(telephone))) throw new AppError('PHONE_NOT_REGISTERED');
      if (type === 'bind' && (await registered(telephone))) throw new AppError('PHONE_REGISTERED', '该手机号已绑定其他账号');
      return ok(await codes.send(telephone, type, await senderOf(request, captcha)));
    },
  );

  app.get(
    '/smscode',
    {
      config: { access: 'account' },
      schema: {
        tags: ['验证码'],
        summary: '向当前登录账号绑定的手机号发送验证码',
        querystring: z.object({ type: smsTypeField, captcha: captchaField }),
        response: { 200: sent, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (request.query.type === 'change_phone_new') throw new AppError('VALIDATION', '新手机号的验证码请在修改手机号时获取');
      if (request.query.type === 'change_phone_old') requireMainForPhoneChange(principal);
      const [user] = await db.select({ telephone: users.telephone }).from(users).where(eq(users.id, principal.userId));
      if (!user?.telephone) throw new AppError('VALIDATION', '当前账号未绑定手机号');
      return ok(await codes.send(user.telephone, request.query.type, await senderOf(request, request.query.captcha)));
    },
  );

  app.post(
    '/smscode/new-phone',
    {
      preValidation: requireMainAccount(SUB_ACCOUNT_PHONE_MESSAGE),
      schema: {
        tags: ['验证码'],
        summary: '修改手机号：向新手机号发送验证码（需第1步的凭证；新手机号不能是原手机号或已被其他账号使用）',
        body: z.object({ ticket: ticketField, telephone: telephoneField, captcha: captchaField }),
        response: { 200: sent, 403: errorEnvelope, ...errors },
      },
    },
    async (request) => {
      const { ticket, telephone, captcha } = request.body;
      await phoneChange.checkNewTelephone(principalOf(request), ticket, telephone);
      return ok(await codes.send(telephone, 'change_phone_new', await senderOf(request, captcha)));
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
