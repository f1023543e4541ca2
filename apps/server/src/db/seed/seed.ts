import type { Database } from '../client.js';
import { cpuModels, gpuModels, publicImages, zones } from '../schema/meta.js';
import { SEED_CPUS, SEED_GPUS, SEED_PUBLIC_IMAGES, SEED_ZONES } from './data.js';

/**
 * Fills the metadata tables on first start. Idempotent: a row whose id already exists is left as it
 * is (`ON CONFLICT (id) DO NOTHING`), so running it on every start never overwrites what the
 * operator edited or disabled, and only adds rows that are new in `data.ts`. The operator retires a
 * seeded row by disabling it (`enabled = false`), not by deleting it: a deleted row comes back.
 */
export async function seedDictionaries(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(zones).values([...SEED_ZONES]).onConflictDoNothing({ target: zones.id });
    await tx.insert(gpuModels).values([...SEED_GPUS]).onConflictDoNothing({ target: gpuModels.id });
    await tx.insert(cpuModels).values([...SEED_CPUS]).onConflictDoNothing({ target: cpuModels.id });
    await tx.insert(publicImages).values([...SEED_PUBLIC_IMAGES]).onConflictDoNothing({ target: publicImages.id });
  });
}
