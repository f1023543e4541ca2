import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';

const at = (name: string) => timestamp(name, { withTimezone: true });
const createdAt = () => at('created_at').notNull().defaultNow();
const fen = (name: string) => bigint(name, { mode: 'number' });

/**
 * The platform side of the double-entry ledger: where money comes from and goes to. Their balances are
 * sums of entries, never a stored row, so payments never contend on one hot platform row.
 */
export const PLATFORM_ACCOUNTS = ['revenue', 'payment_clearing', 'refunds', 'vouchers', 'gifts'] as const;
export type PlatformAccount = (typeof PLATFORM_ACCOUNTS)[number];

/** One balanced movement of money; its entries sum to zero. */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** CONSUME, RECHARGE, REFUND, WITHDRAW (spec §3) plus TRANSFER and GIFT. */
    type: varchar('type', { length: 16 }).notNull(),
    /** WECHAT, ALIPAY, BALANCE, BANK, VOUCHER, GIFT. */
    channel: varchar('channel', { length: 16 }).notNull(),
    description: text('description').notNull(),
    orderId: bigint('order_id', { mode: 'number' }),
    rechargeId: varchar('recharge_id', { length: 32 }),
    createdAt: createdAt(),
  },
  (t) => [index('ledger_transactions_order_idx').on(t.orderId)],
);

/** A line of a transaction against exactly one wallet or one platform account. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    walletId: bigint('wallet_id', { mode: 'number' }).references(() => users.id),
    platformAccount: varchar('platform_account', { length: 32 }).$type<PlatformAccount>(),
    amountFen: fen('amount_fen').notNull(),
    /** The wallet's balance right after this entry (null for platform entries): 收支明细 shows it. */
    balanceAfterFen: fen('balance_after_fen'),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_wallet_idx').on(t.walletId, t.createdAt),
    index('ledger_entries_transaction_idx').on(t.transactionId),
    check('ledger_entries_one_side', sql`(${t.walletId} is null) <> (${t.platformAccount} is null)`),
    check('ledger_entries_nonzero', sql`${t.amountFen} <> 0`),
    check(
      'ledger_entries_platform_account',
      sql`${t.platformAccount} is null or ${t.platformAccount} in ('revenue', 'payment_clearing', 'refunds', 'vouchers', 'gifts')`,
    ),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNo: varchar('order_no', { length: 32 }).notNull(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** The wallet that pays (the creator's, or the main account's when it shares its balance). */
    walletId: bigint('wallet_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    type: varchar('type', { length: 32 }).notNull(),
    status: varchar('status', { length: 16 }).notNull(),
    billingType: varchar('billing_type', { length: 16 }).notNull(),
    title: varchar('title', { length: 200 }).notNull(),
    items: jsonb('items').$type<OrderItem[]>().notNull(),
    originalAmountFen: fen('original_amount_fen').notNull(),
    discountFen: fen('discount_fen').notNull().default(0),
    /** What the wallet paid (original − voucher discount), once paid. */
    paidFen: fen('paid_fen').notNull().default(0),
    refundedFen: fen('refunded_fen').notNull().default(0),
    /** Metered charges posted against a PLACED usage order. */
    meteredFen: fen('metered_fen').notNull().default(0),
    voucherId: bigint('voucher_id', { mode: 'number' }),
    resourceType: varchar('resource_type', { length: 32 }),
    resourceId: varchar('resource_id', { length: 64 }),
    createdAt: createdAt(),
    paidAt: at('paid_at'),
    canceledAt: at('canceled_at'),
  },
  (t) => [
    uniqueIndex('orders_order_no_key').on(t.orderNo),
    index('orders_owner_created_idx').on(t.ownerId, t.createdAt),
    index('orders_resource_idx').on(t.resourceType, t.resourceId),
    index('orders_wallet_idx').on(t.walletId),
    check('orders_amounts', sql`${t.originalAmountFen} >= 0 and ${t.discountFen} >= 0 and ${t.paidFen} >= 0 and ${t.refundedFen} >= 0 and ${t.refundedFen} <= ${t.paidFen}`),
  ],
);

export interface OrderItem {
  name: string;
  spec: string;
  quantity: number;
  unit: string;
  unitPriceFen: number;
  amountFen: number;
}

