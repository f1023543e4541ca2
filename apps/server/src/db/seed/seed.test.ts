import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../client.js';
import { cpuModels, gpuModels, publicImages, zones } from '../schema/meta.js';
import { SEED_CPUS, SEED_GPUS, SEED_PUBLIC_IMAGES, SEED_ZONES } from './data.js';
import { seedDictionaries } from './seed.js';

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openDatabase({ databaseUrl: undefined });
  await handle.migrate();
});

afterAll(async () => {
  await handle.close();
});

async function counts() {
  const { db } = handle;
  return {
    zones: await db.$count(zones),
    gpus: await db.$count(gpuModels),
    cpus: await db.$count(cpuModels),
    images: await db.$count(publicImages),
  };
}

describe('seedDictionaries', () => {
  it('fills every metadata table on an empty database', async () => {
    await seedDictionaries(handle.db);
    expect(await counts()).toEqual({
      zones: SEED_ZONES.length,
      gpus: SEED_GPUS.length,
      cpus: SEED_CPUS.length,
      images: SEED_PUBLIC_IMAGES.length,
    });
    const [rtx4090] = await handle.db.select().from(gpuModels).where(eq(gpuModels.id, 'rtx4090'));
    expect(rtx4090).toMatchObject({ name: 'RTX 4090', memoryGb: 24, fp32Tflops: 82.6, pricePerHourFen: 198, enabled: true });
  });

  it('is idempotent and never overwrites an operator edit', async () => {
    await seedDictionaries(handle.db);
    const before = await counts();
    await handle.db.update(zones).set({ name: '北京A区（运营修改）', enabled: false }).where(eq(zones.id, 'bj-a'));
    await handle.db.update(gpuModels).set({ pricePerHourFen: 188 }).where(eq(gpuModels.id, 'rtx4090'));

    await seedDictionaries(handle.db);
    await seedDictionaries(handle.db);

    expect(await counts()).toEqual(before);
    const [zone] = await handle.db.select().from(zones).where(eq(zones.id, 'bj-a'));
    expect(zone).toMatchObject({ name: '北京A区（运营修改）', enabled: false });
    const [gpu] = await handle.db.select().from(gpuModels).where(eq(gpuModels.id, 'rtx4090'));
    expect(gpu?.pricePerHourFen).toBe(188);
  });

  it('has unique, short ids that fit the columns', () => {
    for (const [rows, max] of [
      [SEED_ZONES, 32],
      [SEED_GPUS, 32],
      [SEED_CPUS, 32],
      [SEED_PUBLIC_IMAGES, 64],
    ] as const) {
      const ids = rows.map((row) => row.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) {
        expect(id).toMatch(/^[a-z0-9][a-z0-9.-]*$/);
        expect(id.length).toBeLessThanOrEqual(max);
      }
    }
    expect(SEED_PUBLIC_IMAGES.map((image) => image.id)).toContain('pytorch-2.5.1-py3.12-cu124');
  });
});
