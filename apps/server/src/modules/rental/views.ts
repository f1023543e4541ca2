import { NO_GPU_CPU_CORES, NO_GPU_MEMORY_GB, type GpuMode, type InstanceOperation, type InstanceStatusValue } from '@slg/shared';
import type { InstanceView, RunningCopy } from '@slg/shared/views/rental';
import type { hosts, instances } from '../../db/schema/index.js';
import { hourlyRateFen, type PriceSource } from './pricing.js';
import { fileStorageMountOf } from './file-storage.js';

type InstanceRow = typeof instances.$inferSelect;
type HostRow = typeof hosts.$inferSelect;

/** The answer's schema and type live in packages/shared (views/rental), where the console reads the type. */
export type { InstanceView };

export interface InstanceViewSource {
  instance: InstanceRow;
  host: Pick<HostRow, 'name' | 'cpuPerGpu' | 'memoryGbPerGpu' | 'usagePriceFen' | 'dayPriceFen' | 'weekPriceFen' | 'monthPriceFen'>;
  zoneName: string;
  gpuModelName: string;
  modelPricePerHourFen: number;
  imageName: string | null;
  noGpuPriceFen: number;
  autoReleaseMs: number;
  /** A copy running from or into the instance (`runningCopyColumn`); absent where the query does not ask. */
  copyTask?: RunningCopy | null;
  /** Whether the owner has a live 文件存储 in the instance's region (`liveFileStorageColumn`). */
  fileStorageLive: boolean;
}

export function priceSourceOf(host: InstanceViewSource['host'], modelPricePerHourFen: number): PriceSource {
  return {
    modelPricePerHourFen,
    usagePriceFen: host.usagePriceFen,
    dayPriceFen: host.dayPriceFen,
    weekPriceFen: host.weekPriceFen,
    monthPriceFen: host.monthPriceFen,
  };
}

export function toInstanceView(source: InstanceViewSource): InstanceView {
  const { instance, host } = source;
  const running = instance.status === 'PoweredOn' || instance.status === 'PoweredOnNoGPU';
  // The row keeps the mode of the current or the last run. A stopped instance shows what 开机 starts
  // (有卡: its GPUs, cores, memory and price), and the mode of its last run apart.
  const rowMode: GpuMode = instance.gpuMode === 'nogpu' ? 'nogpu' : 'gpu';
  const starting = instance.operation === 'power_on';
  const active = running || starting;
  const mode: GpuMode = starting ? (instance.operationMode === 'nogpu' ? 'nogpu' : 'gpu') : running ? rowMode : 'gpu';
  const prices = priceSourceOf(host, source.modelPricePerHourFen);
  const gpuPriceFen = hourlyRateFen(prices, instance.gpuNum, 'gpu', source.noGpuPriceFen);
  const ssh = instance.sshHost && instance.sshPort ? `ssh -p ${instance.sshPort} root@${instance.sshHost}` : null;
  return {
    instanceId: instance.instanceId,
    rentalId: instance.id,
    rentalUid: instance.uid,
    name: instance.name,
    // The columns are text; the state machine writes only these values, and the answer's schema checks them.
    status: instance.status as InstanceStatusValue,
    operation: instance.operation as InstanceOperation | null,
    statusReason: instance.statusReason,
    health: instance.status === 'Error' || instance.status === 'OutOfConnection' ? 'Abnormal' : 'Normal',
    hostId: instance.hostId,
    hostName: host.name,
    zoneId: instance.zoneId,
    zoneName: source.zoneName,
    gpuModelId: instance.gpuModelId,
    gpuModelName: source.gpuModelName,
    gpuNum: instance.gpuNum,
    gpuMode: mode,
    lastRunMode: active ? null : rowMode,
    cpuCores: mode === 'nogpu' ? NO_GPU_CPU_CORES : host.cpuPerGpu * instance.gpuNum,
    memoryGb: mode === 'nogpu' ? NO_GPU_MEMORY_GB : host.memoryGbPerGpu * instance.gpuNum,
    dataDiskGb: instance.dataDiskGb,
    diskRateFenPerDay: instance.diskRateFenPerDay,
    fileStorage: fileStorageMountOf(instance, source.fileStorageLive),
    chargingRuleId: instance.chargingRuleId,
    imageId: instance.imageId,
    imageName: source.imageName ?? instance.imageId,
    sshCommand: running ? ssh : null,
    priceFen: hourlyRateFen(prices, instance.gpuNum, mode, source.noGpuPriceFen),
    gpuPriceFen,
    noGpuPriceFen: source.noGpuPriceFen,
    runStartedAt: instance.runStartedAt?.toISOString() ?? null,
    poweredOffAt: instance.poweredOffAt?.toISOString() ?? null,
    releaseAt: releaseAtOf(instance, source.autoReleaseMs),
    keepWhenOff: instance.keepWhenOff,
    retainedUntil: instance.retainedUntil?.toISOString() ?? null,
    expiresAt: instance.expiresAt?.toISOString() ?? null,
    autoRenew: instance.autoRenew,
    scheduledPowerOffAt: instance.scheduledPowerOffAt?.toISOString() ?? null,
    copyTask: source.copyTask ?? null,
    createdAt: instance.createdAt.toISOString(),
  };
}

/**
 * When an instance that stays off is released: AUTO_RELEASE_DAYS after its power-off, or at the end of
 * the days of storage paid; never while 保留实例 is on (it pays on) or for an unexpired package.
 */
export function releaseAtOf(instance: Pick<InstanceRow, 'status' | 'poweredOffAt' | 'expiresAt' | 'keepWhenOff' | 'retainedUntil'>, autoReleaseMs: number): string | null {
  if (instance.status !== 'PoweredOff' || !instance.poweredOffAt || instance.expiresAt || instance.keepWhenOff) return null;
  const release = instance.poweredOffAt.getTime() + autoReleaseMs;
  return new Date(Math.max(release, instance.retainedUntil?.getTime() ?? 0)).toISOString();
}
