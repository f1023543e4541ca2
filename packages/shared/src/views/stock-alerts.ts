/**
 * What 到货提醒 answers (`/subscriptions`): the server's response schema, and the type the console reads
 * it with (`import type` only).
 */
import { z } from 'zod';
import { valuesOf } from '../dictionaries.js';
import { STOCK_ALERT_STATUSES } from '../stock-alerts.js';

export const stockAlertSchema = z.object({
  id: z.number().int(),
  zoneId: z.string(),
  zoneName: z.string(),
  gpuModelId: z.string(),
  gpuModelName: z.string(),
  gpuNum: z.number().int(),
  status: z.enum(valuesOf(STOCK_ALERT_STATUSES)).describe('WAITING 等待中、NOTIFIED 已提醒'),
  statusName: z.string().describe('等待中 / 已提醒'),
  createdAt: z.string(),
  notifiedAt: z.string().nullable().describe('提醒发出的时间；等待中为 null'),
});
export type StockAlertView = z.infer<typeof stockAlertSchema>;
