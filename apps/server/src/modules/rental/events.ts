import type { Executor } from '../../db/client.js';
import { instanceEvents } from '../../db/schema/index.js';

/** One entry of an instance's history (操作记录): what happened, the status before and after, who did it. */
export interface InstanceEventRecord {
  instanceRowId: number;
  type: string;
  fromStatus: string | null;
  toStatus: string | null;
  detail: string;
  /** The user who asked; null for the platform (jobs, the reconciler). */
  actorId: number | null;
}

/**
 * The one way an instance's history is written, by the API's operations, the reconciler and the
 * billing jobs alike: in the caller's transaction, all stamped `at`.
 */
export async function recordInstanceEvents(executor: Executor, events: readonly InstanceEventRecord[], at: Date): Promise<void> {
  if (events.length === 0) return;
  await executor.insert(instanceEvents).values(events.map((event) => ({ ...event, createdAt: at })));
}
