/**
 * What 文件存储 answers (docs/api-storage.md): the server's response schemas, and the types the console
 * reads them with (`import type` only). Sizes are bytes, amounts integer fen, times ISO 8601 strings.
 */
import { z } from 'zod';

export const fileStorageSchema = z.object({
  zoneId: z.string(),
  initialized: z.boolean().describe('是否已初始化（未初始化时其余用量字段为 0）'),
  usedBytes: z.number().int().describe('已用字节数（在存储后端测得）'),
  quotaBytes: z.number().int().describe('配额（字节），上传不会超过它'),
  freeBytes: z.number().int().describe('免费额度（字节），超出部分按 GB·天计费'),
  priceFenPerGbDay: z.number().int().describe('超出免费额度部分的价格（分/GB/天）'),
  mountPath: z.string().describe('实例内的挂载路径'),
  writesBlocked: z.boolean().describe('欠费超过15天，写入已被禁止'),
});
export type FileStorageView = z.infer<typeof fileStorageSchema>;

export const storageEntrySchema = z.object({
  name: z.string(),
  type: z.enum(['file', 'dir']),
  size: z.number().int().describe('字节数（文件夹为 0）'),
  modifiedAt: z.string().describe('修改时间'),
});
export type StorageEntryView = z.infer<typeof storageEntrySchema>;

export const storageListingSchema = z.object({
  items: z.array(storageEntrySchema).describe('文件夹在前，再按名称排序；符号链接显示为大小为 0 的文件（不跟随）'),
  truncated: z.boolean().optional().describe('不分页且文件夹内条目超过 10000 个时为 true，只列出其中一部分'),
  total: z.number().int().optional().describe('分页时：文件夹内的条目总数'),
  page: z.number().int().optional(),
  pageSize: z.number().int().optional(),
});
export type StorageListingView = z.infer<typeof storageListingSchema>;
