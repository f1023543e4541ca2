import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomToken } from '../../lib/crypto.js';
import type { FetchLike } from './provider.js';
import { WechatOAuthClient } from './wechat.js';

/**
 * The `dev` WeChat login (WECHAT_LOGIN_PROVIDER=dev, never in production): the real WechatOAuthClient
 * pointed at a stand-in for WeChat served by this server under DEV_OAUTH_PREFIX (dev-routes.ts). The
 * stand-in renders the authorise page a person would see after scanning the QR code, and answers
 * `/sns/oauth2/access_token` and `/sns/userinfo` the way WeChat does, errcodes included.
 */
export const DEV_OAUTH_PREFIX = '/dev-oauth/wechat';
export const DEV_WECHAT_APP_ID = 'wxd0000000000000de';
export const DEV_WECHAT_APP_SECRET = 'dev-wechat-app-secret';
/** WeChat's codes live five minutes and work once. */
export const DEV_CODE_TTL_SECONDS = 300;
export const DEV_ACCESS_TOKEN_TTL_SECONDS = 7200;

export interface DevWechatUser {
  openId: string;
  nickname: string;
}

/** The test WeChat users the authorise page offers (any other can be typed in). */
export const DEV_WECHAT_USERS: readonly DevWechatUser[] = [
  { openId: 'dev_openid_xiaogang', nickname: '港湾小刚' },
  { openId: 'dev_openid_lianling', nickname: '炼丹师林' },
  { openId: 'dev_openid_suanli', nickname: '算力小苏' },
];

export const DEV_OPENID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The stand-in's unionid of an openid (a website app on the Open Platform gets one). */
export const devUnionId = (openId: string) => `dev_union_${openId}`;

/** A WeChat API answer: the data, or `{errcode, errmsg}`. */
export type WechatAnswer = Record<string, string | number>;

const fail = (errcode: number, errmsg: string): WechatAnswer => ({ errcode, errmsg });

/**
 * The stand-in's memory: codes (single use, five minutes) and access tokens. One process only, like
 * the dev setup it serves; a code is claimed synchronously, so two exchanges of one code never both win.
 */
export class DevWechat {
  private readonly codes = new Map<string, { user: DevWechatUser; expiresAtMs: number; used: boolean }>();
  private readonly tokens = new Map<string, { user: DevWechatUser; expiresAtMs: number }>();

  constructor(private readonly now: () => Date) {}

  private prune(nowMs: number): void {
    for (const [code, entry] of this.codes) if (entry.expiresAtMs <= nowMs) this.codes.delete(code);
    for (const [token, entry] of this.tokens) if (entry.expiresAtMs <= nowMs) this.tokens.delete(token);
  }

  /** The person confirmed on the authorise page: a fresh code for them. */
  issueCode(user: DevWechatUser): string {
    const nowMs = this.now().getTime();
    this.prune(nowMs);
    const code = randomToken(24);
    this.codes.set(code, { user, expiresAtMs: nowMs + DEV_CODE_TTL_SECONDS * 1000, used: false });
    return code;
  }

  /** GET /sns/oauth2/access_token */
  accessToken(query: Record<string, string | undefined>): WechatAnswer {
    if (query.appid !== DEV_WECHAT_APP_ID) return fail(40013, 'invalid appid');
    if (query.secret !== DEV_WECHAT_APP_SECRET) return fail(40125, 'invalid appsecret');
    if (query.grant_type !== 'authorization_code') return fail(40002, 'invalid grant_type');
    if (!query.code) return fail(41008, 'missing code');
    const entry = this.codes.get(query.code);
    const nowMs = this.now().getTime();
    if (!entry) return fail(40029, 'invalid code');
    if (entry.used) return fail(40163, 'code been used');
    if (entry.expiresAtMs <= nowMs) return fail(42003, 'code expired');
    entry.used = true;
    const accessToken = randomToken(32);
    this.tokens.set(accessToken, { user: entry.user, expiresAtMs: nowMs + DEV_ACCESS_TOKEN_TTL_SECONDS * 1000 });
    return {
      access_token: accessToken,
      expires_in: DEV_ACCESS_TOKEN_TTL_SECONDS,
      refresh_token: randomToken(32),
      openid: entry.user.openId,
      scope: 'snsapi_login',
      unionid: devUnionId(entry.user.openId),
    };
  }

  /** GET /sns/userinfo */
  userInfo(query: Record<string, string | undefined>): WechatAnswer {
    const entry = query.access_token ? this.tokens.get(query.access_token) : undefined;
    if (!entry) return fail(40001, 'invalid credential, access_token is invalid or not latest');
    if (entry.expiresAtMs <= this.now().getTime()) return fail(42001, 'access_token expired');
    if (query.openid !== entry.user.openId) return fail(40003, 'invalid openid');
    return {
      openid: entry.user.openId,
      nickname: entry.user.nickname,
      sex: 0,
      province: '',
      city: '',
      country: 'CN',
      headimgurl: '',
      unionid: devUnionId(entry.user.openId),
    };
  }
}

/**
 * A fetch that answers from this very server in process (Fastify's inject): the dev provider's API
 * calls reach the stand-in whatever PUBLIC_URL says and without opening a socket.
 */
export function inProcessFetch(inject: (options: InjectOptions) => Promise<LightMyRequestResponse>): FetchLike {
  return async (input, init) => {
    const url = new URL(input);
    const answer = await inject({ method: 'GET', url: `${url.pathname}${url.search}`, ...(init?.signal ? { signal: init.signal } : {}) });
    const contentType = answer.headers['content-type'];
    return new Response(answer.payload, {
      status: answer.statusCode,
      headers: { 'content-type': typeof contentType === 'string' ? contentType : 'text/plain' },
    });
  };
}

/** The dev provider: the real client, with the stand-in's app id and endpoints. */
export function devWechatClient(publicUrl: string, fetchImpl: FetchLike): WechatOAuthClient {
  return new WechatOAuthClient({
    appId: DEV_WECHAT_APP_ID,
    appSecret: DEV_WECHAT_APP_SECRET,
    qrconnectUrl: `${publicUrl}${DEV_OAUTH_PREFIX}/qrconnect`,
    apiBaseUrl: `${publicUrl}${DEV_OAUTH_PREFIX}`,
    fetchImpl,
  });
}
