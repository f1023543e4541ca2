/**
 * What 提醒设置 answers (`/reminder`): the server's response schemas, and the types the console reads
 * them with (`import type` only). Money is integer fen.
 */
import { z } from 'zod';
import { REMIND_TYPE_LABELS, REMIND_TYPES, REMINDER_DAYS_DEFAULT, REMINDER_DAYS_MAX, REMINDER_DAYS_MIN } from '../reminders.js';

/** `BALANCE_LOW（余额不足）、…`: the types as the document lists them. */
export const REMIND_TYPES_TEXT = REMIND_TYPES.map((type) => `${type}（${REMIND_TYPE_LABELS[type]}）`).join('、');

export const reminderSchema = z.object({
  remindType: z.enum(REMIND_TYPES).describe(REMIND_TYPES_TEXT),
  /** BALANCE_LOW / PACKAGE_EXPIRING: set by the user; RELEASE / STOCK: always (the console notice cannot be switched off). */
  enabled: z.boolean().describe('BALANCE_LOW / PACKAGE_EXPIRING：是否已开启；RELEASE / STOCK：站内消息始终发送，恒为 true'),
  /** BALANCE_LOW only: fen; null while not set. */
  thresholdFen: z.number().int().nullable().describe('BALANCE_LOW：提醒金额（分），余额低于它时提醒；未设置或其他类型为 null'),
  /** PACKAGE_EXPIRING only: the chosen days, or the default while not set. */
  daysBefore: z.number().int().nullable().describe(`PACKAGE_EXPIRING：到期前几天提醒（${REMINDER_DAYS_MIN}–${REMINDER_DAYS_MAX}，默认${REMINDER_DAYS_DEFAULT}）；其他类型为 null`),
  /** Whether an SMS goes with the console notice. */
  sms: z.boolean().describe('是否同时发送短信（站内消息总会发送）'),
  /** BALANCE_LOW only: when it last fired; null while armed (it fires when the balance next drops below the threshold). */
  firedAt: z.string().nullable().describe('BALANCE_LOW：最近一次提醒的时间；余额回到提醒金额以上后清空，再次低于时重新提醒'),
});
export type ReminderView = z.infer<typeof reminderSchema>;

export const reminderSettingsSchema = z.object({
  list: z.array(reminderSchema).describe('每种提醒一项，未设置的显示默认值'),
  /** The balance BALANCE_LOW watches: the caller's wallet, or the main account's when the sub-account shares it. */
  balanceFen: z.number().int().describe('余额提醒所看的余额（分）：本账号余额；共用主账号余额的子账号为主账号余额'),
  /** The caller is a sub-account spending the main account's balance. */
  sharedMainBalance: z.boolean().describe('当前账号是共用主账号余额的子账号'),
});
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;
