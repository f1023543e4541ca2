/**
 * What the sub-account calls answer (子账号, managed by a main account): the server's response schemas,
 * and the types the console reads them with (`import type` only). Balances are integer fen.
 */
import { z } from 'zod';
import { AUTHORITY_TYPES, PERMISSION_LEVELS, type AuthorityType } from '../permissions.js';

/** Every authority type with its level. */
const levelsSchema = z.object(
  Object.fromEntries(AUTHORITY_TYPES.map((type) => [type, z.enum(PERMISSION_LEVELS)])) as Record<AuthorityType, z.ZodEnum<{ SELF: 'SELF'; ALL: 'ALL'; NONE: 'NONE' }>>,
);

export const subAccountSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  nickname: z.string(),
  sharedMainBalance: z.boolean().describe('true：花主账号的余额；false：花自己的余额'),
  permissions: levelsSchema,
  balance: z.number().int().describe('子账号自己的余额（分）'),
  createdAt: z.string(),
});
export type SubAccountView = z.infer<typeof subAccountSchema>;

/** `POST /subuser/create`. */
export const createdSubAccountSchema = z.object({ id: z.number().int() });
export type CreatedSubAccount = z.infer<typeof createdSubAccountSchema>;

/** `POST /subuser/recharge` and `/subuser/deduct`: the sub-account's new balance. */
export const subAccountBalanceSchema = z.object({ balance: z.number().int() });
export type SubAccountBalance = z.infer<typeof subAccountBalanceSchema>;

/** `DELETE /subuser/delete/{id}`: how many of its resources moved to the main account. */
export const subAccountRemovedSchema = z.object({ transferred: z.number().int() });
export type SubAccountRemoved = z.infer<typeof subAccountRemovedSchema>;
