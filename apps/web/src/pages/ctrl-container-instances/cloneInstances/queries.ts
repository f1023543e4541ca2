/** The queries both clone pages read: the source instance, the CUDA its image needs, the clone's price. */
import { isPrivateImageId } from '@slg/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { clonePrepay, type CloneBody, type InstanceView } from '../../../api/compute';
import { usePrivateImagesQuery } from '../../../api/images';
import { usePublicImages } from '../../../api/meta';
import { fetchInstanceDetail } from '../../../api/monitoring';
import { queryKeys } from '../../../api/queryKeys';
import { permissionList, useUserStore } from '../../../stores/user';
import { INSTANCE_ID_PATTERN } from './cloneOrder';

/** The status follows the instance, so powering it off elsewhere unlocks the pages. */
const SOURCE_REFRESH_MS = 5_000;
/** A package's end moves with the clock, and a host's price may change: the quote is asked again this often. */
const PRICE_REFRESH_MS = 60_000;

export function useSourceInstance(instanceId: string) {
  return useQuery({
    queryKey: [...queryKeys.instances, 'detail', instanceId],
    queryFn: ({ signal }) => fetchInstanceDetail(instanceId, signal),
    enabled: INSTANCE_ID_PATTERN.test(instanceId),
    // The order is built from it: always asked again on arrival, never from what the list cached before a change.
    refetchOnMount: 'always',
    refetchInterval: SOURCE_REFRESH_MS,
  });
}

/** The CUDA the source's system disk needs (its image's), when the console knows the image. */
export function useImageCuda(source: Pick<InstanceView, 'imageId'> | undefined): string | undefined {
  const publicImages = usePublicImages();
  const user = useUserStore((state) => state.userInfo);
  const isPrivate = source !== undefined && isPrivateImageId(source.imageId);
  // A sub-account without 我的镜像 cannot list private images; the server still checks the CUDA.
  const privateImages = usePrivateImagesQuery(isPrivate && (permissionList(user)?.includes('MIRROR') ?? false));
  if (!source) return undefined;
  if (isPrivate) return privateImages.data?.list.find((image) => image.imageId === source.imageId)?.cuda;
  return publicImages.data?.find((image) => image.id === source.imageId)?.cuda;
}

/** `/rental/clone/prepay` (or `/clone/v2/prepay` across regions); refusals stay on the page (silent, no retry). */
export function useClonePrepayQuery(body: CloneBody | null, crossRegion: boolean) {
  return useQuery({
    queryKey: [...queryKeys.instances, 'clone-prepay', crossRegion, body] as const,
    queryFn: () => clonePrepay(body as CloneBody, crossRegion),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    refetchInterval: PRICE_REFRESH_MS,
    retry: false,
  });
}
