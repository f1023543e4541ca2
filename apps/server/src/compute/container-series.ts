import { Counter, Gauge, Registry } from 'prom-client';
import { DATA_DISK_MOUNT_PATH } from '@slg/shared';

/**
 * The label every series of an instance carries: the container's `slg.io/instance-id` label under the
 * name cAdvisor gives Docker labels (`container_label_` + the label with `.`, `/` and `-` as `_`).
 */
export const INSTANCE_SERIES_LABEL = 'container_label_slg_io_instance_id';
/** The `device` of the two disks in `container_fs_usage_bytes`: the container's writable layer (system disk) and the data volume. */
export const SYSTEM_DISK_DEVICE = '/';
export const DATA_DISK_DEVICE = DATA_DISK_MOUNT_PATH;
export const CPU_PERIOD_MICROSECONDS = 100_000;

/**
 * The series of instance machines under cAdvisor's and the DCGM exporter's names, as the platform's
 * PromQL reads them (modules/monitoring/prometheus-source.ts). Filled anew at every scrape by the
 * Docker host exporter (from the engine and `nvidia-smi`) and by the simulated fleet (from its
 * workload), so one query path serves both.
 */
export class ContainerSeries {
  readonly registry = new Registry();
  readonly cpuSeconds: Counter<string>;
  readonly cpuQuota: Gauge<string>;
  readonly cpuPeriod: Gauge<string>;
  readonly memoryWorkingSet: Gauge<string>;
  readonly memoryUsage: Gauge<string>;
  readonly memoryLimit: Gauge<string>;
  readonly networkReceived: Counter<string>;
  readonly networkTransmitted: Counter<string>;
  readonly fsReads: Counter<string>;
  readonly fsWrites: Counter<string>;
  readonly fsUsage: Gauge<string>;
  readonly gpuUtil: Gauge<string>;
  readonly gpuMemory: Gauge<string>;
  readonly gpuTemperature: Gauge<string>;
  readonly gpuPower: Gauge<string>;

  constructor() {
    const registers = [this.registry];
    const container = [INSTANCE_SERIES_LABEL, 'name'];
    this.cpuSeconds = new Counter({ name: 'container_cpu_usage_seconds_total', help: 'Cumulative CPU time consumed (seconds)', labelNames: container, registers });
    this.cpuQuota = new Gauge({ name: 'container_spec_cpu_quota', help: 'CPU quota of the container (microseconds per period)', labelNames: container, registers });
    this.cpuPeriod = new Gauge({ name: 'container_spec_cpu_period', help: 'CPU period of the container (microseconds)', labelNames: container, registers });
    this.memoryWorkingSet = new Gauge({ name: 'container_memory_working_set_bytes', help: 'Memory in use, without inactive file cache (what docker stats shows)', labelNames: container, registers });
    this.memoryUsage = new Gauge({ name: 'container_memory_usage_bytes', help: 'Memory in use, file cache included', labelNames: container, registers });
    this.memoryLimit = new Gauge({ name: 'container_spec_memory_limit_bytes', help: 'Memory limit of the container', labelNames: container, registers });
    const network = [...container, 'interface'];
    this.networkReceived = new Counter({ name: 'container_network_receive_bytes_total', help: 'Bytes received', labelNames: network, registers });
    this.networkTransmitted = new Counter({ name: 'container_network_transmit_bytes_total', help: 'Bytes sent', labelNames: network, registers });
    this.fsReads = new Counter({ name: 'container_fs_reads_bytes_total', help: 'Bytes read from block devices', labelNames: container, registers });
    this.fsWrites = new Counter({ name: 'container_fs_writes_bytes_total', help: 'Bytes written to block devices', labelNames: container, registers });
    this.fsUsage = new Gauge({
      name: 'container_fs_usage_bytes',
      help: `Disk used: device="${SYSTEM_DISK_DEVICE}" the system disk (writable layer), device="${DATA_DISK_DEVICE}" the data volume`,
      labelNames: [...container, 'device'],
      registers,
    });
    const gpu = ['gpu', INSTANCE_SERIES_LABEL];
    this.gpuUtil = new Gauge({ name: 'DCGM_FI_DEV_GPU_UTIL', help: 'GPU utilisation (%)', labelNames: gpu, registers });
    this.gpuMemory = new Gauge({ name: 'DCGM_FI_DEV_FB_USED', help: 'GPU framebuffer memory used (MiB)', labelNames: gpu, registers });
    this.gpuTemperature = new Gauge({ name: 'DCGM_FI_DEV_GPU_TEMP', help: 'GPU temperature (°C)', labelNames: gpu, registers });
    this.gpuPower = new Gauge({ name: 'DCGM_FI_DEV_POWER_USAGE', help: 'GPU power draw (W)', labelNames: gpu, registers });
  }

  /** Empties every series before a scrape fills them again (a machine that stopped leaves no series). */
  reset(): void {
    this.registry.resetMetrics();
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
