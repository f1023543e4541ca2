import { OAuthError, type FetchLike, type OAuthProfile, type OAuthProvider } from './provider.js';

/** WeChat's QR sign-in page for website apps (网站应用). */
export const WECHAT_QRCONNECT_URL = 'https://open.weixin.qq.com/connect/qrconnect';
export const WECHAT_API_BASE_URL = 'https://api.weixin.qq.com';

export interface WechatOAuthOptions {
  /** AppID of the website app on the WeChat Open Platform (open.weixin.qq.com). */
  appId: string;
  appSecret: string;
  /** Default WECHAT_QRCONNECT_URL; the dev provider points it at this server. */
  qrconnectUrl?: string;
  /** Default WECHAT_API_BASE_URL; `/sns/oauth2/access_token` and `/sns/userinfo` are under it. */
  apiBaseUrl?: string;
  fetchImpl?: FetchLike;
  timeoutMs?: number;
}

/** The longest nickname kept (oauth_identities.nickname is varchar(64)). */
const NICKNAME_MAX_CHARS = 64;
export const WECHAT_DEFAULT_NICKNAME = '微信用户';

const CODE_MESSAGES: Record<number, string> = {
  40029: '微信授权码无效，请重新扫码',
  40163: '微信授权码已被使用，请重新扫码',
  42003: '微信授权码已过期，请重新扫码',
  41008: '缺少微信授权码，请重新扫码',
};
const CONFIG_CODES = new Set([40013, 40125, 41002, 41004, 40002, 50001]);
const BUSY_MESSAGE = '微信服务繁忙，请稍后再试';
const UNREACHABLE_MESSAGE = '无法连接微信服务，请稍后再试';

/** Maps a WeChat errcode to why the sign-in failed, with the message the user sees. */
export function wechatError(errcode: number, errmsg: string | undefined): OAuthError {
  const codeMessage = CODE_MESSAGES[errcode];
  if (codeMessage) return new OAuthError('CODE_INVALID', codeMessage, errcode);
  if (CONFIG_CODES.has(errcode)) return new OAuthError('MISCONFIGURED', '微信登录配置有误（AppID 或 AppSecret 不正确），请联系平台客服', errcode);
  if (errcode === -1 || errcode === 45009 || errcode === 45011) return new OAuthError('UNAVAILABLE', BUSY_MESSAGE, errcode);
  return new OAuthError('UNAVAILABLE', `微信接口返回错误（${errcode}${errmsg ? `：${errmsg}` : ''}），请稍后再试`, errcode);
}

/** Text PostgreSQL can store, cut to `max` characters (code points, as varchar counts them). */
export function cleanNickname(raw: unknown): string {
  if (typeof raw !== 'string') return WECHAT_DEFAULT_NICKNAME;
  const chars = Array.from(raw.normalize('NFC'))
    // NUL and lone surrogates cannot be stored; control characters mean nothing in a name.
    .filter((char) => {
      const point = char.codePointAt(0) ?? 0;
      return point >= 0x20 && point !== 0x7f && !(point >= 0xd800 && point <= 0xdfff);
    })
    .slice(0, NICKNAME_MAX_CHARS);
  const nickname = chars.join('').trim();
  return nickname === '' ? WECHAT_DEFAULT_NICKNAME : nickname;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * WeChat Open Platform website login: the QR page (qrconnect, scope snsapi_login), then the code is
 * exchanged for an access token (`/sns/oauth2/access_token`) and the user's profile (`/sns/userinfo`).
 * WeChat answers errors with HTTP 200 and `{errcode, errmsg}`; they are mapped by `wechatError`.
 */
export class WechatOAuthClient implements OAuthProvider {
  readonly name = 'wechat' as const;
  private readonly qrconnectUrl: string;
  private readonly apiBaseUrl: string;
  private readonly fetchImpl: FetchLike;
  private readonly timeoutMs: number;

  constructor(private readonly options: WechatOAuthOptions) {
    this.qrconnectUrl = options.qrconnectUrl ?? WECHAT_QRCONNECT_URL;
    this.apiBaseUrl = (options.apiBaseUrl ?? WECHAT_API_BASE_URL).replace(/\/+$/, '');
    this.fetchImpl = options.fetchImpl ?? ((input, init) => fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  authorizeUrl(state: string, redirectUri: string): string {
    // The order and the `#wechat_redirect` fragment are as WeChat documents them.
    const query = [
      `appid=${encodeURIComponent(this.options.appId)}`,
      `redirect_uri=${encodeURIComponent(redirectUri)}`,
      'response_type=code',
      'scope=snsapi_login',
      `state=${encodeURIComponent(state)}`,
    ].join('&');
    return `${this.qrconnectUrl}?${query}#wechat_redirect`;
  }

  async exchangeCode(code: string): Promise<OAuthProfile> {
    const token = await this.get('/sns/oauth2/access_token', {
      appid: this.options.appId,
      secret: this.options.appSecret,
      code,
      grant_type: 'authorization_code',
    });
    const accessToken = token.access_token;
    const openId = token.openid;
    if (typeof accessToken !== 'string' || typeof openId !== 'string' || accessToken === '' || openId === '') {
      throw new OAuthError('UNAVAILABLE', BUSY_MESSAGE);
    }
    const profile = await this.get('/sns/userinfo', { access_token: accessToken, openid: openId });
    if (profile.openid !== undefined && profile.openid !== openId) throw new OAuthError('UNAVAILABLE', BUSY_MESSAGE);
    const unionOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
    const unionId = unionOf(profile.unionid) ?? unionOf(token.unionid);
    return { subject: unionId ?? openId, openId, unionId, nickname: cleanNickname(profile.nickname) };
  }

  /** One GET to the WeChat API: the JSON body, or an OAuthError for an errcode or a transport failure. */
  private async get(path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
    const url = `${this.apiBaseUrl}${path}?${new URLSearchParams(query).toString()}`;
    let body: unknown;
    try {
      const response = await this.fetchImpl(url, { method: 'GET', signal: AbortSignal.timeout(this.timeoutMs) });
      if (!response.ok) throw new OAuthError('UNAVAILABLE', UNREACHABLE_MESSAGE);
      // WeChat sends JSON as text/plain: parse the text whatever the content type says.
      body = JSON.parse(await response.text()) as unknown;
    } catch (error) {
      if (error instanceof OAuthError) throw error;
      throw new OAuthError('UNAVAILABLE', UNREACHABLE_MESSAGE);
    }
    if (!isRecord(body)) throw new OAuthError('UNAVAILABLE', BUSY_MESSAGE);
    if (typeof body.errcode === 'number' && body.errcode !== 0) {
      throw wechatError(body.errcode, typeof body.errmsg === 'string' ? body.errmsg : undefined);
    }
    return body;
  }
}
