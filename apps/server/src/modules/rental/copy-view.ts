import { and, desc, eq, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { copyTasks, instances } from '../../db/schema/index.js';

/** What the instance list shows of a copy running from or into an instance (跨实例拷贝). */
export const runningCopySchema = z.object({
  taskId: z.string().describe('拷贝任务ID（取消拷贝时使用）'),
  role: z.enum(['source', 'target']).describe('source 本实例是源，target 本实例是目标'),
  peerInstanceId: z.string().describe('另一端实例的ID'),
  progress: z.number().int().describe('进度 0–100'),
  path: z.string(),
});
export type RunningCopy = z.infer<typeof runningCopySchema>;

const TASK_ALIAS = 'running_copy';
const PEER_ALIAS = 'running_copy_peer';
const task = alias(copyTasks, TASK_ALIAS);
const peer = alias(instances, PEER_ALIAS);

/**
 * The newest running copy of the row's instance, as one JSON column of the instance query (no query per
 * instance): a correlated subquery on the running tasks, which the partial unique index and
 * copy_tasks_from_idx keep small.
 */
export function runningCopyColumn() {
  const isTarget = eq(task.toInstanceRowId, instances.id);
  return sql<unknown>`(select json_build_object(
      'taskId', ${task.uid}, 'role', case when ${isTarget} then 'target' else 'source' end,
      'peerInstanceId', ${peer.instanceId}, 'progress', ${task.progress}, 'path', ${task.path})
    from ${copyTasks} ${sql.identifier(TASK_ALIAS)} join ${instances} ${sql.identifier(PEER_ALIAS)} on ${peer.id} = case when ${isTarget} then ${task.fromInstanceRowId} else ${task.toInstanceRowId} end
    where ${and(eq(task.status, 'running'), or(eq(task.fromInstanceRowId, instances.id), isTarget))}
    order by ${desc(task.createdAt)} limit 1)`;
}

/** The column's value as the drivers hand it over (parsed JSON, or text), checked; null when none runs. */
export function runningCopyOf(value: unknown): RunningCopy | null {
  if (value === null || value === undefined) return null;
  const parsed = runningCopySchema.safeParse(typeof value === 'string' ? JSON.parse(value) : value);
  return parsed.success ? parsed.data : null;
}
