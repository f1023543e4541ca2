import { count, isNotNull, lt, min } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { instances, wallets } from '../../db/schema/index.js';
import { Telemetry, type PlatformSample } from '../../core/telemetry.js';

/** The database-backed gauges of `/metrics`: two small counts per scrape. */
export async function samplePlatform(db: Database, now: Date): Promise<PlatformSample> {
  const [pending] = await db.select({ total: count(), oldest: min(instances.operationStartedAt) }).from(instances).where(isNotNull(instances.operation));
  const [arrears] = await db.select({ total: count() }).from(wallets).where(lt(wallets.balanceFen, 0));
  const oldest = pending?.oldest ? new Date(pending.oldest) : null;
  return {
    operationsPending: Number(pending?.total ?? 0),
    oldestOperationSeconds: oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0,
    walletsInArrears: Number(arrears?.total ?? 0),
  };
}

/** A process's telemetry, its gauges read from this database. */
export function createTelemetry(db: Database, now: () => Date, options: { processMetrics: boolean }): Telemetry {
  const telemetry = new Telemetry(options);
  telemetry.sampleWith(() => samplePlatform(db, now()));
  return telemetry;
}
