import { randomDigits } from '../../lib/crypto.js';

/** yyyyMMddHHmmss in China time: order numbers sort by time and people can read them. */
export function chinaTimestamp(now: Date): string {
  const shifted = new Date(now.getTime() + 8 * 3600 * 1000);
  return shifted.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** 20-digit order number: time of creation + 6 random digits (unique index retries on collision). */
export function newOrderNo(now: Date): string {
  return `${chinaTimestamp(now)}${randomDigits(6)}`;
}

export function newRechargeId(now: Date): string {
  return `RC${chinaTimestamp(now)}${randomDigits(6)}`;
}

/** What every recharge id looks like (RC + 20 digits). */
export const RECHARGE_ID_PATTERN = /^RC\d{20}$/;

/** What every order number looks like (20 digits). */
export const ORDER_NO_PATTERN = /^\d{20}$/;
