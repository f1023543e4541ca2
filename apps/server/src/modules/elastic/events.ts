import type { Executor } from '../../db/client.js';
import { elasticEvents } from '../../db/schema/index.js';

export interface ElasticEventRecord {
  deploymentRowId: number;
  type: string;
  detail: string;
  actorId?: number | null;
}

/** What happened to deployments, in one insert. */
export async function recordElasticEvents(executor: Executor, events: readonly ElasticEventRecord[], at: Date): Promise<void> {
  if (events.length === 0) return;
  await executor.insert(elasticEvents).values(events.map((event) => ({ ...event, actorId: event.actorId ?? null, createdAt: at })));
}
