import { randomBytes } from 'node:crypto';

/** Letters and digits people cannot confuse: no 0/O and no 1/I. 32 symbols, so a byte maps without bias. */
export const REDEEM_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const REDEEM_CODE_LENGTH = 16;

/** A fresh 16-character code from crypto randomness (80 bits). */
export function generateRedeemCode(): string {
  const bytes = randomBytes(REDEEM_CODE_LENGTH);
  let code = '';
  for (const byte of bytes) code += REDEEM_CODE_ALPHABET[byte % REDEEM_CODE_ALPHABET.length];
  return code;
}

/** Codes are case-insensitive and may be typed with spaces or dashes between groups. */
export function normalizeRedeemCode(input: string): string {
  return input.replace(/[\s-]/g, '').toUpperCase();
}
