import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { openDatabase, rowsOf } from '../src/db/client.js';
import type { TestApp } from './helpers.js';

export interface Replica {
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * A second server process in miniature: another app instance (its own in-memory state) on the same
 * database. On PostgreSQL it gets its own connection pool, as a second replica would; an in-memory
 * PGlite cannot be opened twice, so there both instances share the one handle.
 */
export async function secondReplica(test: TestApp): Promise<Replica> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const app = await buildApp(test.deps, { logger: false });
    await app.ready();
    return { app, close: () => app.close() };
  }
  const [current] = rowsOf<{ name: string }>(await test.deps.database.db.execute(sql`select current_database() as name`));
  if (!current) throw new Error('current_database() answered nothing');
  const url = new URL(serverUrl);
  url.pathname = `/${current.name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  const app = await buildApp({ ...test.deps, database }, { logger: false });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