export const recharges = pgTable(
  'recharges',
  {
    id: varchar('id', { length: 32 }).primaryKey(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    walletId: bigint('wallet_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    amountFen: fen('amount_fen').notNull(),
    channel: varchar('channel', { length: 16 }).notNull(),
    provider: varchar('provider', { length: 16 }).notNull(),
    status: varchar('status', { length: 16 }).notNull(),
    payUrl: text('pay_url'),
    qrCode: text('qr_code'),
    providerTradeNo: varchar('provider_trade_no', { length: 64 }),
    bankReference: varchar('bank_reference', { length: 64 }),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    paidAt: at('paid_at'),
  },
  (t) => [index('recharges_owner_created_idx').on(t.ownerId, t.createdAt), index('recharges_status_idx').on(t.status, t.createdAt)],
);

export const vouchers = pgTable(
  'vouchers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    name: varchar('name', { length: 64 }).notNull(),
    amountFen: fen('amount_fen').notNull(),
    minOrderFen: fen('min_order_fen').notNull().default(0),
    /** Order types it may pay; empty means every prepaid order type. */
    scope: text('scope').array().notNull().default(sql`'{}'::text[]`),
    validFrom: at('valid_from').notNull(),
    validTo: at('valid_to').notNull(),
    usedAt: at('used_at'),
    usedOrderId: bigint('used_order_id', { mode: 'number' }),
    source: varchar('source', { length: 16 }).notNull(),
    batchId: bigint('batch_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [index('vouchers_owner_idx').on(t.ownerId, t.validTo), check('vouchers_amount', sql`${t.amountFen} > 0`)],
);

/** A batch of codes or vouchers the operator issued. */
export const issueBatches = pgTable('issue_batches', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  kind: varchar('kind', { length: 16 }).notNull(),
  name: varchar('name', { length: 64 }).notNull(),
  operatorId: bigint('operator_id', { mode: 'number' })
    .notNull()
    .references(() => users.id),
  count: integer('count').notNull(),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
});

export const redemptionCodes = pgTable(
  'redemption_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    code: varchar('code', { length: 32 }).notNull(),
    batchId: bigint('batch_id', { mode: 'number' })
      .notNull()
      .references(() => issueBatches.id),
    /** VOUCHER: the code creates a voucher; BALANCE: it credits a balance gift. */
    kind: varchar('kind', { length: 16 }).notNull(),
    amountFen: fen('amount_fen').notNull(),
    minOrderFen: fen('min_order_fen').notNull().default(0),
    scope: text('scope').array().notNull().default(sql`'{}'::text[]`),
    voucherValidDays: smallint('voucher_valid_days').notNull().default(30),
    expiresAt: at('expires_at').notNull(),
    redeemedBy: bigint('redeemed_by', { mode: 'number' }).references(() => users.id),
    redeemedAt: at('redeemed_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('redemption_codes_code_key').on(t.code), index('redemption_codes_batch_idx').on(t.batchId)],
);

export const invoiceProfiles = pgTable('invoice_profiles', {
  ownerId: bigint('owner_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  titleType: varchar('title_type', { length: 16 }).notNull(),
  title: varchar('title', { length: 100 }).notNull(),
  taxNo: varchar('tax_no', { length: 32 }),
  bankName: varchar('bank_name', { length: 100 }),
  bankAccount: varchar('bank_account', { length: 40 }),
  address: varchar('address', { length: 200 }),
  phone: varchar('phone', { length: 32 }),
  email: varchar('email', { length: 100 }).notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

export const invoices = pgTable(
  'invoices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    type: varchar('type', { length: 16 }).notNull(),
    method: varchar('method', { length: 16 }).notNull(),
    status: varchar('status', { length: 16 }).notNull(),
    amountFen: fen('amount_fen').notNull(),
    profile: jsonb('profile').$type<Record<string, string | null>>().notNull(),
    invoiceNo: varchar('invoice_no', { length: 64 }),
    pdfPath: text('pdf_path'),
    rejectReason: text('reject_reason'),
    remark: text('remark'),
    createdAt: createdAt(),
    decidedAt: at('decided_at'),
  },
  (t) => [index('invoices_owner_created_idx').on(t.ownerId, t.createdAt), index('invoices_status_idx').on(t.status, t.createdAt)],
);

/** What an invoice covers: a recharge, or a month of consumption (yyyy-mm). */
export const invoiceItems = pgTable(
  'invoice_items',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    invoiceId: bigint('invoice_id', { mode: 'number' })
      .notNull()
      .references(() => invoices.id),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    rechargeId: varchar('recharge_id', { length: 32 }),
    billMonth: varchar('bill_month', { length: 7 }),
    amountFen: fen('amount_fen').notNull(),
  },
  (t) => [
    index('invoice_items_invoice_idx').on(t.invoiceId),
    index('invoice_items_recharge_idx').on(t.rechargeId),
    index('invoice_items_owner_month_idx').on(t.ownerId, t.billMonth),
  ],
);

/**
 * The answer to each keyed money-moving request. A row is inserted, filled and committed in the same
 * transaction as the work it answers for, so the key and the effect exist together or not at all.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    key: varchar('key', { length: 128 }).notNull(),
    route: varchar('route', { length: 128 }).notNull(),
    /** SHA-256 of the route and the request body: the same key with another body is refused. */
    fingerprint: varchar('fingerprint', { length: 64 }).notNull().default(''),
    statusCode: smallint('status_code').notNull(),
    response: jsonb('response').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: bigint('actor_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    action: varchar('action', { length: 64 }).notNull(),
    targetType: varchar('target_type', { length: 32 }).notNull(),
    targetId: varchar('target_id', { length: 64 }).notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_logs_created_idx').on(t.createdAt), index('audit_logs_target_idx').on(t.targetType, t.targetId)],
);
