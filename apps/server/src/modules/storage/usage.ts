import { lstat, readdir, realpath, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.js';
import { rowsOf } from '../../db/client.js';
import { fileStorageKey } from './keys.js';
import { listMarkers, stagingDirs, type Marker } from './quota.js';
import { removeDirectory, treeBytes } from './tree.js';

/** A tus upload with no data written for this long is dropped (its reservation with it). */
export const TUS_IDLE_EXPIRY_MS = 24 * 3600_000;
/** A PUT body that stopped arriving this long ago belongs to a request that is gone. */
export const PUT_STALL_EXPIRY_MS = 3600_000;
/** A marker whose upload files are gone (or mid-landing / mid-release) is left this long before it is removed. */
export const MARKER_GRACE_MS = 10 * 60_000;
/** Stores whose new usage one transaction writes. */
const WRITE_BATCH = 500;

const errno = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;
const mtimeOf = async (path: string): Promise<number | null> => (await lstat(path).catch(() => null))?.mtimeMs ?? null;
const remove = (path: string) => unlink(path).catch(() => undefined);

/**
 * Drops what uploads that will never finish left behind: markers of deleted stores, of tus uploads
 * idle for TUS_IDLE_EXPIRY_MS or gone, of PUT bodies stalled for PUT_STALL_EXPIRY_MS or gone, and
 * staging files without a marker. The reservations go with their markers: the measurement that follows
 * does not count them. Ages are read from the files (the wall clock of the storage), not `now`.
 */
async function cleanUpStaging(deps: AppDeps): Promise<void> {
  const root = deps.config.storageRoot;
  const dirs = stagingDirs(root);
  const wallNow = Date.now();
  const older = (mtime: number | null, ms: number) => mtime !== null && wallNow - mtime > ms;
  const kept = new Set<string>();
  const markers = await listMarkers(root);
  const storeIds = `{${[...new Set(markers.map((marker) => marker.storeId))].join(',')}}`;
  const liveStoreIds = new Set(
    rowsOf<{ id: number | string }>(await deps.database.db.execute(sql`select id from file_storages where id = any(${storeIds}::bigint[]) and deleted_at is null`)).map((row) =>
      Number(row.id),
    ),
  );
  for (const marker of markers) {
    const markerAge = await mtimeOf(marker.file);
    const [kind, id] = [marker.key.slice(0, 3), marker.key.slice(4)];
    const data = kind === 'tus' ? join(dirs.tus, id) : join(dirs.incoming, marker.key);
    const dataMtime = await mtimeOf(data);
    const stale =
      !liveStoreIds.has(marker.storeId) ||
      (marker.state !== 'reserved' && older(markerAge, MARKER_GRACE_MS)) ||
      (dataMtime === null && older(markerAge, MARKER_GRACE_MS)) ||
      older(dataMtime, kind === 'tus' ? TUS_IDLE_EXPIRY_MS : PUT_STALL_EXPIRY_MS);
    if (!stale) {
      kept.add(kind === 'tus' ? id : marker.key);
      continue;
    }
    await remove(marker.file);
    await remove(data);
    if (kind === 'tus') await remove(`${data}.json`);
  }
  // Staging files without a marker (a process died between the two): gone once they are old.
  for (const [dir, expiry] of [
    [dirs.tus, PUT_STALL_EXPIRY_MS],
    [dirs.incoming, PUT_STALL_EXPIRY_MS],
  ] as const) {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if (errno(error) === 'ENOENT') continue;
      throw error;
    }
    for (const name of names) {
      if (kept.has(name.replace(/\.json$/, ''))) continue;
      const path = join(dir, name);
      if (older(await mtimeOf(path), expiry)) await remove(path);
    }
  }
}

function inFlightByStore(markers: Marker[]): Map<number, Map<string, number>> {
  const byStore = new Map<number, Map<string, number>>();
  for (const marker of markers) {
    let keys = byStore.get(marker.storeId);
    if (!keys) byStore.set(marker.storeId, (keys = new Map()));
    keys.set(marker.key, marker.bytes);
  }
  return byStore;
}

/**
 * Re-measures every live store on the backend (docs/api-storage.md "Quota and reservations"):
 * `used_bytes` = the bytes of its directory tree (`treeBytes`: apparent sizes, symlinks never
 * followed) + the uploads in flight (reservation markers), `measured_at` = `now`.
 *
 * The order makes sure no reservation is lost: the markers are read before the walk, then again while
 * the stores' rows are locked for the write (a reservation's UPDATE waits for that lock), and every
 * upload seen either time is added. A reservation counted in the database before the first read has
 * its marker then already (markers come first); one counted after the write is added to the new value
 * by its own UPDATE; one in between waits for the lock and its marker is in the second read. An upload
 * that lands during the walk may be counted twice until the next measurement: never less.
 */
export async function measureFileStorages(deps: AppDeps, now: Date): Promise<void> {
  const db = deps.database.db;
  const root = deps.config.storageRoot;
  const stores = rowsOf<{ id: number | string; owner_id: number | string; zone_id: string }>(
    await db.execute(sql`select id, owner_id, zone_id from file_storages where deleted_at is null order by id`),
  ).map((row) => ({ id: Number(row.id), ownerId: Number(row.owner_id), zoneId: row.zone_id }));
  await cleanUpStaging(deps);
  const before = inFlightByStore(await listMarkers(root));
  const measured = new Map<number, number>();
  for (const store of stores) {
    // The store's own directory is the server's (users see only what is inside it): resolved as it is.
    const directory = join(root, fileStorageKey(store.ownerId, store.zoneId));
    measured.set(store.id, await treeBytes(await realpath(directory).catch(() => directory)));
  }

  for (let start = 0; start < stores.length; start += WRITE_BATCH) {
    const batch = stores.slice(start, start + WRITE_BATCH);
    const ids = `{${batch.map((store) => store.id).join(',')}}`;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select id from file_storages where id = any(${ids}::bigint[]) and deleted_at is null order by id for update`);
      const after = inFlightByStore(await listMarkers(root));
      const values = batch.map((store) => {
        const inFlight = new Map([...(before.get(store.id) ?? []), ...(after.get(store.id) ?? [])]);
        const bytes = (measured.get(store.id) ?? 0) + [...inFlight.values()].reduce((sum, value) => sum + value, 0);
        return sql`(${store.id}::bigint, ${bytes}::bigint)`;
      });
      await tx.execute(sql`
        update file_storages f set used_bytes = v.bytes, measured_at = ${now.toISOString()}::timestamptz
        from (values ${sql.join(values, sql`, `)}) as v(id, bytes)
        where f.id = v.id and f.deleted_at is null`);
    });
  }
}

/**
 * Removes a store's directory and everything in it (the store deleted after 30 days in arrears; the
 * billing job marks the row). Symlinks are removed, never followed. Uploads still in flight for it fail
 * when they try to land (the store is deleted) and the clean-up drops their staging files.
 */
export async function removeFileStorageFiles(deps: AppDeps, ownerId: number, zoneId: string): Promise<void> {
  await removeDirectory(join(deps.config.storageRoot, fileStorageKey(ownerId, zoneId)));
}
