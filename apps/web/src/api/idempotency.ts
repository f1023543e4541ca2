/**
 * A fresh `Idempotency-Key` for one submit of a call that moves money (DESIGN §4): a repeat with the
 * same key returns the first answer. `crypto.randomUUID` exists only in secure contexts (https,
 * localhost), so a console served over plain http on an intranet address builds the UUID itself.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

export function newIdempotencyKey(source: Pick<Crypto, 'getRandomValues'> & Partial<Pick<Crypto, 'randomUUID'>> = crypto): string {
  if (typeof source.randomUUID === 'function') return source.randomUUID();
  const bytes = source.getRandomValues(new Uint8Array(16));
  // RFC 4122 version 4, variant 10.
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function idempotencyHeaders(key: string = newIdempotencyKey()): Record<string, string> {
  return { [IDEMPOTENCY_HEADER]: key };
}
