import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import { ContainerSeries, CPU_PERIOD_MICROSECONDS, DATA_DISK_DEVICE, INSTANCE_SERIES_LABEL, SYSTEM_DISK_DEVICE } from '../container-series.js';
import { INSTANCE_LABEL } from './engines.js';
import { isServiceForwarder } from './services.js';

/** `docker system df` walks every layer and volume: once a minute is enough for disk usage. */
export const DISK_USAGE_TTL_MS = 60_000;

/** What `GET /containers/{id}/stats?stream=false&one-shot=true` answers (the fields read here; cgroup v1 and v2). */
interface ContainerStats {
  cpu_stats?: { cpu_usage?: { total_usage?: number } };
  memory_stats?: { usage?: number; limit?: number; stats?: Record<string, number> };
  networks?: Record<string, { rx_bytes: number; tx_bytes: number }>;
  blkio_stats?: { io_service_bytes_recursive?: { op: string; value: number }[] | null };
}

/** One GPU as `nvidia-smi --query-gpu` reports it. */
export interface GpuReading {
  index: number;
  utilisation: number;
  memoryUsedMiB: number;
  temperature: number;
  powerWatts: number;
}

const execFileAsync = promisify(execFile);

/** The GPUs of this machine, or none where `nvidia-smi` is missing or fails. */
export async function readGpus(): Promise<GpuReading[]> {
  try {
    const { stdout } = await execFileAsync('nvidia-smi', ['--query-gpu=index,utilization.gpu,memory.used,temperature.gpu,power.draw', '--format=csv,noheader,nounits'], {
      timeout: 10_000,
    });
    return stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => line.split(',').map((field) => Number.parseFloat(field.trim())))
      .map(([index = 0, utilisation = 0, memoryUsedMiB = 0, temperature = 0, powerWatts = 0]) => ({ index, utilisation, memoryUsedMiB, temperature, powerWatts }));
  } catch {
    return [];
  }
}

/**
 * The host exporter (`npm run exporter`): each instance container's CPU, memory, disks and network under
 * cAdvisor's metric names, and each GPU under the DCGM exporter's, all labelled with the instance id
 * (INSTANCE_SERIES_LABEL), read from the Docker Engine API and `nvidia-smi` at every scrape. The
 * platform's PromQL (modules/monitoring/prometheus-source.ts) reads exactly these names.
 */
export class HostExporter {
  readonly series = new ContainerSeries();
  private diskUsage: { at: number; sizes: Promise<{ system: Map<string, number>; volumes: Map<string, number> }> } | undefined;
  private readonly limits = new Map<string, { quota: number; memory: number }>();

  constructor(
    private readonly docker: Docker,
    private readonly options: { gpus?: () => Promise<GpuReading[]>; diskUsageTtlMs?: number } = {},
  ) {}

  /** Sizes of writable layers and volumes, from one `docker system df` a minute. */
  private async disks(): Promise<{ system: Map<string, number>; volumes: Map<string, number> }> {
    const now = Date.now();
    if (!this.diskUsage || now - this.diskUsage.at >= (this.options.diskUsageTtlMs ?? DISK_USAGE_TTL_MS)) {
      const sizes = (async () => {
        const df = (await this.docker.df()) as { Containers?: { Id: string; SizeRw?: number }[]; Volumes?: { Name: string; UsageData?: { Size: number } }[] };
        return {
          system: new Map((df.Containers ?? []).map((item) => [item.Id, item.SizeRw ?? 0])),
          volumes: new Map((df.Volumes ?? []).map((item) => [item.Name, Math.max(0, item.UsageData?.Size ?? 0)])),
        };
      })();
      this.diskUsage = { at: now, sizes };
      sizes.catch(() => (this.diskUsage = undefined));
    }
    return this.diskUsage.sizes;
  }

