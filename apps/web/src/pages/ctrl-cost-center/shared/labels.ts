import { labelOf, PAYMENT_CHANNELS, TRANSACTION_CHANNELS, TRANSACTION_TYPES, type Dictionary } from '@slg/shared';
import type { LedgerTypeValue } from '../../../api/billing';
import { COST_TEXTS } from './texts';

/** Ledger types: the spec's transaction types plus the transfers and gifts the ledger also records. */
export const LEDGER_TYPES = [
  ...TRANSACTION_TYPES,
  { value: 'TRANSFER', label: COST_TEXTS.ledgerTypes.TRANSFER },
  { value: 'GIFT', label: COST_TEXTS.ledgerTypes.GIFT },
] as const satisfies Dictionary<LedgerTypeValue>;

export function ledgerTypeLabel(value: string | null | undefined): string {
  return labelOf(LEDGER_TYPES as Dictionary<string>, value);
}

/** A ledger channel: the transaction channels, else a payment channel (WXPAY), else the value itself. */
export function channelLabel(value: string | null | undefined): string {
  if (!value) return COST_TEXTS.empty;
  const known = [...TRANSACTION_CHANNELS, ...PAYMENT_CHANNELS] as Dictionary<string>;
  return labelOf(known, value);
}
