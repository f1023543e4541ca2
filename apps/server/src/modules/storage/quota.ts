import { mkdir, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { FILE_STORAGE_BLOCK_DAYS, FILE_STORAGE_GB_BYTES } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import { rowsOf } from '../../db/client.js';
import { AppError } from '../../core/errors.js';

/**
 * Upload reservations (docs/api-storage.md "Quota and reservations").
 *
 * `file_storages.used_bytes` is what the store holds as last measured on the backend, plus every
 * change the server made since: bytes reserved by uploads in flight, minus what failed uploads gave
 * back, deletions and files replaced by uploads. An upload reserves its whole length with one
 * conditional UPDATE before it writes a byte, so parallel uploads (in any number of processes) can
 * never pass the quota together.
 *
 * The measurement (usage.ts) replaces `used_bytes` with what it finds on disk; the bytes of uploads
 * still in flight are not on disk in the store yet (they are staged under `${STORAGE_ROOT}/.tus` and
 * `.incoming`), so it must add them back. Each reservation is therefore also written down on the
 * storage itself, as an empty marker file `${STORAGE_ROOT}/.reservations/<storeId>.<bytes>.<key>`:
 * shared by every server process that shares the storage, like the stores. A marker is made before
 * the reservation is counted in the database and goes only after its bytes are in the store or given
 * back, so a measurement that reads the markers (before walking and again under the rows' locks, see
 * usage.ts) never misses a reservation; at worst, for a moment, it counts one twice. A marker is
 * claimed by renaming it (`.landing` while its file moves into the store, `.releasing` while its bytes
 * are given back), so a stale marker removed by the measurement's clean-up can never be given back a
 * second time.
 */

export type ReservationState = 'reserved' | 'landing' | 'releasing';

export interface Reservation {
  storeId: number;
  bytes: number;
  /** `put-<uuid>` for PUT /storage/file, `tus-<id>` for a tus upload. */
  key: string;
}

export interface StagingDirs {
  /** Partial tus uploads (data file and `.json` of each). */
  tus: string;
  /** PUT /storage/file bodies while they arrive. */
  incoming: string;
  reservations: string;
}

export function stagingDirs(storageRoot: string): StagingDirs {
  return { tus: join(storageRoot, '.tus'), incoming: join(storageRoot, '.incoming'), reservations: join(storageRoot, '.reservations') };
}

const MARKER = /^(\d+)\.(\d+)\.((?:put|tus)-[A-Za-z0-9-]{1,64})(?:\.(landing|releasing))?$/;

function markerName(reservation: Reservation, state: ReservationState = 'reserved'): string {
  return `${reservation.storeId}.${reservation.bytes}.${reservation.key}${state === 'reserved' ? '' : `.${state}`}`;
}

export interface Marker extends Reservation {
  state: ReservationState;
  file: string;
}

export function parseMarker(name: string): Omit<Marker, 'file'> | null {
  const match = MARKER.exec(name);
  if (!match) return null;
  return { storeId: Number(match[1]), bytes: Number(match[2]), key: match[3] as string, state: (match[4] as ReservationState | undefined) ?? 'reserved' };
}

/** Every reservation marker on the storage. */
export async function listMarkers(storageRoot: string): Promise<Marker[]> {
  const { reservations } = stagingDirs(storageRoot);
  let names: string[];
  try {
    names = await readdir(reservations);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.flatMap((name) => {
    const marker = parseMarker(name);
    return marker ? [{ ...marker, file: join(reservations, name) }] : [];
  });
}

const errno = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(value >= 100 ? 0 : value >= 10 ? 1 : 2)} ${units[unit]}`;
}

export const WRITES_BLOCKED_MESSAGE = `账户欠费已满${FILE_STORAGE_BLOCK_DAYS}天，该地区的文件存储已禁止写入（仍可查看、下载和删除文件），充值后恢复`;

export class Reservations {
  constructor(private readonly deps: AppDeps) {}

  private get dirs(): StagingDirs {
    return stagingDirs(this.deps.config.storageRoot);
  }

  /**
   * Reserves `bytes` of the store's quota for an upload (its marker first, then one conditional
   * UPDATE); refused with 413 (quota), 403 (writes blocked) or 404 (store deleted), nothing reserved.
   */
  async reserve(storeId: number, bytes: number, key: string): Promise<Reservation> {
    const reservation: Reservation = { storeId, bytes, key };
    await mkdir(this.dirs.reservations, { recursive: true });
    const marker = join(this.dirs.reservations, markerName(reservation));
    await writeFile(marker, '', { flag: 'wx' });
    try {
      const reserved = rowsOf<{ id: number }>(
        await this.deps.database.db.execute(sql`
          update file_storages set used_bytes = used_bytes + ${bytes}
          where id = ${storeId} and deleted_at is null and writes_blocked_at is null
            and used_bytes + ${bytes} <= quota_gb::bigint * ${FILE_STORAGE_GB_BYTES}
          returning id`),
      );
      if (reserved.length === 0) throw await this.refusal(storeId, bytes);
      return reservation;
    } catch (error) {
      await unlink(marker).catch(() => undefined);
      throw error;
    }
  }

  private async refusal(storeId: number, bytes: number): Promise<AppError> {
    const [store] = rowsOf<{ used: string | number; quota: number; blocked: boolean; deleted: boolean }>(
      await this.deps.database.db.execute(sql`
        select used_bytes as used, quota_gb as quota, writes_blocked_at is not null as blocked, deleted_at is not null as deleted
        from file_storages where id = ${storeId}`),
    );
    if (!store || store.deleted) return new AppError('NOT_FOUND', '该地区的文件存储已删除');
    if (store.blocked) return new AppError('FORBIDDEN', WRITES_BLOCKED_MESSAGE);
    const used = Number(store.used);
    const quota = store.quota * FILE_STORAGE_GB_BYTES;
    const left = Math.max(0, quota - used);
    return new AppError(
      'PAYLOAD_TOO_LARGE',
      `文件存储空间不足：本次上传 ${formatBytes(bytes)}，已用 ${formatBytes(used)}（含正在上传的文件），配额 ${store.quota} GB，剩余 ${formatBytes(left)}。请删除不需要的文件或调高配额`,
    );
  }

  /** Moves the marker to another state; false when it is gone (the clean-up removed a stale one). */
  private async claim(reservation: Reservation, from: ReservationState, to: ReservationState): Promise<boolean> {
    try {
      await rename(join(this.dirs.reservations, markerName(reservation, from)), join(this.dirs.reservations, markerName(reservation, to)));
      return true;
    } catch (error) {
      if (errno(error) === 'ENOENT') return false;
      throw error;
    }
  }

  /** Before the upload's file moves into the store: false when the reservation was dropped (stale), and the upload must not land. */
  async startLanding(reservation: Reservation): Promise<boolean> {
    return this.claim(reservation, 'reserved', 'landing');
  }

  /**
   * After the file is in the store: its bytes are now counted by measurements, so the marker goes; what
   * the upload replaced is taken off, unless a measurement ran since `measuredToken` (it saw the store
   * after or before the replacement; either way its figure stands until the next one).
   */
  async landed(reservation: Reservation, replacedBytes: number, measuredToken: string): Promise<void> {
    if (replacedBytes > 0) await this.giveBack(reservation.storeId, replacedBytes, measuredToken);
    await unlink(join(this.dirs.reservations, markerName(reservation, 'landing'))).catch(() => undefined);
  }

  /** Gives an upload's reservation back (it failed, was refused or was terminated): counted once even if called twice. */
  async release(reservation: Reservation, state: ReservationState = 'reserved'): Promise<void> {
    if (!(await this.claim(reservation, state, 'releasing'))) return;
    await this.deps.database.db.execute(sql`update file_storages set used_bytes = greatest(0, used_bytes - ${reservation.bytes}) where id = ${reservation.storeId}`);
    await unlink(join(this.dirs.reservations, markerName(reservation, 'releasing'))).catch(() => undefined);
  }

  /** Identifies the last measurement of a store (see `giveBack`). */
  async measuredToken(storeId: number): Promise<string> {
    const [row] = rowsOf<{ token: string | null }>(
      await this.deps.database.db.execute(sql`select (extract(epoch from measured_at) * 1000000)::bigint::text as token from file_storages where id = ${storeId}`),
    );
    return row?.token ?? 'never';
  }

  /**
   * Takes bytes the server removed from the store (a deletion, a replaced file) off its usage, unless a
   * measurement was written since `measuredToken`: that one may already have seen them gone, and
   * taking them off again would count less than the store holds. Skipping can only count more, until
   * the next measurement.
   */
  async giveBack(storeId: number, bytes: number, measuredToken: string): Promise<void> {
    if (bytes <= 0) return;
    await this.deps.database.db.execute(sql`
      update file_storages set used_bytes = greatest(0, used_bytes - ${bytes})
      where id = ${storeId} and coalesce((extract(epoch from measured_at) * 1000000)::bigint::text, 'never') = ${measuredToken}`);
  }
}
