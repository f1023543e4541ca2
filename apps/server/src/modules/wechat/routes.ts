import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { phoneLoginResultSchema, wechatAuthorizationSchema, wechatBindingSchema, wechatLoginResultSchema } from '@slg/shared/views/account';
import type { Config } from '../../config.js';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireMainAccount } from '../../http/auth.js';
import { countryCodeField, smsCodeField, telephoneField, text } from '../../http/fields.js';
import { emptyEnvelope, envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { AppError } from '../../core/errors.js';
import { OPTIONAL_SIGN_IN_SECURITY } from '../../http/openapi.js';
import { devWechatClient, inProcessFetch } from '../../providers/oauth/dev.js';
import type { FetchLike, OAuthProvider } from '../../providers/oauth/provider.js';
import { WechatOAuthClient } from '../../providers/oauth/wechat.js';
import type { AuthService } from '../auth/service.js';
import { WECHAT_MESSAGES, WECHAT_STATE_TTL_SECONDS, WECHAT_TICKET_TTL_SECONDS, WechatService, isConsolePath } from './service.js';

const TAGS = ['微信登录'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope, 503: errorEnvelope };

/** The provider WECHAT_LOGIN_PROVIDER names; `dev` reaches its stand-in for WeChat through `localFetch`. */
export function wechatProviderOf(config: Config, localFetch: FetchLike): OAuthProvider | null {
  const login = config.wechatLogin;
  if (!login) return null;
  if (login.provider === 'dev') return devWechatClient(config.publicUrl, localFetch);
  return new WechatOAuthClient({ appId: login.appId, appSecret: login.appSecret });
}

const KEY_MAX = 128;
const stateField = text('授权参数 state').trim().min(1, WECHAT_MESSAGES.expired).max(KEY_MAX, WECHAT_MESSAGES.expired);
const ticketField = text('绑定凭证').trim().min(1, WECHAT_MESSAGES.expired).max(KEY_MAX, WECHAT_MESSAGES.expired);
const codeField = text('微信授权码').trim().min(1, '缺少微信授权码，请重新扫码').max(256, '微信授权码无效，请重新扫码');

/**
 * WeChat sign-in (微信开放平台网站应用扫码登录) and binding. The sign-in paths answer in the envelope
 * like every route; the console reads their envelopes itself (spec §8 exceptions).
 */
export const wechatRoutes = (deps: AppDeps, auth: AuthService): FastifyPluginAsyncZod => async (app) => {
  const provider = wechatProviderOf(deps.config, inProcessFetch((options) => app.inject(options)));
  const service = new WechatService(deps, auth, provider, (error) => {
    const level = error.reason === 'MISCONFIGURED' ? 'error' : 'warn';
    app.log[level]({ reason: error.reason, errcode: error.providerCode }, `wechat oauth failed: ${error.message}`);
  });

  app.get(
    '/auth/wechat/authorize',
    {
      config: { public: true },
      schema: {
        tags: TAGS,
        summary: `微信扫码页地址与 state（${WECHAT_STATE_TTL_SECONDS / 60}分钟内有效、仅可使用一次）；purpose=bind 需登录主账号`,
        security: OPTIONAL_SIGN_IN_SECURITY,
        querystring: z.object({
          purpose: z.enum(['login', 'bind'], { error: 'purpose 可选 login、bind' }).default('login'),
          redirect: z.string().max(512, '跳转地址过长').refine(isConsolePath, '跳转地址必须是本站路径').optional(),
        }),
        response: { 200: envelopeOf(wechatAuthorizationSchema), ...errors },
      },
    },
    async (request) => ok(await service.authorize(request.query.purpose, request.principal, request.query.redirect)),
  );

  app.post(
    '/auth/login/wechat',
    {
      config: { public: true },
      schema: {
        tags: TAGS,
        summary: `微信登录：已绑定的账号返回令牌对；未绑定返回 bindTicket（${WECHAT_TICKET_TTL_SECONDS / 60}分钟内有效），用于绑定手机号`,
        querystring: z.object({ state: stateField }),
        body: z.object({ code: codeField }),
        response: { 200: envelopeOf(wechatLoginResultSchema), ...errors },
      },
    },
    async (request) => ok(await service.login(request.query.state, request.body.code)),
  );

  app.post(
    '/auth/register/wechat',
    {
      config: { public: true },
      schema: {
        tags: TAGS,
        summary: '微信登录后绑定手机号（验证码类型 login）：手机号已注册则绑定到该账号，否则创建账号（other=true）',
        body: z.object({ ticket: ticketField, telephone: telephoneField, code: smsCodeField, countryCode: countryCodeField }),
        response: { 200: envelopeOf(phoneLoginResultSchema), ...errors },
      },
    },
    async (request) => ok(await service.register(request.body)),
  );

  const mainOnly = requireMainAccount(WECHAT_MESSAGES.subAccount);

  app.get(
    '/user/wechat_bind',
    {
      preValidation: mainOnly,
      schema: { tags: TAGS, summary: '当前账号的微信绑定状态', response: { 200: envelopeOf(wechatBindingSchema), ...errors } },
    },
    async (request) => ok(await service.binding(principalOf(request))),
  );

  app.post(
    '/user/wechat_bind',
    {
      preValidation: mainOnly,
      schema: {
        tags: TAGS,
        summary: '绑定微信：state（purpose=bind 取得）+ 微信回调的 code；或 openId = 微信登录返回的 bindTicket（不接受微信 openid 本身）',
        querystring: z.object({ state: stateField.optional(), openId: ticketField.optional() }),
        body: z.object({ code: codeField.optional() }).nullish(),
        response: { 200: envelopeOf(wechatBindingSchema), ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { state, openId } = request.query;
      const code = request.body?.code;
      if (openId) return ok(await service.bind(principal, { ticket: openId }));
      if (!state) throw new AppError('VALIDATION', '请先完成微信扫码授权');
      if (!code) throw new AppError('VALIDATION', '缺少微信授权码，请重新扫码');
      return ok(await service.bind(principal, { state, code }));
    },
  );

  app.delete(
    '/user/wechat_bind',
    {
      preValidation: mainOnly,
      schema: { tags: TAGS, summary: '解绑微信：之后不能再用该微信登录', response: { 200: emptyEnvelope, ...errors } },
    },
    async (request) => {
      await service.unbind(principalOf(request));
      return ok(null);
    },
  );
};
