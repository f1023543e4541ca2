import { and, desc, eq, lte, sql, type SQL } from 'drizzle-orm';
import { formatYuan, type Page, timePackPercent, timePackPriceFen, timePackRefundFen, type TimePackStatusValue } from '@slg/shared';
import type { TimePackBought, TimePackQuote, TimePackRefund, TimePackView } from '@slg/shared/views/elastic';
import type { AppDeps } from '../../deps.js';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';
import { gpuModels, timePacks, wallets } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { ownedBy, ownershipFor } from '../../db/scope.js';
import { payingWalletOf } from '../billing/ledger.js';
import { OrderService } from '../billing/orders.js';
import { paged, type PageQuery } from '../../http/pagination.js';

type TimePackRow = typeof timePacks.$inferSelect;
const DAY_MS = 86_400_000;

/**
 * Draws the time packs down for the open runs of elastic containers (already locked by the caller,
 * with their wallets) up to `now`: each container's seconds since its packs were last looked at are
 * paid from the packs of its wallet and GPU model as far as they reach — containers in id order,
 * `gpuNum` GPU-seconds per whole second, packs soonest to expire first — and the wallet pays for the
 * rest of the run (metering reads `run_pack_seconds`). Two statements whatever the number of
 * containers: for the metering pass, every container of its (locked) wallets not held by another
 * transaction; for a stop, the one container. Returns GPU-seconds drawn.
 */
export async function drawTimePacks(executor: Executor, now: Date, which: { walletIds: readonly number[] } | { instance: { id: number; walletId: number; gpuModelId: string } }): Promise<number> {
  const at = now.toISOString();
  const wallets = 'walletIds' in which ? which.walletIds : [which.instance.walletId];
  if (wallets.length === 0) return 0;
  const walletList = `{${wallets.join(',')}}`;
  // The metering pass takes the containers of its wallets that nobody else holds (a stop settling one draws for it); a stop, its own.
  const scope =
    'walletIds' in which
      ? sql`i.deployment_row_id is not null and i.run_started_at is not null and i.wallet_id = any(${walletList}::bigint[])`
      : sql`i.deployment_row_id is not null and i.run_started_at is not null and i.id = ${which.instance.id}`;
  const lockContainers = 'walletIds' in which ? sql`for update of i skip locked` : sql``;
  const drawable = sql`p.status = 'IN_USE' and p.balance_seconds > 0 and p.expires_at > ${at}::timestamptz and p.wallet_id = any(${walletList}::bigint[])
    ${'instance' in which ? sql`and p.gpu_model_id = ${which.instance.gpuModelId}` : sql``}`;
  // The packs first, locked in one order: every drawer (this pass, a stop's settlement) takes them alike.
  await executor.execute(sql`select p.id from time_packs p where ${drawable} order by p.id for update of p`);
  const [result] = rowsOf<{ drawn: number | string | null }>(
    await executor.execute(sql`
      with due as materialized (
        select i.id, i.wallet_id, i.gpu_model_id, i.gpu_num,
               floor(extract(epoch from (${at}::timestamptz - i.run_started_at)))::bigint - i.run_pack_checked_seconds as delta
        from instances i where ${scope}
        ${lockContainers}
      ),
      supply as (
        select p.wallet_id, p.gpu_model_id, sum(p.balance_seconds) as total from time_packs p where ${drawable} group by 1, 2
      ),
      ordered as (
        select d.*, coalesce(s.total, 0) as supply,
               coalesce(sum(d.delta * d.gpu_num) over (partition by d.wallet_id, d.gpu_model_id order by d.id rows between unbounded preceding and 1 preceding), 0) as before
        from due d left join supply s on s.wallet_id = d.wallet_id and s.gpu_model_id = d.gpu_model_id
        where d.delta > 0
      ),
      covered as (
        select o.id, o.wallet_id, o.gpu_model_id, o.delta, o.gpu_num,
               least(o.delta, greatest(0, o.supply - o.before) / o.gpu_num) as seconds
        from ordered o
      ),
      moved as (
        update instances i set run_pack_seconds = i.run_pack_seconds + c.seconds, run_pack_checked_seconds = i.run_pack_checked_seconds + c.delta
        from covered c where i.id = c.id
        returning i.id
      ),
      totals as (
        select wallet_id, gpu_model_id, sum(seconds * gpu_num) as total from covered group by 1, 2 having sum(seconds * gpu_num) > 0
      ),
      packs as (
        select p.id, p.wallet_id, p.gpu_model_id, p.balance_seconds,
               coalesce(sum(p.balance_seconds) over (partition by p.wallet_id, p.gpu_model_id order by p.expires_at, p.id rows between unbounded preceding and 1 preceding), 0) as before
        from time_packs p where ${drawable}
      ),
      drawn as (
        update time_packs p set balance_seconds = p.balance_seconds - least(k.balance_seconds, t.total - k.before), updated_at = ${at}::timestamptz
        from packs k join totals t on t.wallet_id = k.wallet_id and t.gpu_model_id = k.gpu_model_id
        where p.id = k.id and t.total > k.before
        returning least(k.balance_seconds, t.total - k.before) as amount
      )
      select (select sum(amount) from drawn) as drawn, (select count(*) from moved) as moved`),
  );
  return Number(result?.drawn ?? 0);
}

