import { eq, sql, type SQL } from 'drizzle-orm';
import { runCharge } from '@slg/shared';
import type { Database, Transaction } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';
import { instances, wallets } from '../../db/schema/index.js';
import { drawTimePacks } from '../elastic/time-packs.js';
import { OrderService } from '../billing/orders.js';

export type InstanceRow = typeof instances.$inferSelect;

const METERED_PREFIX = '按量计费：';
const NO_GPU_SUFFIX = '，无卡模式';

/** The words a metered charge carries into 收支明细 and 账单明细. */
export function meteredDescription(instance: Pick<InstanceRow, 'name' | 'instanceId' | 'gpuMode'>): string {
  return `${METERED_PREFIX}${instance.name}（${instance.instanceId}${instance.gpuMode === 'nogpu' ? NO_GPU_SUFFIX : ''}）`;
}

/** `meteredDescription` in SQL, over an instances row aliased `alias`. */
function meteredDescriptionSql(alias: string): SQL {
  const column = (name: string) => sql.raw(`${alias}.${name}`);
  return sql`${METERED_PREFIX} || ${column('name')} || '（' || ${column('instance_id')} || case when ${column('gpu_mode')} = 'nogpu' then ${NO_GPU_SUFFIX} else '' end || '）'`;
}

/**
 * `runCharge(rate, seconds the wallet pays)` in SQL, over an instances row aliased `alias`: the whole
 * seconds since the run started less those time packs paid for.
 */
function runChargeSql(alias: string, now: Date): SQL {
  const rate = sql.raw(`${alias}.run_rate_fen`);
  const seconds = sql`(floor(extract(epoch from (${now.toISOString()}::timestamptz - ${sql.raw(`${alias}.run_started_at`)})))::bigint - ${sql.raw(`${alias}.run_pack_seconds`)})`;
  return sql`(case when ${seconds} <= 0 or ${rate} <= 0 then 0::bigint else greatest(1::bigint, (${rate}::bigint * ${seconds} + 1800) / 3600) end)`;
}

export interface MeteringPassResult {
  /** Instances charged in this pass. */
  instances: number;
  /** Fen charged in total. */
  fen: number;
  /** Wallets charged. */
  wallets: number;
}

/**
 * Settles every open run up to `now` in one database transaction and a handful of statements, however
 * many instances run (DESIGN §7). Each instance is charged `runCharge(rate, seconds) − run_charged_fen`,
 * exactly what `settleRun` would charge, so a run's settlements add up to its final charge whichever
 * of the two settles when.
 *
 * 1. The wallets of running instances are locked in id order (as `postTransaction` does), so their
 *    balances are stable for the rest of the pass and two passes, or a pass and a payment, never deadlock.
 * 2. One statement then takes the due instances of those wallets `FOR UPDATE SKIP LOCKED` — one a
 *    power-off (or another pass) is settling right now is skipped: that settlement covers it — bumps
 *    their `run_charged_fen` to the target, and writes per instance a balanced CONSUME transaction (the
 *    wallet's entry with its balance after, and the revenue line) linked to the instance's usage order,
 *    moves each wallet by its total and each order's `metered_fen` by its amount.
 * The pass never waits for an instance lock, so its wallet-then-instance order cannot deadlock with a
 * power-off's instance-then-wallet order.
 */
