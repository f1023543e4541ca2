/** Private images (我的镜像): rules shared by the server and the console. */

/** Every account keeps this many GB of private images free; saving is refused once its images use this much. */
export const PRIVATE_IMAGE_QUOTA_GB = 30;

export const IMAGE_NAME_MAX = 32;
export const IMAGE_NAME_MESSAGE = `镜像名称为1-${IMAGE_NAME_MAX}个字符，不能包含换行或控制字符`;
// eslint-disable-next-line no-control-regex
export const IMAGE_NAME_PATTERN = /^[^\u0000-\u001f\u007f]{1,32}$/u;

/** A private image is saved from a stopped instance (saving), then ready to use, or failed with a reason. */
export const PRIVATE_IMAGE_STATUSES = [
  { value: 'saving', label: '保存中', color: 'processing' },
  { value: 'ready', label: '就绪', color: 'success' },
  { value: 'failed', label: '失败', color: 'error' },
] as const;
export type PrivateImageStatus = (typeof PRIVATE_IMAGE_STATUSES)[number]['value'];

/** Private image ids are `img-` and 12 characters of `a–z`/`2–9`; public image ids never start so. */
export const PRIVATE_IMAGE_ID_PATTERN = /^img-[a-z0-9]{12}$/;

export function isPrivateImageId(imageId: string): boolean {
  return imageId.startsWith('img-');
}
