import type { Database } from '../../db/client.js';
import { hosts } from '../../db/schema/index.js';

/** The kind of server each GPU model comes in: CPU and memory per GPU, disks, software. */
interface HostProfile {
  gpuTotal: number;
  cpuModelId: string;
  cpuPerGpu: number;
  memoryGbPerGpu: number;
  dataDiskMaxGb: number;
  dataDiskTotalGb: number;
  cudaVersion: string;
  driverVersion: string;
}

const PROFILES: Record<string, HostProfile> = {
  rtx4090: { gpuTotal: 8, cpuModelId: 'xeon-8352v', cpuPerGpu: 16, memoryGbPerGpu: 90, dataDiskMaxGb: 1500, dataDiskTotalGb: 8000, cudaVersion: '12.4', driverVersion: '550.107.02' },
  rtx4090d: { gpuTotal: 8, cpuModelId: 'xeon-6430', cpuPerGpu: 16, memoryGbPerGpu: 80, dataDiskMaxGb: 1500, dataDiskTotalGb: 8000, cudaVersion: '12.4', driverVersion: '550.107.02' },
  rtx3090: { gpuTotal: 8, cpuModelId: 'xeon-6248r', cpuPerGpu: 12, memoryGbPerGpu: 60, dataDiskMaxGb: 1000, dataDiskTotalGb: 6000, cudaVersion: '12.2', driverVersion: '535.183.01' },
  l20: { gpuTotal: 8, cpuModelId: 'xeon-8358p', cpuPerGpu: 20, memoryGbPerGpu: 100, dataDiskMaxGb: 2000, dataDiskTotalGb: 12000, cudaVersion: '12.4', driverVersion: '550.107.02' },
  'v100-32g': { gpuTotal: 8, cpuModelId: 'xeon-6248r', cpuPerGpu: 10, memoryGbPerGpu: 60, dataDiskMaxGb: 1000, dataDiskTotalGb: 6000, cudaVersion: '12.2', driverVersion: '535.183.01' },
  'a100-40g-pcie': { gpuTotal: 8, cpuModelId: 'epyc-7543', cpuPerGpu: 14, memoryGbPerGpu: 100, dataDiskMaxGb: 2000, dataDiskTotalGb: 12000, cudaVersion: '12.4', driverVersion: '550.107.02' },
  'a800-80g': { gpuTotal: 8, cpuModelId: 'epyc-7763', cpuPerGpu: 14, memoryGbPerGpu: 128, dataDiskMaxGb: 3000, dataDiskTotalGb: 16000, cudaVersion: '12.4', driverVersion: '550.107.02' },
  'h800-80g': { gpuTotal: 8, cpuModelId: 'xeon-8480p', cpuPerGpu: 24, memoryGbPerGpu: 200, dataDiskMaxGb: 4000, dataDiskTotalGb: 20000, cudaVersion: '12.4', driverVersion: '550.107.02' },
};

/** Which GPU models each zone of the seed has, and how many servers of each (zone descriptions in seed/data.ts). */
const ZONE_FLEETS: Record<string, Record<string, number>> = {
  'bj-a': { rtx4090: 8, rtx3090: 6 },
  'bj-b': { 'a800-80g': 4, 'h800-80g': 3 },
  'nm-b': { rtx4090: 6, rtx3090: 4, 'a800-80g': 2 },
  'xb-a': { 'v100-32g': 5, rtx3090: 5 },
  'hd-a': { l20: 4, rtx4090: 6 },
  'hn-a': { rtx4090d: 6, rtx4090: 4 },
  'cq-a': { 'a100-40g-pcie': 4, rtx4090: 5 },
};

const SHORT_NAMES: Record<string, string> = {
  rtx4090: '4090',
  rtx4090d: '4090D',
  rtx3090: '3090',
  l20: 'L20',
  'v100-32g': 'V100',
  'a100-40g-pcie': 'A100',
  'a800-80g': 'A800',
  'h800-80g': 'H800',
};

export type HostSeed = typeof hosts.$inferInsert;

/** The seed fleet: every zone with its servers, ids like `bj-a-4090-03`, names like `北京A区-4090-03`. */
export function simFleet(zoneNames: ReadonlyMap<string, string>): HostSeed[] {
  const fleet: HostSeed[] = [];
  for (const [zoneId, models] of Object.entries(ZONE_FLEETS)) {
    const zoneName = zoneNames.get(zoneId);
    if (!zoneName) continue;
    for (const [gpuModelId, count] of Object.entries(models)) {
      const profile = PROFILES[gpuModelId];
      const short = SHORT_NAMES[gpuModelId];
      if (!profile || !short) continue;
      for (let index = 1; index <= count; index += 1) {
        const number = String(index).padStart(2, '0');
        fleet.push({
          id: `${zoneId}-${short.toLowerCase()}-${number}`,
          name: `${zoneName}-${short}-${number}`,
          zoneId,
          gpuModelId,
          ...profile,
        });
      }
    }
  }
  return fleet;
}

/**
 * Seeds the simulated fleet on the first start with the sim driver, when there is no host at all: hosts
 * are never deleted (the operator disables them), so what the operator changed is never touched again.
 * Two processes starting at once insert the same ids, and the conflicts are ignored.
 */
export async function seedSimFleet(db: Database, zoneNames: ReadonlyMap<string, string>): Promise<number> {
  const [existing] = await db.select({ id: hosts.id }).from(hosts).limit(1);
  if (existing) return 0;
  const fleet = simFleet(zoneNames);
  if (fleet.length === 0) return 0;
  const inserted = await db.insert(hosts).values(fleet).onConflictDoNothing({ target: hosts.id }).returning({ id: hosts.id });
  return inserted.length;
}
