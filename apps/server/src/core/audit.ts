import type { Executor } from '../db/client.js';
import { auditLogs } from '../db/schema/index.js';

export interface AuditRecord {
  actorId: number;
  /** Dotted verb, e.g. `recharge.confirm`, `invoice.issue`, `voucher.issue`. */
  action: string;
  targetType: string;
  targetId: string | number;
  detail?: Record<string, unknown>;
}

/** Records an operator action; call it inside the transaction of the action itself. */
export async function recordAudit(executor: Executor, record: AuditRecord, now: Date): Promise<void> {
  await executor.insert(auditLogs).values({
    actorId: record.actorId,
    action: record.action,
    targetType: record.targetType,
    targetId: String(record.targetId),
    detail: record.detail ?? {},
    createdAt: now,
  });
}
