import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CHARGING_RULES, INSTANCE_STATUSES, RENTAL_EVENT_TYPES } from '@slg/shared';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { dbOf } from '../../deps.js';
import { cpuModels, gpuModels, publicImages, zones } from '../../db/schema/meta.js';
import { seedDictionaries } from '../../db/seed/seed.js';
import { SEED_CPUS, SEED_GPUS, SEED_PUBLIC_IMAGES, SEED_ZONES } from '../../db/seed/data.js';
import { DICTIONARY_MAX_AGE_MS } from './routes.js';

let test: TestApp;

beforeAll(async () => {
  test = await createTestApp();
});

afterAll(async () => {
  await test.close();
});

const CHINESE = /[\u4e00-\u9fff]/;

/** An operator's edit reaches the answers once the in-memory copy is older than its maximum age. */
function outliveDictionaryCache(): void {
  test.clock.advance(DICTIONARY_MAX_AGE_MS / 1000);
}

/** GET a meta list without any token; asserts the success envelope and a non-empty list. */
async function list(path: string): Promise<Record<string, unknown>[]> {
  const response = await test.app.inject({ method: 'GET', url: `/api/v1/meta/${path}` });
  expect(response.statusCode, path).toBe(200);
  const body = response.json() as { rspcode: number; code: number; rspmsg: string; result: Record<string, unknown>[] };
  expect(body).toMatchObject({ rspcode: 0, code: 200, rspmsg: 'success' });
  expect(Array.isArray(body.result)).toBe(true);
  expect(body.result.length, path).toBeGreaterThan(0);
  return body.result;
}

function expectKeys(items: Record<string, unknown>[], keys: string[]): void {
  for (const item of items) expect(Object.keys(item).sort()).toEqual([...keys].sort());
}

async function counts() {
  const db = dbOf(test.deps);
  return {
    zones: await db.$count(zones),
    gpus: await db.$count(gpuModels),
    cpus: await db.$count(cpuModels),
    images: await db.$count(publicImages),
  };
}

