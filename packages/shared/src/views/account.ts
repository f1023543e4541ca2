/**
 * What the account calls answer (docs/api-auth.md: sign-in, SMS codes, the human check, the user and the
 * sub-account themselves, WeChat): the server's response schemas, and the types the console reads them
 * with (`import type` only). Balances are integer fen.
 */
import { z } from 'zod';

/** A session's tokens: what every sign-in answers. */
export const tokenPairSchema = z.object({ jwtToken: z.string(), refreshToken: z.string() });
export type TokenPair = z.infer<typeof tokenPairSchema>;

/** `POST /auth/register/phone` (SMS sign-in) and `/auth/register/wechat`. */
export const phoneLoginResultSchema = tokenPairSchema.extend({
  /** True on the first sign-in of this phone (the account was just created, it has no password). */
  other: z.boolean(),
});
export type PhoneLoginResult = z.infer<typeof phoneLoginResultSchema>;

/** A code was sent: how long it is valid, and when another may be asked for (seconds). */
export const smsSentSchema = z.object({ expiresIn: z.number(), resendAfter: z.number() });
export type SmsSent = z.infer<typeof smsSentSchema>;

/** The human check the server asks for: a self-hosted ALTCHA challenge, or what a vendor's script needs. */
export const humanCheckChallengeSchema = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('altcha'),
    altcha: z.object({ parameters: z.record(z.string(), z.unknown()), signature: z.string() }),
  }),
  z.object({
    provider: z.literal('aliyun'),
    aliyun: z.object({ prefix: z.string(), sceneId: z.string(), region: z.enum(['cn', 'sgp']) }),
  }),
  z.object({ provider: z.literal('tencent'), tencent: z.object({ captchaAppId: z.string() }) }),
]);
export type HumanCheckChallenge = z.infer<typeof humanCheckChallengeSchema>;

/** `GET /user/userinfo`. */
export const userInfoSchema = z.object({
  userId: z.number(),
  userName: z.string(),
  nickName: z.string(),
  telephone: z.string().describe('脱敏手机号，如 138****0000'),
  accountType: z.number().describe('1 主账号，2 子账号'),
  roles: z.array(z.string()),
  hasPassword: z.boolean(),
  createdAt: z.string(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** `GET /account/`: what the caller can spend. */
export const balanceSchema = z.object({ totalBalance: z.number().int() });
export type Balance = z.infer<typeof balanceSchema>;

/** `GET /user/check-phone`. */
export const phoneRegisteredSchema = z.object({ registered: z.boolean() });
export type PhoneRegistered = z.infer<typeof phoneRegisteredSchema>;

/** `POST /user/updatePhone/verify`: a ticket for this sign-in, valid `expiresIn` seconds and once. */
export const phoneChangeTicketSchema = z.object({ ticket: z.string(), expiresIn: z.number().int() });
export type PhoneChangeTicket = z.infer<typeof phoneChangeTicketSchema>;

/** `GET /subuser/me`: the signed-in sub-account and its permissions. */
export const subUserInfoSchema = z.object({
  userId: z.number(),
  username: z.string(),
  nickname: z.string(),
  accountType: z.literal(2),
  permissions: z.array(z.string()),
  permissionLevels: z.record(z.string(), z.string()),
  sharedMainBalance: z.boolean(),
  mainAccountId: z.number(),
  telephone: z.string().describe('绑定的手机号（脱敏），未绑定为空'),
  mainAccountBalance: z.number().int().nullable().describe('主账号余额（分），仅共享主账号余额时返回'),
  subAccountBalance: z.number().int().describe('子账号自己的余额（分）'),
});
export type SubUserInfo = z.infer<typeof subUserInfoSchema>;

/** `POST /subuser/bind`: the phone the sub-account bound, masked. */
export const boundPhoneSchema = z.object({ telephone: z.string() });
export type BoundPhone = z.infer<typeof boundPhoneSchema>;

/** `GET /auth/wechat/authorize`: WeChat's QR page (or the dev stand-in's) to send the browser to. */
export const wechatAuthorizationSchema = z.object({ url: z.string(), state: z.string(), expiresIn: z.number().int() });
export type WechatAuthorization = z.infer<typeof wechatAuthorizationSchema>;

/** The answer of a sign-in by a WeChat bound to no account: bind a phone with this ticket. */
export const wechatBindTicketSchema = z.object({
  bindTicket: z.string().describe('绑定手机号用的一次性凭证（POST /auth/register/wechat 的 ticket）'),
  nickname: z.string().describe('微信昵称'),
  expiresIn: z.number().int().describe('凭证有效秒数'),
});
export type WechatBindTicket = z.infer<typeof wechatBindTicketSchema>;

/** `POST /auth/wechat/login`: signed in, or a ticket to bind a phone with. */
export const wechatLoginResultSchema = z.union([tokenPairSchema, wechatBindTicketSchema]);
export type WechatLoginResult = z.infer<typeof wechatLoginResultSchema>;

export const wechatBindingSchema = z.object({
  bound: z.boolean(),
  nickname: z.string().nullable().describe('绑定的微信昵称'),
  boundAt: z.string().nullable().describe('绑定时间'),
});
export type WechatBinding = z.infer<typeof wechatBindingSchema>;
