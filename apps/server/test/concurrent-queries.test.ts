/**
 * The guard of test/setup/no-concurrent-queries.ts catches two queries at once on one transaction.
 * PostgreSQL only: PGlite has no node-postgres client to watch (it serialises queries itself).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoConcurrentQueries, takeConcurrentQueryViolations } from './setup/no-concurrent-queries.js';
import { createTestApp, type TestApp } from './helpers.js';

const onPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!onPostgres)('guard against concurrent queries on one connection (PostgreSQL)', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await createTestApp();
  });

  afterAll(async () => {
    await test?.close();
  });

  it('records two queries run at once on a transaction, and the check fails the test', async () => {
    await test.deps.database.db.transaction(async (tx) => {
      await Promise.all([tx.execute(sql`select 1`), tx.execute(sql`select 2`)]);
    });
    expect(() => assertNoConcurrentQueries()).toThrow(/同一数据库连接上同时执行了两条查询/);
    // The check took what it reported: the next test starts clean.
    expect(takeConcurrentQueryViolations()).toEqual([]);
  });

  it('catches three at once too, where node-postgres itself warns', async () => {
    await test.deps.database.db.transaction(async (tx) => {
      await Promise.all([tx.execute(sql`select 1`), tx.execute(sql`select 2`), tx.execute(sql`select 3`)]);
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(takeConcurrentQueryViolations().length).toBeGreaterThanOrEqual(2);
  });

  it('lets queries one after another on a transaction, and parallel queries on the pool, pass', async () => {
    const db = test.deps.database.db;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await tx.execute(sql`select 2`);
    });
    await Promise.all([db.execute(sql`select 1`), db.execute(sql`select 2`), db.execute(sql`select 3`)]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(takeConcurrentQueryViolations()).toEqual([]);
  });
});

describe.skipIf(onPostgres)('guard against concurrent queries (PGlite)', () => {
  it.skip('runs on PostgreSQL only: set DATABASE_URL', () => {});
});
