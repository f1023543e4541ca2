import { inArray } from 'drizzle-orm';
import type { InstanceOperation, InstanceStatusValue } from '@slg/shared';
import type { MachineState } from '../../compute/driver.js';
import type { Executor } from '../../db/client.js';
import { instancePorts, instances } from '../../db/schema/index.js';
import { recordInstanceEvents } from './events.js';

type InstanceRow = typeof instances.$inferSelect;

/** What each operation is, from asking to done: the machine state that completes it, its event, the words of its history. */
export interface OperationEntry {
  /** What the machine must be doing for the operation to be done. */
  machineTarget: MachineState;
  /** The status the instance shows once it is done (null: released, the row stays as a record). */
  statusAfter(mode: string): InstanceStatusValue | null;
  event: string;
  doneText: string;
  failedText: string;
}

const runningStatus = (mode: string): InstanceStatusValue => (mode === 'nogpu' ? 'PoweredOnNoGPU' : 'PoweredOn');
const poweredOff = (): InstanceStatusValue => 'PoweredOff';

export const OPERATIONS: Record<InstanceOperation, OperationEntry> = {
  create: { machineTarget: 'running', statusAfter: runningStatus, event: 'CREATE', doneText: '创建完成，开始按量计费', failedText: '创建失败' },
  power_on: { machineTarget: 'running', statusAfter: runningStatus, event: 'POWER_ON', doneText: '开机完成，开始计费', failedText: '开机失败' },
  power_off: { machineTarget: 'stopped', statusAfter: poweredOff, event: 'POWER_OFF', doneText: '关机完成', failedText: '关机失败' },
  release: { machineTarget: 'absent', statusAfter: () => null, event: 'RELEASE', doneText: '释放完成，数据已删除', failedText: '释放失败' },
  reset: { machineTarget: 'stopped', statusAfter: poweredOff, event: 'RESET_SYSTEM', doneText: '重置系统完成：系统盘已按镜像重建，数据盘保留', failedText: '重置系统失败' },
  save_image: { machineTarget: 'stopped', statusAfter: poweredOff, event: 'SAVE_IMAGE', doneText: '保存镜像完成', failedText: '保存镜像失败' },
};

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
