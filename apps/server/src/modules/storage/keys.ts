/** Where each store's files sit at `/root/slg-fs` inside instances and containers of its region. */
export const FILE_STORAGE_MOUNT_PATH = '/root/slg-fs';

/**
 * A 文件存储's key: its directory under the storage root (STORAGE_ROOT), the sub-path of the
 * Kubernetes claim, and what drivers record as mounted. Owner ids are numbers and zone ids match
 * `^[a-z0-9][a-z0-9-]*$`, so a key never holds `..` or a leading `/`.
 */
export function fileStorageKey(ownerId: number, zoneId: string): string {
  if (!Number.isSafeInteger(ownerId) || ownerId <= 0 || !/^[a-z0-9][a-z0-9-]{0,31}$/.test(zoneId)) throw new Error(`invalid file storage owner or zone: ${ownerId} ${zoneId}`);
  return `${ownerId}/${zoneId}`;
}
