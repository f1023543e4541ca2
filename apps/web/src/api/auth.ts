import { COUNTRY_CODE, type SmsCodeType } from '@slg/shared';
import { request, type TokenPair } from './client';

export interface PhoneLoginResult extends TokenPair {
  /** True on the first sign-in of this phone (the account was just created, it has no password). */
  other: boolean;
}

export interface SmsSendResult {
  expiresIn: number;
  resendAfter: number;
}

export function loginWithPassword(body: { telephone: string; password: string }): Promise<TokenPair> {
  return request<TokenPair>({ method: 'POST', url: '/auth/login', data: { ...body, countryCode: COUNTRY_CODE } });
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

export function sendSmsCode(telephone: string, type: SmsCodeType): Promise<SmsSendResult> {
  return request<SmsSendResult>({
    url: '/smscode/phone',
    params: { telephone, countryCode: COUNTRY_CODE, type },
  });
}
