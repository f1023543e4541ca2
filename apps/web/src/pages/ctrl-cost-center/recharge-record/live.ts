/**
 * What keeps 充值记录 live, as pure functions: how often the list polls, which pending recharges have
 * settled since the last answer, and how a recharge's state reads (a bank transfer is 待确认, not 待支付).
 */
import { RECHARGE_CANCELED_REASON, type Page, type PaymentChannelValue } from '@slg/shared';
import type { RechargeDto } from '../../../api/billing';

/** A QR payment can land any second (the payer is paying in another tab). */
export const QR_PENDING_POLL_MS = 3_000;
/** A bank transfer waits for the operator, for hours: poll slowly. */
export const BANK_PENDING_POLL_MS = 10_000;

const isPending = (recharge: RechargeDto) => recharge.status === 'CREATED';

/** Fast while the page shows a pending QR payment, slowly while only bank transfers wait, not at all otherwise. */
export function recordPollInterval(page: Page<RechargeDto> | undefined): number | false {
  const pending = page?.list.filter(isPending) ?? [];
  if (pending.some((recharge) => recharge.channel !== 'BANK')) return QR_PENDING_POLL_MS;
  return pending.length > 0 ? BANK_PENDING_POLL_MS : false;
}

export function pendingIds(list: readonly RechargeDto[]): Set<string> {
  return new Set(list.filter(isPending).map((recharge) => recharge.rechargeId));
}

/** Ids pending before that are no longer pending now: paid, failed, cancelled (or gone from the page). */
export function settledIds(before: ReadonlySet<string>, now: readonly RechargeDto[]): string[] {
  const stillPending = pendingIds(now);
  return [...before].filter((id) => !stillPending.has(id));
}

/** How 充值记录 shows a recharge's state. */
export type RechargeDisplayState = 'AWAITING_PAYMENT' | 'AWAITING_CONFIRMATION' | 'SUCCESS' | 'FAILED' | 'CANCELED';

export function displayStateOf(recharge: Pick<RechargeDto, 'status' | 'channel' | 'failureReason'>): RechargeDisplayState {
  if (recharge.status === 'CREATED') return recharge.channel === 'BANK' ? 'AWAITING_CONFIRMATION' : 'AWAITING_PAYMENT';
  if (recharge.status === 'SUCCESS') return 'SUCCESS';
  return recharge.failureReason === RECHARGE_CANCELED_REASON ? 'CANCELED' : 'FAILED';
}

/** A pending QR recharge: its code can be shown again (去支付) and it can be cancelled. */
export function isPayableQr(recharge: RechargeDto): boolean {
  return recharge.status === 'CREATED' && recharge.channel !== 'BANK' && Boolean(recharge.qrCode ?? recharge.payUrl);
}

/** Which pending states the offered channels can produce (the status filter names only those). */
export function pendingKinds(channels: readonly PaymentChannelValue[]): { qr: boolean; bank: boolean } {
  return { qr: channels.some((channel) => channel !== 'BANK'), bank: channels.includes('BANK') };
}
