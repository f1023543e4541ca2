import {
  PASSWORD_FAILURE_WINDOW_SECONDS,
  PASSWORD_MAX_FAILURES,
  REDEEM_FAILURE_WINDOW_SECONDS,
  REDEEM_MAX_FAILURES,
} from '@slg/shared';
import { AppError } from '../../core/errors.js';
import type { AttemptRule } from './attempts.js';

/**
 * Every password check, keyed by the phone (or `user:<id>` for an account without one): sign-in and
 * the old password of a change share it, so neither can be used to guess around the other.
 */
export const PASSWORD_CHECKS: AttemptRule = {
  scope: 'password',
  limit: PASSWORD_MAX_FAILURES,
  windowSeconds: PASSWORD_FAILURE_WINDOW_SECONDS,
};

/** Redemption-code look-ups per user; a successful one is given back, so this counts wrong codes. */
export const REDEEM_LOOKUPS: AttemptRule = {
  scope: 'redeem',
  limit: REDEEM_MAX_FAILURES,
  windowSeconds: REDEEM_FAILURE_WINDOW_SECONDS,
};

/** SMS sends per client address in an hour; the limit itself comes from the configuration. */
export const SMS_SENDS_PER_CLIENT_WINDOW_SECONDS = 3600;

export function smsSendsPerClient(limit: number): AttemptRule {
  return { scope: 'sms-client', limit, windowSeconds: SMS_SENDS_PER_CLIENT_WINDOW_SECONDS };
}

/** The longest window of any rule: windows idle longer than this are pruned. */
export const LONGEST_ATTEMPT_WINDOW_SECONDS = Math.max(
  PASSWORD_FAILURE_WINDOW_SECONDS,
  REDEEM_FAILURE_WINDOW_SECONDS,
  SMS_SENDS_PER_CLIENT_WINDOW_SECONDS,
);

export function passwordSubject(account: { id: number; telephone: string | null }): string {
  return account.telephone ? `phone:${account.telephone}` : `user:${account.id}`;
}

/** "37秒" or "15分钟": how long to wait, as a person reads it. */
export function waitText(seconds: number): string {
  return seconds < 60 ? `${Math.max(1, Math.ceil(seconds))}秒` : `${Math.ceil(seconds / 60)}分钟`;
}

/** The refusal once the password checks of a phone (or account) are used up. */
export function passwordLocked(retryAfterSeconds: number): AppError {
  return new AppError('LOGIN_LOCKED', `密码错误次数过多，请${waitText(retryAfterSeconds)}后再试`, { retryAfterSeconds });
}
