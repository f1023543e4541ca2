import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgTransaction } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** Both drivers (PGlite and node-postgres) give this type, so modules never care which runs. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: services take this so callers can compose them. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * One statement by its text and positional parameters ($1, $2, …), bypassing the query builder: on
   * PostgreSQL a named prepared statement, parsed and planned once per connection (for the hottest
   * statement there is, the per-request session check).
   */
  queryPrepared<T>(name: string, text: string, values: unknown[]): Promise<T[]>;
  /** PGlite only: the data directory as a tar, which `pgliteTemplate` opens again (tests copy a seeded database). */
  dump?(): Promise<Blob>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export interface OpenDatabaseOptions {
  /** postgres:// URL; when unset an embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** Directory for PGlite's files; unset means in memory. */
  pgliteDir?: string | undefined;
  /** A PGlite data directory dump to start from (tests clone a migrated template). */
  pgliteTemplate?: Blob | File | undefined;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    // bigint columns (ledger sums) come back as strings by default; money here stays well inside 2^53.
    pg.types.setTypeParser(20, (value: string) => Number.parseInt(value, 10));
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection can die under us (PostgreSQL restarts, failover, an admin terminating it): the
    // pool replaces it on the next checkout; without a listener Node would crash the whole process.
    pool.on('error', (error) => console.error(`PostgreSQL 空闲连接断开: ${error.message}`));
    const db = drizzle(pool, { schema });
    return {
      db,
      kind: 'postgres',
      migrate: () => migrate(db, { migrationsFolder }),
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
      queryPrepared: async <T>(name: string, text: string, values: unknown[]) => (await pool.query({ name, text, values })).rows as T[],
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (options.pgliteDir) mkdirSync(options.pgliteDir, { recursive: true });
  const client = await PGlite.create(options.pgliteDir ? join(options.pgliteDir) : undefined, {
    ...(options.pgliteTemplate ? { loadDataDir: options.pgliteTemplate } : {}),
  });
  const db = drizzle(client, { schema });
  return {
    db,
    kind: 'pglite',
    migrate: () => migrate(db, { migrationsFolder }),
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
    dump: () => client.dumpDataDir('none'),
    queryPrepared: async <T>(_name: string, text: string, values: unknown[]) => (await client.query<T>(text, values)).rows,
  };
}

/** Rows of a raw `execute` (both drivers answer `{ rows }`). Numbers from sums arrive as strings. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
