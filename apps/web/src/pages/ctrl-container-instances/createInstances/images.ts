import { imageRunsOnHost } from '@slg/shared';
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
