import { and, count, desc, eq, gt, isNotNull, isNull, lte, type SQL } from 'drizzle-orm';
import { REDEEM_FAILURE_WINDOW_SECONDS, REDEEM_MAX_FAILURES, type Page } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Transaction } from '../../db/client.js';
import { issueBatches, orders, redeemFailures, redemptionCodes, vouchers } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import type { Principal } from '../auth/principal.js';
import { payingWalletOf, postTransaction } from '../billing/ledger.js';
import { toVoucherView, type VoucherView } from '../billing/order-views.js';
import { normalizeRedeemCode } from './codes.js';

export const VOUCHER_STATUSES = ['UNUSED', 'USED', 'EXPIRED'] as const;
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];

const DAY_MS = 24 * 3600 * 1000;

export interface RedeemResult {
  kind: 'VOUCHER' | 'BALANCE';
  amount: number;
  voucher: VoucherView | null;
}

type RedeemOutcome = { claimed: true; result: RedeemResult } | { claimed: false };

/**
 * The caller's vouchers and redemption codes. Vouchers belong to the main account (cost-centre
 * data); the routes let only callers with the INVOICE authority in.
 */
export class VoucherService {
  constructor(private readonly deps: AppDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  async list(principal: Principal, query: PageQuery & { status?: VoucherStatus | undefined }): Promise<Page<VoucherView>> {
    const now = this.deps.now();
    const conditions: SQL[] = [eq(vouchers.ownerId, principal.ownerId)];
    if (query.status === 'USED') conditions.push(isNotNull(vouchers.usedAt));
    if (query.status === 'UNUSED') conditions.push(isNull(vouchers.usedAt), gt(vouchers.validTo, now));
    if (query.status === 'EXPIRED') conditions.push(isNull(vouchers.usedAt), lte(vouchers.validTo, now));
    const where = and(...conditions);
    return paged(
      query,
      (limit, offset) =>
        this.db
          .select({ voucher: vouchers, orderNo: orders.orderNo })
          .from(vouchers)
          .leftJoin(orders, eq(orders.id, vouchers.usedOrderId))
          .where(where)
          .orderBy(desc(vouchers.createdAt), desc(vouchers.id))
          .limit(limit)
          .offset(offset),
      () => this.db.$count(vouchers, where),
      (rows) => rows.map((row) => toVoucherView(row.voucher, now, row.orderNo)),
    );
  }

  /**
   * Redeems a code once, for one account: the code is claimed by a conditional update in the same
   * transaction that credits the voucher or the balance gift, so two redeemers cannot both win.
   * Wrong or expired codes are counted; too many in the window are refused before any look-up.
   */
  async redeem(principal: Principal, rawCode: string): Promise<RedeemResult> {
    const now = this.deps.now();
    const since = new Date(now.getTime() - REDEEM_FAILURE_WINDOW_SECONDS * 1000);
    const [failures] = await this.db
      .select({ value: count() })
      .from(redeemFailures)
      .where(and(eq(redeemFailures.userId, principal.userId), gt(redeemFailures.createdAt, since)));
    if ((failures?.value ?? 0) >= REDEEM_MAX_FAILURES) throw new AppError('REDEEM_TOO_MANY');

    const code = normalizeRedeemCode(rawCode);
    const outcome = await this.db.transaction((tx) => this.claimAndCredit(tx, principal, code, now));
    if (outcome.claimed) return outcome.result;

    const [existing] = await this.db
      .select({ redeemedAt: redemptionCodes.redeemedAt })
      .from(redemptionCodes)
      .where(eq(redemptionCodes.code, code));
    if (existing?.redeemedAt) throw new AppError('REDEEM_CODE_USED');
    await this.db.insert(redeemFailures).values({ userId: principal.userId, createdAt: now });
    throw new AppError('REDEEM_CODE_INVALID');
  }

  private async claimAndCredit(tx: Transaction, principal: Principal, code: string, now: Date): Promise<RedeemOutcome> {
    const [claimed] = await tx
      .update(redemptionCodes)
      .set({ redeemedBy: principal.userId, redeemedAt: now })
      .where(and(eq(redemptionCodes.code, code), isNull(redemptionCodes.redeemedAt), gt(redemptionCodes.expiresAt, now)))
      .returning();
    if (!claimed) return { claimed: false };

    if (claimed.kind === 'BALANCE') {
      const wallet = await payingWalletOf(tx, principal);
      await postTransaction(tx, {
        type: 'GIFT',
        channel: 'GIFT',
        description: '兑换码赠送余额',
        lines: [
          { wallet, amountFen: claimed.amountFen },
          { platform: 'gifts', amountFen: -claimed.amountFen },
        ],
        now,
      });
      return { claimed: true, result: { kind: 'BALANCE', amount: claimed.amountFen, voucher: null } };
    }

    const [batch] = await tx.select({ name: issueBatches.name }).from(issueBatches).where(eq(issueBatches.id, claimed.batchId));
    const [voucher] = await tx
      .insert(vouchers)
      .values({
        ownerId: principal.ownerId,
        name: batch?.name ?? '兑换码代金券',
        amountFen: claimed.amountFen,
        minOrderFen: claimed.minOrderFen,
        scope: claimed.scope,
        validFrom: now,
        validTo: new Date(now.getTime() + claimed.voucherValidDays * DAY_MS),
        source: 'CODE',
        batchId: claimed.batchId,
        createdAt: now,
      })
      .returning();
    if (!voucher) throw new Error('voucher insert returned nothing');
    return { claimed: true, result: { kind: 'VOUCHER', amount: voucher.amountFen, voucher: toVoucherView(voucher, now) } };
  }
}
