/**
 * What API令牌 answers (`/settings/token`): the server's response schemas, and the types the console
 * reads them with (`import type` only). The secret comes back once, from the create call.
 */
import { z } from 'zod';
import { ApiTokenStatus } from '../api-tokens.js';

/** A token as the console lists it: never the secret nor its hash. */
export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string().describe('令牌开头几位（slg_ 加密钥前6位），用于区分令牌；完整令牌只在创建时返回一次'),
  status: z.union([z.literal(ApiTokenStatus.ENABLED), z.literal(ApiTokenStatus.DISABLED)]).describe('1 启用，0 停用'),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable().describe('最近一次使用的时间（精确到分钟），从未使用为 null'),
});
export type ApiTokenView = z.infer<typeof apiTokenSchema>;

/** The answer to creating a token: the only time the secret is shown. */
export const createdApiTokenSchema = apiTokenSchema.extend({
  token: z.string().describe('完整令牌，只在此时返回一次，服务端只保存其哈希'),
});
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;
