import { smsOutbox } from '../../db/schema/index.js';
import type { SmsMessage, SmsProvider } from './provider.js';
import type { Executor } from '../../db/client.js';
import { renderNotice, type SmsNotice } from './notices.js';

/** Development provider: the "sent" code or notice lands in the sms_outbox table, readable at GET /api/dev/sms. */
export class ConsoleSmsProvider implements SmsProvider {
  readonly name = 'console';

  constructor(private readonly now: () => Date) {}

  async send(message: SmsMessage, executor: Executor): Promise<void> {
    await executor.insert(smsOutbox).values({ ...message, createdAt: this.now() });
  }

  /** The notice lands in the outbox as the gateway's template would render it (type: the notice kind). */
  async sendNotice(notice: SmsNotice, executor: Executor): Promise<void> {
    await executor.insert(smsOutbox).values({ telephone: notice.telephone, type: notice.kind, code: '', content: renderNotice(notice), createdAt: this.now() });
  }
}
