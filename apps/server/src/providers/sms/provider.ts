import type { SmsCodeType } from '@slg/shared';
import type { Executor } from '../../db/client.js';

export interface SmsMessage {
  telephone: string;
  type: SmsCodeType;
  code: string;
}

/**
 * Sends verification codes. `executor` is the transaction that stored the code, so a provider that
 * records locally (console) commits or rolls back with it; real gateways ignore it.
 */
export interface SmsProvider {
  readonly name: string;
  send(message: SmsMessage, executor: Executor): Promise<void>;
}

export class SmsSendError extends Error {}
