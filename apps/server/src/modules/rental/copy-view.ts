import { and, desc, eq, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { runningCopySchema, type RunningCopy } from '@slg/shared/views/rental';
import { copyTasks, instances } from '../../db/schema/index.js';

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
