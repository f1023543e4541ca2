import { and, desc, eq, gt, isNotNull, isNull, lte, type SQL } from 'drizzle-orm';
import type { Page } from '@slg/shared';
import type { RedeemResult } from '@slg/shared/views/billing';
import type { AppDeps } from '../../deps.js';
import type { Transaction } from '../../db/client.js';
import { issueBatches, orders, redemptionCodes, vouchers } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import type { Principal } from '../../core/principal.js';
import { payingWalletOf, postTransaction } from '../billing/ledger.js';
import { toVoucherView, type VoucherView } from '../billing/order-views.js';
import { normalizeRedeemCode } from './codes.js';
import { giveBackAttempt, takeAttempt } from '../security/attempts.js';
import { REDEEM_LOOKUPS, waitText } from '../security/rules.js';

export const VOUCHER_STATUSES = ['UNUSED', 'USED', 'EXPIRED'] as const;
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];

const DAY_MS = 24 * 3600 * 1000;

/** The answer's shape: the schema in packages/shared (views/billing), which the console reads too. */
export type { RedeemResult };

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
   * Redeems a code once, for one account. Each look-up is counted before it is made (one statement
   * that counts and decides, so a burst cannot look up more than the limit) and given back when the
   * code was good: at most 5 wrong codes per user in 10 minutes. The code is claimed by a conditional
   * update in the same transaction that credits the voucher or the balance gift, so two redeemers
   * cannot both win; `transact` runs that transaction (the Idempotency-Key's).
   */
  async redeem<T>(principal: Principal, rawCode: string, transact: (work: (tx: Transaction) => Promise<RedeemResult>) => Promise<T>): Promise<T> {
    const now = this.deps.now();
    const subject = `user:${principal.userId}`;
    const attempt = await takeAttempt(this.db, REDEEM_LOOKUPS, subject, now);
    if (!attempt.allowed) {
      throw new AppError('REDEEM_TOO_MANY', `兑换失败次数过多，请${waitText(attempt.retryAfterSeconds)}后再试`, {
        retryAfterSeconds: attempt.retryAfterSeconds,
      });
    }
    const code = normalizeRedeemCode(rawCode);
    const answer = await transact(async (tx) => {
      const outcome = await this.claimAndCredit(tx, principal, code, now);
      if (outcome.claimed) return outcome.result;
      const [existing] = await tx
        .select({ redeemedAt: redemptionCodes.redeemedAt })
        .from(redemptionCodes)
        .where(eq(redemptionCodes.code, code));
      throw new AppError(existing?.redeemedAt ? 'REDEEM_CODE_USED' : 'REDEEM_CODE_INVALID');
    });
    await giveBackAttempt(this.db, REDEEM_LOOKUPS, subject, attempt);
    return answer;
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
