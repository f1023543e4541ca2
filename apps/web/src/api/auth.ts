import { COUNTRY_CODE, HUMAN_CHECK_PARAM, type SmsCodeType } from '@slg/shared';
import type { HumanCheckChallenge, PhoneLoginResult, SmsSent as SmsSendResult } from '@slg/shared/views/account';
import { request, type TokenPair } from './client';

export type { HumanCheckChallenge, PhoneLoginResult, SmsSent as SmsSendResult } from '@slg/shared/views/account';

export function loginWithPassword(body: { telephone: string; password: string }): Promise<TokenPair> {
  return request<TokenPair>({ method: 'POST', url: '/auth/login', data: { ...body, countryCode: COUNTRY_CODE } });
}

/** A sub-account signs in with the username its main account gave it (docs/api-auth.md "Sub-accounts"). */
export function loginSubAccount(body: { username: string; password: string }): Promise<TokenPair> {
  return request<TokenPair>({ method: 'POST', url: '/subuser/login', data: body });
}

/** SMS sign-in (code of type `login`); creates the account on first use. */
export function loginWithSmsCode(body: { telephone: string; code: string }): Promise<PhoneLoginResult> {
  return request<PhoneLoginResult>({
    method: 'POST',
    url: '/auth/register/phone',
    data: { ...body, countryCode: COUNTRY_CODE },
  });
}

export function register(body: {
  telephone: string;
  password: string;
  code: string;
  inviteCode?: string;
}): Promise<TokenPair> {
  return request<TokenPair>({ method: 'POST', url: '/auth/register', data: { ...body, countryCode: COUNTRY_CODE } });
}

/** Ends the session server-side; failures are silent because the console signs out anyway. */
export function logout(refreshToken: string | null): Promise<null> {
  return request<null>({ method: 'POST', url: '/auth/logout', data: { refreshToken }, silent: true });
}

/**
 * Sends a code. Once the client or the phone passed a threshold the server refuses with
 * HUMAN_CHECK_REQUIRED (428); `humanCheck` is then the solved check, sent along in `captcha`.
 */
export function sendSmsCode(telephone: string, type: SmsCodeType, humanCheck?: string): Promise<SmsSendResult> {
  return request<SmsSendResult>({
    url: '/smscode/phone',
    params: { telephone, countryCode: COUNTRY_CODE, type, [HUMAN_CHECK_PARAM]: humanCheck },
  });
}

export function fetchHumanCheckChallenge(): Promise<HumanCheckChallenge> {
  return request<HumanCheckChallenge>({ url: '/captcha/challenge', silent: true });
}
