import { RECHARGE_MAX_FEN, RECHARGE_MIN_FEN } from '@slg/shared';

/** At most 9 digits of yuan: far above any limit, far below 2^53 fen. */
const YUAN_PATTERN = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

/**
 * A yuan amount typed by a person (`'100'`, `'0.01'`, `'12.5'`) as integer fen, or null when it is not
 * a plain non-negative decimal with at most two decimals. Works on the digits of the string: no float
 * arithmetic ever touches the amount.
 */
export function parseYuanToFen(input: string): number | null {
  const match = YUAN_PATTERN.exec(input.trim());
  if (!match) return null;
  const yuan = Number(match[1]);
  const cents = Number((match[2] ?? '').padEnd(2, '0'));
  return yuan * 100 + cents;
}

export type RechargeAmountError = 'required' | 'format' | 'min' | 'max';

export type RechargeAmountCheck = { ok: true; fen: number } | { ok: false; error: RechargeAmountError };

/** A recharge amount: a valid yuan amount between RECHARGE_MIN_FEN (¥1) and RECHARGE_MAX_FEN (¥100,000). */
export function checkRechargeAmount(input: string | undefined): RechargeAmountCheck {
  if (!input || !input.trim()) return { ok: false, error: 'required' };
  const fen = parseYuanToFen(input);
  if (fen === null) return { ok: false, error: 'format' };
  if (fen < RECHARGE_MIN_FEN) return { ok: false, error: 'min' };
  if (fen > RECHARGE_MAX_FEN) return { ok: false, error: 'max' };
  return { ok: true, fen };
}

/** Integer fen as the yuan string the amount input shows (`10000` → `'100'`, `150` → `'1.50'`). */
export function fenToYuanInput(fen: number): string {
  const yuan = Math.floor(fen / 100);
  const cents = fen % 100;
  return cents === 0 ? String(yuan) : `${yuan}.${String(cents).padStart(2, '0')}`;
}
