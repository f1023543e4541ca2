import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, smallint, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { zones } from './meta.js';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * 文件存储: a main account's file store in one region (a directory of the storage backend, mounted at
 * `/root/slg-fs` in its instances and containers there). Initialised once (a free NEW_STORAGE order);
 * usage is measured on the backend by the storage job, and what passes the free tier is billed per
 * GB·day, settled daily. A store deleted in arrears keeps its row (`deleted_at`) as a record.
 */
export const fileStorages = pgTable(
  'file_storages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The main account: sub-accounts with FILE_STORAGE use (and the main wallet pays for) this store. */
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    zoneId: varchar('zone_id', { length: 32 })
      .notNull()
      .references(() => zones.id),
    /** The user's limit: an upload that would pass it is refused before any byte is written. */
    quotaGb: integer('quota_gb').notNull().default(200),
    /** Bytes held, as last measured on the backend (and raised at once by accepted uploads). */
    usedBytes: bigint('used_bytes', { mode: 'number' }).notNull().default(0),
    measuredAt: at('measured_at'),
    /** Usage is settled up to this moment (daily); starts at initialisation. */
    billedUntil: at('billed_until').notNull(),
    chargedFen: bigint('charged_fen', { mode: 'number' }).notNull().default(0),
    /** The free NEW_STORAGE order of the initialisation; charges accrue on it. */
    orderId: bigint('order_id', { mode: 'number' }),
    /** Since when the paying wallet has been below zero (cleared when it is paid up). */
    arrearsSince: at('arrears_since'),
    /** Writes refused after 15 days in arrears (cleared with the arrears). */
    writesBlockedAt: at('writes_blocked_at'),
    /** Reminders sent before deletion in arrears (two, then deletion at 30 days). */
    deletionReminders: smallint('deletion_reminders').notNull().default(0),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    uniqueIndex('file_storages_owner_zone_key').on(t.ownerId, t.zoneId).where(sql`${t.deletedAt} is null`),
    // The daily settlement and the arrears pass walk live stores.
    index('file_storages_live_idx').on(t.billedUntil).where(sql`${t.deletedAt} is null`),
    check('file_storages_quota', sql`${t.quotaGb} between 1 and 2048`),
  ],
);
