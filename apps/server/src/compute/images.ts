import { eq } from 'drizzle-orm';
import { isPrivateImageId } from '@slg/shared';
import type { Database } from '../db/client.js';
import { publicImages } from '../db/schema/index.js';

/** The repository private images are saved under (`<registry>/slg-private:<uid>`). */
export const PRIVATE_IMAGE_REPOSITORY = 'slg-private';

/**
 * What a machine runs for an image the platform names: a private image's uid is its tag in the
 * registry; a public image id is the reference the operator set (`public_images.image_ref`), else the
 * platform's base image.
 */
export async function imageReference(db: Database, imageId: string, options: { baseImage: string; registryUrl?: string }): Promise<string> {
  if (isPrivateImageId(imageId) || /^[0-9a-f-]{36}$/.test(imageId)) {
    const tagged = `${PRIVATE_IMAGE_REPOSITORY}:${imageId}`;
    return options.registryUrl ? `${options.registryUrl}/${tagged}` : tagged;
  }
  const [image] = await db.select({ ref: publicImages.imageRef }).from(publicImages).where(eq(publicImages.id, imageId));
  return image?.ref ?? options.baseImage;
}
