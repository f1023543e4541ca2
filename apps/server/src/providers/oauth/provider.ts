/**
 * Sign-in through a third party (WeChat Open Platform website login, 微信开放平台 网站应用 扫码登录).
 * The provider builds the page the user is sent to and turns the `code` it sends back into who the
 * user is; everything else (state, tickets, accounts) is the wechat module's.
 */

/** Who signed in at the provider. */
export interface OAuthProfile {
  /** The stable identity stored in oauth_identities.subject: WeChat's unionid when present, else openid. */
  subject: string;
  /** The user's id within this app (WeChat openid). */
  openId: string;
  unionId: string | null;
  /** Shown to the user ("已绑定（昵称）"); never used to identify anyone. */
  nickname: string;
}

/**
 * Why an exchange failed:
 * - CODE_INVALID: the code is wrong, used or expired (the user scans again);
 * - MISCONFIGURED: the provider refused our app id or secret (the operator must fix the configuration);
 * - UNAVAILABLE: the provider is busy, unreachable or answered something unexpected (try again later).
 */
export type OAuthFailure = 'CODE_INVALID' | 'MISCONFIGURED' | 'UNAVAILABLE';

export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  constructor(
    readonly reason: OAuthFailure,
    /** Chinese, shown to the user. */
    message: string,
    /** The provider's own error code (WeChat errcode), for the log. */
    readonly providerCode?: number,
  ) {
    super(message);
  }
}

export interface OAuthProvider {
  /** What oauth_identities.provider holds for identities of this provider. */
  readonly name: 'wechat';
  /** The page the user's browser goes to; it comes back to `redirectUri` with `code` and `state`. */
  authorizeUrl(state: string, redirectUri: string): string;
  /** Trades the code sent back for the user's identity; a code works once. */
  exchangeCode(code: string): Promise<OAuthProfile>;
}

/** The fetch the providers use: the global one, or a fake one in tests, or the in-process one of the dev provider. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
