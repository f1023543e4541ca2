/**
 * Fails the test during which two queries ran at once on one PostgreSQL connection (say, Promise.all
 * on a transaction). node-postgres only warns about it (a DeprecationWarning, once per process and
 * only from the third query on) and its next major refuses it, so every `Client#query` is checked
 * here: a query started while the client still runs or queues another is recorded, with the stack
 * that started it, and the test fails. The warning itself is turned into a failure too.
 * PGlite has no such client; the guard acts when DATABASE_URL points at PostgreSQL.
 */
import pg from 'pg';
import { afterAll, afterEach } from 'vitest';

const CONCURRENT_QUERY_WARNING = /already executing a query/;

const violations: string[] = [];

interface ClientInternals {
  _activeQuery?: unknown;
  _queryQueue?: unknown[];
}

const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function guardedQuery(this: pg.Client & ClientInternals, ...args: unknown[]) {
  const busy = (this._activeQuery !== null && this._activeQuery !== undefined) || (this._queryQueue?.length ?? 0) > 0;
  if (busy) violations.push(new Error('a query started while this connection was still running another').stack ?? '');
  return (originalQuery as (...rest: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

process.on('warning', (warning) => {
  if (warning.name === 'DeprecationWarning' && CONCURRENT_QUERY_WARNING.test(warning.message)) violations.push(warning.stack ?? warning.message);
});

/** Takes the recorded violations (the guard's own test uses it to see that it catches them). */
export function takeConcurrentQueryViolations(): string[] {
  return violations.splice(0);
}

/** Throws when a query ran concurrently with another on one connection since the last check. */
export function assertNoConcurrentQueries(): void {
  const found = takeConcurrentQueryViolations();
  if (found.length > 0) {
    throw new Error(`同一数据库连接上同时执行了两条查询（事务中不可并发查询，例如 Promise.all）：\n${found.join('\n---\n')}`);
  }
}

// A warning is emitted on the next tick: let it arrive before checking.
const check = async () => {
  await new Promise((resolve) => setImmediate(resolve));
  assertNoConcurrentQueries();
};
afterEach(check);
afterAll(check);
