import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { NICKNAME_MAX_LENGTH, NICKNAME_MESSAGE, PHONE_CHANGE_TICKET_TTL_SECONDS } from '@slg/shared';
import {
  balanceSchema,
  phoneChangeTicketSchema,
  phoneRegisteredSchema,
  subUserInfoSchema,
  userInfoSchema,
} from '@slg/shared/views/account';
import type { AppDeps } from '../../deps.js';
import { accountOf, principalOf, requireMainAccount, spendableBalanceOf } from '../../http/auth.js';
import { passwordField, smsCodeField, telephoneField, text } from '../../http/fields.js';
import { emptyEnvelope, envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import type { AuthService } from '../auth/service.js';
import { UserService } from './service.js';
import { PhoneChangeService, SUB_ACCOUNT_PHONE_MESSAGE, ticketField } from './phone-change.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };

export const userRoutes = (deps: AppDeps, auth: AuthService): FastifyPluginAsyncZod => async (app) => {
  const service = new UserService(deps);
  const phoneChange = new PhoneChangeService(deps);

  app.get(
    '/user/userinfo',
    { config: { access: 'account' }, schema: { tags: ['用户'], summary: '当前登录用户信息', response: { 200: envelopeOf(userInfoSchema), ...errors } } },
    async (request) => ok(service.userInfo(principalOf(request), accountOf(request))),
  );

  // The product spec names GET /api/v1/account/ (the console calls it so). OpenAPI paths take no trailing
  // slash, so the document names /api/v1/account, and both answer the same.
  for (const url of ['/account', '/account/']) {
    app.get(
      url,
      {
        config: { readsBalance: true, access: 'account' },
        schema: {
          hide: url.endsWith('/'),
          tags: ['用户'],
          summary: '账户余额（分）',
          description: '也可请求 /api/v1/account/（产品规格中的写法）。',
          response: { 200: envelopeOf(balanceSchema), ...errors },
        },
      },
      async (request) => ok({ totalBalance: spendableBalanceOf(request) }),
    );
  }

  app.get(
    '/user/check-phone',
    {
      config: { public: true },
      schema: {
        tags: ['用户'],
        summary: '手机号是否已注册',
        querystring: z.object({ telephone: telephoneField }),
        response: { 200: envelopeOf(phoneRegisteredSchema), ...errors },
      },
    },
    async (request) => ok({ registered: await auth.isRegistered(request.query.telephone) }),
  );

  app.post(
    '/user/forgetPassword',
    {
      config: { public: true },
      schema: {
        tags: ['用户'],
        summary: '凭短信验证码重置密码（其他登录会话全部失效）',
        body: z.object({ telephone: telephoneField, code: smsCodeField, password: passwordField }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await auth.resetForgottenPassword(request.body);
      return ok(null);
    },
  );

  app.post(
    '/user/updateNickname',
    {
      config: { access: 'account' },
      schema: {
        tags: ['用户'],
        summary: '修改昵称',
        body: z.object({ nickName: text('昵称').trim().min(1, NICKNAME_MESSAGE).max(NICKNAME_MAX_LENGTH, NICKNAME_MESSAGE) }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await service.updateNickname(principalOf(request), request.body.nickName);
      return ok(null);
    },
  );

  app.post(
    '/user/updatePassword',
    {
      config: { access: 'account' },
      schema: {
        tags: ['用户'],
        summary: '修改密码（首次验证码登录后未设置密码时可不填原密码）',
        body: z.object({ oldPassword: z.string().optional(), password: passwordField }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await service.updatePassword(principalOf(request), request.body);
      return ok(null);
    },
  );

  app.post(
    '/user/updatePhone/verify',
    {
      preValidation: requireMainAccount(SUB_ACCOUNT_PHONE_MESSAGE),
      schema: {
        tags: ['用户'],
        summary: `修改手机号第1步：校验发到原手机号的验证码（先 GET /smscode?type=change_phone_old），返回${PHONE_CHANGE_TICKET_TTL_SECONDS / 60}分钟内有效、仅本次登录可用的凭证`,
        body: z.object({ code: smsCodeField }),
        response: { 200: envelopeOf(phoneChangeTicketSchema), ...errors },
      },
    },
    async (request) => ok(await phoneChange.verifyOldPhone(principalOf(request), request.body.code)),
  );

  app.post(
    '/user/updatePhone',
    {
      preValidation: requireMainAccount(SUB_ACCOUNT_PHONE_MESSAGE),
      schema: {
        tags: ['用户'],
        summary: '修改手机号第2步：凭证 + 新手机号 + 新手机号验证码（POST /smscode/new-phone）；成功后其他登录会话全部失效',
        body: z.object({ ticket: ticketField, telephone: telephoneField, code: smsCodeField }),
        response: { 200: emptyEnvelope, 409: errorEnvelope, ...errors },
      },
    },
    async (request) => {
      await phoneChange.changePhone(principalOf(request), request.body);
      return ok(null);
    },
  );

  app.get(
    '/subuser/me',
    {
      config: { access: 'account' },
      schema: {
        tags: ['子账号'],
        summary: '当前子账号信息与权限',
        response: {
          200: envelopeOf(subUserInfoSchema),
          ...errors,
        },
      },
    },
    async (request) => ok(await service.subAccountInfo(principalOf(request))),
  );
};
