import { desc, eq, and, inArray } from 'drizzle-orm';
import type { Page } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Executor } from '../../db/client.js';
import { auditLogs, issueBatches, recharges, redemptionCodes, users, vouchers } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import { toRechargeView, type RechargeChannel, type RechargeView } from '../billing/recharges.js';
import { generateRedeemCode } from '../vouchers/codes.js';
import { recordAudit } from '../../core/audit.js';

const DAY_MS = 24 * 3600 * 1000;

export interface IssueVouchersInput {
  telephones: string[];
  name: string;
  amountFen: number;
  minOrderFen: number;
  scope: string[];
  validDays: number;
}

export interface CreateCodesInput {
  name: string;
  count: number;
  kind: 'VOUCHER' | 'BALANCE';
  amountFen: number;
  minOrderFen: number;
  scope: string[];
  voucherValidDays: number;
  expiresInDays: number;
}

export interface AuditLogView {
  id: number;
  actorId: number;
  action: string;
  targetType: string;
  targetId: string;
  detail: Record<string, unknown>;
  createdAt: string;
}

export type AdminRechargeView = RechargeView & { ownerTelephone: string | null };

/** Operator actions that are not invoices (those live in InvoiceService); each one writes its audit row. */
export class AdminService {
  constructor(private readonly deps: AppDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  /**
   * One voucher per listed telephone, in one batch. Any unknown telephone refuses the whole batch,
   * naming them, so the operator can fix the list and nothing is issued twice.
   */
  async issueVouchers(executor: Executor, actorId: number, input: IssueVouchersInput): Promise<{ batchId: number; issued: number }> {
    const telephones = [...new Set(input.telephones)];
    const now = this.deps.now();
    const found = await executor
      .select({ id: users.id, telephone: users.telephone, accountType: users.accountType, parentId: users.parentId })
      .from(users)
      .where(inArray(users.telephone, telephones));
    const known = new Set(found.map((user) => user.telephone));
    const unknown = telephones.filter((telephone) => !known.has(telephone));
    if (unknown.length > 0) throw new AppError('VALIDATION', `以下手机号未注册，未发放任何代金券：${unknown.join('、')}`);
    // Vouchers belong to the main account (a sub-account's voucher pays its main account's orders).
    const owners = found.map((user) => (user.accountType === 2 && user.parentId !== null ? user.parentId : user.id));

    return executor.transaction(async (tx) => {
      const [batch] = await tx
        .insert(issueBatches)
        .values({
          kind: 'VOUCHER',
          name: input.name,
          operatorId: actorId,
          count: owners.length,
          detail: { amount: input.amountFen, minOrderAmount: input.minOrderFen, scope: input.scope, validDays: input.validDays, telephones },
          createdAt: now,
        })
        .returning({ id: issueBatches.id });
      if (!batch) throw new Error('batch insert returned nothing');
      const validTo = new Date(now.getTime() + input.validDays * DAY_MS);
      await tx.insert(vouchers).values(
        owners.map((ownerId) => ({
          ownerId,
          name: input.name,
          amountFen: input.amountFen,
          minOrderFen: input.minOrderFen,
          scope: input.scope,
          validFrom: now,
          validTo,
          source: 'OPERATOR',
          batchId: batch.id,
          createdAt: now,
        })),
      );
      await recordAudit(
        tx,
        {
          actorId,
          action: 'voucher.issue',
          targetType: 'issue_batch',
          targetId: batch.id,
          detail: { name: input.name, amount: input.amountFen, count: owners.length, validDays: input.validDays },
        },
        now,
      );
      return { batchId: batch.id, issued: owners.length };
    });
  }

  /** A batch of fresh redemption codes; the codes themselves are shown once, here, and never logged. */
  async createRedeemCodes(executor: Executor, actorId: number, input: CreateCodesInput): Promise<{ batchId: number; codes: string[] }> {
    const now = this.deps.now();
    const voucherOnly = input.kind === 'VOUCHER';
    return executor.transaction(async (tx) => {
      const [batch] = await tx
        .insert(issueBatches)
        .values({
          kind: 'CODE',
          name: input.name,
          operatorId: actorId,
          count: input.count,
          detail: {
            codeKind: input.kind,
            amount: input.amountFen,
            ...(voucherOnly ? { minOrderAmount: input.minOrderFen, scope: input.scope, voucherValidDays: input.voucherValidDays } : {}),
            expiresInDays: input.expiresInDays,
          },
          createdAt: now,
        })
        .returning({ id: issueBatches.id });
      if (!batch) throw new Error('batch insert returned nothing');
      const expiresAt = new Date(now.getTime() + input.expiresInDays * DAY_MS);
      const codes: string[] = [];
      // 80 random bits per code make a collision practically impossible; a clash is simply redrawn.
      for (let attempt = 0; codes.length < input.count; attempt += 1) {
        if (attempt >= 5) throw new Error('could not draw unique redemption codes');
        const drawn = new Set<string>();
        while (drawn.size < input.count - codes.length) drawn.add(generateRedeemCode());
        const inserted = await tx
          .insert(redemptionCodes)
          .values(
            [...drawn].map((code) => ({
              code,
              batchId: batch.id,
              kind: input.kind,
              amountFen: input.amountFen,
              minOrderFen: voucherOnly ? input.minOrderFen : 0,
              scope: voucherOnly ? input.scope : [],
              voucherValidDays: input.voucherValidDays,
              expiresAt,
              createdAt: now,
            })),
          )
          .onConflictDoNothing()
          .returning({ code: redemptionCodes.code });
        codes.push(...inserted.map((row) => row.code));
      }
      await recordAudit(
        tx,
        {
          actorId,
          action: 'redeem_code.issue',
          targetType: 'issue_batch',
          targetId: batch.id,
          detail: { name: input.name, kind: input.kind, amount: input.amountFen, count: input.count, expiresAt: expiresAt.toISOString() },
        },
        now,
      );
      return { batchId: batch.id, codes };
    });
  }

  async auditLogs(query: PageQuery): Promise<Page<AuditLogView>> {
    return paged(
      query,
      (limit, offset) => this.db.select().from(auditLogs).orderBy(desc(auditLogs.createdAt), desc(auditLogs.id)).limit(limit).offset(offset),
      () => this.db.$count(auditLogs),
      (rows) => rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    );
  }

  /** Recharges of every owner, newest first, with the owner's telephone (one join, no per-row look-up). */
  async recharges(
    query: PageQuery & { status?: RechargeView['status'] | undefined; channel?: RechargeChannel | undefined },
  ): Promise<Page<AdminRechargeView>> {
    const where = and(
      query.status ? eq(recharges.status, query.status) : undefined,
      query.channel ? eq(recharges.channel, query.channel) : undefined,
    );
    return paged(
      query,
      (limit, offset) =>
        this.db
          .select({ recharge: recharges, ownerTelephone: users.telephone })
          .from(recharges)
          .innerJoin(users, eq(users.id, recharges.ownerId))
          .where(where)
          .orderBy(desc(recharges.createdAt), desc(recharges.id))
          .limit(limit)
          .offset(offset),
      () => this.db.$count(recharges, where),
      (rows) => rows.map((row) => ({ ...toRechargeView(row.recharge), ownerTelephone: row.ownerTelephone })),
    );
  }
}
