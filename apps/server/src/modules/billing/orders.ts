import { and, asc, desc, eq, gt, gte, isNull, lte, or, sql } from 'drizzle-orm';
import type { OrderBillingTypeValue, OrderTypeValue } from '@slg/shared';
import type { Executor, Transaction } from '../../db/client.js';
import { orders, vouchers, type OrderItem } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import { assertPositiveFen, postTransaction } from './ledger.js';
import { newOrderNo } from './numbers.js';

export type Order = typeof orders.$inferSelect;
export type Voucher = typeof vouchers.$inferSelect;

export interface OpenOrderInput {
  ownerId: number;
  creatorId: number;
  walletId: number;
  type: OrderTypeValue;
  billingType: OrderBillingTypeValue;
  title: string;
  items: OrderItem[];
  resourceType?: string;
  resourceId?: string;
}

/** How a prepaid order picks its voucher: the best one, a given one, or none. */
export type VoucherChoice = { mode: 'best' } | { mode: 'none' } | { mode: 'use'; voucherId: number };


/** The part of a voucher an order can use: its amount, never more than the order. */
export function voucherDiscount(voucher: Pick<Voucher, 'amountFen'>, orderAmountFen: number): number {
  return Math.min(voucher.amountFen, orderAmountFen);
}

export function voucherApplies(voucher: Voucher, order: Pick<Order, 'type' | 'originalAmountFen' | 'ownerId'>, now: Date): boolean {
  return (
    voucher.ownerId === order.ownerId &&
    voucher.usedAt === null &&
    voucher.validFrom.getTime() <= now.getTime() &&
    voucher.validTo.getTime() > now.getTime() &&
    order.originalAmountFen >= voucher.minOrderFen &&
    order.originalAmountFen > 0 &&
    (voucher.scope.length === 0 || voucher.scope.includes(order.type))
  );
}

/** Most money off first; of equals, the one that expires soonest. */
export function bestVoucher(candidates: Voucher[], orderAmountFen: number): Voucher | undefined {
  return [...candidates].sort(
    (a, b) => voucherDiscount(b, orderAmountFen) - voucherDiscount(a, orderAmountFen) || a.validTo.getTime() - b.validTo.getTime(),
  )[0];
}

/**
 * Orders and their money, for every module: each call takes the caller's transaction so the order,
 * its ledger entries and the resource change commit together.
 */
export class OrderService {
  constructor(private readonly now: () => Date) {}

