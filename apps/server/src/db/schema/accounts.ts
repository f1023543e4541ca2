import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import type { PermissionMap, Role } from '@slg/shared';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Main accounts (account_type 1) and their sub-accounts (account_type 2, parent_id set). */
export const users = pgTable(
  'users',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountType: smallint('account_type').notNull().default(1),
    parentId: bigint('parent_id', { mode: 'number' }),
    telephone: varchar('telephone', { length: 20 }),
    username: varchar('username', { length: 64 }),
    passwordHash: text('password_hash'),
    nickName: varchar('nick_name', { length: 40 }).notNull(),
    /** Sub-accounts only: level per authority type. Main accounts are ALL everywhere. */
    permissions: jsonb('permissions').$type<PermissionMap>(),
    sharedMainBalance: boolean('shared_main_balance').notNull().default(false),
    roles: text('roles').array().$type<Role[]>().notNull().default(sql`'{}'::text[]`),
    inviteCode: varchar('invite_code', { length: 32 }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_telephone_key').on(t.telephone),
    uniqueIndex('users_username_key').on(t.username),
    index('users_parent_idx').on(t.parentId),
  ],
);

/** One wallet per account; the ledger of the money issue posts against it. */
export const wallets = pgTable(
  'wallets',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id),
    balanceFen: bigint('balance_fen', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Wallets in arrears (few): the arrears job and /metrics find them without reading every wallet.
  (t) => [index('wallets_arrears_idx').on(t.accountId).where(sql`${t.balanceFen} < 0`)],
);

/** Opaque refresh tokens, stored hashed; one family per sign-in, rotated on every refresh. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    familyId: uuid('family_id').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash), index('refresh_tokens_family_idx').on(t.familyId)],
);

/** Sessions that were signed out or caught reusing a refresh token; their access tokens die too. */
export const revokedSessions = pgTable('revoked_sessions', {
  familyId: uuid('family_id').primaryKey(),
  revokedAt: createdAt(),
});

export const smsCodes = pgTable(
  'sms_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    telephone: varchar('telephone', { length: 20 }).notNull(),
    type: varchar('type', { length: 16 }).notNull(),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Comparisons made against this code, counted before each one (at most SMS_MAX_CHECKS). */
    checks: smallint('checks').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('sms_codes_phone_type_idx').on(t.telephone, t.type, t.createdAt),
    index('sms_codes_phone_created_idx').on(t.telephone, t.createdAt),
  ],
);

/** What the console SMS provider "sent": read by developers and tests through GET /api/dev/sms. */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    telephone: varchar('telephone', { length: 20 }).notNull(),
    type: varchar('type', { length: 16 }).notNull(),
    /** A verification code; empty for a notice. */
    code: varchar('code', { length: 8 }).notNull(),
    /** A notice's text as the template renders it (type is the notice kind); null for a code. */
    content: text('content'),
    createdAt: createdAt(),
  },
  (t) => [index('sms_outbox_phone_idx').on(t.telephone, t.createdAt)],
);

/**
 * Sliding windows of attempts (password checks, code redemptions, SMS sends per client address…):
 * the times of the attempts still inside the window, at most the rule's limit of them. One
 * INSERT … ON CONFLICT DO UPDATE both counts and decides, so bursts cannot overrun a limit.
 */
export const attemptWindows = pgTable('attempt_windows', {
  scope: varchar('scope', { length: 32 }).notNull(),
  subject: varchar('subject', { length: 128 }).notNull(),
  hits: timestamp('hits', { withTimezone: true }).array().notNull(),
  /** Whether the last attempt counted was let through. */
  lastAllowed: boolean('last_allowed').notNull(),
}, (t) => [primaryKey({ columns: [t.scope, t.subject] })]);

/**
 * Solved human checks already spent (an ALTCHA challenge, a vendor ticket), by a hash of their id,
 * kept until they could no longer pass anyway: the primary key makes each one pass exactly once.
 */
export const humanCheckUses = pgTable(
  'human_check_uses',
  {
    key: varchar('key', { length: 64 }).primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('human_check_uses_expires_idx').on(t.expiresAt)],
);

/**
 * Personal API tokens (API令牌) for scripts. The secret is shown once and kept only as its SHA-256
 * hash (a lookup key: the secret has 256 random bits, so no slow hash is needed) and the first
 * characters for the list. A token acts as its creator; deleting the row ends it.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 32 }).notNull(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    /** `slg_` and the secret's first characters, to tell tokens apart in the list. */
    prefix: varchar('prefix', { length: 16 }).notNull(),
    /** 1 enabled, 0 disabled. */
    status: smallint('status').notNull().default(1),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('api_tokens_hash_key').on(t.tokenHash),
    uniqueIndex('api_tokens_creator_name_key').on(t.creatorId, t.name),
    index('api_tokens_owner_idx').on(t.ownerId),
  ],
);
