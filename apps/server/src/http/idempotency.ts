import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Transaction } from '../db/client.js';
import type { AppDeps } from '../deps.js';
import { idempotencyKeys } from '../db/schema/index.js';
import { AppError } from '../core/errors.js';
import { principalOf } from './auth.js';

const KEY_PATTERN = /^[\w.:-]{8,128}$/;

/** How long an answer is kept for repeats of its key. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600 * 1000;

/** JSON with object keys sorted, so two equal bodies give one fingerprint whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Runs a money-moving handler in one transaction, at most once per (user, Idempotency-Key).
 *
 * The key's row is inserted at the start of the handler's transaction and its answer written just
 * before the commit, so the key and the effect commit together or not at all: a process killed in the
 * middle leaves nothing behind (PostgreSQL rolls the transaction back) and the next request with the
 * key simply runs. A twin arriving while the first is still running waits on the key's row (the
 * unique index) and then gets the first answer. A refused request rolls back too, freeing its key to
 * be corrected and retried. The same key with another body or on another route is refused.
 * Without the header the handler just runs in its transaction.
 */
export async function once<T>(
  deps: Pick<AppDeps, 'database' | 'now'>,
  request: FastifyRequest,
  reply: FastifyReply,
  handler: (tx: Transaction) => Promise<T>,
): Promise<T> {
  const db = deps.database.db;
  const header = request.headers['idempotency-key'];
  if (header === undefined) return db.transaction(handler);
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !KEY_PATTERN.test(key)) throw new AppError('VALIDATION', 'Idempotency-Key 须为8-128位字母、数字或 -_.:');
  const userId = principalOf(request).userId;
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  const fingerprint = createHash('sha256')
    .update(`${route}\n${canonicalJson({ params: request.params, query: request.query, body: request.body })}`)
    .digest('hex');
  const thisKey = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));

  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ userId, key, route, fingerprint, statusCode: 0, response: {}, createdAt: deps.now() })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 0) {
      // Read in a new snapshot: the first request with this key has committed its answer.
      const [seen] = await tx.select().from(idempotencyKeys).where(thisKey);
      if (!seen) throw new AppError('IDEMPOTENCY_CONFLICT', '相同的请求正在处理中，请稍后重试');
      if (seen.fingerprint !== fingerprint) {
        throw new AppError('IDEMPOTENCY_CONFLICT', '该 Idempotency-Key 已用于另一个内容不同的请求，请为新请求生成新的 Key');
      }
      reply.status(seen.statusCode);
      return seen.response as T;
    }
    const result = await handler(tx);
    await tx
      .update(idempotencyKeys)
      .set({ statusCode: reply.statusCode, response: result as object })
      .where(thisKey);
    return result;
  });
}

/** Forgets answers older than the TTL (a periodic job; one statement, safe on every replica). */
export async function pruneIdempotencyKeys(db: Database, now: Date): Promise<number> {
  const pruned = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS)))
    .returning({ key: idempotencyKeys.key });
  return pruned.length;
}
