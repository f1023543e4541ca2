/** Money is integer fen everywhere; these helpers only format it for people. */
export function assertFen(value: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`金额必须是整数分: ${value}`);
}

/** 123456 → "1234.56" (no grouping, for files and inputs); exact integer arithmetic. */
export function fenToYuanString(fen: number): string {
  assertFen(fen);
  const abs = Math.abs(fen);
  return `${fen < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 12345 → "123.45"; -5 → "-0.05". */
export function formatFen(fen: number): string {
  assertFen(fen);
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(fen);
  // Grouped by hand: the first toLocaleString() of a page loads ICU data, ~0.5 s on a phone CPU.
  const yuan = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const cents = String(abs % 100).padStart(2, '0');
  return `${sign}${yuan}.${cents}`;
}

/** 12345 → "¥123.45". */
export function formatYuan(fen: number): string {
  const text = formatFen(fen);
  return text.startsWith('-') ? `-¥${text.slice(1)}` : `¥${text}`;
}
