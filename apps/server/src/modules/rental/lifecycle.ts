import { inArray } from 'drizzle-orm';
import type { InstanceOperation } from '@slg/shared';
import type { Executor } from '../../db/client.js';
import { instancePorts, instances } from '../../db/schema/index.js';
import { recordInstanceEvents } from './events.js';

type InstanceRow = typeof instances.$inferSelect;

/**
 * How an operation is handed to the reconciler: the columns every writer sets on the instance row
 * (in the same transaction as its money, GPUs and event), whichever module asks for it.
 */
export function beginOperation(
  operation: InstanceOperation,
  now: Date,
  details: { mode?: 'gpu' | 'nogpu' | null; arg?: string } = {},
): Pick<typeof instances.$inferInsert, 'operation' | 'operationMode' | 'operationStartedAt' | 'operationAttempts' | 'operationLeaseUntil' | 'updatedAt'> & {
  operationArg?: string;
} {
  return {
    operation,
    operationMode: details.mode ?? null,
    ...(details.arg !== undefined ? { operationArg: details.arg } : {}),
    operationStartedAt: now,
    operationAttempts: 0,
    operationLeaseUntil: null,
    updatedAt: now,
  };
}

/**
 * Starts releasing instances (already locked and checked by the caller): 释放中 with the release
 * operation, their custom service routes dropped (the machine's `destroy` takes them, and the gateway
 * ports are free for others now), one RELEASE event each. The one place a release begins: a user's,
 * the automatic one after 15 days off, and the source of a finished migration.
 */
export async function beginRelease(
  tx: Executor,
  released: readonly Pick<InstanceRow, 'id' | 'status'>[],
  now: Date,
  cause: { detail: string; actorId: number | null; statusReason?: string },
): Promise<void> {
  if (released.length === 0) return;
  const ids = released.map((instance) => instance.id);
  await tx
    .update(instances)
    .set({ status: 'DestroyStarted', ...(cause.statusReason !== undefined ? { statusReason: cause.statusReason } : {}), ...beginOperation('release', now) })
    .where(inArray(instances.id, ids));
  await tx.delete(instancePorts).where(inArray(instancePorts.instanceRowId, ids));
  await recordInstanceEvents(
    tx,
    released.map((instance) => ({ instanceRowId: instance.id, type: 'RELEASE', fromStatus: instance.status, toStatus: 'DestroyStarted', detail: cause.detail, actorId: cause.actorId })),
    now,
  );
}
