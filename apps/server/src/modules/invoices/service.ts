import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { and, desc, eq, inArray, isNotNull, or, sql, type AnyColumn } from 'drizzle-orm';
import { formatYuan, type Page } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Executor, Transaction } from '../../db/client.js';
import { ownedBy, ownershipFor } from '../../db/scope.js';
import {
  invoiceItems,
  invoiceProfiles,
  invoices,
  ledgerEntries,
  ledgerTransactions,
  orders,
  recharges,
  users,
  wallets,
} from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import type { Principal } from '../../core/principal.js';
import { recordAudit } from '../../core/audit.js';
import {
  CLAIMING_STATUSES,
  INVOICE_MIN_FEN,
  specialReady,
  toInvoiceView,
  toProfileView,
  type AdminInvoiceView,
  type InvoiceProfile,
  type InvoiceProfileInput,
  type InvoiceRequestInput,
  type InvoiceStatus,
  type InvoiceView,
  type Invoiceable,
} from './view.js';

type InvoiceRow = typeof invoices.$inferSelect;

const sumFen = (column: AnyColumn) => sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);

/** yyyy-mm of a ledger transaction in China time (UTC+8). */
const chinaMonth = sql<string>`to_char((${ledgerTransactions.createdAt} at time zone 'UTC') + interval '8 hours', 'YYYY-MM')`;

export const PDF_MAGIC = '%PDF-';

/**
 * Invoices (发票). The pool a main account may invoice is its cash: successful recharges (method
 * RECHARGE) or what its wallets paid for consumption per China month, net of refunds (method BILL).
 * Whatever the method, PENDING + SUCCESS invoices never exceed the cash recharged, and a request runs
 * in one transaction holding the owner's wallet row, so two requests cannot both take the same pool.
 */
