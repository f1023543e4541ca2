import { sql, type SQL } from 'drizzle-orm';
import { compareVersions, FREE_DATA_DISK_GB, formatYuan } from '@slg/shared';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';

/** What a deployment's containers may be placed on. */
export interface PlacementFilters {
  gpuNum: number;
  diskGb: number;
  zoneIds: readonly string[];
  gpuModelIds: readonly string[];
  /** The lowest CUDA version a host must support (the filter's and the image's, whichever is higher). */
  cudaMin: string | null;
  /** Fen per GPU-hour at most. */
  priceMaxFen: number | null;
}

export interface CandidateHost {
  id: string;
  zoneId: string;
  gpuModelId: string;
  /** Fen per GPU-hour of pay-as-you-go on the host. */
  priceFen: number;
  freeGpus: number;
  freeDiskGb: number;
  /** Live containers of the deployment on the host already. */
  mine: number;
}

const PRICE = sql`coalesce(h.usage_price_fen, m.price_per_hour_fen)`;

/** A deployment's filters as placement reads them: the CUDA floor is the filter's or the image's, whichever is higher. */
export function placementFilters(
  template: { gpuNum: number; zoneIds?: readonly string[] | undefined; gpuModelIds?: readonly string[] | undefined; cudaMin?: string | null | undefined; priceMaxFen?: number | null | undefined },
  imageCuda: string | null,
): PlacementFilters {
  const cudaMin = [template.cudaMin ?? null, imageCuda].filter((value): value is string => !!value).sort(compareVersions).pop() ?? null;
  return {
    gpuNum: template.gpuNum,
    diskGb: FREE_DATA_DISK_GB,
    zoneIds: template.zoneIds ?? [],
    gpuModelIds: template.gpuModelIds ?? [],
    cudaMin,
    priceMaxFen: template.priceMaxFen ?? null,
  };
}
/** Dotted versions compared as integer arrays (12.10 > 12.4). */
const versionAtLeast = (column: SQL, version: string) => sql`string_to_array(${column}, '.')::int[] >= string_to_array(${version}, '.')::int[]`;

/** The conditions one filter adds, in the order a diagnosis names them. */
function filterConditions(filters: PlacementFilters): { label: string; condition: SQL }[] {
  const conditions: { label: string; condition: SQL }[] = [];
  if (filters.zoneIds.length > 0) conditions.push({ label: '所选地区', condition: sql`h.zone_id = any(${`{${filters.zoneIds.join(',')}}`}::text[])` });
  if (filters.gpuModelIds.length > 0) conditions.push({ label: '所选GPU型号', condition: sql`h.gpu_model_id = any(${`{${filters.gpuModelIds.join(',')}}`}::text[])` });
  if (filters.cudaMin) conditions.push({ label: `CUDA ≥ ${filters.cudaMin}`, condition: versionAtLeast(sql`h.cuda_version`, filters.cudaMin) });
  if (filters.priceMaxFen !== null) {
    conditions.push({ label: `每卡每小时不高于${formatYuan(filters.priceMaxFen)}`, condition: sql`${PRICE} <= ${filters.priceMaxFen}` });
  }
  return conditions;
}

/**
 * Hosts that answer: a host holding a machine that is out of connection is failing, and new
 * containers go elsewhere until it answers again.
 */
const HEALTHY = sql`not exists (select 1 from instances x where x.host_id = h.id and x.status = 'OutOfConnection' and x.released_at is null)`;

/**
 * Hosts a deployment's containers may go to, cheapest first, then those with the fewest of its
 * containers (spread), then the emptiest; at most `limit`. Read without locks: the GPUs are taken
 * afterwards by one conditional update per host, which a concurrent taker may make fail.
 */
export async function candidateHosts(executor: Executor, deploymentRowId: number, filters: PlacementFilters, limit: number): Promise<CandidateHost[]> {
  const conditions = filterConditions(filters).map((item) => item.condition);
  const rows = rowsOf<{ id: string; zone_id: string; gpu_model_id: string; price: number | string; free_gpus: number; free_disk: number; mine: number | string }>(
    await executor.execute(sql`
      select h.id, h.zone_id, h.gpu_model_id, ${PRICE} as price,
             h.gpu_total - h.gpu_allocated as free_gpus, h.data_disk_total_gb - h.data_disk_allocated_gb as free_disk,
             (select count(*) from instances i where i.host_id = h.id and i.deployment_row_id = ${deploymentRowId} and i.ended_at is null) as mine
      from hosts h join gpu_models m on m.id = h.gpu_model_id
      where h.enabled and h.gpu_total - h.gpu_allocated >= ${filters.gpuNum}
        and h.data_disk_total_gb - h.data_disk_allocated_gb >= ${filters.diskGb}
        ${conditions.length > 0 ? sql`and ${sql.join(conditions, sql` and `)}` : sql``}
        and ${HEALTHY}
      order by price, mine, free_gpus desc, h.id
      limit ${limit}`),
  );
  return rows.map((row) => ({
    id: row.id,
    zoneId: row.zone_id,
    gpuModelId: row.gpu_model_id,
    priceFen: Number(row.price),
    freeGpus: Number(row.free_gpus),
    freeDiskGb: Number(row.free_disk),
    mine: Number(row.mine),
  }));
}

