import { and, asc, desc, eq, notInArray, sql } from 'drizzle-orm';
import type { INode } from 'kubernetes-models/v1/Node';
import type { Database } from '../../db/client.js';
import { cpuModels, gpuModels, hosts, publicImages, zones } from '../../db/schema/index.js';
import { GPU_RESOURCE } from './manifests.js';

/** The node labels that make a node a host of the market (ids of `/meta/zone`, `/meta/gpu`, `/meta/cpu`). */
export const NODE_LABELS = {
  zone: 'slg.io/zone',
  gpuModel: 'slg.io/gpu-model',
  cpuModel: 'slg.io/cpu-model',
  /** `false` keeps the node off the market. */
  enabled: 'slg.io/enabled',
  /** Total GB of data disks the node's storage holds (default 2000). */
  dataDiskGb: 'slg.io/data-disk-gb',
} as const;
/** What NVIDIA's GPU feature discovery labels a GPU node with. */
const CUDA_LABELS = { runtimeMajor: 'nvidia.com/cuda.runtime.major', runtimeMinor: 'nvidia.com/cuda.runtime.minor', driverMajor: 'nvidia.com/cuda.driver.major', driverMinor: 'nvidia.com/cuda.driver.minor', driverRev: 'nvidia.com/cuda.driver.rev' };

const DEFAULT_DATA_DISK_TOTAL_GB = 2000;
const DATA_DISK_MAX_GB = 500;
const GIB = 1024 ** 3;

function quantity(value: string | number | undefined): number {
  if (typeof value === 'number') return value;
  const match = /^([0-9.]+)(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(value ?? '');
  if (!match) return 0;
  const factors: Record<string, number> = { m: 1e-3, Ki: 1024, Mi: 1024 ** 2, Gi: GIB, Ti: 1024 ** 4, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  return Number(match[1]) * (match[2] ? (factors[match[2]] ?? 1) : 1);
}

export interface NodeSync {
  /** Host ids (= node names) written. */
  registered: string[];
  /** Labelled nodes that could not become hosts, and why (for the operator's log). */
  skipped: { node: string; reason: string }[];
  /** Hosts that are no labelled node of the cluster (any more), taken off the market. */
  takenOff: string[];
}

/**
 * Hosts from the cluster: every node labelled with a zone and a GPU model of the dictionaries is a host
 * whose id is the node's name, sized from its allocatable `nvidia.com/gpu`, CPU and memory, reached at
 * its external (else internal) address. A new host is on the market at its GPU model's price unless
 * labelled `slg.io/enabled=false`; a later sync updates its sizes and may take it off (that label), but
 * never puts back on the market what the operator took off through the fleet API, nor lowers its GPUs
 * below what is handed out.
 */
export async function syncHostsFromNodes(db: Database, nodes: readonly INode[]): Promise<NodeSync> {
  const knownZones = new Set((await db.select({ id: zones.id }).from(zones)).map((row) => row.id));
  const knownModels = new Set((await db.select({ id: gpuModels.id }).from(gpuModels)).map((row) => row.id));
  const cpus = await db.select({ id: cpuModels.id }).from(cpuModels).orderBy(asc(cpuModels.sortOrder), asc(cpuModels.id));
  const [newestCuda] = await db.select({ cuda: publicImages.cuda }).from(publicImages).orderBy(desc(publicImages.cuda)).limit(1);
  const result: NodeSync = { registered: [], skipped: [], takenOff: [] };
  for (const node of nodes) {
    const name = node.metadata?.name ?? '';
    const labels = node.metadata?.labels ?? {};
    const zoneId = labels[NODE_LABELS.zone];
    const gpuModelId = labels[NODE_LABELS.gpuModel];
    if (!zoneId && !gpuModelId) continue;
    const refuse = (reason: string) => result.skipped.push({ node: name, reason });
    if (name.length > 32) {
      refuse(`节点名 ${name} 超过 32 个字符，不能作为主机编号`);
      continue;
    }
    if (!zoneId || !knownZones.has(zoneId)) {
      refuse(`标签 ${NODE_LABELS.zone}=${zoneId ?? ''} 不是已有的地区`);
      continue;
    }
    if (!gpuModelId || !knownModels.has(gpuModelId)) {
      refuse(`标签 ${NODE_LABELS.gpuModel}=${gpuModelId ?? ''} 不是已有的 GPU 型号`);
      continue;
    }
    const cpuModelId = cpus.find((cpu) => cpu.id === labels[NODE_LABELS.cpuModel])?.id ?? cpus[0]?.id;
    if (!cpuModelId) {
      refuse('字典中没有 CPU 型号');
      continue;
    }
    const allocatable = node.status?.allocatable ?? {};
    const gpuTotal = Math.floor(quantity(allocatable[GPU_RESOURCE]));
    const shares = Math.max(gpuTotal, 1);
    const runtime = labels[CUDA_LABELS.runtimeMajor] ? `${labels[CUDA_LABELS.runtimeMajor]}.${labels[CUDA_LABELS.runtimeMinor] ?? '0'}` : null;
    const driver = labels[CUDA_LABELS.driverMajor] ? [labels[CUDA_LABELS.driverMajor], labels[CUDA_LABELS.driverMinor], labels[CUDA_LABELS.driverRev]].filter(Boolean).join('.') : null;
    const address = node.status?.addresses?.find((entry) => entry.type === 'ExternalIP') ?? node.status?.addresses?.find((entry) => entry.type === 'InternalIP');
    const offMarket = labels[NODE_LABELS.enabled] === 'false';
    const sizes = {
      name,
      zoneId,
      gpuModelId,
      cpuModelId,
      cpuPerGpu: Math.max(1, Math.floor(quantity(allocatable.cpu) / shares)),
      memoryGbPerGpu: Math.max(1, Math.floor(quantity(allocatable.memory) / GIB / shares)),
      dataDiskMaxGb: DATA_DISK_MAX_GB,
      dataDiskTotalGb: Number.parseInt(labels[NODE_LABELS.dataDiskGb] ?? '', 10) || DEFAULT_DATA_DISK_TOTAL_GB,
      cudaVersion: runtime ?? newestCuda?.cuda ?? '12.4',
      driverVersion: driver ?? '-',
      publicAddress: address?.address ?? null,
    };
    await db
      .insert(hosts)
      .values({ id: name, ...sizes, gpuTotal, enabled: !offMarket })
      .onConflictDoUpdate({
        target: hosts.id,
        set: {
          ...sizes,
          // Never below what is handed out (the CHECKs would refuse), never back on the market by itself.
          gpuTotal: sql`greatest(${gpuTotal}, ${hosts.gpuAllocated})`,
          enabled: offMarket ? false : sql`${hosts.enabled}`,
          updatedAt: new Date(),
        },
      });
    result.registered.push(name);
  }
  // No machine can be made where there is no node: hosts of another driver (the simulated fleet) or of removed nodes.
  const gone = await db
    .update(hosts)
    .set({ enabled: false, updatedAt: new Date() })
    .where(and(eq(hosts.enabled, true), notInArray(hosts.id, result.registered)))
    .returning({ id: hosts.id });
  result.takenOff = gone.map((row) => row.id).sort();
  return result;
}
