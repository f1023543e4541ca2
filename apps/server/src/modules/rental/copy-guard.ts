import { and, eq, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { copyTasks, instances } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';

/** The operations that would destroy or cut an end of a running 跨实例拷贝, by the verb their refusal ends with. */
const GUARDED_VERBS = {
  release: '释放',
  shrink_disk: '缩容数据盘',
  reset: '重置系统',
  switch_image: '更换镜像',
  /** A clone that releases its source once it runs. */
  move: '迁移',
} as const;

export type CopyGuardedAction = keyof typeof GUARDED_VERBS;

const guardFrom = alias(instances, 'guard_copy_from');
const guardTo = alias(instances, 'guard_copy_to');

/**
 * Refuses `action` on an instance a copy runs from or into (409 naming both ends). Race-free only when
 * the caller holds the instance's row lock (`FOR UPDATE`): starting a copy locks both ends before it
 * writes its running task, so no copy can start under the caller's lock, and one committed before the
 * lock was granted is seen by this statement (READ COMMITTED reads anew per statement). A copy that
 * ends meanwhile only makes the refusal cautious.
 *
 * Not in copy-data.ts: RentalService calls it, and copy-data.ts imports RentalService.
 */
export async function assertNoRunningCopy(executor: Executor, instanceRowId: number, action: CopyGuardedAction): Promise<void> {
  const [running] = await executor
    .select({ fromName: guardFrom.name, toName: guardTo.name })
    .from(copyTasks)
    .innerJoin(guardFrom, eq(guardFrom.id, copyTasks.fromInstanceRowId))
    .innerJoin(guardTo, eq(guardTo.id, copyTasks.toInstanceRowId))
    .where(and(eq(copyTasks.status, 'running'), or(eq(copyTasks.fromInstanceRowId, instanceRowId), eq(copyTasks.toInstanceRowId, instanceRowId))))
    .limit(1);
  if (running) {
    throw new AppError('STATE_CONFLICT', `实例正在进行跨实例拷贝（从「${running.fromName}」到「${running.toName}」），请等待完成或取消拷贝后再${GUARDED_VERBS[action]}`);
  }
}
