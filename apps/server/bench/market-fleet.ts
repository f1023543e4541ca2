import { eq, sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.js';
import { cpuModels, gpuModels, hosts, zones } from '../src/db/schema/index.js';

/** A small deterministic generator (mulberry32): the same fleet on every run. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Adds `count` hosts to the fleet, spread evenly over every enabled zone × GPU model: 8-GPU servers
 * (a few with 4 or 10), about a third of them fully rented, the rest partly, one in ten with its own
 * prices and one in fifty disabled — a market as busy as a real one, for the planner and the bench.
 * Returns the GPU model most hosts can be filtered by.
 */
export async function seedMarketFleet(db: Database, count: number): Promise<{ gpuModelId: string; hosts: number }> {
  const zoneIds = (await db.select({ id: zones.id }).from(zones).where(eq(zones.enabled, true)).orderBy(zones.id)).map((row) => row.id);
  const models = await db.select({ id: gpuModels.id, price: gpuModels.pricePerHourFen }).from(gpuModels).where(eq(gpuModels.enabled, true)).orderBy(gpuModels.id);
  const cpuIds = (await db.select({ id: cpuModels.id }).from(cpuModels).orderBy(cpuModels.id)).map((row) => row.id);
  if (zoneIds.length === 0 || models.length === 0 || cpuIds.length === 0) throw new Error('字典为空：先运行迁移与种子数据');
  const random = randomSource(20_260_601);
  const rows: (typeof hosts.$inferInsert)[] = [];
  for (let index = 0; index < count; index += 1) {
    const zoneId = zoneIds[index % zoneIds.length] as string;
    const model = models[Math.floor(index / zoneIds.length) % models.length] as { id: string; price: number };
    const gpuTotal = random() < 0.1 ? (random() < 0.5 ? 4 : 10) : 8;
    const full = random() < 0.35;
    const gpuAllocated = full ? gpuTotal : Math.floor(random() * gpuTotal);
    const ownPrice = random() < 0.1;
    const number = String(index + 1).padStart(5, '0');
    rows.push({
      id: `bench-${number}`,
      name: `压测-${zoneId}-${model.id}-${number}`,
      zoneId,
      gpuModelId: model.id,
      cpuModelId: cpuIds[index % cpuIds.length] as string,
      gpuTotal,
      gpuAllocated,
      cpuPerGpu: 12,
      memoryGbPerGpu: 64,
      dataDiskMaxGb: 1000,
      dataDiskTotalGb: 8000,
      dataDiskAllocatedGb: gpuAllocated * 50,
      cudaVersion: '12.4',
      driverVersion: '550.107.02',
      usagePriceFen: ownPrice ? Math.max(1, model.price + Math.round((random() - 0.5) * 60)) : null,
      enabled: random() >= 0.02,
    });
  }
  for (let start = 0; start < rows.length; start += 1000) {
    await db.insert(hosts).values(rows.slice(start, start + 1000)).onConflictDoNothing({ target: hosts.id });
  }
  // Fresh statistics, as autovacuum would gather them on a table this size soon after.
  await db.execute(sql`analyze hosts`);
  return { gpuModelId: 'rtx4090', hosts: rows.length };
}
