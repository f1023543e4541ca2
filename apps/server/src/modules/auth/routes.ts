import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { phoneLoginResultSchema, tokenPairSchema } from '@slg/shared/views/account';
import type { AuthService } from './service.js';
import { countryCodeField, passwordField, smsCodeField, telephoneField, text } from '../../http/fields.js';
import { emptyEnvelope, envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { OPTIONAL_SIGN_IN_SECURITY } from '../../http/openapi.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope };

export const authRoutes = (auth: AuthService): FastifyPluginAsyncZod => async (app) => {
  app.post(
    '/auth/register',
    {
      config: { public: true },
      schema: {
        tags: ['账号'],
        summary: '手机号 + 验证码 + 密码注册',
        body: z.object({
          telephone: telephoneField,
          password: passwordField,
          code: smsCodeField,
          countryCode: countryCodeField,
          inviteCode: z.string().trim().max(32, '邀请码不能超过32个字符').optional(),
        }),
        response: { 200: envelopeOf(tokenPairSchema), ...errors },
      },
    },
    async (request) => ok(await auth.register(request.body)),
  );

  app.post(
    '/auth/register/phone',
    {
      config: { public: true },
      schema: {
        tags: ['账号'],
        summary: '验证码登录（首次使用时自动注册，other=true）',
        body: z.object({ telephone: telephoneField, code: smsCodeField, countryCode: countryCodeField }),
        response: { 200: envelopeOf(phoneLoginResultSchema), ...errors },
      },
    },
    async (request) => ok(await auth.signInWithCode(request.body)),
  );

  app.post(
    '/auth/login',
    {
      config: { public: true },
      schema: {
        tags: ['账号'],
        summary: '手机号 + 密码登录（15分钟内失败5次锁定15分钟）',
        body: z.object({ telephone: telephoneField, password: text('密码').min(1, '请输入密码'), countryCode: countryCodeField }),
        response: { 200: envelopeOf(tokenPairSchema), ...errors },
      },
    },
    async (request) => ok(await auth.login(request.body)),
  );

  app.post(
    '/auth/refresh-token',
    {
      config: { public: true },
      schema: {
        tags: ['账号'],
        summary: '用刷新令牌换取新的令牌对（旧令牌作废，重复使用会注销整个会话）',
        body: z.object({ refreshToken: text('刷新令牌').min(1, '请输入刷新令牌') }),
        response: { 200: envelopeOf(tokenPairSchema), ...errors },
      },
    },
    async (request) => ok(await auth.sessions.refresh(request.body.refreshToken)),
  );

  app.post(
    '/auth/logout',
    {
      config: { public: true },
      schema: {
        tags: ['账号'],
        summary: '退出登录：本次登录的所有令牌失效',
        security: OPTIONAL_SIGN_IN_SECURITY,
        body: z.object({ refreshToken: z.string().optional() }).nullish(),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await auth.sessions.end({ refreshToken: request.body?.refreshToken, sessionId: request.principal?.sessionId });
      return ok(null);
    },
  );
};
