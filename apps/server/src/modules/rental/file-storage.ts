import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FileStorageMount } from '@slg/shared/views/rental';
import type { Executor } from '../../db/client.js';
import { fileStorages, instances } from '../../db/schema/index.js';
import { fileStorageKey } from '../storage/keys.js';

/**
 * 文件存储 in instances and elastic containers (docs/compute.md "文件存储 in machines"): the owner's live
 * store of the instance's region is mounted at /root/slg-fs by every create and power-on; an instance
 * that started before the store was initialised gets it at its next start.
 */

/**
 * The keys (`<ownerId>/<zoneId>`) of the live stores among these instances' owners and regions, in one
 * query (the partial unique index on owner and zone answers it), for a whole reconciler pass.
 */
export async function liveFileStorageKeys(executor: Executor, wanted: readonly { ownerId: number; zoneId: string }[]): Promise<Set<string>> {
  if (wanted.length === 0) return new Set();
  const rows = await executor
    .select({ ownerId: fileStorages.ownerId, zoneId: fileStorages.zoneId })
    .from(fileStorages)
    .where(and(inArray(fileStorages.ownerId, [...new Set(wanted.map((item) => item.ownerId))]), isNull(fileStorages.deletedAt)));
  return new Set(rows.map((row) => fileStorageKey(row.ownerId, row.zoneId)));
}

/** The store a machine of this instance mounts: its key when the owner has a live one in the instance's region, else null. */
export function fileStorageFor(instance: { ownerId: number; zoneId: string }, live: ReadonlySet<string>): string | null {
  const key = fileStorageKey(instance.ownerId, instance.zoneId);
  return live.has(key) ? key : null;
}

/** Whether the instance's owner has a live store in its region: a column of the instance queries (no query per row). */
export function liveFileStorageColumn() {
  return sql<boolean>`exists (select 1 from ${fileStorages} where ${and(eq(fileStorages.ownerId, instances.ownerId), eq(fileStorages.zoneId, instances.zoneId), isNull(fileStorages.deletedAt))})`.mapWith(Boolean);
}

/**
 * What an instance view says of the store: `mounted` when the machine has it (or a create / power-on
 * under way will mount it), `restartNeeded` when the owner has one in the region that the current run
 * does not mount (需重启后挂载), `none` without a store in the region.
 */
export function fileStorageMountOf(instance: Pick<typeof instances.$inferSelect, 'fileStorageMounted' | 'operation'>, live: boolean): FileStorageMount {
  if (!live) return 'none';
  if (instance.fileStorageMounted || instance.operation === 'create' || instance.operation === 'power_on') return 'mounted';
  return 'restartNeeded';
}
