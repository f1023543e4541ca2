import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_TOKEN_NAME_MAX, API_TOKEN_NAME_MESSAGE, API_TOKEN_NAME_PATTERN, ApiTokenStatus, MAX_API_TOKENS } from '@slg/shared';
import { apiTokenSchema, createdApiTokenSchema } from '@slg/shared/views/api-tokens';
import type { AppDeps } from '../../deps.js';
import { principalOf, openToEveryAccount } from '../../http/auth.js';
import { emptyEnvelope, envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { text } from '../../http/fields.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { ApiTokenService } from './service.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope };

// Control characters, 200-character names and the like fail the pattern after trimming.
const nameField = text('名称').trim().max(API_TOKEN_NAME_MAX, API_TOKEN_NAME_MESSAGE).regex(API_TOKEN_NAME_PATTERN, API_TOKEN_NAME_MESSAGE);
const nameBody = z.object({ name: nameField.describe(API_TOKEN_NAME_MESSAGE) });
const idParams = z.object({
  id: z.coerce.number({ error: '令牌ID必须是数字' }).int('令牌ID必须是整数').positive('令牌ID必须是正整数').max(Number.MAX_SAFE_INTEGER, '令牌ID不正确'),
});
const statusBody = z.object({
  status: z.union([z.literal(ApiTokenStatus.ENABLED), z.literal(ApiTokenStatus.DISABLED)], { error: '状态必须是 1（启用）或 0（停用）' }),
});
const validitySchema = z.object({
  valid: z.boolean(),
  tokenId: z.number().int().nullable(),
  name: z.string().nullable(),
  userId: z.number().int().nullable(),
  username: z.string().nullable(),
  nickName: z.string().nullable(),
});

/**
 * API令牌 (spec §7 tokens). Sent as `Authorization: Bearer slg_…`, a token acts as the account that
 * created it. Everything under /settings/token is session-only: a token cannot manage tokens.
 */
export const apiTokenRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  openToEveryAccount(app);
  const service = new ApiTokenService(deps);
  const tags = ['API令牌'];

  app.get(
    '/settings/token',
    { schema: { tags, summary: `我的API令牌（最新在前；每人最多${MAX_API_TOKENS}个；不含令牌本身）`, querystring: pageQuery, response: { 200: envelopeOf(pageSchema(apiTokenSchema)), ...errors } } },
    async (request) => ok(await service.list(principalOf(request), request.query)),
  );

  app.post(
    '/settings/token',
    {
      schema: {
        tags,
        summary: `创建API令牌：完整令牌只在此次返回。名称重复 40026，超过${MAX_API_TOKENS}个 40901`,
        body: nameBody,
        response: { 200: envelopeOf(createdApiTokenSchema), ...errors },
      },
    },
    async (request) => ok(await service.create(principalOf(request), request.body.name)),
  );

  app.post(
    '/settings/token/validate',
    {
      schema: {
        tags,
        summary: '校验一个完整令牌此刻是否可用，以及属于哪个账号',
        body: z.object({ token: text('令牌').max(200, '令牌格式不正确') }),
        response: { 200: envelopeOf(validitySchema), ...errors },
      },
    },
    async (request) => ok(await service.validateSecret(request.body.token)),
  );

  app.get(
    '/settings/token/validate/:id',
    {
      schema: {
        tags,
        summary: '我的某个令牌此刻是否可用（已启用）',
        params: idParams,
        response: { 200: envelopeOf(z.object({ id: z.number().int(), valid: z.boolean() })), ...errors },
      },
    },
    async (request) => ok(await service.validateById(principalOf(request), request.params.id)),
  );

  app.get(
    '/settings/token/:id',
    { schema: { tags, summary: '我的某个API令牌', params: idParams, response: { 200: envelopeOf(apiTokenSchema), ...errors } } },
    async (request) => ok(await service.get(principalOf(request), request.params.id)),
  );

  const rename = {
    schema: { tags, summary: '重命名API令牌（名称重复 40026）', params: idParams, body: nameBody, response: { 200: envelopeOf(apiTokenSchema), ...errors } },
  };
  app.put('/settings/token/:id', rename, async (request) => ok(await service.rename(principalOf(request), request.params.id, request.body.name)));
  app.patch('/settings/token/:id/name', rename, async (request) => ok(await service.rename(principalOf(request), request.params.id, request.body.name)));

  app.patch(
    '/settings/token/:id/status',
    {
      schema: {
        tags,
        summary: '启用（1）或停用（0）API令牌：停用后使用它的请求立即被拒绝',
        params: idParams,
        body: statusBody,
        response: { 200: envelopeOf(apiTokenSchema), ...errors },
      },
    },
    async (request) => ok(await service.setStatus(principalOf(request), request.params.id, request.body.status)),
  );

  app.delete(
    '/settings/token/:id',
    { schema: { tags, summary: '删除API令牌：使用它的请求立即被拒绝', params: idParams, response: { 200: emptyEnvelope, ...errors } } },
    async (request) => {
      await service.remove(principalOf(request), request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/settings/validate/token',
    {
      schema: {
        tags,
        summary: '校验本次请求所带的凭证（登录令牌或API令牌），脚本可用它检查令牌是否仍可用',
        response: { 200: envelopeOf(z.object({ kind: z.enum(['session', 'apiToken']), tokenId: z.number().int().nullable(), userId: z.number().int() })), ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return ok({ kind: principal.apiTokenId === undefined ? ('session' as const) : ('apiToken' as const), tokenId: principal.apiTokenId ?? null, userId: principal.userId });
    },
  );
};
