/**
 * 文件存储's money rules as pure functions (docs/decisions.md "文件存储 (issue 22)"): what a day costs,
 * when a store in arrears is blocked, reminded and deleted, and the dedupe keys of its notices. The
 * billing job (billing.ts) applies them; the SMS of the notices (modules/notifications) reads them back.
 */
import { FILE_STORAGE_BLOCK_DAYS, FILE_STORAGE_DELETE_DAYS, FILE_STORAGE_FREE_GB, FILE_STORAGE_GB_BYTES } from '@slg/shared';

export const DAY_MS = 86_400_000;
export const FILE_STORAGE_FREE_BYTES = FILE_STORAGE_FREE_GB * FILE_STORAGE_GB_BYTES;
/** Reminders before deletion, in days before it: the first at day 23 in arrears, the second at day 29. */
export const FILE_STORAGE_REMINDER_DAYS_BEFORE = [7, 1] as const;
/** The last reminder comes at least this long before the deletion, even when the job was down through its day. */
export const FILE_STORAGE_LAST_NOTICE_MS = DAY_MS;

/** Whole GB above the free 20 GB, rounded up: 20 GB + 1 byte is 1 GB, 35.5 GB is 16 GB. */
export function billableGb(usedBytes: number): number {
  const over = usedBytes - FILE_STORAGE_FREE_BYTES;
  return over <= 0 ? 0 : Math.ceil(over / FILE_STORAGE_GB_BYTES);
}

/** What one day of a store holding `usedBytes` costs, in fen. */
export function fileStorageDailyFen(usedBytes: number, priceFenPerGbDay: number): number {
  return billableGb(usedBytes) * Math.max(0, priceFenPerGbDay);
}

/** Whole days from `billedUntil` to `now` (what a settlement at `now` charges); partial days wait. */
export function wholeDaysSince(billedUntil: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - billedUntil.getTime()) / DAY_MS));
}

export function daysAgo(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/** When writes stop: FILE_STORAGE_BLOCK_DAYS in arrears. */
export function fileStorageBlockAt(arrearsSince: Date): Date {
  return new Date(arrearsSince.getTime() + FILE_STORAGE_BLOCK_DAYS * DAY_MS);
}

/**
 * When a store in arrears since `arrearsSince` is deleted: FILE_STORAGE_DELETE_DAYS on, and never less
 * than a day after its last reminder (sent at `lastReminderAt`, late when the job was down).
 */
export function fileStorageDeletionAt(arrearsSince: Date, lastReminderAt: Date | null): Date {
  const due = arrearsSince.getTime() + FILE_STORAGE_DELETE_DAYS * DAY_MS;
  return new Date(Math.max(due, lastReminderAt ? lastReminderAt.getTime() + FILE_STORAGE_LAST_NOTICE_MS : due));
}

/** Reminder `stage` (1 or 2) is due this many days into the arrears. */
export function reminderDueDays(stage: 1 | 2): number {
  const [first, second] = FILE_STORAGE_REMINDER_DAYS_BEFORE;
  return FILE_STORAGE_DELETE_DAYS - (stage === 1 ? first : second);
}

/** The notices' dedupe keys: one per store and arrears episode (a store paid up and in arrears again is told again). */
export const fileStorageNoticeKeys = {
  blocked: (storeId: number, arrearsSince: Date) => `file-storage-blocked:${storeId}:${arrearsSince.getTime()}`,
  reminder: (stage: 1 | 2, storeId: number, arrearsSince: Date) => `file-storage-reminder:${stage}:${storeId}:${arrearsSince.getTime()}`,
  deleted: (storeId: number) => `file-storage-deleted:${storeId}`,
};

export type FileStorageNoticeKey =
  | { kind: 'blocked'; storeId: number; arrearsSince: Date }
  | { kind: 'reminder'; stage: 1 | 2; storeId: number; arrearsSince: Date }
  | { kind: 'deleted'; storeId: number };

/** Reads a key `fileStorageNoticeKeys` wrote; null for any other key. */
export function parseFileStorageNoticeKey(key: string): FileStorageNoticeKey | null {
  const blocked = /^file-storage-blocked:(\d+):(\d+)$/.exec(key);
  if (blocked) return { kind: 'blocked', storeId: Number(blocked[1]), arrearsSince: new Date(Number(blocked[2])) };
  const reminder = /^file-storage-reminder:([12]):(\d+):(\d+)$/.exec(key);
  if (reminder) return { kind: 'reminder', stage: reminder[1] === '1' ? 1 : 2, storeId: Number(reminder[2]), arrearsSince: new Date(Number(reminder[3])) };
  const deleted = /^file-storage-deleted:(\d+)$/.exec(key);
  if (deleted) return { kind: 'deleted', storeId: Number(deleted[1]) };
  return null;
}

/** 文件存储（华北一区）. */
export function fileStorageLabel(zoneName: string): string {
  return `文件存储（${zoneName}）`;
}
