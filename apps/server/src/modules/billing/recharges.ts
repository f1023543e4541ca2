import { and, ne, desc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { RECHARGE_CANCELED_REASON } from '@slg/shared';
import type { RechargeView } from '@slg/shared/views/billing';
import type { AppDeps } from '../../deps.js';
import type { Executor, Transaction } from '../../db/client.js';
import { recharges } from '../../db/schema/index.js';
import { ownedBy } from '../../db/scope.js';
import { AppError } from '../../core/errors.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import type { CreatedPayment, GatewayName, NotificationRequest, PaymentGateway, VerifiedNotification } from '../../providers/payments/provider.js';
import { PaymentGatewayError, PaymentNotifyError } from '../../providers/payments/provider.js';
import type { Principal } from '../../core/principal.js';
import { recordAudit } from '../../core/audit.js';
import { payingWalletOf, postTransaction, type LedgerChannel } from './ledger.js';
import { newRechargeId, RECHARGE_ID_PATTERN } from './numbers.js';

export const RECHARGE_CHANNELS = ['WXPAY', 'ALIPAY', 'BANK'] as const;
export type RechargeChannel = (typeof RECHARGE_CHANNELS)[number];
type RechargeRow = typeof recharges.$inferSelect;

const LEDGER_CHANNEL: Record<RechargeChannel, LedgerChannel> = { WXPAY: 'WECHAT', ALIPAY: 'ALIPAY', BANK: 'BANK' };
/** A QR payment is offered for this long before the gateway closes it. */
export const PAYMENT_WINDOW_MS = 2 * 3600 * 1000;
/** What a cancel attempt on a paid recharge is told: credited now, or (the gateway's answer pending) soon. */
const PAID_MESSAGE = '该订单已支付，款项已计入账户余额';
const PAID_PENDING_MESSAGE = '该订单已支付，款项稍后计入账户余额';

export interface GatewayFactsOutcome {
  ok: boolean;
  reason?: string;
}

/** The answer's shape: the schema in packages/shared (views/billing), which the console reads too. */
export type { RechargeView };

/** What a verified gateway notification must look like before it is looked up. */
const notifiedFacts = z.object({
  rechargeId: z.string().regex(RECHARGE_ID_PATTERN),
  amountFen: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  providerTradeNo: z.string().max(64).regex(/^[\x21-\x7e]*$/),
  succeeded: z.boolean(),
  closed: z.boolean(),
});

export function toRechargeView(row: RechargeRow): RechargeView {
  return {
    rechargeId: row.id,
    amount: row.amountFen,
    channel: row.channel as RechargeChannel,
    status: row.status as RechargeView['status'],
    payUrl: row.payUrl,
    qrCode: row.qrCode,
    bankReference: row.bankReference,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
  };
}

export interface RechargeFilter extends PageQuery {
  status?: RechargeView['status'] | undefined;
  channel?: RechargeChannel | undefined;
  startTime?: string | undefined;
  endTime?: string | undefined;
}

export class RechargeService {
  constructor(private readonly deps: AppDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  /** The gateway that takes a channel: the real one when configured, else the sandbox. */
  gatewayFor(channel: RechargeChannel): PaymentGateway | null {
    const { payments } = this.deps;
    if (channel === 'WXPAY') return payments.get('wechatpay') ?? payments.get('sandbox') ?? null;
    if (channel === 'ALIPAY') return payments.get('alipay') ?? payments.get('sandbox') ?? null;
    return null;
  }

  channels(): { channels: RechargeChannel[]; bankAccount: AppDeps['config']['bankAccount'] } {
    const offered = RECHARGE_CHANNELS.filter((channel) =>
      channel === 'BANK' ? this.deps.config.paymentProviders.includes('bank') && this.deps.config.bankAccount !== null : this.gatewayFor(channel) !== null,
    );
    return { channels: offered, bankAccount: offered.includes('BANK') ? this.deps.config.bankAccount : null };
  }

  /**
   * Opens a recharge and, for QR channels, the gateway's payment, in the caller's transaction (the
   * Idempotency-Key's). Should the process die before the commit, nothing of it remains here; the
   * gateway's unpaid order, never shown to anyone, closes by itself at the end of the payment window.
   */
  async create(tx: Transaction, principal: Principal, input: { amountFen: number; channel: RechargeChannel }): Promise<RechargeView> {
    if (!this.channels().channels.includes(input.channel)) throw new AppError('PAYMENT_CHANNEL_UNAVAILABLE');
    const now = this.deps.now();
    const walletId = await payingWalletOf(tx, principal);
    const gateway = input.channel === 'BANK' ? null : this.gatewayFor(input.channel);
    const id = newRechargeId(now);
    let payment: CreatedPayment = { payUrl: null, qrCode: null };
    if (gateway) {
      try {
        payment = await gateway.createPayment({
          rechargeId: id,
          amountFen: input.amountFen,
          description: `${this.deps.config.appTitle}账户充值`,
          notifyUrl: `${this.deps.config.publicUrl}/api/v1/payment/notify/${gateway.name}`,
          expiresAt: new Date(now.getTime() + PAYMENT_WINDOW_MS),
        });
      } catch (error) {
        if (error instanceof PaymentGatewayError) throw new AppError('SERVICE_UNAVAILABLE', `${error.message}，请稍后再试或更换支付方式`);
        throw error;
      }
    }
    const [row] = await tx
      .insert(recharges)
      .values({
        id,
        ownerId: principal.ownerId,
        creatorId: principal.userId,
        walletId,
        amountFen: input.amountFen,
        channel: input.channel,
        provider: gateway?.name ?? 'bank',
        status: 'CREATED',
        payUrl: payment.payUrl,
        qrCode: payment.qrCode,
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error('recharge insert returned nothing');
    return toRechargeView(row);
  }

  private scoped(principal: Principal): SQL {
    return ownedBy(principal, 'INVOICE', { ownerId: recharges.ownerId, creatorId: recharges.creatorId });
  }

  private async findOwned(principal: Principal, rechargeId: string): Promise<RechargeRow> {
    const [row] = await this.db
      .select()
      .from(recharges)
      .where(and(eq(recharges.id, rechargeId), this.scoped(principal)));
    if (!row) throw new AppError('NOT_FOUND', '充值记录不存在');
    return row;
  }

  async get(principal: Principal, rechargeId: string): Promise<RechargeView> {
    return toRechargeView(await this.findOwned(principal, rechargeId));
  }

  async list(principal: Principal, filter: RechargeFilter) {
    const where = and(
      this.scoped(principal),
      filter.status ? eq(recharges.status, filter.status) : undefined,
      filter.channel ? eq(recharges.channel, filter.channel) : undefined,
      filter.startTime ? gte(recharges.createdAt, new Date(filter.startTime)) : undefined,
      filter.endTime ? lt(recharges.createdAt, new Date(filter.endTime)) : undefined,
    );
    return paged(
      filter,
      (limit, offset) => this.db.select().from(recharges).where(where).orderBy(desc(recharges.createdAt), desc(recharges.id)).limit(limit).offset(offset),
      () => this.db.$count(recharges, where),
      (rows) => rows.map(toRechargeView),
    );
  }

  async submitBankReference(principal: Principal, rechargeId: string, reference: string): Promise<RechargeView> {
    const [row] = await this.db
      .update(recharges)
      .set({ bankReference: reference })
      .where(and(eq(recharges.id, rechargeId), eq(recharges.channel, 'BANK'), eq(recharges.status, 'CREATED'), this.scoped(principal)))
      .returning();
    if (!row) {
      await this.get(principal, rechargeId);
      throw new AppError('STATE_CONFLICT', '只有待确认的对公转账可以提交转账凭证');
    }
    return toRechargeView(row);
  }

  /**
   * Credits a recharge exactly once: the row is locked, only CREATED moves to SUCCESS, and the ledger
   * transaction commits with the status change. A repeat is a no-op that still reports success.
   */
  private async credit(
    tx: Transaction,
    row: RechargeRow,
    facts: { providerTradeNo: string | null; bankReference?: string | undefined },
  ): Promise<RechargeRow> {
    const now = this.deps.now();
    const [credited] = await tx
      .update(recharges)
      .set({
        status: 'SUCCESS',
        paidAt: now,
        providerTradeNo: facts.providerTradeNo,
        ...(facts.bankReference ? { bankReference: facts.bankReference } : {}),
      })
      .where(and(eq(recharges.id, row.id), inArray(recharges.status, ['CREATED', 'FAILED'])))
      .returning();
    if (!credited) throw new Error(`recharge ${row.id} was already credited`);
    await postTransaction(tx, {
      type: 'RECHARGE',
      channel: LEDGER_CHANNEL[row.channel as RechargeChannel],
      description: `账户充值（${row.id}）`,
      rechargeId: row.id,
      lines: [
        { wallet: row.walletId, amountFen: row.amountFen },
        { platform: 'payment_clearing', amountFen: -row.amountFen },
      ],
      now,
    });
    return credited;
  }

  /** Handles a gateway notification: verify, then credit once. Forged or mismatched ones credit nothing. */
  async handleNotification(gatewayName: string, request: NotificationRequest): Promise<GatewayFactsOutcome> {
    const gateway = this.deps.payments.get(gatewayName as GatewayName);
    if (!gateway) return { ok: false, reason: `unknown gateway ${gatewayName}` };
    let facts;
    try {
      facts = await gateway.verifyNotification(request);
    } catch (error) {
      if (error instanceof PaymentNotifyError) return { ok: false, reason: error.message };
      throw error;
    }
    return this.applyGatewayFacts(gateway, facts);
  }

  /**
   * The one path that acts on what a gateway says about a payment, whether it came as a notification
   * or as the answer to our query: the row is locked, a success credits once (also after the recharge
   * was marked FAILED: the payer paid at the last second), a closed trade marks a CREATED one FAILED.
   */
  private async applyGatewayFacts(gateway: PaymentGateway, facts: VerifiedNotification): Promise<GatewayFactsOutcome> {
    // A valid signature says who sent it, not that its content is sane: refuse what no recharge of ours can be.
    const sane = notifiedFacts.safeParse(facts);
    if (!sane.success) return { ok: false, reason: `malformed notification: ${sane.error.issues.map((issue) => issue.path.join('.')).join(', ')}` };
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(recharges).where(eq(recharges.id, facts.rechargeId)).for('update');
      if (!row || row.provider !== gateway.name) return { ok: false, reason: `no ${gateway.name} recharge ${facts.rechargeId}` };
      if (row.amountFen !== facts.amountFen) {
        return { ok: false, reason: `amount mismatch for ${row.id}: expected ${row.amountFen}, notified ${facts.amountFen}` };
      }
      if (row.status === 'SUCCESS') return { ok: true };
      if (!facts.succeeded) {
        // Still waiting for the payer is not a failure; only a closed trade is.
        if (facts.closed && row.status === 'CREATED') {
          await tx.update(recharges).set({ status: 'FAILED', failureReason: '支付已取消或已关闭' }).where(eq(recharges.id, row.id));
        }
        return { ok: true };
      }
      await this.credit(tx, row, { providerTradeNo: facts.providerTradeNo });
      return { ok: true };
    });
  }

  /**
   * The payer gives up a QR recharge. The trade is closed at the gateway first, so that nobody can pay
   * it afterwards; only then is the recharge marked FAILED (已取消), by a conditional update on CREATED.
   * When the gateway says it was paid in the meantime, nothing is cancelled: the payment is queried and
   * credited through the notification path, and the caller hears 该订单已支付. A gateway that cannot be
   * reached changes nothing. A repeat answers with the recharge as it is.
   */
  async cancel(principal: Principal, rechargeId: string): Promise<RechargeView> {
    const row = await this.findOwned(principal, rechargeId);
    if (row.status === 'SUCCESS') throw new AppError('STATE_CONFLICT', PAID_MESSAGE);
    if (row.status !== 'CREATED') return toRechargeView(row);
    if (row.channel === 'BANK') throw new AppError('STATE_CONFLICT', '对公转账无需取消：未转账的充值不会扣款，如需撤回请联系客服');
    const gateway = this.deps.payments.get(row.provider as GatewayName);
    if (!gateway) throw new AppError('SERVICE_UNAVAILABLE', '该支付渠道已停用，暂时无法取消，请联系客服');

    let outcome;
    try {
      outcome = await gateway.closePayment(row.id);
    } catch (error) {
      if (error instanceof PaymentGatewayError) {
        throw new AppError('SERVICE_UNAVAILABLE', `支付渠道暂时无法关闭该订单，充值未取消，请稍后再试（${error.message}）`);
      }
      throw error;
    }
    if (outcome === 'PAID') {
      const credited = await this.settleFromGateway(gateway, row.id);
      throw new AppError('STATE_CONFLICT', credited ? PAID_MESSAGE : PAID_PENDING_MESSAGE);
    }

    const [cancelled] = await this.db
      .update(recharges)
      .set({ status: 'FAILED', failureReason: RECHARGE_CANCELED_REASON })
      .where(and(eq(recharges.id, row.id), eq(recharges.status, 'CREATED'), this.scoped(principal)))
      .returning();
    if (cancelled) return toRechargeView(cancelled);
    // Someone else settled it first (a notification, the expiry sweep, a twin request): say what it is now.
    const settled = await this.findOwned(principal, rechargeId);
    if (settled.status === 'SUCCESS') throw new AppError('STATE_CONFLICT', PAID_MESSAGE);
    return toRechargeView(settled);
  }

  /** Asks the gateway about a paid trade and credits it through the notification path; false when the gateway did not answer. */
  private async settleFromGateway(gateway: PaymentGateway, rechargeId: string): Promise<boolean> {
    let facts;
    try {
      facts = await gateway.queryPayment(rechargeId);
    } catch (error) {
      if (error instanceof PaymentGatewayError) return false;
      throw error;
    }
    const outcome = await this.applyGatewayFacts(gateway, facts);
    return outcome.ok && facts.succeeded;
  }

  /**
   * Closes QR recharges whose payment window has passed (the gateway closed them too). One conditional
   * update, so every replica may run it. A success notification arriving later still credits.
   */
  async expireStale(): Promise<number> {
    const cutoff = new Date(this.deps.now().getTime() - PAYMENT_WINDOW_MS);
    const expired = await this.db
      .update(recharges)
      .set({ status: 'FAILED', failureReason: '支付超时，订单已关闭' })
      .where(and(eq(recharges.status, 'CREATED'), ne(recharges.channel, 'BANK'), lt(recharges.createdAt, cutoff)))
      .returning({ id: recharges.id });
    return expired.length;
  }

  gatewayAcknowledgement(gatewayName: string, ok: boolean) {
    return this.deps.payments.get(gatewayName as GatewayName)?.acknowledge(ok) ?? null;
  }

  /** The operator saw the money arrive on the bank account: credit the transfer once, and say so in the audit log. */
  async confirmBankTransfer(executor: Executor, actorId: number, rechargeId: string, reference: string | undefined): Promise<RechargeView> {
    return executor.transaction(async (tx) => {
      const [row] = await tx.select().from(recharges).where(eq(recharges.id, rechargeId)).for('update');
      if (!row) throw new AppError('NOT_FOUND', '充值记录不存在');
      if (row.channel !== 'BANK') throw new AppError('STATE_CONFLICT', '只有对公转账需要人工确认');
      if (row.status !== 'CREATED') throw new AppError('STATE_CONFLICT', `该充值已是${row.status === 'SUCCESS' ? '成功' : '失败'}状态`);
      const credited = await this.credit(tx, row, { providerTradeNo: null, bankReference: reference ?? row.bankReference ?? undefined });
      await recordAudit(
        tx,
        { actorId, action: 'recharge.confirm', targetType: 'recharge', targetId: row.id, detail: { amountFen: row.amountFen, reference: reference ?? null } },
        this.deps.now(),
      );
      return toRechargeView(credited);
    });
  }
}