export class InvoiceService {
  constructor(private readonly deps: AppDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  // ---- profile ------------------------------------------------------------------------------------

  async profile(principal: Principal): Promise<InvoiceProfile | null> {
    const { ownerId } = ownershipFor(principal, 'INVOICE');
    const [row] = await this.db.select().from(invoiceProfiles).where(eq(invoiceProfiles.ownerId, ownerId));
    return row ? toProfileView(row) : null;
  }

  async saveProfile(principal: Principal, input: InvoiceProfileInput): Promise<InvoiceProfile> {
    const { ownerId } = ownershipFor(principal, 'INVOICE');
    const values = { ...input, updatedAt: this.deps.now() };
    const [row] = await this.db
      .insert(invoiceProfiles)
      .values({ ownerId, ...values })
      .onConflictDoUpdate({ target: invoiceProfiles.ownerId, set: values })
      .returning();
    if (!row) throw new Error('invoice profile upsert returned nothing');
    return toProfileView(row);
  }

  // ---- the pool -----------------------------------------------------------------------------------

  async invoiceable(principal: Principal): Promise<Invoiceable> {
    const { ownerId } = ownershipFor(principal, 'INVOICE');
    return this.pool(this.db, ownerId);
  }

  /**
   * Everything the owner may still invoice. Per recharge and per month the invoiceable amount is what
   * is left after PENDING/SUCCESS items, never above `available` (the global cap), never below zero;
   * a request takes exactly these amounts, so what is shown is what can be requested.
   *
   * A month offers only what cash paid: vouchers never reach a wallet (their part of an order is paid
   * by the platform's voucher account), and balance gifts are taken to be spent first, month by month
   * in order, so consumption they covered is not invoiceable.
   *
   * The queries run one after another: inside a transaction they share one connection.
   */
  private async pool(executor: Executor, ownerId: number): Promise<Invoiceable> {
    const claiming = inArray(invoices.status, CLAIMING_STATUSES);
    const family = executor.select({ id: users.id }).from(users).where(or(eq(users.id, ownerId), eq(users.parentId, ownerId)));
    /** What the owner's PENDING/SUCCESS invoices already hold, per recharge or per bill month. */
    const invoicedBy = (key: typeof invoiceItems.rechargeId | typeof invoiceItems.billMonth) =>
      executor
        .select({ key, invoiced: sumFen(invoiceItems.amountFen) })
        .from(invoiceItems)
        .innerJoin(invoices, eq(invoices.id, invoiceItems.invoiceId))
        .where(and(eq(invoiceItems.ownerId, ownerId), isNotNull(key), claiming))
        .groupBy(key);
    /** Per China month, minus the sum of the family's wallet entries of some transaction types. */
    const walletOutflowByMonth = (types: string[]) =>
      executor
        .select({ month: chinaMonth, amount: sql<number>`-coalesce(sum(${ledgerEntries.amountFen}), 0)`.mapWith(Number) })
        .from(ledgerEntries)
        .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
        .where(and(inArray(ledgerEntries.walletId, family), inArray(ledgerTransactions.type, types)))
        .groupBy(chinaMonth);

    const cashRows = await executor
      .select({ id: recharges.id, channel: recharges.channel, amountFen: recharges.amountFen, paidAt: recharges.paidAt })
      .from(recharges)
      .where(and(eq(recharges.ownerId, ownerId), eq(recharges.status, 'SUCCESS')))
      .orderBy(desc(recharges.paidAt), desc(recharges.createdAt));
    const byRecharge = await invoicedBy(invoiceItems.rechargeId);
    const byMonth = await invoicedBy(invoiceItems.billMonth);
    // What the family's wallets paid: CONSUME entries are negative, REFUND entries positive.
    const paidRows = await walletOutflowByMonth(['CONSUME', 'REFUND']);
    // Balance gifts credited to the family's wallets (positive entries, so the outflow is negative).
    const giftRows = await walletOutflowByMonth(['GIFT']);
    const voucherRows = await executor
      .select({ month: chinaMonth, amount: sql<number>`-coalesce(sum(${ledgerEntries.amountFen}), 0)`.mapWith(Number) })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .innerJoin(orders, eq(orders.id, ledgerTransactions.orderId))
      .where(and(eq(ledgerEntries.platformAccount, 'vouchers'), inArray(orders.walletId, family)))
      .groupBy(chinaMonth);
    const [invoicedTotalRow] = await executor
      .select({ total: sumFen(invoices.amountFen) })
      .from(invoices)
      .where(and(eq(invoices.ownerId, ownerId), claiming));

    const cashTotal = cashRows.reduce((total, row) => total + row.amountFen, 0);
    const invoicedTotal = invoicedTotalRow?.total ?? 0;
    const available = Math.max(0, cashTotal - invoicedTotal);
    const invoicedByRecharge = new Map(byRecharge.map((row) => [row.key, row.invoiced]));
    const invoicedByMonth = new Map(byMonth.map((row) => [row.key ?? '', row.invoiced]));
    const remainder = (total: number, invoiced: number) => Math.min(available, Math.max(0, total - invoiced));

    const paidByMonth = new Map(paidRows.map((row) => [row.month, row.amount]));
    const giftsByMonth = new Map(giftRows.map((row) => [row.month, -row.amount]));
    const vouchersByMonth = new Map(voucherRows.map((row) => [row.month, row.amount]));
    const monthsAscending = [...new Set([...paidByMonth.keys(), ...giftsByMonth.keys(), ...invoicedByMonth.keys()])].sort();
    let giftLeft = 0;
    const months: Invoiceable['months'] = [];
    for (const month of monthsAscending) {
      giftLeft += giftsByMonth.get(month) ?? 0;
      const paid = paidByMonth.get(month) ?? 0;
      const giftPaid = Math.min(giftLeft, Math.max(0, paid));
      giftLeft -= giftPaid;
      const invoiced = invoicedByMonth.get(month) ?? 0;
      // A month shows when something was paid in it, or when an invoice holds it (even if refunded away since).
      if (paid === 0 && !invoicedByMonth.has(month)) continue;
      months.push({
        month,
        consumption: paid,
        giftPaid,
        voucherPaid: vouchersByMonth.get(month) ?? 0,
        invoiced,
        invoiceable: remainder(paid - giftPaid, invoiced),
      });
    }
    months.reverse();

    return {
      recharges: cashRows.map((row) => {
        const invoiced = invoicedByRecharge.get(row.id) ?? 0;
        return {
          rechargeId: row.id,
          channel: row.channel,
          amount: row.amountFen,
          invoiced,
          invoiceable: remainder(row.amountFen, invoiced),
          paidAt: row.paidAt?.toISOString() ?? null,
        };
      }),
      months,
      cashTotal,
      invoicedTotal,
      available,
    };
  }

  // ---- requests -----------------------------------------------------------------------------------

  /** Files a request in the caller's transaction (the Idempotency-Key's). */
  async request(tx: Transaction, principal: Principal, input: InvoiceRequestInput): Promise<InvoiceView> {
    const { ownerId, creatorId } = ownershipFor(principal, 'INVOICE');
    const rechargeIds = [...new Set(input.rechargeIds ?? [])];
    const months = [...new Set(input.months ?? [])];
    if (input.method === 'RECHARGE') {
      if (rechargeIds.length === 0) throw new AppError('VALIDATION', '请选择要开票的充值记录');
      if (months.length > 0) throw new AppError('VALIDATION', '按充值开票时不能选择账单月份');
    } else {
      if (months.length === 0) throw new AppError('VALIDATION', '请选择要开票的账单月份');
      if (rechargeIds.length > 0) throw new AppError('VALIDATION', '按账单开票时不能选择充值记录');
    }
    const now = this.deps.now();

    // Serialises every request of this owner: the second one computes its pool after the first committed.
    await tx.select({ id: wallets.accountId }).from(wallets).where(eq(wallets.accountId, ownerId)).for('update');

    const [profileRow] = await tx.select().from(invoiceProfiles).where(eq(invoiceProfiles.ownerId, ownerId));
    if (!profileRow) throw new AppError('INVOICE_PROFILE_MISSING');
    const profile = toProfileView(profileRow);
    if (input.type === 'SPECIAL' && !specialReady(profile)) {
      throw new AppError('INVOICE_PROFILE_MISSING', '开具增值税专用发票需要企业抬头，并填写税号、开户银行、银行账号、注册地址和注册电话');
    }

    const pool = await this.pool(tx, ownerId);
    const items: { rechargeId: string | null; billMonth: string | null; amountFen: number }[] = [];
    if (input.method === 'RECHARGE') {
      const byId = new Map(pool.recharges.map((row) => [row.rechargeId, row]));
      const unknown = rechargeIds.filter((id) => !byId.has(id));
      if (unknown.length > 0) throw new AppError('VALIDATION', `以下充值记录不存在或未到账：${unknown.join('、')}`);
      for (const id of rechargeIds) {
        const left = byId.get(id)?.invoiceable ?? 0;
        if (left <= 0) throw new AppError('INVOICE_AMOUNT_EXCEEDED', `充值记录 ${id} 已无可开票金额`);
        items.push({ rechargeId: id, billMonth: null, amountFen: left });
      }
    } else {
      const byMonth = new Map(pool.months.map((row) => [row.month, row]));
      for (const month of months) {
        const left = byMonth.get(month)?.invoiceable ?? 0;
        if (left <= 0) throw new AppError('INVOICE_AMOUNT_EXCEEDED', `${month} 没有可开票的消费金额（赠金和代金券支付的部分不可开票）`);
        items.push({ rechargeId: null, billMonth: month, amountFen: left });
      }
    }
    const amountFen = items.reduce((total, item) => total + item.amountFen, 0);
    if (amountFen < INVOICE_MIN_FEN) throw new AppError('AMOUNT_INVALID', `开票金额不能低于${formatYuan(INVOICE_MIN_FEN)}`);
    if (amountFen > pool.available) {
      throw new AppError(
        'INVOICE_AMOUNT_EXCEEDED',
        `开票金额${formatYuan(amountFen)}超过可开票金额${formatYuan(pool.available)}（开票总额不能超过现金充值总额）`,
      );
    }

    const [invoice] = await tx
      .insert(invoices)
      .values({
        ownerId,
        creatorId,
        type: input.type,
        method: input.method,
        status: 'PENDING',
        amountFen,
        profile: { ...profile },
        remark: input.remark ? input.remark : null,
        createdAt: now,
      })
      .returning();
    if (!invoice) throw new Error('invoice insert returned nothing');
    const inserted = await tx
      .insert(invoiceItems)
      .values(items.map((item) => ({ ...item, invoiceId: invoice.id, ownerId })))
      .returning();
    return toInvoiceView(invoice, inserted);
  }

  async list(principal: Principal, query: PageQuery & { status?: InvoiceStatus | undefined }): Promise<Page<InvoiceView>> {
    const conditions = [ownedBy(principal, 'INVOICE', invoices)];
    if (query.status) conditions.push(eq(invoices.status, query.status));
    const where = and(...conditions);
    return paged(
      query,
      (limit, offset) => this.db.select().from(invoices).where(where).orderBy(desc(invoices.createdAt), desc(invoices.id)).limit(limit).offset(offset),
      () => this.db.$count(invoices, where),
      async (rows) => {
        const items = await this.itemsOf(this.db, rows.map((row) => row.id));
        return rows.map((row) => toInvoiceView(row, items.get(row.id) ?? []));
      },
    );
  }

  private async itemsOf(executor: Executor, invoiceIds: number[]): Promise<Map<number, (typeof invoiceItems.$inferSelect)[]>> {
    const grouped = new Map<number, (typeof invoiceItems.$inferSelect)[]>();
    if (invoiceIds.length === 0) return grouped;
    const rows = await executor.select().from(invoiceItems).where(inArray(invoiceItems.invoiceId, invoiceIds)).orderBy(invoiceItems.id);
    for (const row of rows) grouped.set(row.invoiceId, [...(grouped.get(row.invoiceId) ?? []), row]);
    return grouped;
  }

  private async view(executor: Executor, row: InvoiceRow): Promise<InvoiceView> {
    const items = await this.itemsOf(executor, [row.id]);
    return toInvoiceView(row, items.get(row.id) ?? []);
  }

  private async owned(principal: Principal, id: number): Promise<InvoiceRow> {
    const [row] = await this.db
      .select()
      .from(invoices)
      .where(and(ownedBy(principal, 'INVOICE', invoices), eq(invoices.id, id)));
    if (!row) throw new AppError('NOT_FOUND', '发票不存在');
    return row;
  }

  async get(principal: Principal, id: number): Promise<InvoiceView> {
    return this.view(this.db, await this.owned(principal, id));
  }

  /** The user withdraws a request while it is still PENDING; its amount returns to the pool. */
  async cancel(principal: Principal, id: number): Promise<InvoiceView> {
    await this.owned(principal, id);
    const [canceled] = await this.db
      .update(invoices)
      .set({ status: 'CANCELED', decidedAt: this.deps.now() })
      .where(and(ownedBy(principal, 'INVOICE', invoices), eq(invoices.id, id), eq(invoices.status, 'PENDING')))
      .returning();
    if (!canceled) throw new AppError('STATE_CONFLICT', '只有开票中的发票可以取消');
    return this.view(this.db, canceled);
  }

  async pdf(principal: Principal, id: number): Promise<{ invoiceNo: string; content: Buffer }> {
    const row = await this.owned(principal, id);
    if (row.status !== 'SUCCESS' || !row.pdfPath || !row.invoiceNo) throw new AppError('NOT_FOUND', '发票文件尚未开具');
    try {
      return { invoiceNo: row.invoiceNo, content: await readFile(join(this.deps.config.dataDir, row.pdfPath)) };
    } catch {
      throw new AppError('NOT_FOUND', '发票文件不存在，请联系客服');
    }
  }

  // ---- operator -----------------------------------------------------------------------------------

  async listAll(query: PageQuery & { status?: InvoiceStatus | undefined }): Promise<Page<AdminInvoiceView>> {
    const where = query.status ? eq(invoices.status, query.status) : undefined;
    return paged(
      query,
      (limit, offset) =>
        this.db
          .select({ invoice: invoices, ownerTelephone: users.telephone })
          .from(invoices)
          .innerJoin(users, eq(users.id, invoices.ownerId))
          .where(where)
          .orderBy(desc(invoices.createdAt), desc(invoices.id))
          .limit(limit)
          .offset(offset),
      () => this.db.$count(invoices, where),
      async (rows) => {
        const items = await this.itemsOf(this.db, rows.map((row) => row.invoice.id));
        return rows.map((row) => ({
          ...toInvoiceView(row.invoice, items.get(row.invoice.id) ?? []),
          ownerTelephone: row.ownerTelephone,
        }));
      },
    );
  }

  private async lockPending(tx: Transaction, id: number, verb: string): Promise<InvoiceRow> {
    const [row] = await tx.select().from(invoices).where(eq(invoices.id, id)).for('update');
    if (!row) throw new AppError('NOT_FOUND', '发票不存在');
    if (row.status !== 'PENDING') throw new AppError('STATE_CONFLICT', `只有开票中的发票可以${verb}`);
    return row;
  }

  /** The operator issues a PENDING invoice: stores its PDF under `${dataDir}/invoices/<id>.pdf`. */
  async issue(actorId: number, id: number, invoiceNo: string, pdf: Buffer): Promise<InvoiceView> {
    if (pdf.subarray(0, PDF_MAGIC.length).toString('latin1') !== PDF_MAGIC) {
      throw new AppError('VALIDATION', '发票文件必须是 PDF 格式');
    }
    const now = this.deps.now();
    return this.db.transaction(async (tx) => {
      const row = await this.lockPending(tx, id, '开具');
      const relative = join('invoices', `${id}.pdf`);
      const target = join(this.deps.config.dataDir, relative);
      await mkdir(dirname(target), { recursive: true });
      const temporary = `${target}.${process.pid}.tmp`;
      await writeFile(temporary, pdf);
      await rename(temporary, target);
      const [issued] = await tx
        .update(invoices)
        .set({ status: 'SUCCESS', invoiceNo, pdfPath: relative, decidedAt: now })
        .where(eq(invoices.id, id))
        .returning();
      if (!issued) throw new Error('invoice update returned nothing');
      await recordAudit(
        tx,
        { actorId, action: 'invoice.issue', targetType: 'invoice', targetId: id, detail: { invoiceNo, amount: row.amountFen, bytes: pdf.length } },
        now,
      );
      return this.view(tx, issued);
    });
  }

  /** The operator rejects a PENDING invoice; its amount returns to the owner's pool. */
  async reject(actorId: number, id: number, reason: string): Promise<InvoiceView> {
    const now = this.deps.now();
    return this.db.transaction(async (tx) => {
      const row = await this.lockPending(tx, id, '驳回');
      const [rejected] = await tx
        .update(invoices)
        .set({ status: 'REJECTED', rejectReason: reason, decidedAt: now })
        .where(eq(invoices.id, id))
        .returning();
      if (!rejected) throw new Error('invoice update returned nothing');
      await recordAudit(
        tx,
        { actorId, action: 'invoice.reject', targetType: 'invoice', targetId: id, detail: { reason, amount: row.amountFen } },
        now,
      );
      return this.view(tx, rejected);
    });
  }
}
