/**
 * Vitest global setup: on PGlite (no DATABASE_URL), one migrated and seeded database (dictionaries and
 * the sim fleet) dumped once for the whole run; every test file starts from a copy of it instead of
 * running every migration and seed again (what a fresh database gets, byte for byte).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.js';
import { seedDictionaries } from '../../src/db/seed/seed.js';
import { seedSimFleet } from '../../src/compute/sim/fleet.js';
import { zones } from '../../src/db/schema/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tar of the template PGlite data directory, or '' on PostgreSQL. */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.DATABASE_URL) {
    project.provide('pgliteTemplate', '');
    return () => {};
  }
  const handle = await openDatabase({});
  await handle.migrate();
  await seedDictionaries(handle.db);
  const zoneRows = await handle.db.select({ id: zones.id, name: zones.name }).from(zones);
  await seedSimFleet(handle.db, new Map(zoneRows.map((zone) => [zone.id, zone.name])));
  if (!handle.dump) throw new Error('the embedded database cannot be dumped');
  const dump = await handle.dump();
  await handle.close();
  const dir = mkdtempSync(join(tmpdir(), 'slg-pglite-template-'));
  const path = join(dir, 'template.tar');
  writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', path);
  return () => rmSync(dir, { recursive: true, force: true });
}
