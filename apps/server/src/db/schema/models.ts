import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * 模型市场: the catalogue. A model is served by an engine: `local` runs the GGUF file `engine_model`
 * of MODELS_DIR in the server process (node-llama-cpp); `openai` forwards to the OpenAI-compatible
 * server at `upstream_url` as model `engine_model`. Prices are fen per million tokens.
 */
export const models = pgTable(
  'models',
  {
    id: varchar('id', { length: 64 }).primaryKey(),
    name: varchar('name', { length: 64 }).notNull(),
    provider: varchar('provider', { length: 64 }).notNull(),
    type: varchar('type', { length: 8 }).$type<'text' | 'visual'>().notNull(),
    description: text('description').notNull().default(''),
    tags: jsonb('tags').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    contextLength: integer('context_length').notNull(),
    paramSize: varchar('param_size', { length: 16 }).notNull().default(''),
    license: varchar('license', { length: 64 }).notNull().default(''),
    inputPriceFen: integer('input_price_fen').notNull(),
    outputPriceFen: integer('output_price_fen').notNull(),
    engine: varchar('engine', { length: 16 }).$type<'local' | 'openai'>().notNull(),
    engineModel: varchar('engine_model', { length: 255 }).notNull(),
    upstreamUrl: text('upstream_url'),
    /** The upstream's API key, sealed with JWT_SECRET (never returned by the API). */
    upstreamKeyEnc: text('upstream_key_enc'),
    /** The generated test model: the console says 测试模型. */
    isTest: boolean('is_test').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(100),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('models_listed_idx').on(t.type, t.sortOrder, t.id).where(sql`${t.enabled}`),
    check('models_type', sql`${t.type} in ('text', 'visual')`),
    check('models_engine', sql`${t.engine} in ('local', 'openai')`),
    check('models_prices', sql`${t.inputPriceFen} >= 0 and ${t.outputPriceFen} >= 0`),
  ],
);

/** Per main account: its free tokens (granted once, MODEL_FREE_TOKENS) and how many it has used. */
export const modelAllowances = pgTable(
  'model_allowances',
  {
    ownerId: bigint('owner_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id),
    grantedTokens: bigint('granted_tokens', { mode: 'number' }).notNull(),
    usedTokens: bigint('used_tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('model_allowances_used', sql`${t.usedTokens} between 0 and ${t.grantedTokens}`)],
);

/** The MODEL_EXPERIENCE usage order each paying wallet's calls accrue on (one per wallet: the primary key). */
export const modelUsageOrders = pgTable('model_usage_orders', {
  walletId: bigint('wallet_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  orderId: bigint('order_id', { mode: 'number' }).notNull(),
});

/** One call of the OpenAI-compatible API: what the engine counted and what it cost. */
export const modelUsages = pgTable(
  'model_usages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    walletId: bigint('wallet_id', { mode: 'number' }).notNull(),
    apiTokenId: bigint('api_token_id', { mode: 'number' }),
    modelId: varchar('model_id', { length: 64 }).notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    freeTokens: integer('free_tokens').notNull().default(0),
    chargedFen: bigint('charged_fen', { mode: 'number' }).notNull().default(0),
    /** completed, aborted (the client went away; what was generated is billed) or failed. */
    outcome: varchar('outcome', { length: 12 }).notNull(),
    stream: boolean('stream').notNull(),
    durationMs: integer('duration_ms').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('model_usages_owner_idx').on(t.ownerId, t.createdAt), index('model_usages_model_idx').on(t.modelId, t.createdAt)],
);

/**
 * Requests and tokens per minute, per key (`account:<ownerId>`, `token:<id>`), in fixed one-minute
 * windows: a request is admitted by one upsert that increments only below the limits.
 */
export const modelRateWindows = pgTable(
  'model_rate_windows',
  {
    key: varchar('key', { length: 48 }).notNull(),
    windowStart: at('window_start').notNull(),
    requests: integer('requests').notNull().default(0),
    tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('model_rate_windows_start_idx').on(t.windowStart)],
);
