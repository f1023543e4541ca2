import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';

const at = (name: string) => timestamp(name, { withTimezone: true });
const createdAt = () => at('created_at').notNull().defaultNow();

/**
 * A file a user uploaded for the platform's eyes only (business licence, student card, ID images).
 * The bytes live under `${DATA_DIR}/private/<storage_key>` (object storage later) and are read back only
 * by their owner and by operators; nothing serves them publicly.
 */
export const privateUploads = pgTable(
  'private_uploads',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** What it is for: LICENCE, STUDENT_CARD, ID_CARD. */
    purpose: varchar('purpose', { length: 16 }).notNull(),
    fileName: varchar('file_name', { length: 128 }).notNull(),
    contentType: varchar('content_type', { length: 64 }).notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: varchar('sha256', { length: 64 }).notNull(),
    /** Relative path under the private storage root; random, never derived from the file name. */
    storageKey: varchar('storage_key', { length: 128 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('private_uploads_storage_key').on(t.storageKey), index('private_uploads_owner_idx').on(t.ownerId, t.createdAt)],
);

/**
 * Identity verification (实名认证) of a main account: PERSON (real name + ID number), ENTERPRISE
 * (name + unified social credit code + licence) or STUDENT (school, student number, card). Submitted
 * PENDING, decided by an operator (APPROVED / REJECTED with a reason). One live (PENDING or APPROVED)
 * request per account and kind, and one live account per identity (`subject_key`), both by unique index.
 */
export const verifications = pgTable(
  'verifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    kind: varchar('kind', { length: 16 }).notNull(),
    status: varchar('status', { length: 16 }).notNull().default('PENDING'),
    /** The identity this request claims, normalised: ID number, credit code, or school + student number. */
    subjectKey: varchar('subject_key', { length: 128 }).notNull(),
    /** The submitted fields (real name, ID number, enterprise name, school, …) as the kind defines them. */
    details: jsonb('details').$type<Record<string, string>>().notNull(),
    uploadId: bigint('upload_id', { mode: 'number' }).references(() => privateUploads.id),
    reason: text('reason'),
    reviewerId: bigint('reviewer_id', { mode: 'number' }).references(() => users.id),
    createdAt: createdAt(),
    decidedAt: at('decided_at'),
  },
  (t) => [
    uniqueIndex('verifications_live_per_kind').on(t.accountId, t.kind).where(sql`${t.status} in ('PENDING', 'APPROVED')`),
    uniqueIndex('verifications_live_subject').on(t.kind, t.subjectKey).where(sql`${t.status} in ('PENDING', 'APPROVED')`),
    index('verifications_account_idx').on(t.accountId, t.createdAt),
    index('verifications_status_idx').on(t.status, t.createdAt),
    check('verifications_kind', sql`${t.kind} in ('PERSON', 'ENTERPRISE', 'STUDENT')`),
    check('verifications_status', sql`${t.status} in ('PENDING', 'APPROVED', 'REJECTED')`),
  ],
);

/**
 * A reminder a user set (提醒设置): BALANCE_LOW below `threshold_fen`, PACKAGE_EXPIRING `days_before`
 * the end of a package, RELEASE / STOCK (only their SMS can be switched off). `fired_at` set means the
 * balance reminder has fired and waits for the balance to climb back over the threshold; one conditional
 * update claims each firing so two processes never text the same event twice.
 */
export const reminders = pgTable(
  'reminders',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    remindType: varchar('remind_type', { length: 24 }).notNull(),
    thresholdFen: bigint('threshold_fen', { mode: 'number' }),
    daysBefore: integer('days_before'),
    /** Whether an SMS goes out besides the console notice. */
    sms: boolean('sms').notNull().default(true),
    /** When the reminder last fired (BALANCE_LOW); null while armed. */
    firedAt: at('fired_at'),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.remindType] }),
    index('reminders_type_idx').on(t.remindType),
    check('reminders_threshold', sql`${t.thresholdFen} is null or ${t.thresholdFen} >= 0`),
    check('reminders_days', sql`${t.daysBefore} is null or ${t.daysBefore} between 1 and 30`),
  ],
);

/** A WeChat (or other OAuth) identity bound to an account: one per provider per account, one account per identity. */
export const oauthIdentities = pgTable(
  'oauth_identities',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: varchar('provider', { length: 16 }).notNull(),
    /** The provider's stable user id (WeChat: unionid when present, else openid). */
    subject: varchar('subject', { length: 128 }).notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    nickname: varchar('nickname', { length: 64 }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('oauth_identities_subject_key').on(t.provider, t.subject), uniqueIndex('oauth_identities_user_key').on(t.provider, t.userId)],
);

/**
 * OAuth `state` values and the tickets that follow a sign-in by an identity not yet bound (kept by
 * SHA-256 hash). Each is spent once by a conditional update of `consumed_at`.
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    keyHash: varchar('key_hash', { length: 64 }).primaryKey(),
    /** LOGIN, BIND (user_id set), or REGISTER (a ticket carrying the identity in `subject`). */
    purpose: varchar('purpose', { length: 16 }).notNull(),
    provider: varchar('provider', { length: 16 }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    subject: varchar('subject', { length: 128 }),
    nickname: varchar('nickname', { length: 64 }),
    expiresAt: at('expires_at').notNull(),
    consumedAt: at('consumed_at'),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_states_expires_idx').on(t.expiresAt)],
);