export async function meterOpenRuns(db: Database, now: Date): Promise<MeteringPassResult> {
  return db.transaction(async (tx) => {
    const [locked] = rowsOf<{ ids: string | null }>(
      await tx.execute(sql`
        select string_agg(account_id::text, ',' order by account_id) as ids from (
          select account_id from wallets
          where account_id in (select wallet_id from instances where run_started_at is not null)
          order by account_id
          for update
        ) locked`),
    );
    if (!locked?.ids) return { instances: 0, fen: 0, wallets: 0 };
    // Elastic containers of those wallets draw their time packs first (one a stop is settling right now is skipped: the stop draws for it).
    await drawTimePacks(tx, now, { walletIds: locked.ids.split(',').map(Number) });
    const at = now.toISOString();
    const target = runChargeSql('i', now);
    const [result] = rowsOf<{ instances: number | string; fen: number | string | null; wallets: number | string }>(
      await tx.execute(sql`
        with candidates as (
          select i.id, i.run_charged_fen as charged, ${target} as target
          from instances i
          where i.run_started_at is not null
            and i.wallet_id = any(string_to_array(${locked.ids}, ',')::bigint[])
            and ${target} > i.run_charged_fen
          for update of i skip locked
        ),
        due as (
          update instances i set run_charged_fen = c.target
          from candidates c
          where i.id = c.id
          returning i.id, i.wallet_id, i.usage_order_id, ${meteredDescriptionSql('i')} as description, c.target - c.charged as amount
        ),
        numbered as materialized (
          select d.*, nextval('ledger_transactions_id_seq') as transaction_id,
                 sum(d.amount) over (partition by d.wallet_id order by d.id) as spent
          from due d
        ),
        ledger_rows as (
          insert into ledger_transactions (id, type, channel, description, order_id, created_at)
          select n.transaction_id, 'CONSUME', 'BALANCE', n.description, n.usage_order_id, ${at}::timestamptz from numbered n
        ),
        entry_rows as (
          insert into ledger_entries (transaction_id, wallet_id, platform_account, amount_fen, balance_after_fen, created_at)
          select n.transaction_id, n.wallet_id, null, -n.amount, w.balance_fen - n.spent, ${at}::timestamptz
          from numbered n join wallets w on w.account_id = n.wallet_id
          union all
          select n.transaction_id, null, 'revenue', n.amount, null, ${at}::timestamptz from numbered n
        ),
        moved_wallets as (
          update wallets w set balance_fen = w.balance_fen - t.total, updated_at = ${at}::timestamptz
          from (select wallet_id, sum(amount) as total from numbered group by wallet_id) t
          where w.account_id = t.wallet_id
          returning w.account_id
        ),
        metered_orders as (
          update orders o set metered_fen = o.metered_fen + n.amount
          from numbered n
          where o.id = n.usage_order_id
          returning o.id
        )
        select (select count(*) from numbered) as instances,
               (select sum(amount) from numbered) as fen,
               (select count(*) from moved_wallets) as wallets`),
    );
    return { instances: Number(result?.instances ?? 0), fen: Number(result?.fen ?? 0), wallets: Number(result?.wallets ?? 0) };
  });
}

/** Whole seconds the run has lasted at `now`. */
export function runSeconds(runStartedAt: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - runStartedAt.getTime()) / 1000));
}

/**
 * Settles the open run of one instance up to `now`, inside the caller's transaction with the instance
 * row locked: charges what the run costs so far minus what was settled of it, so the settlements of a
 * run always add up to `runCharge(rate, seconds)` whatever their moments. `close` ends the run (a stop).
 * Returns the fen charged now.
 */
export async function settleRun(tx: Transaction, instance: InstanceRow, now: Date, options: { close: boolean }): Promise<number> {
  if (!instance.runStartedAt) return 0;
  let packSeconds = instance.runPackSeconds;
  if (instance.deploymentRowId !== null) {
    // The wallet before the packs, as the metering pass locks them.
    await tx.select({ id: wallets.accountId }).from(wallets).where(eq(wallets.accountId, instance.walletId)).for('update');
    await drawTimePacks(tx, now, { instance });
    const [drawn] = await tx.select({ packSeconds: instances.runPackSeconds }).from(instances).where(eq(instances.id, instance.id));
    packSeconds = drawn?.packSeconds ?? packSeconds;
  }
  const target = runCharge(instance.runRateFen, runSeconds(instance.runStartedAt, now) - packSeconds);
  const due = target - instance.runChargedFen;
  if (due > 0) {
    await new OrderService(() => now).postMetered(tx, {
      walletId: instance.walletId,
      amountFen: due,
      description: meteredDescription(instance),
      ...(instance.usageOrderId !== null ? { orderId: instance.usageOrderId } : {}),
    });
  }
  await tx
    .update(instances)
    .set(
      options.close
        ? {
            runStartedAt: null,
            runRateFen: 0,
            runChargedFen: 0,
            runPackSeconds: 0,
            runPackCheckedSeconds: 0,
            totalChargedFen: instance.totalChargedFen + Math.max(target, instance.runChargedFen),
            totalPackSeconds: instance.totalPackSeconds + packSeconds,
            ranSeconds: instance.ranSeconds + runSeconds(instance.runStartedAt, now),
            updatedAt: now,
          }
        : { runChargedFen: Math.max(target, instance.runChargedFen), updatedAt: now },
    )
    .where(eq(instances.id, instance.id));
  return Math.max(0, due);
}
