import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { gpuModels } from './meta.js';

const at = (name: string) => timestamp(name, { withTimezone: true });

/** A port an elastic deployment's containers publish (1 http, 2 tcp). */
export interface ElasticPort {
  port: number;
  protocol: 1 | 2;
}

/**
 * 弹性部署: desired state over containers, which are instances (`instances.deployment_row_id`) of the
 * same fabric. The controller (modules/elastic/controller.ts) places, replaces and ends them.
 * `templateVersion` grows with each edit of what a container runs; containers of an older version are
 * replaced one at a time.
 */
export const elasticDeployments = pgTable(
  'elastic_deployments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    uid: uuid('uid').notNull(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    walletId: bigint('wallet_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    name: varchar('name', { length: 64 }).notNull(),
    type: varchar('type', { length: 16 }).notNull(),
    status: varchar('status', { length: 16 }).notNull(),
    /** Why the platform stopped it (arrears, a failed job), or why it finished. */
    statusReason: text('status_reason'),
    locked: boolean('locked').notNull().default(false),
    imageId: varchar('image_id', { length: 96 }).notNull(),
    gpuNum: integer('gpu_num').notNull(),
    replicaNum: integer('replica_num').notNull(),
    parallelismNum: integer('parallelism_num').notNull(),
    zoneIds: text('zone_ids').array().notNull().default(sql`'{}'::text[]`),
    gpuModelIds: text('gpu_model_ids').array().notNull().default(sql`'{}'::text[]`),
    cudaMin: varchar('cuda_min', { length: 16 }),
    priceMaxFen: integer('price_max_fen'),
    cmd: text('cmd'),
    env: jsonb('env').$type<Record<string, string>>().notNull().default({}),
    ports: jsonb('ports').$type<ElasticPort[]>().notNull().default([]),
    templateVersion: integer('template_version').notNull().default(1),
    /** A job's containers that exited 0, and those that failed (a job fails after JOB_MAX_RETRIES retries). */
    succeededNum: integer('succeeded_num').notNull().default(0),
    failedNum: integer('failed_num').notNull().default(0),
    /** Containers ever placed (a temporary container's deployment places one). */
    placedNum: integer('placed_num').notNull().default(0),
    /** Why containers wait in 创建中 (which filter has no stock); null when none waits. */
    waitingReason: text('waiting_reason'),
    waitingNum: integer('waiting_num').notNull().default(0),
    /** The PLACED NEW_FLEXIBLE_DEPLOYMENT order the containers' charges accrue on. */
    orderId: bigint('order_id', { mode: 'number' }),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    finishedAt: at('finished_at'),
    /** Deleted: stopped, then hidden from the list once its containers are gone (kept as a record). */
    deletedAt: at('deleted_at'),
  },
  (t) => [
    uniqueIndex('elastic_deployments_uid_key').on(t.uid),
    uniqueIndex('elastic_deployments_owner_name_key').on(t.ownerId, t.name).where(sql`${t.deletedAt} is null`),
    index('elastic_deployments_owner_idx').on(t.ownerId, t.createdAt).where(sql`${t.deletedAt} is null`),
    // What the controller works on.
    index('elastic_deployments_active_idx').on(t.id).where(sql`${t.status} in ('RUNNING', 'STOPPING')`),
    index('elastic_deployments_wallet_active_idx').on(t.walletId).where(sql`${t.status} = 'RUNNING'`),
    check('elastic_deployments_sizes', sql`${t.gpuNum} >= 1 and ${t.replicaNum} >= 0 and ${t.parallelismNum} >= 1`),
  ],
);

/** What happened to a deployment (created, edited, waiting for stock, stopped…), shown on its page. */
export const elasticEvents = pgTable(
  'elastic_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deploymentRowId: bigint('deployment_row_id', { mode: 'number' })
      .notNull()
      .references(() => elasticDeployments.id),
    type: varchar('type', { length: 32 }).notNull(),
    detail: text('detail').notNull(),
    actorId: bigint('actor_id', { mode: 'number' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('elastic_events_deployment_idx').on(t.deploymentRowId, t.createdAt)],
);

/**
 * 时长包: GPU-seconds of one GPU model, prepaid by a wallet for a validity period. Running elastic
 * containers of that model paid by that wallet draw them down by the second before the wallet pays.
 */
export const timePacks = pgTable(
  'time_packs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    creatorId: bigint('creator_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    walletId: bigint('wallet_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    gpuModelId: varchar('gpu_model_id', { length: 32 })
      .notNull()
      .references(() => gpuModels.id),
    hours: integer('hours').notNull(),
    validDays: smallint('valid_days').notNull(),
    totalSeconds: bigint('total_seconds', { mode: 'number' }).notNull(),
    balanceSeconds: bigint('balance_seconds', { mode: 'number' }).notNull(),
    /** IN_USE, EXPIRED, REFUNDED. */
    status: varchar('status', { length: 16 }).notNull(),
    expiresAt: at('expires_at').notNull(),
    paidFen: bigint('paid_fen', { mode: 'number' }).notNull(),
    refundedFen: bigint('refunded_fen', { mode: 'number' }).notNull().default(0),
    orderId: bigint('order_id', { mode: 'number' }),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('time_packs_owner_idx').on(t.ownerId, t.createdAt),
    index('time_packs_drawable_idx').on(t.walletId, t.gpuModelId, t.expiresAt).where(sql`${t.status} = 'IN_USE' and ${t.balanceSeconds} > 0`),
    index('time_packs_expiry_idx').on(t.expiresAt).where(sql`${t.status} = 'IN_USE'`),
    check('time_packs_balance', sql`${t.balanceSeconds} >= 0 and ${t.balanceSeconds} <= ${t.totalSeconds} and ${t.paidFen} >= 0 and ${t.refundedFen} >= 0`),
  ],
);
