import { and, asc, desc, eq, gte, like, lt } from 'drizzle-orm';
import type { OrderDetail, OrderSummary, VoucherView } from '@slg/shared/views/billing';
import type { Database, Executor } from '../../db/client.js';
import { ledgerEntries, ledgerTransactions, orders, vouchers } from '../../db/schema/index.js';
import { ownedBy } from '../../db/scope.js';
import { AppError } from '../../core/errors.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import type { Principal } from '../../core/principal.js';
import type { Order, Voucher } from './orders.js';

/** The answers' shapes: the schemas in packages/shared (views/billing), which the console reads too. */
export type { OrderDetail, OrderSummary, VoucherView };

export function toOrderSummary(order: Order): OrderSummary {
  return {
    orderNo: order.orderNo,
    type: order.type,
    status: order.status,
    billingType: order.billingType,
    title: order.title,
    originalAmount: order.originalAmountFen,
    discount: order.discountFen,
    paidAmount: order.paidFen,
    refundedAmount: order.refundedFen,
    meteredAmount: order.meteredFen,
    createdAt: order.createdAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
  };
}

export function toVoucherView(voucher: Voucher, now: Date, usedOrderNo: string | null = null): VoucherView {
  const status = voucher.usedAt ? 'USED' : voucher.validTo.getTime() <= now.getTime() ? 'EXPIRED' : 'UNUSED';
  return {
    id: voucher.id,
    name: voucher.name,
    amount: voucher.amountFen,
    minOrderAmount: voucher.minOrderFen,
    scope: voucher.scope,
    validFrom: voucher.validFrom.toISOString(),
    validTo: voucher.validTo.toISOString(),
    status,
    usedAt: voucher.usedAt?.toISOString() ?? null,
    usedOrderNo,
  };
}

export interface OrderFilter extends PageQuery {
  status?: string | undefined;
  type?: string | undefined;
  orderNo?: string | undefined;
  startTime?: string | undefined;
  endTime?: string | undefined;
}

const scopeOf = (principal: Principal) => ownedBy(principal, 'INVOICE', { ownerId: orders.ownerId, creatorId: orders.creatorId });

export async function listOrders(db: Database, principal: Principal, filter: OrderFilter) {
  const where = and(
    scopeOf(principal),
    filter.status ? eq(orders.status, filter.status) : undefined,
    filter.type ? eq(orders.type, filter.type) : undefined,
    filter.orderNo ? like(orders.orderNo, `${filter.orderNo.replace(/[^0-9]/g, '')}%`) : undefined,
    filter.startTime ? gte(orders.createdAt, new Date(filter.startTime)) : undefined,
    filter.endTime ? lt(orders.createdAt, new Date(filter.endTime)) : undefined,
  );
  return paged(
    filter,
    (limit, offset) => db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).limit(limit).offset(offset),
    () => db.$count(orders, where),
    (rows) => rows.map(toOrderSummary),
  );
}

/** The caller's order by number, or 404 (an order of another account is not found, not forbidden). */
export async function findOrder(executor: Executor, principal: Principal, orderNo: string): Promise<Order> {
  const [order] = await executor
    .select()
    .from(orders)
    .where(and(eq(orders.orderNo, orderNo), scopeOf(principal)));
  if (!order) throw new AppError('NOT_FOUND', '订单不存在');
  return order;
}

/** The order with its items, voucher and money movements. One query after the other: `executor` may be a transaction. */
export async function orderDetail(executor: Executor, order: Order): Promise<OrderDetail> {
  const voucherRows = order.voucherId
    ? await executor.select({ id: vouchers.id, name: vouchers.name }).from(vouchers).where(eq(vouchers.id, order.voucherId))
    : [];
  const transactionRows = await executor
    .select({
      id: ledgerTransactions.id,
      type: ledgerTransactions.type,
      channel: ledgerTransactions.channel,
      description: ledgerTransactions.description,
      createdAt: ledgerTransactions.createdAt,
      amount: ledgerEntries.amountFen,
    })
    .from(ledgerTransactions)
    .leftJoin(ledgerEntries, and(eq(ledgerEntries.transactionId, ledgerTransactions.id), eq(ledgerEntries.walletId, order.walletId)))
    .where(eq(ledgerTransactions.orderId, order.id))
    .orderBy(asc(ledgerTransactions.createdAt), asc(ledgerTransactions.id));
  const voucher = voucherRows[0];
  return {
    ...toOrderSummary(order),
    items: order.items.map((item) => ({
      name: item.name,
      spec: item.spec,
      quantity: item.quantity,
      unit: item.unit,
      unitPrice: item.unitPriceFen,
      amount: item.amountFen,
    })),
    voucher: voucher ? { id: voucher.id, name: voucher.name, amount: order.discountFen } : null,
    transactions: transactionRows.map((row) => ({
      id: row.id,
      type: row.type,
      channel: row.channel,
      amount: row.amount ?? 0,
      description: row.description,
      createdAt: row.createdAt.toISOString(),
    })),
    canceledAt: order.canceledAt?.toISOString() ?? null,
  };
}