  /** CPU quota and memory limit of a container (fixed for its life): one inspect per container. */
  private async limitsOf(id: string): Promise<{ quota: number; memory: number }> {
    const known = this.limits.get(id);
    if (known) return known;
    const details = await this.docker.getContainer(id).inspect();
    const nanoCpus = details.HostConfig.NanoCpus ?? 0;
    const quota = nanoCpus > 0 ? (nanoCpus / 1e9) * CPU_PERIOD_MICROSECONDS : (details.HostConfig.CpuQuota ?? 0);
    const limits = { quota, memory: details.HostConfig.Memory ?? 0 };
    this.limits.set(id, limits);
    return limits;
  }

  /** Reads every running instance container and GPU now; the exposition text of one scrape. */
  async render(): Promise<string> {
    const series = this.series;
    series.reset();
    const listed = await this.docker.listContainers({ filters: { label: [INSTANCE_LABEL], status: ['running'] } });
    const machines = listed.filter((item) => !isServiceForwarder(item.Labels) && !item.Labels['slg.io/copy-task']);
    const [disks, gpus] = await Promise.all([this.disks().catch(() => undefined), (this.options.gpus ?? readGpus)()]);
    const holders = new Map<number, string>();
    await Promise.all(
      machines.map(async (item) => {
        const instanceId = item.Labels[INSTANCE_LABEL] ?? '';
        for (const index of (item.Labels['slg.io/gpus'] ?? '').split(',').filter((value) => value !== '')) holders.set(Number(index), instanceId);
        const labels = { [INSTANCE_SERIES_LABEL]: instanceId, name: (item.Names[0] ?? '').replace(/^\//, '') };
        const [stats, limits] = await Promise.all([
          this.docker.getContainer(item.Id).stats({ stream: false, 'one-shot': true } as { stream: false }) as Promise<ContainerStats>,
          this.limitsOf(item.Id),
        ]).catch(() => [undefined, undefined] as const);
        if (!stats || !limits) return;
        series.cpuSeconds.inc(labels, (stats.cpu_stats?.cpu_usage?.total_usage ?? 0) / 1e9);
        series.cpuQuota.set(labels, limits.quota);
        series.cpuPeriod.set(labels, CPU_PERIOD_MICROSECONDS);
        const memory = stats.memory_stats ?? {};
        const inactiveFile = memory.stats?.inactive_file ?? memory.stats?.total_inactive_file ?? 0;
        series.memoryUsage.set(labels, memory.usage ?? 0);
        series.memoryWorkingSet.set(labels, Math.max(0, (memory.usage ?? 0) - inactiveFile));
        series.memoryLimit.set(labels, limits.memory || (memory.limit ?? 0));
        for (const [name, counters] of Object.entries(stats.networks ?? {})) {
          series.networkReceived.inc({ ...labels, interface: name }, counters.rx_bytes);
          series.networkTransmitted.inc({ ...labels, interface: name }, counters.tx_bytes);
        }
        const io = stats.blkio_stats?.io_service_bytes_recursive ?? [];
        series.fsReads.inc(labels, io.filter((entry) => entry.op.toLowerCase() === 'read').reduce((sum, entry) => sum + entry.value, 0));
        series.fsWrites.inc(labels, io.filter((entry) => entry.op.toLowerCase() === 'write').reduce((sum, entry) => sum + entry.value, 0));
        if (disks) {
          series.fsUsage.set({ ...labels, device: SYSTEM_DISK_DEVICE }, disks.system.get(item.Id) ?? 0);
          const volume = disks.volumes.get(`${instanceId}-data`);
          if (volume !== undefined) series.fsUsage.set({ ...labels, device: DATA_DISK_DEVICE }, volume);
        }
      }),
    );
    for (const gpu of gpus) {
      const labels = { gpu: String(gpu.index), [INSTANCE_SERIES_LABEL]: holders.get(gpu.index) ?? '' };
      series.gpuUtil.set(labels, gpu.utilisation);
      series.gpuMemory.set(labels, gpu.memoryUsedMiB);
      series.gpuTemperature.set(labels, gpu.temperature);
      series.gpuPower.set(labels, gpu.powerWatts);
    }
    for (const id of this.limits.keys()) if (!listed.some((item) => item.Id === id)) this.limits.delete(id);
    return series.render();
  }
}
