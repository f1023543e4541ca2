import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { MonitorMetricValue } from '@slg/shared';
import type { Database } from '../../db/client.js';
import { gpuModels, hosts, instanceEvents, instances, publicImages } from '../../db/schema/index.js';
import { ContainerSeries, CPU_PERIOD_MICROSECONDS, DATA_DISK_DEVICE, INSTANCE_SERIES_LABEL, SYSTEM_DISK_DEVICE } from '../../compute/container-series.js';
import type { MonitoredInstance } from './metrics-source.js';
import { MONITORED_INSTANCE_COLUMNS } from './service.js';
import { runIntervals, simulatedValue, Workload, type RunInterval } from './sim-source.js';

const GIB = 1024 ** 3;
/**
 * CPU time accumulates in steps of this length from the start of the run, each at the utilisation of
 * its first second: the same counter in every process, and a minute is finer than any `rate()` window
 * the platform asks (at least 60 s).
 */
export const CPU_STEP_SECONDS = 60;

/** CPU seconds of a run up to a time, cached per instance so every scrape only adds the steps since the last. */
interface CpuTally {
  runStartMs: number;
  /** Steps summed so far, and their CPU seconds. */
  steps: number;
  seconds: number;
}

/**
 * The simulated fleet's machines under the same series names as a Docker host's (ContainerSeries):
 * `GET /metrics/sim-fleet` of a platform on the sim driver, for Prometheus to scrape, so that 监控 with
 * PROMETHEUS_URL reads a simulated fleet through the very queries it uses for real hosts. Every value
 * is the simulated workload's (sim-source.ts) at the scrape's time: the charts read from Prometheus
 * and those computed without it agree.
 */
export class SimFleetExporter {
  readonly series = new ContainerSeries();
  private readonly cpu = new Map<string, CpuTally>();

  constructor(
    private readonly db: Database,
    private readonly now: () => Date,
  ) {}

  async render(): Promise<string> {
    const nowMs = this.now().getTime();
    const seconds = nowMs / 1000;
    const running = await this.db
      .select({ ...MONITORED_INSTANCE_COLUMNS, cardMemoryGb: gpuModels.memoryGb })
      .from(instances)
      .innerJoin(hosts, eq(hosts.id, instances.hostId))
      .innerJoin(gpuModels, eq(gpuModels.id, hosts.gpuModelId))
      .leftJoin(publicImages, eq(publicImages.id, instances.imageId))
            // Literal, so that the planner matches the partial index instances_running_idx.
      .where(and(sql`${instances.status} in ('PoweredOn', 'PoweredOnNoGPU')`, isNull(instances.releasedAt)));
    const events = running.length
      ? await this.db
          .select({ rowId: instanceEvents.instanceRowId, toStatus: instanceEvents.toStatus, createdAt: instanceEvents.createdAt })
          .from(instanceEvents)
          .where(and(inArray(instanceEvents.instanceRowId, running.map((row) => row.rowId)), isNotNull(instanceEvents.toStatus)))
          .orderBy(asc(instanceEvents.instanceRowId), asc(instanceEvents.createdAt), asc(instanceEvents.id))
      : [];
    const eventsOf = new Map<number, typeof events>();
    for (const event of events) {
      const list = eventsOf.get(event.rowId);
      if (list) list.push(event);
      else eventsOf.set(event.rowId, [event]);
    }

    const series = this.series;
    series.reset();
    for (const { cardMemoryGb, ...instance } of running) {
      const intervals = runIntervals(eventsOf.get(instance.rowId) ?? [], null);
      const run = intervals.find((interval) => interval.startMs <= nowMs && nowMs < interval.endMs);
      if (!run) continue;
      const workload = new Workload(instance.instanceId);
      const value = (metric: Exclude<MonitorMetricValue, 'PVC_SHARE_USAGE'>, gpu = 0) => simulatedValue(metric, instance, workload, run, intervals, seconds, gpu) ?? 0;
      const labels = { [INSTANCE_SERIES_LABEL]: instance.instanceId, name: instance.instanceId };
      const cores = value('CPU_COUNT');
      series.cpuSeconds.inc(labels, this.cpuSecondsOf(instance, workload, run, intervals, seconds, cores));
      series.cpuQuota.set(labels, cores * CPU_PERIOD_MICROSECONDS);
      series.cpuPeriod.set(labels, CPU_PERIOD_MICROSECONDS);
      const memory = value('MEMORY') * GIB;
      series.memoryWorkingSet.set(labels, memory);
      series.memoryUsage.set(labels, memory);
      series.memoryLimit.set(labels, value('MEMORY_COUNT') * GIB);
      series.fsUsage.set({ ...labels, device: SYSTEM_DISK_DEVICE }, value('SYS_DISK_USAGE') * GIB);
      series.fsUsage.set({ ...labels, device: DATA_DISK_DEVICE }, value('PVC_USAGE') * GIB);
      if (run.mode !== 'gpu') continue;
      for (let gpu = 0; gpu < instance.gpuNum; gpu += 1) {
        const utilisation = value('GPU', gpu);
        const gpuLabels = { gpu: String(gpu), [INSTANCE_SERIES_LABEL]: instance.instanceId };
        series.gpuUtil.set(gpuLabels, utilisation);
        // A training job holds most of the card's memory while it runs; an idle card holds the driver's few hundred MiB.
        series.gpuMemory.set(gpuLabels, Math.round(cardMemoryGb * 1024 * (utilisation > 10 ? 0.78 : 0.02)));
        series.gpuTemperature.set(gpuLabels, Math.round(31 + 0.48 * utilisation));
        series.gpuPower.set(gpuLabels, Math.round(22 + 3.9 * utilisation));
      }
    }
    const shown = new Set(running.map((row) => row.instanceId));
    for (const id of this.cpu.keys()) if (!shown.has(id)) this.cpu.delete(id);
    return series.render();
  }

  /** CPU seconds the run has used by `seconds`: whole steps (cached) and the part of the current one. */
  private cpuSecondsOf(instance: MonitoredInstance, workload: Workload, run: RunInterval, intervals: readonly RunInterval[], seconds: number, cores: number): number {
    const startSeconds = run.startMs / 1000;
    const busyAt = (time: number) => ((simulatedValue('CPU', instance, workload, run, intervals, time, 0) ?? 0) / 100) * cores;
    const completed = Math.floor((seconds - startSeconds) / CPU_STEP_SECONDS);
    let tally = this.cpu.get(instance.instanceId);
    if (!tally || tally.runStartMs !== run.startMs || tally.steps > completed) {
      tally = { runStartMs: run.startMs, steps: 0, seconds: 0 };
      this.cpu.set(instance.instanceId, tally);
    }
    for (; tally.steps < completed; tally.steps += 1) tally.seconds += busyAt(startSeconds + tally.steps * CPU_STEP_SECONDS) * CPU_STEP_SECONDS;
    const current = startSeconds + completed * CPU_STEP_SECONDS;
    return tally.seconds + busyAt(current) * (seconds - current);
  }
}
