/**
 * WeChat sign-in and binding (微信开放平台网站应用扫码登录). The browser goes to WeChat's page (or the
 * dev stand-in) and comes back to /login or 账号设置 with `?wechat=1&code&state`. The sign-in and
 * sign-up calls answer with their whole envelope (spec §8 exceptions): the pages read them.
 */
import { COUNTRY_CODE, SUCCESS_RSPCODE } from '@slg/shared';
import type { WechatAuthorization, WechatBindTicket, WechatBinding, WechatLoginResult } from '@slg/shared/views/account';
import type { PhoneLoginResult } from './auth';
import { ApiError, request, type ResponseEnvelope } from './client';

export type WechatPurpose = 'login' | 'bind';

export type { WechatAuthorization, WechatBindTicket, WechatBinding, WechatLoginResult } from '@slg/shared/views/account';

export function isBindTicket(result: WechatLoginResult): result is WechatBindTicket {
  return 'bindTicket' in result;
}

/** The address of WeChat's page for this purpose; `redirect` is where the console goes after signing in. */
export function fetchWechatAuthorization(purpose: WechatPurpose, redirect?: string): Promise<WechatAuthorization> {
  return request<WechatAuthorization>({ url: '/auth/wechat/authorize', params: { purpose, redirect } });
}

/** Resolves with the envelope whatever it says (the page shows the failure itself). */
export function loginWithWechat(state: string, code: string): Promise<ResponseEnvelope<WechatLoginResult | null>> {
  return request<ResponseEnvelope<WechatLoginResult | null>>({ method: 'POST', url: '/auth/login/wechat', params: { state }, data: { code } });
}

/** Binds a phone (SMS code of type `login`) to the WeChat of the ticket and signs in; envelope as above. */
export function registerWithWechat(body: { ticket: string; telephone: string; code: string }): Promise<ResponseEnvelope<PhoneLoginResult | null>> {
  return request<ResponseEnvelope<PhoneLoginResult | null>>({
    method: 'POST',
    url: '/auth/register/wechat',
    data: { ...body, countryCode: COUNTRY_CODE },
  });
}

/** Silent: 账号设置 shows a failure to load in the row itself. */
export function fetchWechatBinding(): Promise<WechatBinding> {
  return request<WechatBinding>({ url: '/user/wechat_bind', silent: true });
}

export function bindWechat(state: string, code: string): Promise<WechatBinding> {
  return request<WechatBinding>({ method: 'POST', url: '/user/wechat_bind', params: { state }, data: { code } });
}

export function unbindWechat(): Promise<null> {
  return request<null>({ method: 'DELETE', url: '/user/wechat_bind' });
}

/** The result of an envelope the page reads itself, or the ApiError it stands for. */
export function envelopeResult<T>(envelope: ResponseEnvelope<T | null>, fallbackMessage: string): T {
  if (envelope.rspcode === SUCCESS_RSPCODE && envelope.result !== null) return envelope.result;
  const code = envelope.rspcode ?? envelope.code ?? 0;
  throw new ApiError(0, code, envelope.rspmsg || envelope.message || fallbackMessage);
}

// ---- the way back from WeChat -----------------------------------------------------------------------

/** What WeChat put in the query of the page it sent the browser back to; null when it did not. */
export interface WechatReturn {
  /** Absent when the person refused on WeChat's page. */
  code: string | null;
  state: string | null;
  /** The page's query without `wechat`, `code` and `state` (e.g. the `redirect` to honour). */
  rest: string;
}

export function readWechatReturn(search: string): WechatReturn | null {
  const params = new URLSearchParams(search);
  if (params.get('wechat') !== '1') return null;
  const code = params.get('code');
  const state = params.get('state');
  for (const key of ['wechat', 'code', 'state']) params.delete(key);
  const rest = params.toString();
  return { code: code || null, state: state || null, rest: rest ? `?${rest}` : '' };
}

const STATE_KEY = 'slg-wechat-state';

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Remembers the state this tab was given, so that only a return this tab started is accepted: a link
 * carrying someone else's code and state (to sign the victim in to the sender's account) is refused.
 */
export function rememberWechatState(purpose: WechatPurpose, state: string): void {
  sessionStore()?.setItem(STATE_KEY, JSON.stringify({ purpose, state }));
}

/** Whether this tab started the flow that came back with `state`; forgets it either way. */
export function takeWechatState(purpose: WechatPurpose, state: string): boolean {
  const store = sessionStore();
  const saved = store?.getItem(STATE_KEY);
  store?.removeItem(STATE_KEY);
  if (!saved) return false;
  try {
    const parsed = JSON.parse(saved) as { purpose?: unknown; state?: unknown };
    return parsed.purpose === purpose && parsed.state === state;
  } catch {
    return false;
  }
}

const started = new Set<string>();

/**
 * Runs the call that spends `state` once, however often the page asks (React's development mode runs
 * effects twice, and the page's own address change runs them again): later asks do nothing, and
 * `done` runs once, with the first call's outcome.
 */
export function spendOnce<T>(state: string, call: () => Promise<T>, done: (outcome: T) => void): void {
  if (started.has(state)) return;
  started.add(state);
  void call().then(done);
}

/** How the console leaves for WeChat's page (a full navigation; tests put a spy here). */
export const wechatNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

/** Sends the browser to WeChat's page for `purpose`, remembering the state. */
export async function goToWechat(purpose: WechatPurpose, redirect?: string): Promise<void> {
  const { url, state } = await fetchWechatAuthorization(purpose, redirect);
  rememberWechatState(purpose, state);
  wechatNavigation.assign(url);
}
