/**
 * What 算力市场 answers (`/comppower`, public): the server's response schemas, and the types the console
 * reads them with (`import type` only). Prices are integer fen.
 */
import { z } from 'zod';

/** A host on the market, priced for the charging rule asked for. */
export const marketHostSchema = z.object({
  hostId: z.string(),
  hostName: z.string(),
  zoneId: z.string(),
  zoneName: z.string(),
  gpuModelId: z.string(),
  gpuModelName: z.string(),
  gpuMemoryGb: z.number().int().describe('单卡显存 GB'),
  gpuTotal: z.number().int(),
  gpuFree: z.number().int().describe('当前空闲 GPU 数'),
  chargingRuleId: z.number().int(),
  pricePerGpuFen: z.number().int().describe('每卡每计费单位的价格（分）'),
  unit: z.string().describe('计费单位：时 / 天 / 周 / 月'),
  cpuModelId: z.string(),
  cpuModelName: z.string(),
  cpuPerGpu: z.number().int().describe('每卡分配的 CPU 核数'),
  memoryGbPerGpu: z.number().int().describe('每卡分配的内存 GB'),
  dataDiskFreeGb: z.number().int().describe('数据盘可扩容到的大小：主机剩余磁盘，不超过 dataDiskMaxGb'),
  dataDiskMaxGb: z.number().int().describe('单个实例数据盘上限 GB'),
  cudaVersion: z.string().describe('主机支持的最高 CUDA 版本'),
  driverVersion: z.string(),
});
export type MarketHost = z.infer<typeof marketHostSchema>;

/** Free / total GPUs and the lowest price of a group of hosts (a GPU model, a zone, or both). */
export const marketFiguresSchema = z.object({
  hostCount: z.number().int(),
  gpuTotal: z.number().int(),
  gpuFree: z.number().int(),
  maxFreeOnHost: z.number().int().describe('单台主机当前最多可租的卡数'),
  minPricePerGpuFen: z.number().int().describe('有空闲 GPU 的主机中的最低单价（分）；全部租满时为所有主机的最低单价'),
});
export type MarketFigures = z.infer<typeof marketFiguresSchema>;

const figures = marketFiguresSchema.shape;

/** `GET /comppower/overview`: the figures of every GPU model, zone and their combinations. */
export const marketOverviewSchema = z.object({
  chargingRuleId: z.number().int(),
  unit: z.string(),
  gpuModels: z.array(z.object({ gpuModelId: z.string(), gpuModelName: z.string(), gpuMemoryGb: z.number().int(), ...figures })),
  zones: z.array(z.object({ zoneId: z.string(), zoneName: z.string(), region: z.string(), ...figures })),
  cells: z.array(z.object({ zoneId: z.string(), gpuModelId: z.string(), ...figures })),
});
export type MarketOverview = z.infer<typeof marketOverviewSchema>;
