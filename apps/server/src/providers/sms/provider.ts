import type { SmsCodeType } from '@slg/shared';
import type { Executor } from '../../db/client.js';
import type { SmsNotice } from './notices.js';

export interface SmsMessage {
  telephone: string;
  type: SmsCodeType;
  code: string;
}

/**
 * Sends verification codes and notices. `executor` is the transaction that stored the code (or the
 * database, for a notice), so a provider that records locally (console) commits or rolls back with it;
 * real gateways ignore it.
 */
export interface SmsProvider {
  readonly name: string;
  send(message: SmsMessage, executor: Executor): Promise<void>;
  /** A notice through its own template (SMS_NOTICE_TEMPLATES); refuses with SmsSendError when the gateway cannot send it. */
  sendNotice(notice: SmsNotice, executor: Executor): Promise<void>;
}

export class SmsSendError extends Error {}
