import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTHORITY_TYPES,
  NICKNAME_MAX_LENGTH,
  NICKNAME_MESSAGE,
  PERMISSION_LEVELS,
  SUB_ACCOUNT_USERNAME_MESSAGE,
  SUB_ACCOUNT_USERNAME_PATTERN,
} from '@slg/shared';
import { boundPhoneSchema, tokenPairSchema } from '@slg/shared/views/account';
import { createdSubAccountSchema, subAccountBalanceSchema, subAccountRemovedSchema, subAccountSchema } from '@slg/shared/views/sub-accounts';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireMainAccount } from '../../http/auth.js';
import { amountField, passwordField, smsCodeField, telephoneField, text } from '../../http/fields.js';
import { emptyEnvelope, envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { SubAccountService } from './service.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope };
const tags = ['子账号'];

const usernameField = text('用户名').regex(SUB_ACCOUNT_USERNAME_PATTERN, SUB_ACCOUNT_USERNAME_MESSAGE);
const nicknameField = text('昵称').trim().min(1, NICKNAME_MESSAGE).max(NICKNAME_MAX_LENGTH, NICKNAME_MESSAGE);
const subIdField = z.coerce.number({ error: '子账号ID必须是数字' }).int('子账号ID必须是整数').positive('子账号ID必须是正整数').max(Number.MAX_SAFE_INTEGER, '子账号ID不正确');
const grantsField = z
  .array(
    z.object({
      authorityType: z.enum(AUTHORITY_TYPES, { error: `权限类型必须是 ${AUTHORITY_TYPES.join('、')} 之一` }),
      level: z.enum(PERMISSION_LEVELS, { error: `权限级别必须是 ${PERMISSION_LEVELS.join('、')} 之一` }),
    }),
    { error: 'permissions 必须是权限数组' },
  )
  .max(AUTHORITY_TYPES.length, `最多${AUTHORITY_TYPES.length}项权限`);


/** Sub-accounts (spec §7): managed by a signed-in main account; `/subuser/login` and `/password/old` are the sub-account's own. */
export const subAccountRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const service = new SubAccountService(deps);
  const manager = requireMainAccount('子账号不能管理子账号');

  app.post(
    '/subuser/login',
    {
      config: { public: true },
      schema: {
        tags,
        summary: '子账号登录（用户名 + 密码；每个用户名 15 分钟内最多校验 5 次错误密码）',
        body: z.object({ username: text('用户名').trim().min(1, '请输入用户名').max(64, '用户名或密码错误'), password: text('密码').min(1, '请输入密码').max(128, '用户名或密码错误') }),
        response: { 200: envelopeOf(tokenPairSchema), ...errors },
      },
    },
    async (request) => ok(await service.login(request.body)),
  );

  app.post(
    '/subuser/create',
    { preValidation: manager,
      schema: {
        tags,
        summary: '创建子账号（仅主账号）',
        body: z.object({
          username: usernameField,
          password: passwordField,
          nickname: nicknameField.optional(),
          sharedMainBalance: z.boolean({ error: 'sharedMainBalance 必须是布尔值' }).optional(),
          permissions: grantsField.optional(),
        }),
        response: { 200: envelopeOf(createdSubAccountSchema), ...errors },
      },
    },
    async (request) => ok(await service.create(principalOf(request), request.body)),
  );

  app.get(
    '/subuser/list',
    { preValidation: manager, schema: { tags, summary: '子账号列表（最新在前）', querystring: pageQuery, response: { 200: envelopeOf(pageSchema(subAccountSchema)), ...errors } } },
    async (request) => ok(await service.list(principalOf(request), request.query)),
  );

  app.get(
    '/subuser/detail/:id',
    { preValidation: manager, schema: { tags, summary: '子账号详情', params: z.object({ id: subIdField }), response: { 200: envelopeOf(subAccountSchema), ...errors } } },
    async (request) => ok(await service.detail(principalOf(request), request.params.id)),
  );

  app.get(
    '/subuser/authority/permissions',
    { preValidation: manager,
      schema: {
        tags,
        summary: '可设置的权限类型与级别',
        response: {
          200: envelopeOf(z.array(z.object({ authorityType: z.string(), name: z.string(), levels: z.array(z.object({ level: z.string(), name: z.string() })) }))),
          ...errors,
        },
      },
    },
    async () => ok(service.authorityOptions()),
  );

  app.post(
    '/subuser/permission',
    { preValidation: manager,
      schema: {
        tags,
        summary: '设置子账号权限（未列出的类型保持不变）',
        body: z.object({ id: subIdField, permissions: grantsField }),
        response: { 200: envelopeOf(subAccountSchema), ...errors },
      },
    },
    async (request) => ok(await service.setPermissions(principalOf(request), request.body.id, request.body.permissions)),
  );

  app.post(
    '/subuser/update',
    { preValidation: manager,
      schema: {
        tags,
        summary: '修改子账号昵称或余额方式',
        body: z.object({ id: subIdField, nickname: nicknameField.optional(), sharedMainBalance: z.boolean({ error: 'sharedMainBalance 必须是布尔值' }).optional() }),
        response: { 200: envelopeOf(subAccountSchema), ...errors },
      },
    },
    async (request) => ok(await service.update(principalOf(request), request.body.id, request.body)),
  );

  app.post(
    '/subuser/password/change',
    { preValidation: manager,
      schema: {
        tags,
        summary: '主账号重设子账号密码（子账号的登录全部失效）',
        body: z.object({ id: subIdField, password: passwordField }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await service.setPassword(principalOf(request), request.body.id, request.body.password);
      return ok(null);
    },
  );

  app.post(
    '/subuser/password/old',
    { config: { access: 'account' },
      schema: {
        tags,
        summary: '子账号凭原密码修改自己的密码（其他登录失效）',
        body: z.object({ oldPassword: text('原密码').min(1, '请输入原密码').max(128, '原密码不正确'), password: passwordField }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await service.changeOwnPassword(principalOf(request), request.body);
      return ok(null);
    },
  );

  app.post(
    '/subuser/bind',
    { config: { access: 'account' },
      schema: {
        tags,
        summary: '子账号绑定自己的手机号（验证码类型 bind，用于找回密码）',
        body: z.object({ telephone: telephoneField, code: smsCodeField }),
        response: { 200: envelopeOf(boundPhoneSchema), ...errors },
      },
    },
    async (request) => ok(await service.bindPhone(principalOf(request), request.body)),
  );

  app.post(
    '/subuser/password/phone',
    {
      config: { public: true },
      schema: {
        tags,
        summary: '子账号忘记密码：用户名 + 绑定的手机号 + 验证码（类型 reset）设置新密码，其全部登录失效',
        body: z.object({
          username: text('用户名').trim().min(1, '请输入用户名').max(64, '用户名与绑定的手机号不匹配'),
          telephone: telephoneField,
          code: smsCodeField,
          password: passwordField,
        }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await service.resetPasswordByPhone(request.body);
      return ok(null);
    },
  );

  for (const direction of ['recharge', 'deduct'] as const) {
    app.post(
      `/subuser/${direction}`,
      {
        preValidation: manager,
        schema: {
          tags,
          summary: direction === 'recharge' ? '为子账号充值（从主账号余额转入）' : '从子账号扣款（转回主账号余额）',
          body: z.object({ id: subIdField, amount: amountField('金额') }),
          response: { 200: envelopeOf(subAccountBalanceSchema), ...errors },
        },
      },
      async (request) => ok(await service.transfer(principalOf(request), request.body.id, request.body.amount, direction)),
    );
  }

  app.delete(
    '/subuser/delete/:id',
    { preValidation: manager,
      schema: {
        tags,
        summary: '删除子账号（有未释放的实例时须 transferResources=true，资源转给主账号；余额退回主账号）',
        params: z.object({ id: subIdField }),
        querystring: z.object({ transferResources: z.enum(['true', 'false'], { error: 'transferResources 必须是 true 或 false' }).optional() }),
        response: { 200: envelopeOf(subAccountRemovedSchema), ...errors },
      },
    },
    async (request) => ok(await service.remove(principalOf(request), request.params.id, request.query.transferResources === 'true')),
  );
};