  async open(tx: Transaction, input: OpenOrderInput): Promise<Order> {
    const amount = input.items.reduce((total, item) => total + item.amountFen, 0);
    if (!Number.isSafeInteger(amount) || amount < 0) throw new AppError('AMOUNT_INVALID');
    const now = this.now();
    for (let attempt = 0; ; attempt += 1) {
      try {
        // A savepoint, so a colliding order number can be retried without losing the caller's transaction.
        return await tx.transaction(async (savepoint) => {
          const [order] = await savepoint
            .insert(orders)
            .values({
              orderNo: newOrderNo(now),
              ownerId: input.ownerId,
              creatorId: input.creatorId,
              walletId: input.walletId,
              type: input.type,
              status: input.billingType === 'USAGE' ? 'PLACED' : 'UNPAID',
              billingType: input.billingType,
              title: input.title,
              items: input.items,
              originalAmountFen: amount,
              resourceType: input.resourceType ?? null,
              resourceId: input.resourceId ?? null,
              createdAt: now,
            })
            .returning();
          if (!order) throw new Error('order insert returned nothing');
          return order;
        });
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 4) throw error;
      }
    }
  }

  private async lockOrder(tx: Transaction, orderId: number): Promise<Order> {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!order) throw new AppError('NOT_FOUND', '订单不存在');
    return order;
  }

  /** Vouchers of the owner that could pay this order now, best first. */
  async applicableVouchers(tx: Transaction, order: Order): Promise<Voucher[]> {
    const now = this.now();
    const rows = await tx
      .select()
      .from(vouchers)
      .where(
        and(
          eq(vouchers.ownerId, order.ownerId),
          isNull(vouchers.usedAt),
          lte(vouchers.validFrom, now),
          gt(vouchers.validTo, now),
          lte(vouchers.minOrderFen, order.originalAmountFen),
          or(sql`cardinality(${vouchers.scope}) = 0`, sql`${order.type} = any(${vouchers.scope})`),
        ),
      )
      .orderBy(desc(vouchers.amountFen), asc(vouchers.validTo));
    return rows.filter((voucher) => voucherApplies(voucher, order, now));
  }

  /** What a voucher would take off an order not opened yet (refused as `pay` would refuse it). */
  async previewVoucher(executor: Executor, order: Pick<Order, 'type' | 'ownerId'> & { amountFen: number }, voucherId: number): Promise<number> {
    const [voucher] = await executor.select().from(vouchers).where(eq(vouchers.id, voucherId));
    if (!voucher || !voucherApplies(voucher, { type: order.type, ownerId: order.ownerId, originalAmountFen: order.amountFen }, this.now())) {
      throw new AppError('VOUCHER_UNAVAILABLE');
    }
    return voucherDiscount(voucher, order.amountFen);
  }

  /**
   * Pays an UNPAID prepaid order from its wallet, with at most one voucher. The voucher is claimed
   * with a conditional update, so two orders racing for it cannot both use it.
   */
  async pay(tx: Transaction, orderId: number, choice: VoucherChoice = { mode: 'best' }): Promise<Order> {
    const order = await this.lockOrder(tx, orderId);
    if (order.status !== 'UNPAID') throw new AppError('STATE_CONFLICT', `订单当前状态为${order.status}，不能支付`);
    const now = this.now();

    let voucher: Voucher | undefined;
    if (choice.mode === 'best') {
      voucher = bestVoucher(await this.applicableVouchers(tx, order), order.originalAmountFen);
    } else if (choice.mode === 'use') {
      const [chosen] = await tx.select().from(vouchers).where(eq(vouchers.id, choice.voucherId));
      if (!chosen || !voucherApplies(chosen, order, now)) throw new AppError('VOUCHER_UNAVAILABLE');
      voucher = chosen;
    }
    let discount = 0;
    if (voucher) {
      const claimed = await tx
        .update(vouchers)
        .set({ usedAt: now, usedOrderId: order.id })
        .where(and(eq(vouchers.id, voucher.id), isNull(vouchers.usedAt), gte(vouchers.validTo, now)))
        .returning({ id: vouchers.id });
      if (claimed.length === 0) throw new AppError('VOUCHER_UNAVAILABLE');
      discount = voucherDiscount(voucher, order.originalAmountFen);
    }
    const payable = order.originalAmountFen - discount;
    const lines = [
      ...(payable > 0 ? [{ wallet: order.walletId, amountFen: -payable }] : []),
      ...(discount > 0 ? [{ platform: 'vouchers' as const, amountFen: -discount }] : []),
      ...(order.originalAmountFen > 0 ? [{ platform: 'revenue' as const, amountFen: order.originalAmountFen }] : []),
    ];
    if (lines.length > 1) {
      await postTransaction(tx, {
        type: 'CONSUME',
        channel: payable > 0 ? 'BALANCE' : 'VOUCHER',
        description: order.title,
        orderId: order.id,
        lines,
        now,
      });
    }
    const [paid] = await tx
      .update(orders)
      .set({ status: 'PAID', paidFen: payable, discountFen: discount, voucherId: voucher?.id ?? null, paidAt: now })
      .where(eq(orders.id, order.id))
      .returning();
    if (!paid) throw new Error('order update returned nothing');
    return paid;
  }

  async cancel(tx: Transaction, orderId: number): Promise<Order> {
    const order = await this.lockOrder(tx, orderId);
    if (order.status !== 'UNPAID') throw new AppError('STATE_CONFLICT', '只有待支付的订单可以取消');
    const [canceled] = await tx
      .update(orders)
      .set({ status: 'CANCELED', canceledAt: this.now() })
      .where(eq(orders.id, order.id))
      .returning();
    if (!canceled) throw new Error('order update returned nothing');
    return canceled;
  }

  /** Refunds part or all of what the wallet paid (never the voucher part) back to the wallet. */
  async refund(tx: Transaction, orderId: number, amountFen: number, reason: string): Promise<Order> {
    assertPositiveFen(amountFen);
    const order = await this.lockOrder(tx, orderId);
    if (order.status !== 'PAID') throw new AppError('STATE_CONFLICT', '只有已支付的订单可以退款');
    const refundable = order.paidFen - order.refundedFen;
    if (amountFen > refundable) throw new AppError('AMOUNT_INVALID', `退款金额超过可退金额（${refundable} 分）`);
    await postTransaction(tx, {
      type: 'REFUND',
      channel: 'BALANCE',
      description: `${order.title}：${reason}`,
      orderId: order.id,
      lines: [
        { wallet: order.walletId, amountFen },
        { platform: 'revenue', amountFen: -amountFen },
      ],
      now: this.now(),
    });
    const refundedFen = order.refundedFen + amountFen;
    const [updated] = await tx
      .update(orders)
      .set({ refundedFen, status: refundedFen === order.paidFen ? 'REFUNDED' : 'PAID' })
      .where(eq(orders.id, order.id))
      .returning();
    if (!updated) throw new Error('order update returned nothing');
    return updated;
  }

  /**
   * A usage charge (per-second billing settles through here). It may take the wallet below zero:
   * arrears are handled by the instance module, not refused here.
   */
  async postMetered(tx: Transaction, input: { walletId: number; amountFen: number; description: string; orderId?: number }): Promise<void> {
    assertPositiveFen(input.amountFen);
    if (input.orderId !== undefined) {
      const order = await this.lockOrder(tx, input.orderId);
      if (order.status !== 'PLACED') throw new AppError('STATE_CONFLICT', '只有按量订单可以计量扣费');
      await tx
        .update(orders)
        .set({ meteredFen: sql`${orders.meteredFen} + ${input.amountFen}` })
        .where(eq(orders.id, order.id));
    }
    await postTransaction(tx, {
      type: 'CONSUME',
      channel: 'BALANCE',
      description: input.description,
      orderId: input.orderId,
      lines: [
        { wallet: input.walletId, amountFen: -input.amountFen },
        { platform: 'revenue', amountFen: input.amountFen },
      ],
      allowNegative: true,
      now: this.now(),
    });
  }

  /** Moves money between two wallets (a main account funding or deducting a sub-account). */
  async transfer(tx: Transaction, input: { fromWalletId: number; toWalletId: number; amountFen: number; description: string }): Promise<void> {
    assertPositiveFen(input.amountFen);
    if (input.fromWalletId === input.toWalletId) throw new AppError('VALIDATION', '不能向同一个账户转账');
    await postTransaction(tx, {
      type: 'TRANSFER',
      channel: 'BALANCE',
      description: input.description,
      lines: [
        { wallet: input.fromWalletId, amountFen: -input.amountFen },
        { wallet: input.toWalletId, amountFen: input.amountFen },
      ],
      now: this.now(),
    });
  }
}
