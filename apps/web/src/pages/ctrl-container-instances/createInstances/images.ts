import { imageRunsOnHost } from '@slg/shared';
import type { PrivateImageView } from '../../../api/images';
import type { PublicImage } from '../../../api/meta';

export { compareVersions } from '@slg/shared';

/** Whether the host's driver runs the image's CUDA: the image may need at most the host's CUDA version. */
export function runsOnHost(image: Pick<PublicImage, 'cuda'>, hostCudaVersion: string): boolean {
  return imageRunsOnHost(image.cuda, hostCudaVersion);
}

export interface ImageGroup {
  framework: string;
  images: PublicImage[];
}

/** Public images grouped by framework, in the order the list gives them. */
export function groupByFramework(images: readonly PublicImage[]): ImageGroup[] {
  const groups = new Map<string, PublicImage[]>();
  for (const image of images) {
    const group = groups.get(image.framework);
    if (group) group.push(image);
    else groups.set(image.framework, [image]);
  }
  return [...groups].map(([framework, list]) => ({ framework, images: list }));
}

/** The image chosen first: the first the host can run, preferring the given framework. */
export function defaultImage(images: readonly PublicImage[], hostCudaVersion: string, framework?: string): PublicImage | undefined {
  const runnable = images.filter((image) => runsOnHost(image, hostCudaVersion));
  return runnable.find((image) => image.framework === framework) ?? runnable[0];
}

/** The private images the create page lists: mine first, then those shared with me; failed saves are left out. */
export function privateImageChoices(images: readonly PrivateImageView[]): PrivateImageView[] {
  const shown = images.filter((image) => image.status !== 'failed');
  return [...shown.filter((image) => !image.sharedFrom), ...shown.filter((image) => image.sharedFrom)];
}

/** Whether an instance on this host can be created from the private image now: saved, and a CUDA the host runs. */
export function privateImageUsable(image: PrivateImageView, hostCudaVersion: string): boolean {
  return image.status === 'ready' && runsOnHost(image, hostCudaVersion);
}

/**
 * The private image chosen: the wanted one (picked, or named by the link) once it is usable; with none
 * wanted, the first usable one. A wanted image that is missing or not usable leaves nothing chosen.
 */
export function chosenPrivateImage(images: readonly PrivateImageView[], hostCudaVersion: string, wanted: string | undefined): PrivateImageView | undefined {
  const choices = privateImageChoices(images);
  if (wanted === undefined) return choices.find((image) => privateImageUsable(image, hostCudaVersion));
  const image = choices.find((item) => item.imageId === wanted);
  return image && privateImageUsable(image, hostCudaVersion) ? image : undefined;
}
