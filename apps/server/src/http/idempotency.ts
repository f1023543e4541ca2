import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';
import { idempotencyKeys } from '../db/schema/index.js';
import { AppError } from './errors.js';
import { principalOf } from './auth.js';

const KEY_PATTERN = /^[\w.:-]{8,128}$/;

const PENDING = 0;

/**
 * Runs a money-moving handler at most once per (user, Idempotency-Key): a repeat gets the first
 * answer back, status and body, and nothing moves again. The key is claimed before the handler runs,
 * so two concurrent twins cannot both move money; the loser is told the first is still running.
 * Only successful answers are kept: a refused request frees its key so it can be corrected and retried.
 * Without the header the handler just runs.
 */
export async function once<T>(
  db: Database,
  request: FastifyRequest,
  reply: FastifyReply,
  handler: () => Promise<T>,
): Promise<T> {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return handler();
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !KEY_PATTERN.test(key)) throw new AppError('VALIDATION', 'Idempotency-Key 须为8-128位字母、数字或 -_.:');
  const userId = principalOf(request).userId;
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  const thisKey = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));

  const claimed = await db
    .insert(idempotencyKeys)
    .values({ userId, key, route, statusCode: PENDING, response: {} })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed.length === 0) {
    const [seen] = await db.select().from(idempotencyKeys).where(thisKey);
    if (!seen || seen.route !== route) throw new AppError('IDEMPOTENCY_CONFLICT');
    if (seen.statusCode === PENDING) throw new AppError('IDEMPOTENCY_CONFLICT', '相同的请求正在处理中，请稍后查询结果');
    reply.status(seen.statusCode);
    return seen.response as T;
  }
  try {
    const result = await handler();
    await db
      .update(idempotencyKeys)
      .set({ statusCode: reply.statusCode, response: result as object })
      .where(thisKey);
    return result;
  } catch (error) {
    await db.delete(idempotencyKeys).where(thisKey);
    throw error;
  }
}
