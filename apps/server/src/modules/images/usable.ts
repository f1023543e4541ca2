import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { isPrivateImageId } from '@slg/shared';
import type { Executor } from '../../db/client.js';
import { imageShares, privateImages, publicImages } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import { levelOf, type Principal } from '../../core/principal.js';

/** An image an instance can be built from: a public image, or a private one the caller may use. */
export interface UsableImage {
  /** What `instances.image_id` holds: the public image id or the private image's `img-…` id. */
  id: string;
  name: string;
  cuda: string;
  /** Its size in GB: what a save of an instance built from it is counted as until the save is done. */
  sizeGb: number;
  /** The public image at the root of it (itself for a public image). */
  baseImageId: string;
}

const NOT_FOUND_MESSAGE = '镜像不存在或已下架，请重新选择';

/** Whether a private image is shared with this account (a correlated condition on `private_images`). */
export function sharedWith(recipientId: number): SQL {
  return sql`exists (select 1 from ${imageShares} where ${imageShares.imageRowId} = ${privateImages.id} and ${imageShares.recipientId} = ${recipientId})`;
}

/**
 * The private images a caller may use: the account's own (as far as its MIRROR level lets it see them)
 * and those shared with the account; none without the MIRROR authority. Deleted images are not usable.
 */
export function privateImagesUsableBy(principal: Principal): SQL | null {
  const level = levelOf(principal, 'MIRROR');
  if (level === 'NONE') return null;
  const sameOwner = eq(privateImages.ownerId, principal.ownerId);
  const own = level === 'ALL' ? sameOwner : (and(sameOwner, eq(privateImages.creatorId, principal.userId)) as SQL);
  return and(isNull(privateImages.deletedAt), or(own, sharedWith(principal.ownerId))) as SQL;
}

/**
 * The image `imageId` names, if the caller may build an instance from it: an enabled public image, or
 * a ready private image of theirs or shared with them (locked FOR SHARE, so a concurrent delete waits
 * for the caller's transaction). Anything else is 404; a private image not ready yet is 409.
 */
export async function usableImage(executor: Executor, principal: Principal, imageId: string): Promise<UsableImage> {
  if (!isPrivateImageId(imageId)) {
    const [image] = await executor.select().from(publicImages).where(and(eq(publicImages.id, imageId), eq(publicImages.enabled, true)));
    if (!image) throw new AppError('NOT_FOUND', NOT_FOUND_MESSAGE);
    return { id: image.id, name: image.name, cuda: image.cuda, sizeGb: image.sizeGb, baseImageId: image.id };
  }
  const usable = privateImagesUsableBy(principal);
  if (!usable) throw new AppError('NOT_FOUND', NOT_FOUND_MESSAGE);
  const [image] = await executor
    .select()
    .from(privateImages)
    .where(and(eq(privateImages.imageId, imageId), usable))
    .for('share');
  if (!image) throw new AppError('NOT_FOUND', NOT_FOUND_MESSAGE);
  if (image.status === 'saving') throw new AppError('STATE_CONFLICT', `镜像「${image.name}」正在保存，保存完成后才能使用`);
  if (image.status !== 'ready') throw new AppError('STATE_CONFLICT', `镜像「${image.name}」保存失败，不能使用`);
  return { id: image.imageId, name: image.name, cuda: image.cuda, sizeGb: image.sizeGb, baseImageId: image.baseImageId };
}
