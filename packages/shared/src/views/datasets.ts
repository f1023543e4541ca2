/**
 * What 数据集 answers (docs/api-datasets.md): the server's response schemas, and the types the console
 * reads them with (`import type` only). Sizes are bytes, times ISO 8601 strings.
 */
import { z } from 'zod';

export const datasetSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['PUBLIC', 'SHARED']).describe('PUBLIC：平台提供的公开数据集；SHARED：用户共享的数据集'),
  name: z.string().describe('名称，也是实例中的文件夹名'),
  description: z.string(),
  tags: z.array(z.string()),
  license: z.string().nullable().describe('许可协议'),
  sizeBytes: z.number().int().describe('快照的字节数'),
  fileCount: z.number().int().describe('快照中的文件数'),
  mountPath: z.string().describe('实例中的只读挂载路径 /root/slg-pub/<name>'),
  status: z.enum(['IN_REVIEW', 'PASS', 'REJECTED']).describe('审核状态（公开数据集总是 PASS）'),
  rejectReason: z.string().nullable().describe('未通过的原因（只有共享者本人看得到）'),
  ownerName: z.string().nullable().describe('共享者（昵称或打码的手机号）；公开数据集为 null'),
  mine: z.boolean().describe('是否是当前账号（主账号）共享的'),
  favorited: z.boolean().describe('当前用户是否已收藏（未登录为 false）'),
  favoriteCount: z.number().int(),
  /** Only on the owner's own datasets (list/me): where the snapshot was taken from. */
  zoneId: z.string().nullable().describe('快照来源的地区（只在 list/me 中给出）'),
  sourcePath: z.string().nullable().describe('快照来源的文件存储文件夹（只在 list/me 中给出）'),
  createdAt: z.string(),
  updatedAt: z.string(),
  reviewedAt: z.string().nullable(),
});
export type DatasetView = z.infer<typeof datasetSchema>;

export const createdDatasetSchema = z.object({ id: z.number().int() });

/** An operator's review queue entry: the dataset and who shared it. */
export const adminDatasetSchema = datasetSchema.extend({
  ownerId: z.number().int().nullable(),
  ownerTelephone: z.string().nullable(),
});
export type AdminDatasetView = z.infer<typeof adminDatasetSchema>;
