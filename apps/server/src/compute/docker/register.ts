import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { cpuModels, gpuModels, hosts, publicImages, zones } from '../../db/schema/index.js';
import { dockerClient, engineHostName } from './engines.js';

const run = promisify(execFile);

/** What one machine's NVIDIA driver reports (nothing where there is no driver). */
export interface NvidiaProbe {
  gpuNames: string[];
  driverVersion: string;
  cudaVersion: string;
}

/** Reads `nvidia-smi` of this machine; null when it has none or it fails. */
export async function probeNvidia(): Promise<NvidiaProbe | null> {
  try {
    const list = await run('nvidia-smi', ['--query-gpu=name,driver_version', '--format=csv,noheader'], { timeout: 10_000 });
    const rows = list.stdout.split('\n').filter((line) => line.trim() !== '').map((line) => line.split(',').map((part) => part.trim()));
    if (rows.length === 0) return null;
    const banner = await run('nvidia-smi', [], { timeout: 10_000 });
    return {
      gpuNames: rows.map((row) => row[0] ?? ''),
      driverVersion: rows[0]?.[1] ?? '',
      cudaVersion: /CUDA Version:\s*([\d.]+)/.exec(banner.stdout)?.[1] ?? '',
    };
  } catch {
    return null;
  }
}

function normalised(text: string): string {
  return text.toLowerCase().replace(/nvidia|geforce|[^a-z0-9]/g, '');
}

export interface EngineRegistration {
  engineUrl: string;
  advertisedGpus: number | undefined;
  zoneId: string | undefined;
  gpuModelId: string | undefined;
  publicAddress: string;
}

/**
 * `COMPUTE_DRIVER=docker DOCKER_HOST=…`: makes that engine the one host of the market. Its id comes
 * from the engine's host name (`dk-<name>`); GPUs, model, driver and CUDA from `nvidia-smi` when this
 * machine has one (a local socket), else DOCKER_GPUS advertised with none attached; CPU and memory
 * per GPU from what the engine has. Hosts without an engine are taken off the market: no machine of
 * theirs can be made on Docker. Running it again updates the host (what is handed out is kept).
 */
export async function registerDockerEngine(db: Database, registration: EngineRegistration, nvidia: NvidiaProbe | null = null): Promise<string> {
  const docker = dockerClient(registration.engineUrl, null, 15_000);
  const info = (await docker.info()) as { Name?: string; NCPU?: number; MemTotal?: number };
  const local = engineHostName(registration.engineUrl) === null;
  const probe = local ? nvidia : null;
  const [firstZone] = await db.select({ id: zones.id }).from(zones).orderBy(asc(zones.sortOrder), asc(zones.id)).limit(1);
  const models = await db.select({ id: gpuModels.id, name: gpuModels.name }).from(gpuModels).orderBy(asc(gpuModels.sortOrder), asc(gpuModels.id));
  const [cpu] = await db.select({ id: cpuModels.id }).from(cpuModels).orderBy(asc(cpuModels.sortOrder), asc(cpuModels.id)).limit(1);
  const [newestCuda] = await db.select({ cuda: publicImages.cuda }).from(publicImages).orderBy(desc(publicImages.cuda)).limit(1);
  const zoneId = registration.zoneId ?? firstZone?.id;
  const detected = probe?.gpuNames[0] ? models.find((model) => normalised(probe.gpuNames[0] ?? '').includes(normalised(model.name))) : undefined;
  const gpuModelId = registration.gpuModelId ?? detected?.id ?? models[0]?.id;
  if (!zoneId || !gpuModelId || !cpu) throw new Error('字典中没有可用的地区、GPU 型号或 CPU 型号，无法登记 Docker 主机');
  if (registration.zoneId && !(await db.select({ id: zones.id }).from(zones).where(eq(zones.id, registration.zoneId))).length) throw new Error(`DOCKER_ZONE ${registration.zoneId} 不是已有的地区`);
  if (registration.gpuModelId && !models.some((model) => model.id === registration.gpuModelId)) throw new Error(`DOCKER_GPU_MODEL ${registration.gpuModelId} 不是已有的 GPU 型号`);

  const gpuTotal = probe?.gpuNames.length ?? registration.advertisedGpus ?? 0;
  const shares = Math.max(gpuTotal, 1);
  const id = `dk-${(info.Name ?? 'docker').toLowerCase().replace(/[^a-z0-9-]/g, '-')}`.slice(0, 32);
  const values = {
    name: `Docker-${info.Name ?? id}`.slice(0, 64),
    zoneId,
    gpuModelId,
    cpuModelId: cpu.id,
    gpuTotal,
    cpuPerGpu: Math.max(1, Math.floor((info.NCPU ?? 1) / shares)),
    memoryGbPerGpu: Math.max(1, Math.floor((info.MemTotal ?? 1024 ** 3) / 1024 ** 3 / shares)),
    dataDiskMaxGb: 500,
    dataDiskTotalGb: 2000,
    cudaVersion: probe?.cudaVersion || newestCuda?.cuda || '12.4',
    driverVersion: probe?.driverVersion || '-',
    dockerUrl: registration.engineUrl,
    publicAddress: registration.publicAddress,
    enabled: true,
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(hosts)
      .values({ id, ...values })
      .onConflictDoUpdate({
        target: hosts.id,
        // Never below what is handed out: the CHECKs would refuse, so keep the larger.
        set: { ...values, gpuTotal: sql`greatest(${gpuTotal}, ${hosts.gpuAllocated})`, updatedAt: new Date() },
      });
    await tx.update(hosts).set({ enabled: false, updatedAt: new Date() }).where(isNull(hosts.dockerUrl));
  });
  return id;
}
