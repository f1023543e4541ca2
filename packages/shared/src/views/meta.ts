/**
 * What the public dictionaries answer (`/meta/*`, spec §7 "Metadata lists", and the platform's fees):
 * the server's response schemas, and the types the console reads them with (`import type` only).
 */
import { z } from 'zod';

/** A region / availability zone, e.g. `{ id: 'bj-a', name: '北京A区', region: '华北' }`. */
export const zoneSchema = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string().describe('大区，如 华北'),
  description: z.string(),
});
export type Zone = z.infer<typeof zoneSchema>;

/** A GPU model on offer. */
export const gpuModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  memoryGb: z.number().int().describe('显存 GB'),
  vendor: z.string(),
  architecture: z.string(),
  fp32Tflops: z.number().describe('FP32 峰值算力 TFLOPS'),
  pricePerHourFen: z.number().int().describe('参考按量价格，分/卡时'),
});
export type GpuModel = z.infer<typeof gpuModelSchema>;

export const cpuModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  cores: z.number().int(),
  baseClockGhz: z.number().describe('基础频率 GHz'),
});
export type CpuModel = z.infer<typeof cpuModelSchema>;

/** A public (platform-provided) image with its framework and runtime versions. */
export const publicImageSchema = z.object({
  id: z.string(),
  name: z.string(),
  framework: z.string(),
  frameworkVersion: z.string(),
  python: z.string(),
  cuda: z.string(),
  ubuntu: z.string(),
  sizeGb: z.number().describe('镜像大小 GB'),
  imageRef: z.string().describe('Docker 主机上运行的镜像引用（运营方可指向自己的镜像仓库）'),
});
export type PublicImage = z.infer<typeof publicImageSchema>;

/** A charging rule dictionary item (spec §3: name, showName, isFilter, id, unit). */
export const chargingRuleSchema = z.object({
  id: z.number().int().describe('1 按量；2、3、4 同时为包日、包周、包月时长包的 key'),
  name: z.string(),
  showName: z.string(),
  isFilter: z.boolean(),
  unit: z.string().describe('计费单位；按量计费按天显示'),
});
export type ChargingRule = z.infer<typeof chargingRuleSchema>;

export const instanceStatusItemSchema = z.object({
  id: z.number().int(),
  name: z.string().describe('状态值，如 Running'),
  showName: z.string().describe('中文名，如 运行中'),
  color: z.string().describe('antd Tag 颜色：success / processing / default / error / warning'),
  isFilter: z.boolean().describe('是否作为列表筛选项'),
});
export type InstanceStatusItem = z.infer<typeof instanceStatusItemSchema>;

export const namedItemSchema = z.object({ id: z.number().int(), name: z.string(), showName: z.string() });
export type NamedItem = z.infer<typeof namedItemSchema>;

/** `GET /meta/fees`: the platform's prices besides the GPUs' (set by the operator). */
export const platformFeesSchema = z.object({
  noGpuPricePerHourFen: z.number().int().describe('无卡模式每小时（分）'),
  diskPriceFenPerGbDay: z.number().int().describe('数据盘超出免费部分、保留实例的磁盘，每 GB 每天（分）'),
  freeDataDiskGb: z.number().int(),
  systemDiskGb: z.number().int(),
  privateImageQuotaGb: z.number().int(),
  balanceCoverHours: z.number().int().describe('按量实例创建、开机时余额须覆盖的小时数'),
  autoReleaseDays: z.number().int().describe('按量实例持续关机多少天后自动释放'),
});
export type PlatformFees = z.infer<typeof platformFeesSchema>;
