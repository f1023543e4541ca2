import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import type { DatasetStatus } from '@slg/shared';
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

/**
 * 数据集: a folder mounted read-only at `/root/slg-pub/<name>` in instances. PUBLIC ones the operator
 * curates (their folder is `.public/<name>` under STORAGE_ROOT, mounted in every instance); SHARED ones a
 * user shares from a folder of their 文件存储: the folder is copied (`snapshot`, `.datasets/<uuid>`) so
 * later changes to it do not leak, and the operator reviews it (IN_REVIEW → PASS or REJECTED) before
 * anyone else sees it. Deleted ones keep their row (`deleted_at`); their snapshot goes when no machine has it.
 */
export const datasets = pgTable(
  'datasets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: varchar('kind', { length: 8 }).$type<'PUBLIC' | 'SHARED'>().notNull(),
    /** The main account that shared it (null for public datasets). */
    ownerId: bigint('owner_id', { mode: 'number' }).references(() => users.id),
    creatorId: bigint('creator_id', { mode: 'number' }).references(() => users.id),
    name: varchar('name', { length: 64 }).notNull(),
    description: text('description').notNull().default(''),
    tags: jsonb('tags').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    license: varchar('license', { length: 32 }),
    /** The folder it was taken from (shared: the store's region and the path in it). */
    zoneId: varchar('zone_id', { length: 32 }).references(() => zones.id),
    sourcePath: text('source_path'),
    /** Its files, relative to STORAGE_ROOT. */
    snapshot: varchar('snapshot', { length: 128 }).notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    fileCount: integer('file_count').notNull().default(0),
    status: varchar('status', { length: 16 }).$type<DatasetStatus>().notNull(),
    rejectReason: text('reject_reason'),
    reviewerId: bigint('reviewer_id', { mode: 'number' }).references(() => users.id),
    reviewedAt: at('reviewed_at'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    // Names are unique per owner (40026) and among public datasets; a deleted one frees its name.
    uniqueIndex('datasets_owner_name_key').on(t.ownerId, t.name).where(sql`${t.deletedAt} is null and ${t.kind} = 'SHARED'`),
    uniqueIndex('datasets_public_name_key').on(t.name).where(sql`${t.deletedAt} is null and ${t.kind} = 'PUBLIC'`),
    // The lists: PASS shared ones newest first, the review queue, one owner's own.
    index('datasets_listed_idx').on(t.kind, t.status, t.id).where(sql`${t.deletedAt} is null`),
    index('datasets_owner_idx').on(t.ownerId, t.id).where(sql`${t.deletedAt} is null`),
    check('datasets_kind', sql`${t.kind} in ('PUBLIC', 'SHARED')`),
    check('datasets_status', sql`${t.status} in ('IN_REVIEW', 'PASS', 'REJECTED')`),
  ],
);

/** A user's favourite datasets (idempotent: the primary key). */
export const datasetFavorites = pgTable(
  'dataset_favorites',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    datasetId: bigint('dataset_id', { mode: 'number' })
      .notNull()
      .references(() => datasets.id),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.datasetId] }), index('dataset_favorites_dataset_idx').on(t.datasetId)],
);
