/**
 * What 文件存储 has cost (计费记录, `GET /storage/charging_records`): the server's response schema, and
 * the types the console reads it with (`import type` only). Sizes are bytes, amounts integer fen.
 */
import { z } from 'zod';

export const fileStorageChargingRecordSchema = z.object({
  zoneId: z.string(),
  zoneName: z.string(),
  status: z.enum(['ACTIVE', 'WRITES_BLOCKED', 'DELETED']).describe('ACTIVE 正常、WRITES_BLOCKED 欠费禁止写入、DELETED 欠费满30天已删除'),
  usedBytes: z.number().int().describe('已用字节数（最近一次测得）'),
  billableGb: z.number().int().describe('超出免费 20 GB 的部分（GB，向上取整），按它计费'),
  priceFenPerGbDay: z.number().int().describe('该地区的价格（分/GB/天）'),
  rateFenPerDay: z.number().int().describe('按当前用量每天的费用（分）；已删除为 0'),
  chargedFen: z.number().int().describe('至今已结算的费用（分）'),
  billedUntil: z.string().describe('已结算至（每天结算一次）'),
  arrearsSince: z.string().nullable().describe('欠费开始时间'),
  writesBlockedAt: z.string().nullable(),
  orderNo: z.string().nullable().describe('费用所记的按量订单号'),
  createdAt: z.string().describe('初始化时间'),
  deletedAt: z.string().nullable(),
});
export type FileStorageChargingRecord = z.infer<typeof fileStorageChargingRecordSchema>;

export const fileStorageChargingRecordsSchema = z.object({
  list: z.array(fileStorageChargingRecordSchema),
  totalFen: z.number().int().describe('全部文件存储至今的费用合计（分）'),
});
export type FileStorageChargingRecords = z.infer<typeof fileStorageChargingRecordsSchema>;
