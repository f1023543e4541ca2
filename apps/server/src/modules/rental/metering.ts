import { eq } from 'drizzle-orm';
import { runCharge } from '@slg/shared';
import type { Transaction } from '../../db/client.js';
import { instances } from '../../db/schema/index.js';
import { OrderService } from '../billing/orders.js';

export type InstanceRow = typeof instances.$inferSelect;

/** The words a metered charge carries into 收支明细 and 账单明细. */
export function meteredDescription(instance: Pick<InstanceRow, 'name' | 'instanceId' | 'gpuMode'>): string {
  return `按量计费：${instance.name}（${instance.instanceId}${instance.gpuMode === 'nogpu' ? '，无卡模式' : ''}）`;
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
  const target = runCharge(instance.runRateFen, runSeconds(instance.runStartedAt, now));
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
        ? { runStartedAt: null, runRateFen: 0, runChargedFen: 0, updatedAt: now }
        : { runChargedFen: Math.max(target, instance.runChargedFen), updatedAt: now },
    )
    .where(eq(instances.id, instance.id));
  return Math.max(0, due);
}