describe('GET /api/v1/meta/* (public dictionaries)', () => {
  it('lists zones', async () => {
    const items = await list('zone');
    expectKeys(items, ['id', 'name', 'region', 'description']);
    expect(items[0]).toEqual({
      id: 'bj-a',
      name: '北京A区',
      region: '华北',
      description: expect.stringMatching(CHINESE),
    });
    expect(items.map((z) => z.id)).toEqual(SEED_ZONES.map((z) => z.id));
  });

  it('lists GPU models with exact numbers', async () => {
    const items = await list('gpu');
    expectKeys(items, ['id', 'name', 'memoryGb', 'vendor', 'architecture', 'fp32Tflops', 'pricePerHourFen']);
    expect(items.find((g) => g.id === 'rtx4090')).toEqual({
      id: 'rtx4090',
      name: 'RTX 4090',
      memoryGb: 24,
      vendor: 'NVIDIA',
      architecture: 'Ada Lovelace',
      fp32Tflops: 82.6,
      pricePerHourFen: 198,
    });
    for (const gpu of items) expect(Number.isInteger(gpu.pricePerHourFen)).toBe(true);
  });

  it('lists CPU models', async () => {
    const items = await list('cpu');
    expectKeys(items, ['id', 'name', 'cores', 'baseClockGhz']);
    expect(items).toHaveLength(SEED_CPUS.length);
  });

  it('lists public images', async () => {
    const items = await list('images/public');
    expectKeys(items, ['id', 'name', 'framework', 'frameworkVersion', 'python', 'cuda', 'ubuntu', 'sizeGb', 'imageRef']);
    expect(items.find((i) => i.id === 'pytorch-2.5.1-py3.12-cu124')).toMatchObject({
      imageRef: 'slg/base:bookworm',
      framework: 'PyTorch',
      frameworkVersion: '2.5.1',
      python: '3.12',
      cuda: '12.4',
      ubuntu: '22.04',
    });
  });

  it('lists the four charging rules', async () => {
    const items = await list('charging_rule');
    expectKeys(items, ['id', 'name', 'showName', 'isFilter', 'unit']);
    expect(items).toEqual(CHARGING_RULES.map((rule) => ({ ...rule })));
    expect(items.map((r) => [r.id, r.name, r.unit])).toEqual([
      [1, 'ByUsage', '天'],
      [2, 'ByDay', '天'],
      [3, 'ByWeek', '周'],
      [4, 'ByMonth', '月'],
    ]);
  });

  it('lists all 14 instance statuses with Chinese names, colours and filter flags', async () => {
    const items = await list('instance_status');
    expectKeys(items, ['id', 'name', 'showName', 'color', 'isFilter']);
    expect(items).toHaveLength(14);
    expect(items.map((s) => s.name)).toEqual(INSTANCE_STATUSES.map((s) => s.value));
    for (const status of items) {
      expect(status.showName).toMatch(CHINESE);
      expect(['success', 'processing', 'default', 'error', 'warning']).toContain(status.color);
      expect(typeof status.isFilter).toBe('boolean');
    }
    expect(items.find((s) => s.name === 'Running')?.showName).toBe('运行中');
    expect(items.some((s) => s.isFilter)).toBe(true);
  });

  it('lists instance health', async () => {
    const items = await list('instance_health');
    expectKeys(items, ['id', 'name', 'showName']);
    expect(items.map((h) => [h.name, h.showName])).toEqual([
      ['Normal', '正常'],
      ['Abnormal', '异常'],
    ]);
  });

  it('lists rental event types', async () => {
    const items = await list('rental_event_type');
    expectKeys(items, ['id', 'name', 'showName']);
    expect(items).toHaveLength(RENTAL_EVENT_TYPES.length);
    for (const event of items) expect(event.showName).toMatch(CHINESE);
  });

  it('needs no token, and a stale token does not block it', async () => {
    const response = await test.app.inject({
      method: 'GET',
      url: '/api/v1/meta/zone',
      headers: { authorization: 'Bearer not-a-valid-token' },
    });
    expect(response.statusCode).toBe(200);
  });

  it('hides disabled rows and follows the operator sort order', async () => {
    const db = dbOf(test.deps);
    await db.update(gpuModels).set({ enabled: false }).where(eq(gpuModels.id, 'rtx3090'));
    const moved = SEED_PUBLIC_IMAGES.find((image) => image.id === 'tensorflow-2.9.0-py3.8-cu112');
    expect(moved).toBeDefined();
    await db.update(publicImages).set({ sortOrder: -1 }).where(eq(publicImages.id, 'tensorflow-2.9.0-py3.8-cu112'));
    outliveDictionaryCache();
    try {
      const gpus = await list('gpu');
      expect(gpus.map((g) => g.id)).not.toContain('rtx3090');
      expect(gpus).toHaveLength(SEED_GPUS.length - 1);
      const images = await list('images/public');
      expect(images[0]?.id).toBe('tensorflow-2.9.0-py3.8-cu112');
      expect(images).toHaveLength(SEED_PUBLIC_IMAGES.length);
    } finally {
      await db.update(gpuModels).set({ enabled: true }).where(eq(gpuModels.id, 'rtx3090'));
      await db.update(publicImages).set({ sortOrder: moved?.sortOrder ?? 0 }).where(eq(publicImages.id, 'tensorflow-2.9.0-py3.8-cu112'));
      outliveDictionaryCache();
    }
  });
});

describe('seedDictionaries on a running app', () => {
  it('is idempotent and keeps an operator-edited name', async () => {
    const db = dbOf(test.deps);
    const before = await counts();
    expect(before).toEqual({
      zones: SEED_ZONES.length,
      gpus: SEED_GPUS.length,
      cpus: SEED_CPUS.length,
      images: SEED_PUBLIC_IMAGES.length,
    });
    await db.update(zones).set({ name: '北京一区' }).where(eq(zones.id, 'bj-a'));

    await seedDictionaries(db);
    await seedDictionaries(db);

    expect(await counts()).toEqual(before);
    outliveDictionaryCache();
    const items = await list('zone');
    expect(items.find((z) => z.id === 'bj-a')?.name).toBe('北京一区');
  });
});
