import { smsOutbox } from '../../db/schema/index.js';
import type { SmsMessage, SmsProvider } from './provider.js';
import type { Executor } from '../../db/client.js';

/** Development provider: the "sent" message lands in the sms_outbox table, readable at GET /api/dev/sms. */
export class ConsoleSmsProvider implements SmsProvider {
  readonly name = 'console';

  constructor(private readonly now: () => Date) {}

  async send(message: SmsMessage, executor: Executor): Promise<void> {
    await executor.insert(smsOutbox).values({ ...message, createdAt: this.now() });
  }
}
