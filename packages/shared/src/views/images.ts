/**
 * What 我的镜像 answers (private images, their sharing and 保存镜像): the server's response schemas, and
 * the types the console reads them with (`import type` only).
 */
import { z } from 'zod';
import { valuesOf } from '../dictionaries.js';
import { PRIVATE_IMAGE_STATUSES } from '../images.js';

export const privateImageSchema = z.object({
  imageId: z.string().describe('镜像ID，如 img-k3m9x2p7qa4b（创建实例、更换镜像时使用）'),
  imageUId: z.string().describe('镜像UID（分享相关接口使用）'),
  name: z.string(),
  sizeGb: z.number().describe('镜像大小（GB）；保存中为来源镜像大小（计入额度），失败为0'),
  status: z.enum(valuesOf(PRIVATE_IMAGE_STATUSES)).describe('saving 保存中、ready 就绪、failed 失败'),
  statusReason: z.string().nullable().describe('失败原因'),
  /** A host runs the image when its driver supports at least this CUDA version. */
  cuda: z.string().describe('镜像需要的 CUDA 版本'),
  baseImageId: z.string().describe('所基于的公共镜像ID'),
  baseImageName: z.string(),
  sharedFrom: z.string().optional().describe('他人分享给我的镜像：分享者手机号（脱敏，如 138****8001）；自己的镜像没有该字段'),
  shareCount: z.number().int().describe('自己的镜像：已分享给多少个账号'),
  createdAt: z.string(),
});
export type PrivateImageView = z.infer<typeof privateImageSchema>;

/** `GET /rental/private_image/size`: what the account's images take of its free quota. */
export const imageUsageSchema = z.object({ usedGb: z.number(), quotaGb: z.number() });
export type ImageUsage = z.infer<typeof imageUsageSchema>;

/** `POST /rental/save_image`: the image being saved. */
export const savedImageSchema = z.object({ imageId: z.string() });
export type SavedImage = z.infer<typeof savedImageSchema>;

/** `DELETE /rental/share_image/share_to_others`. */
export const sharesRemovedSchema = z.object({ removed: z.number().int().describe('取消的分享数') });
export type SharesRemoved = z.infer<typeof sharesRemovedSchema>;