function toView(row: TimePackRow, gpuModelName: string): TimePackView {
  return {
    id: row.id,
    gpuModelId: row.gpuModelId,
    gpuModelName,
    hours: row.hours,
    totalSeconds: row.totalSeconds,
    balanceSeconds: row.balanceSeconds,
    status: row.status as TimePackStatusValue,
    expiresAt: row.expiresAt.toISOString(),
    paidFen: row.paidFen,
    refundedFen: row.refundedFen,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * 时长包: buying (order NEW_TIME_PACKAGE, paid from the balance at once), listing, the refund of the
 * unused part pro rata (preview and apply compute the same figure, under the pack's lock), and expiry.
 */
export class TimePackService {
  private readonly orders: OrderService;

  constructor(private readonly deps: AppDeps) {
    this.orders = new OrderService(deps.now);
  }

  private get db() {
    return this.deps.database.db;
  }

  async list(principal: Principal, query: PageQuery & { status?: TimePackStatusValue | undefined }): Promise<Page<TimePackView>> {
    const conditions: SQL[] = [ownedBy(principal, 'ELASTIC', timePacks)];
    if (query.status) conditions.push(eq(timePacks.status, query.status));
    const where = and(...conditions);
    return paged(
      query,
      (limit, offset) =>
        this.db
          .select({ pack: timePacks, gpuModelName: gpuModels.name })
          .from(timePacks)
          .innerJoin(gpuModels, eq(gpuModels.id, timePacks.gpuModelId))
          .where(where)
          .orderBy(desc(timePacks.createdAt), desc(timePacks.id))
          .limit(limit)
          .offset(offset),
      async () => (await this.db.select({ total: sql<number>`count(*)::int` }).from(timePacks).where(where))[0]?.total ?? 0,
      (rows) => rows.map((row) => toView(row.pack, row.gpuModelName)),
    );
  }

  private async model(executor: Executor, gpuModelId: string): Promise<{ name: string; priceFen: number }> {
    const [model] = await executor.select({ name: gpuModels.name, priceFen: gpuModels.pricePerHourFen }).from(gpuModels).where(eq(gpuModels.id, gpuModelId));
    if (!model) throw new AppError('NOT_FOUND', 'GPU型号不存在');
    return model;
  }

  async quote(gpuModelId: string, hours: number): Promise<TimePackQuote> {
    const model = await this.model(this.db, gpuModelId);
    return { priceFen: timePackPriceFen(model.priceFen, hours), pricePerGpuHourFen: model.priceFen };
  }

  async buy(principal: Principal, input: { gpuModelId: string; hours: number; validDays: number }): Promise<TimePackBought> {
    const owner = ownershipFor(principal, 'ELASTIC');
    return this.db.transaction(async (tx) => {
      const model = await this.model(tx, input.gpuModelId);
      const walletId = await payingWalletOf(tx, principal);
      // The wallet first, as every balance change (and the metering pass, which then locks packs).
      await tx.select({ id: wallets.accountId }).from(wallets).where(eq(wallets.accountId, walletId)).for('update');
      const now = this.deps.now();
      const priceFen = timePackPriceFen(model.priceFen, input.hours);
      const percent = timePackPercent(input.hours);
      const order = await this.orders.open(tx, {
        ...owner,
        walletId,
        type: 'NEW_TIME_PACKAGE',
        billingType: 'BUYOUT',
        title: `购买时长包 ${model.name} ${input.hours} 卡时（${input.validDays} 天有效）`,
        items: [
          {
            name: `${model.name} 时长包`,
            spec: `${input.hours} 卡时，${input.validDays} 天有效${percent < 100 ? `，${percent / 10}折` : ''}`,
            quantity: input.hours,
            unit: '卡时',
            unitPriceFen: model.priceFen,
            amountFen: priceFen,
          },
        ],
        resourceType: 'TIME_PACK',
      });
      let paid;
      try {
        paid = await this.orders.pay(tx, order.id, { mode: 'none' });
      } catch (error) {
        if (!(error instanceof AppError) || error.codeName !== 'INSUFFICIENT_BALANCE') throw error;
        const [wallet] = await tx.select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, walletId));
        throw new AppError('INSUFFICIENT_BALANCE', `账户余额不足：时长包需支付${formatYuan(priceFen)}，当前余额${formatYuan(wallet?.balance ?? 0)}，请先充值`);
      }
      const totalSeconds = input.hours * 3600;
      const [pack] = await tx
        .insert(timePacks)
        .values({
          ...owner,
          walletId,
          gpuModelId: input.gpuModelId,
          hours: input.hours,
          validDays: input.validDays,
          totalSeconds,
          balanceSeconds: totalSeconds,
          status: 'IN_USE',
          expiresAt: new Date(now.getTime() + input.validDays * DAY_MS),
          paidFen: paid.paidFen,
          orderId: paid.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: timePacks.id });
      if (!pack) throw new Error('time pack insert returned nothing');
      return { id: pack.id, orderId: paid.orderNo };
    });
  }

  private async owned(executor: Executor, principal: Principal, id: number, lock: boolean): Promise<TimePackRow> {
    const query = executor.select().from(timePacks).where(and(ownedBy(principal, 'ELASTIC', timePacks), eq(timePacks.id, id)));
    const [pack] = lock ? await query.for('update') : await query;
    if (!pack) throw new AppError('NOT_FOUND', '时长包不存在');
    return pack;
  }

  private refundOf(pack: TimePackRow): TimePackRefund {
    if (pack.status !== 'IN_USE') {
      throw new AppError('STATE_CONFLICT', pack.status === 'REFUNDED' ? '该时长包已退款' : '该时长包已过期，不能退款');
    }
    const refund = timePackRefundFen(pack.paidFen, pack.balanceSeconds, pack.totalSeconds);
    return { paid: pack.paidFen, used: pack.paidFen - refund, refund };
  }

  async refundPreview(principal: Principal, id: number): Promise<TimePackRefund> {
    return this.refundOf(await this.owned(this.db, principal, id, false));
  }

  /**
   * Refunds the unused part: the wallet is locked before the pack (the metering pass's order), the
   * pack's balance is read under its lock, so what is refunded is exactly what a preview at that
   * moment shows, and no container draws from it afterwards.
   */
  async refund(principal: Principal, id: number): Promise<TimePackRefund> {
    return this.db.transaction(async (tx) => {
      const [unlocked] = await tx.select({ walletId: timePacks.walletId }).from(timePacks).where(and(ownedBy(principal, 'ELASTIC', timePacks), eq(timePacks.id, id)));
      if (!unlocked) throw new AppError('NOT_FOUND', '时长包不存在');
      await tx.select({ id: wallets.accountId }).from(wallets).where(eq(wallets.accountId, unlocked.walletId)).for('update');
      const pack = await this.owned(tx, principal, id, true);
      const result = this.refundOf(pack);
      if (result.refund > 0 && pack.orderId !== null) {
        await this.orders.refund(tx, pack.orderId, result.refund, `退订时长包，退回未使用的 ${(pack.balanceSeconds / 3600).toFixed(2)} 卡时`);
      }
      await tx
        .update(timePacks)
        .set({ status: 'REFUNDED', balanceSeconds: 0, refundedFen: result.refund, updatedAt: this.deps.now() })
        .where(eq(timePacks.id, pack.id));
      return result;
    });
  }

  /** Packs past their validity expire (what is left of them is gone). Returns how many. */
  async expire(): Promise<number> {
    const now = this.deps.now();
    const expired = await this.db
      .update(timePacks)
      .set({ status: 'EXPIRED', updatedAt: now })
      .where(and(eq(timePacks.status, 'IN_USE'), lte(timePacks.expiresAt, now)))
      .returning({ id: timePacks.id });
    return expired.length;
  }
}

