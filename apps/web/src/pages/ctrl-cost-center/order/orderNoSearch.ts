/** Order numbers are 20 digits (yyyyMMddHHmmss + 6); the list searches by a prefix of them. */
export const ORDER_NO_LENGTH = 20;

export type OrderNoSearch = { ok: true; value: string } | { ok: false };

/**
 * What was typed into 按订单号搜索, as the server's prefix search takes it: spaces removed, full-width
 * digits made ASCII, then 1–20 digits (an empty box clears the search). Anything else is refused, so
 * the list stays as it is and the box says why.
 */
export function parseOrderNoSearch(typed: string): OrderNoSearch {
  const value = typed.replace(/\s+/g, '').replace(/[０-９]/g, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0));
  if (value === '') return { ok: true, value };
  return new RegExp(`^\\d{1,${ORDER_NO_LENGTH}}$`).test(value) ? { ok: true, value } : { ok: false };
}
