import { z } from 'zod';
import { INSTANCE_OPERATIONS, INSTANCE_STATUSES, NO_GPU_CPU_CORES, NO_GPU_MEMORY_GB, type GpuMode } from '@slg/shared';
import type { hosts, instances } from '../../db/schema/index.js';
import { hourlyRateFen, type PriceSource } from './pricing.js';
import { runningCopySchema, type RunningCopy } from './copy-view.js';

type InstanceRow = typeof instances.$inferSelect;
type HostRow = typeof hosts.$inferSelect;

const statusValues = INSTANCE_STATUSES.map((item) => item.value) as [string, ...string[]];
const operationValues = INSTANCE_OPERATIONS.map((item) => item.value) as [string, ...string[]];

export const instanceViewSchema = z.object({
  instanceId: z.string().describe('实例ID，如 slg-k3m9x2p7qa'),
  rentalId: z.number().int().describe('租用记录ID'),
  rentalUid: z.string().describe('租用记录UID（订单的资源ID）'),
  name: z.string(),
  status: z.enum(statusValues).describe('运行状态（/meta/instance_status）'),
  operation: z.enum(operationValues).nullable().describe('正在进行的操作：create 创建中、power_on 开机中、power_off 关机中、release 释放中、reset 重置中（重置系统、更换镜像）、save_image 保存镜像中'),
  statusReason: z.string().nullable().describe('平台改变状态的原因，如欠费关机、主机故障'),
  health: z.enum(['Normal', 'Abnormal']),
  hostId: z.string(),
  hostName: z.string(),
  zoneId: z.string(),
  zoneName: z.string(),
  gpuModelId: z.string(),
  gpuModelName: z.string(),
  gpuNum: z.number().int(),
  gpuMode: z
    .enum(['gpu', 'nogpu'])
    .describe('本次运行（或正在开机）的方式：gpu 有卡，nogpu 无卡模式；未运行时为开机默认的有卡方式 gpu，上次的方式见 lastRunMode'),
  lastRunMode: z
    .enum(['gpu', 'nogpu'])
    .nullable()
    .describe('未运行时上次运行的方式（nogpu 表示上次以无卡模式运行）；运行中或正在开机时为 null'),
  cpuCores: z.number().int(),
  memoryGb: z.number().int(),
  dataDiskGb: z.number().int().describe('数据盘容量（GB），50 GB 免费'),
  diskRateFenPerDay: z.number().int().describe('数据盘超出免费容量部分每天的费用（分），0 为不计费'),
  chargingRuleId: z.number().int(),
  imageId: z.string(),
  imageName: z.string(),
  sshCommand: z.string().nullable().describe('运行后可用，如 ssh -p 32101 root@bj-a.connect.example.com'),
  priceFen: z.number().int().describe('按量计费每小时价格（分）：运行中按本次方式（有卡为 GPU 单价 × 卡数，无卡模式为无卡价格），未运行时为有卡开机的价格'),
  gpuPriceFen: z.number().int().describe('有卡开机时每小时价格（分）'),
  noGpuPriceFen: z.number().int().describe('无卡模式每小时价格（分）'),
  runStartedAt: z.string().nullable().describe('本次计费运行开始时间'),
  poweredOffAt: z.string().nullable(),
  releaseAt: z.string().nullable().describe('持续关机将被自动释放的时间（开启保留实例时为空）'),
  keepWhenOff: z.boolean().describe('保留实例：关机满15天后按磁盘容量每天付费保留，不自动释放'),
  retainedUntil: z.string().nullable().describe('保留费用已付至'),
  expiresAt: z.string().nullable().describe('包日、包周、包月的到期时间；按量计费为 null'),
  autoRenew: z.boolean().describe('到期时从余额自动续费一个周期'),
  scheduledPowerOffAt: z.string().nullable().describe('定时关机时间'),
  copyTask: runningCopySchema.nullable().describe('正在进行的跨实例拷贝（本实例为源或目标）；没有时为 null'),
  createdAt: z.string(),
});
export type InstanceView = z.infer<typeof instanceViewSchema>;

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
    status: instance.status,
    operation: instance.operation,
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
