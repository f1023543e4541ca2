import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { rowsOf } from '../db/client.js';

/**
 * Claims the next run of a periodic job for this process: one statement takes the job's lease only
 * when the previous one has run out, so with several server processes on one PostgreSQL each tick runs
 * once. The lease lasts one interval; a process that dies mid-run simply lets it lapse, and the next
 * claim runs the (idempotent) job again.
 */
export async function claimJobRun(db: Database, name: string, holder: string, intervalMs: number, now: Date): Promise<boolean> {
  const until = new Date(now.getTime() + intervalMs);
  const result = await db.execute(sql`
    insert into job_leases (name, holder, lease_until, last_run_at)
    values (${name}, ${holder}, ${until.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
    on conflict (name) do update set holder = excluded.holder, lease_until = excluded.lease_until, last_run_at = excluded.last_run_at
      where job_leases.lease_until <= ${now.toISOString()}::timestamptz
    returning name`);
  return rowsOf(result).length > 0;
}