/** The lowest price per GPU-hour of any host the filters match, free GPUs or not; null when none matches. */
export async function cheapestPrice(executor: Executor, filters: PlacementFilters): Promise<number | null> {
  const conditions = filterConditions(filters).map((item) => item.condition);
  const [row] = rowsOf<{ price: number | string | null }>(
    await executor.execute(sql`
      select min(${PRICE}) as price from hosts h join gpu_models m on m.id = h.gpu_model_id
      where h.enabled and h.gpu_total >= ${filters.gpuNum} ${conditions.length > 0 ? sql`and ${sql.join(conditions, sql` and `)}` : sql``}`),
  );
  return row?.price === null || row?.price === undefined ? null : Number(row.price);
}

/**
 * Why nothing can be placed, naming the first filter that leaves no host with the GPUs free: the
 * filters are added one at a time in the order of the create form.
 */
export async function whyNoStock(executor: Executor, filters: PlacementFilters): Promise<string> {
  const need = `${filters.gpuNum} 卡`;
  const base = sql`h.enabled and h.gpu_total - h.gpu_allocated >= ${filters.gpuNum} and h.data_disk_total_gb - h.data_disk_allocated_gb >= ${filters.diskGb} and ${HEALTHY}`;
  const count = async (conditions: SQL[]): Promise<number> => {
    const [row] = rowsOf<{ n: number | string }>(
      await executor.execute(sql`select count(*) as n from hosts h join gpu_models m on m.id = h.gpu_model_id where ${base} ${conditions.length > 0 ? sql`and ${sql.join(conditions, sql` and `)}` : sql``}`),
    );
    return Number(row?.n ?? 0);
  };
  if ((await count([])) === 0) return `等待资源：当前没有空闲 ${need} GPU 的主机，有空闲时将自动调度`;
  const applied: SQL[] = [];
  for (const filter of filterConditions(filters)) {
    applied.push(filter.condition);
    if ((await count(applied)) === 0) return `等待资源：${filter.label}当前没有空闲 ${need} GPU 的主机，有空闲时将自动调度（可编辑部署放宽筛选条件）`;
  }
  return `等待资源：满足条件的主机空闲 GPU 不足，有空闲时将自动调度`;
}

/**
 * Assigns `count` containers to candidates: each goes to the best candidate by (price, containers of
 * the deployment there, free GPUs), so equal prices spread over hosts. Returns host id per container.
 */
export function assignHosts(candidates: readonly CandidateHost[], count: number, gpuNum: number, diskGb: number): string[] {
  const pool = candidates.map((candidate) => ({ ...candidate }));
  const better = (a: CandidateHost, b: CandidateHost) => a.priceFen - b.priceFen || a.mine - b.mine || b.freeGpus - a.freeGpus || (a.id < b.id ? -1 : 1);
  // A binary heap over the pool: placing 1,000 containers over 10,000 hosts stays n·log n.
  const heap: CandidateHost[] = [];
  const up = (index: number) => {
    for (let i = index; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (better(heap[i] as CandidateHost, heap[parent] as CandidateHost) >= 0) break;
      [heap[i], heap[parent]] = [heap[parent] as CandidateHost, heap[i] as CandidateHost];
      i = parent;
    }
  };
  const down = (index: number) => {
    for (let i = index; ; ) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < heap.length && better(heap[left] as CandidateHost, heap[best] as CandidateHost) < 0) best = left;
      if (right < heap.length && better(heap[right] as CandidateHost, heap[best] as CandidateHost) < 0) best = right;
      if (best === i) break;
      [heap[i], heap[best]] = [heap[best] as CandidateHost, heap[i] as CandidateHost];
      i = best;
    }
  };
  for (const candidate of pool) {
    heap.push(candidate);
    up(heap.length - 1);
  }
  const assigned: string[] = [];
  while (assigned.length < count && heap.length > 0) {
    const top = heap[0] as CandidateHost;
    assigned.push(top.id);
    top.mine += 1;
    top.freeGpus -= gpuNum;
    top.freeDiskGb -= diskGb;
    if (top.freeGpus < gpuNum || top.freeDiskGb < diskGb) {
      const last = heap.pop() as CandidateHost;
      if (heap.length > 0 && last !== top) {
        heap[0] = last;
        down(0);
      }
    } else {
      down(0);
    }
  }
  return assigned;
}

/**
 * Takes the GPUs and disk of the assigned containers, per host by one conditional update (all of a
 * host's or none); returns the hosts that gave them. A host another taker filled meanwhile gives
 * nothing: its containers wait for the next pass.
 */
export async function takeAssigned(executor: Executor, assigned: readonly string[], gpuNum: number, diskGb: number): Promise<Set<string>> {
  const perHost = new Map<string, number>();
  for (const hostId of assigned) perHost.set(hostId, (perHost.get(hostId) ?? 0) + 1);
  if (perHost.size === 0) return new Set();
  const ids = [...perHost.keys()];
  const counts = ids.map((id) => perHost.get(id) ?? 0);
  const rows = rowsOf<{ id: string }>(
    await executor.execute(sql`
      update hosts h set gpu_allocated = h.gpu_allocated + t.n * ${gpuNum}, data_disk_allocated_gb = h.data_disk_allocated_gb + t.n * ${diskGb}
      from unnest(${`{${ids.join(',')}}`}::text[], ${`{${counts.join(',')}}`}::int[]) as t(id, n)
      where h.id = t.id and h.enabled
        and h.gpu_total - h.gpu_allocated >= t.n * ${gpuNum}
        and h.data_disk_total_gb - h.data_disk_allocated_gb >= t.n * ${diskGb}
      returning h.id`),
  );
  return new Set(rows.map((row) => row.id));
}
