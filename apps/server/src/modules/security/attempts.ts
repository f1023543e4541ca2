import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';
import { attemptWindows } from '../../db/schema/index.js';

/** A limit on attempts: at most `limit` of them in any `windowSeconds`, per subject of the scope. */
export interface AttemptRule {
  scope: string;
  limit: number;
  windowSeconds: number;
}

export interface Attempt {
  allowed: boolean;
  /** When refused: seconds until the oldest counted attempt leaves the window. */
  retryAfterSeconds: number;
  /** The instant this attempt was counted at (to give it back later), when allowed. */
  at: Date;
  /** Attempts inside the window now, this one included when it was allowed. */
  count: number;
}

/**
 * Counts an attempt and decides in one statement whether it may go ahead: the row of (scope, subject)
 * is locked by the upsert, old hits are dropped, and the new one is appended only while fewer than
 * the limit remain. Concurrent attempts queue on the row, so a burst never gets past the limit.
 * `limit` may be raised for this attempt alone (an SMS send that passed a human check).
 */
export async function takeAttempt(
  executor: Executor,
  rule: AttemptRule,
  subject: string,
  now: Date,
  limit: number = rule.limit,
): Promise<Attempt> {
  const since = new Date(now.getTime() - rule.windowSeconds * 1000);
  const recent = sql`array(select h from unnest(w.hits) as h where h > ${since.toISOString()}::timestamptz order by h)`;
  const result = await executor.execute(sql`
    insert into attempt_windows as w (scope, subject, hits, last_allowed)
    values (${rule.scope}, ${subject}, array[${now.toISOString()}::timestamptz], true)
    on conflict (scope, subject) do update set
      hits = case when cardinality(${recent}) < ${limit}
        then ${recent} || ${now.toISOString()}::timestamptz
        else ${recent} end,
      last_allowed = cardinality(${recent}) < ${limit}
    returning last_allowed as allowed, cardinality(w.hits) as count,
      (extract(epoch from (select min(h) from unnest(w.hits) as h)) * 1000)::float8 as oldest`);
  const [row] = rowsOf<{ allowed: boolean; count: number | string; oldest: number | null }>(result);
  if (!row) throw new Error('attempt upsert returned nothing');
  const windowEnds = (row.oldest ?? now.getTime()) + rule.windowSeconds * 1000;
  return {
    allowed: row.allowed,
    // Concurrent attempts each carry their own `now`: the oldest hit may be a few ms after this one's,
    // which must not make the wait longer than the window.
    retryAfterSeconds: row.allowed ? 0 : Math.min(rule.windowSeconds, Math.max(1, Math.ceil((windowEnds - now.getTime()) / 1000))),
    at: now,
    count: Number(row.count),
  };
}

/** Takes back one counted attempt (it turned out not to be a failure: the right password, a valid code). */
export async function giveBackAttempt(executor: Executor, rule: AttemptRule, subject: string, attempt: Attempt): Promise<void> {
  if (!attempt.allowed) return;
  const at = sql`${attempt.at.toISOString()}::timestamptz`;
  await executor
    .update(attemptWindows)
    .set({
      hits: sql`${attemptWindows.hits}[1 : array_position(${attemptWindows.hits}, ${at}) - 1]
        || ${attemptWindows.hits}[array_position(${attemptWindows.hits}, ${at}) + 1 :]`,
    })
    .where(and(eq(attemptWindows.scope, rule.scope), eq(attemptWindows.subject, subject), sql`${at} = any(${attemptWindows.hits})`));
}

/** Forgets every attempt of a subject (the owner proved who they are, e.g. reset the password by SMS). */
export async function clearAttempts(executor: Executor, rule: AttemptRule, subject: string): Promise<void> {
  await executor.delete(attemptWindows).where(and(eq(attemptWindows.scope, rule.scope), eq(attemptWindows.subject, subject)));
}

/** Drops windows whose newest attempt is older than any rule's window (a periodic job). */
export async function pruneAttemptWindows(executor: Executor, now: Date, longestWindowSeconds: number): Promise<number> {
  const cutoff = new Date(now.getTime() - longestWindowSeconds * 1000);
  const pruned = await executor
    .delete(attemptWindows)
    .where(sql`coalesce(${attemptWindows.hits}[cardinality(${attemptWindows.hits})], '-infinity') < ${cutoff.toISOString()}::timestamptz`)
    .returning({ scope: attemptWindows.scope });
  return pruned.length;
}
