/**
 * 我的镜像: private images saved from instances, shared between accounts, and the instance operations
 * that use images (重置系统, 更换镜像, 保存镜像). The server checks names, quota and states
 * (docs/api-compute.md); the console shows a refused name on its field and anything else once (toast).
 */
import { ErrorCodes, type Page } from '@slg/shared';
import type { ImageUsage, PrivateImageView, SavedImage, SharesRemoved } from '@slg/shared/views/images';
import { useQuery } from '@tanstack/react-query';
import { isApiError, request } from './client';
import type { InstanceView } from './compute';
import { queryKeys } from './queryKeys';

export type { ImageUsage, PrivateImageView, SavedImage, SharesRemoved } from '@slg/shared/views/images';

/** Every image fits one page: 30 GB hold few images, and shared ones are few. */
export const IMAGE_PAGE_SIZE = 100;
/** While an image is saving, the list polls this often so its status changes by itself. */
export const SAVING_POLL_MS = 3_000;

export const imageKeys = {
  all: queryKeys.privateImages,
  list: () => [...queryKeys.privateImages, 'list'] as const,
  usage: () => [...queryKeys.privateImages, 'usage'] as const,
};

export function fetchPrivateImages(): Promise<Page<PrivateImageView>> {
  return request<Page<PrivateImageView>>({ url: '/rental/private_image', params: { page: 1, pageSize: IMAGE_PAGE_SIZE } });
}

export function fetchImageUsage(): Promise<ImageUsage> {
  return request<ImageUsage>({ url: '/rental/private_image/size' });
}

export function renameImage(input: { imageId: string; name: string }): Promise<null> {
  return request<null>({ method: 'PUT', url: '/rental/private_image/rename', data: input });
}

export function deleteImage(imageId: string): Promise<null> {
  return request<null>({ method: 'DELETE', url: '/rental/private_image', params: { imageId } });
}

export function shareImage(input: { imageId: string; telephone: string }): Promise<null> {
  return request<null>({ method: 'POST', url: '/rental/share_image/share', data: input });
}

export function stopSharingImage(imageUId: string): Promise<SharesRemoved> {
  return request<SharesRemoved>({ method: 'DELETE', url: '/rental/share_image/share_to_others', params: { imageUId } });
}

export function removeSharedImage(imageUId: string): Promise<null> {
  return request<null>({ method: 'DELETE', url: '/rental/share_image/share_from_other', params: { imageUId } });
}

export function resetInstanceSystem(instanceId: string): Promise<InstanceView> {
  return request<InstanceView>({ method: 'POST', url: '/rental/reset', data: { instanceId } });
}

export function switchInstanceImage(input: { instanceId: string; imageId: string }): Promise<InstanceView> {
  return request<InstanceView>({ method: 'POST', url: '/rental/switch_image/v2', data: input });
}

export function saveInstanceImage(input: { instanceId: string; name: string }): Promise<SavedImage> {
  return request<SavedImage>({ method: 'POST', url: '/rental/save_image', data: input });
}

/** My images and those shared with me; polled while any of them is saving. */
export function usePrivateImagesQuery(enabled = true) {
  return useQuery({
    queryKey: imageKeys.list(),
    queryFn: fetchPrivateImages,
    enabled,
    refetchInterval: (current) => (current.state.data?.list.some((image) => image.status === 'saving') ? SAVING_POLL_MS : false),
  });
}

export function useImageUsageQuery(enabled = true) {
  return useQuery({ queryKey: imageKeys.usage(), queryFn: fetchImageUsage, enabled });
}

/** Whether a refusal is about the name field (40026 duplicate, or a 400 on the name the form sent). */
export function isImageNameError(error: unknown): boolean {
  return isApiError(error) && (error.code === ErrorCodes.NAME_EXISTS.code || error.status === 400);
}
