import { randomUUID } from 'node:crypto';
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { createWriteStream, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { FILE_STORAGE_DEFAULT_QUOTA_GB, FILE_STORAGE_FREE_GB, FILE_STORAGE_GB_BYTES, FILE_STORAGE_MOUNT } from '@slg/shared';
import type { FileStorageView, StorageEntryView, StorageListingView } from '@slg/shared/views/storage';
import type { AppDeps } from '../../deps.js';
import { fileStorages, zones } from '../../db/schema/index.js';
import { isUniqueViolation } from '../../db/errors.js';
import { ownedBy, ownershipFor } from '../../db/scope.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { OrderService } from '../billing/orders.js';
import { fileStorageKey } from './keys.js';
import { openStorageOrder } from './order.js';
import { nameProblem, parseStorePath, splitEntryPath, STORE_PATH_MAX_BYTES } from './paths.js';
import { formatBytes, Reservations, stagingDirs, WRITES_BLOCKED_MESSAGE, type Reservation, type ReservationState } from './quota.js';
import { StoreTree, type TreeEntry } from './tree.js';

export type FileStorageRow = typeof fileStorages.$inferSelect;
type ZoneRow = { id: string; name: string; priceFenPerGbDay: number };

/** The largest single upload: the largest quota. */
export const MAX_UPLOAD_BYTES = 2048 * FILE_STORAGE_GB_BYTES;

const NOT_INITIALIZED = '该地区的文件存储尚未初始化，请先初始化';

/** Where an upload goes: the store, the folder (created when missing) and the file name. */
export interface UploadTarget {
  store: FileStorageRow;
  parent: string[];
  name: string;
}

/**
 * 文件存储 (docs/api-storage.md): one store per main account and region; sub-accounts with
 * FILE_STORAGE = ALL work on their main account's store (the scoping helper `ownedBy`).
 */
export class FileStorageService {
  readonly reservations: Reservations;
  private readonly orders: OrderService;

  constructor(private readonly deps: AppDeps) {
    this.reservations = new Reservations(deps);
    this.orders = new OrderService(deps.now);
  }

  private get db() {
    return this.deps.database.db;
  }

  directoryOf(store: Pick<FileStorageRow, 'ownerId' | 'zoneId'>): string {
    return join(this.deps.config.storageRoot, fileStorageKey(store.ownerId, store.zoneId));
  }

  private async zone(zoneId: string): Promise<ZoneRow> {
    const [zone] = await this.db
      .select({ id: zones.id, name: zones.name, priceFenPerGbDay: zones.storagePriceFenPerGbDay })
      .from(zones)
      .where(and(eq(zones.id, zoneId), eq(zones.enabled, true)));
    if (!zone) throw new AppError('NOT_FOUND', '地区不存在或未开放');
    return zone;
  }

  private async find(principal: Principal, zoneId: string): Promise<FileStorageRow | undefined> {
    const [store] = await this.db
      .select()
      .from(fileStorages)
      .where(and(ownedBy(principal, 'FILE_STORAGE', fileStorages), eq(fileStorages.zoneId, zoneId), isNull(fileStorages.deletedAt)));
    return store;
  }

  /** The caller's (main account's) live store in the region: 404 when the region or the store does not exist. */
  async storeOf(principal: Principal, zoneId: string): Promise<FileStorageRow> {
    const store = await this.find(principal, zoneId);
    if (store) return store;
    await this.zone(zoneId);
    throw new AppError('NOT_FOUND', NOT_INITIALIZED);
  }

  /** As `storeOf`, refusing a store whose writes are blocked (arrears). */
  async writableStore(principal: Principal, zoneId: string): Promise<FileStorageRow> {
    const store = await this.storeOf(principal, zoneId);
    if (store.writesBlockedAt) throw new AppError('FORBIDDEN', WRITES_BLOCKED_MESSAGE);
    return store;
  }

  async tree(store: FileStorageRow): Promise<StoreTree> {
    return StoreTree.open(this.directoryOf(store));
  }

  private viewOf(zone: ZoneRow, store: FileStorageRow | undefined): FileStorageView {
    return {
      zoneId: zone.id,
      initialized: store !== undefined,
      usedBytes: store?.usedBytes ?? 0,
      quotaBytes: store ? store.quotaGb * FILE_STORAGE_GB_BYTES : 0,
      freeBytes: FILE_STORAGE_FREE_GB * FILE_STORAGE_GB_BYTES,
      priceFenPerGbDay: zone.priceFenPerGbDay,
      mountPath: FILE_STORAGE_MOUNT,
      writesBlocked: store?.writesBlockedAt != null,
    };
  }

  async view(principal: Principal, zoneId: string): Promise<FileStorageView> {
    const zone = await this.zone(zoneId);
    return this.viewOf(zone, await this.find(principal, zoneId));
  }

  /** Every enabled region, initialised or not (the console's region switcher). */
  async list(principal: Principal): Promise<FileStorageView[]> {
    const scope = ownedBy(principal, 'FILE_STORAGE', fileStorages);
    const rows = await this.db
      .select({ zone: { id: zones.id, name: zones.name, priceFenPerGbDay: zones.storagePriceFenPerGbDay }, store: fileStorages })
      .from(zones)
      .leftJoin(fileStorages, and(eq(fileStorages.zoneId, zones.id), isNull(fileStorages.deletedAt), scope))
      .where(eq(zones.enabled, true))
      .orderBy(asc(zones.sortOrder), asc(zones.id));
    return rows.map((row) => this.viewOf(row.zone, row.store ?? undefined));
  }

  /**
   * Initialises the region's store: a free NEW_STORAGE usage order (charges for what passes the free
   * tier accrue on it), the row, the directory — together, or not at all. Idempotent: a store that
   * exists (also one a parallel call just made; the unique index decides) is returned as it is.
   */
  async init(principal: Principal, zoneId: string): Promise<FileStorageView> {
    const zone = await this.zone(zoneId);
    const existing = await this.find(principal, zoneId);
    if (existing) return this.viewOf(zone, existing);
    const owner = ownershipFor(principal, 'FILE_STORAGE');
    const now = this.deps.now();
    try {
      await this.db.transaction(async (tx) => {
        const order = await openStorageOrder(this.orders, tx, { ...owner, zoneId }, zone, `文件存储（${zone.name}）初始化：免费 ${FILE_STORAGE_FREE_GB} GB，超出部分按量计费`);
        await tx.insert(fileStorages).values({
          ...owner,
          zoneId,
          quotaGb: FILE_STORAGE_DEFAULT_QUOTA_GB,
          billedUntil: now,
          orderId: order.id,
          measuredAt: now,
          createdAt: now,
          updatedAt: now,
        });
        // Inside the transaction: a store whose directory cannot be made is not made.
        await mkdir(join(this.deps.config.storageRoot, fileStorageKey(owner.ownerId, zoneId)), { recursive: true });
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const store = await this.find(principal, zoneId);
    if (!store) throw new Error(`file storage of ${owner.ownerId} in ${zoneId} missing after init`);
    return this.viewOf(zone, store);
  }

  /** Sets the quota (1–2048 GB); refused below what the store holds (uploads in flight included). */
  async setQuota(principal: Principal, zoneId: string, quotaGb: number): Promise<FileStorageView> {
    const store = await this.storeOf(principal, zoneId);
    const [updated] = await this.db
      .update(fileStorages)
      .set({ quotaGb, updatedAt: this.deps.now() })
      .where(and(eq(fileStorages.id, store.id), isNull(fileStorages.deletedAt), sql`${fileStorages.usedBytes} <= ${quotaGb}::bigint * ${FILE_STORAGE_GB_BYTES}`))
      .returning();
    if (!updated) {
      const [current] = await this.db.select({ used: fileStorages.usedBytes }).from(fileStorages).where(eq(fileStorages.id, store.id));
      const used = current?.used ?? store.usedBytes;
      throw new AppError('VALIDATION', `配额不能低于已用容量：已用 ${formatBytes(used)}，配额至少为 ${Math.max(1, Math.ceil(used / FILE_STORAGE_GB_BYTES))} GB`);
    }
    return this.viewOf(await this.zone(zoneId), updated);
  }

  async listFiles(principal: Principal, zoneId: string, path: string, paging?: ListingPage): Promise<StorageListingView> {
    const store = await this.storeOf(principal, zoneId);
    return listingOf(await this.tree(store), path, paging);
  }

  async makeDir(principal: Principal, zoneId: string, path: string): Promise<StorageEntryView> {
    const { parent, name } = splitEntryPath(path, 'create', '请输入文件夹名称');
    const store = await this.writableStore(principal, zoneId);
    return (await this.tree(store)).makeDir(parent, name);
  }

  async rename(principal: Principal, zoneId: string, from: string, to: string): Promise<void> {
    const source = splitEntryPath(from, 'existing', '不能重命名存储根目录');
    const target = splitEntryPath(to, 'create', '请输入新的名称');
    const store = await this.writableStore(principal, zoneId);
    await (await this.tree(store)).rename(source, target);
  }

  /**
   * Deletes a file or a folder with everything in it (also while writes are blocked: deleting is how
   * a store in arrears gets smaller). The bytes removed come off the usage at once.
   */
  async remove(principal: Principal, zoneId: string, path: string): Promise<void> {
    const { parent, name } = splitEntryPath(path, 'existing', '不能删除存储根目录');
    const store = await this.storeOf(principal, zoneId);
    const tree = await this.tree(store);
    const token = await this.reservations.measuredToken(store.id);
    const progress = { bytes: 0 };
    try {
      await tree.remove(parent, name, progress);
    } finally {
      await this.reservations.giveBack(store.id, progress.bytes, token);
    }
  }

  async openDownload(principal: Principal, zoneId: string, path: string): Promise<{ handle: FileHandle; stats: Stats; name: string }> {
    return this.openFileOf(await this.storeOf(principal, zoneId), path);
  }

  /** A file of the main account `ownerId`'s live store in the region (a download link's: who may read it was decided when it was made). */
  async openLinkedDownload(ownerId: number, zoneId: string, path: string): Promise<{ handle: FileHandle; stats: Stats; name: string }> {
    const [store] = await this.db
      .select()
      .from(fileStorages)
      .where(and(eq(fileStorages.ownerId, ownerId), eq(fileStorages.zoneId, zoneId), isNull(fileStorages.deletedAt)));
    if (!store) throw new AppError('NOT_FOUND', '该地区的文件存储已删除');
    return this.openFileOf(store, path);
  }

  private async openFileOf(store: FileStorageRow, path: string): Promise<{ handle: FileHandle; stats: Stats; name: string }> {
    const { parent, name } = splitEntryPath(path, 'existing', '请指定要下载的文件');
    const opened = await (await this.tree(store)).openFile([...parent, name]);
    return { ...opened, name };
  }

  /**
   * Checks an upload before anything is reserved or written: the store takes writes, the folder and
   * the name are valid, and no folder of that name is in the way (an existing file is replaced).
   */
  async uploadTarget(principal: Principal, zoneId: string, folder: string, fileName: string): Promise<UploadTarget> {
    const parent = parseStorePath(folder, 'create');
    const problem = fileName === '' ? '请提供文件名' : fileName.includes('/') ? '文件名不能包含 /' : nameProblem(fileName, 'create');
    if (problem) throw new AppError('VALIDATION', problem);
    if (Buffer.byteLength(`${folder}/${fileName}`, 'utf8') > STORE_PATH_MAX_BYTES) throw new AppError('VALIDATION', `路径过长：最多${STORE_PATH_MAX_BYTES}字节`);
    const store = await this.writableStore(principal, zoneId);
    const tree = await this.tree(store);
    let dir;
    try {
      dir = await tree.openDir(parent);
    } catch (error) {
      // A folder that does not exist yet is made when the file lands.
      if (error instanceof AppError && error.codeName === 'NOT_FOUND') return { store, parent, name: fileName };
      throw error;
    }
    try {
      const existing = await tree.entryStat(dir, fileName);
      if (existing?.isDirectory()) throw new AppError('NAME_EXISTS', `已存在同名文件夹「${fileName}」，请换一个文件名`);
    } finally {
      await dir.close();
    }
    return { store, parent, name: fileName };
  }

  /**
   * Moves a complete upload into the store. Its reservation becomes usage (what it replaces comes
   * off); if it cannot land, the reservation is given back and the caller removes the file.
   */
  async land(reservation: Reservation, file: string, target: Omit<UploadTarget, 'store'>): Promise<TreeEntry> {
    if (!(await this.reservations.startLanding(reservation))) throw new AppError('STATE_CONFLICT', '上传等待时间过长已失效，请重新上传');
    let moved = false;
    try {
      const [store] = await this.db.select().from(fileStorages).where(and(eq(fileStorages.id, reservation.storeId), isNull(fileStorages.deletedAt)));
      if (!store) throw new AppError('NOT_FOUND', '该地区的文件存储已删除');
      const token = await this.reservations.measuredToken(store.id);
      const landed = await (await this.tree(store)).land(file, target.parent, target.name);
      moved = true;
      await this.reservations.landed(reservation, landed.replacedBytes, token);
      return { name: target.name, type: 'file', size: reservation.bytes, modifiedAt: landed.modifiedAt.toISOString() };
    } catch (error) {
      if (!moved) await this.reservations.release(reservation, 'landing' satisfies ReservationState);
      throw error;
    }
  }

  /**
   * PUT /storage/file: `length` bytes of `body` to `path`. Reserved first (413 before any byte is
   * written when the quota would be passed), written to a staging file outside the store, synced, then
   * renamed into place: the path holds the old file or the whole new one, never half of either.
   */
  async upload(principal: Principal, zoneId: string, path: string, length: number, body: Readable): Promise<StorageEntryView> {
    const { parent, name } = splitEntryPath(path, 'create', '请在路径中给出文件名，如 /data/a.txt');
    const target = await this.uploadTarget(principal, zoneId, `/${parent.join('/')}`, name);
    const key = `put-${randomUUID()}`;
    const reservation = await this.reservations.reserve(target.store.id, length, key);
    const { incoming } = stagingDirs(this.deps.config.storageRoot);
    const staging = join(incoming, key);
    try {
      await mkdir(incoming, { recursive: true });
      const written = await writeBody(body, staging, length);
      if (written !== length) throw new AppError('VALIDATION', `上传未完成：收到 ${written} 字节，Content-Length 为 ${length} 字节`);
    } catch (error) {
      await this.reservations.release(reservation);
      await rm(staging, { force: true });
      throw error;
    }
    try {
      return await this.land(reservation, staging, target);
    } catch (error) {
      await rm(staging, { force: true });
      throw error;
    }
  }
}

/** A page of a listing (`page` from 1). */
export interface ListingPage {
  page: number;
  pageSize: number;
  /** Only entries whose name contains this (case-insensitive). */
  name?: string | undefined;
}

/** A folder's listing: one page of it (only that page's entries stated), or the whole folder up to MAX_LISTED_ENTRIES. */
export async function listingOf(tree: StoreTree, path: string, paging: ListingPage | undefined): Promise<StorageListingView> {
  const segments = parseStorePath(path, 'existing');
  if (paging) return { ...(await tree.listPage(segments, paging.page, paging.pageSize, paging.name)), page: paging.page, pageSize: paging.pageSize };
  const { items, truncated } = await tree.list(segments);
  return truncated ? { items, truncated } : { items };
}

/** Streams `body` into a new file, refusing more than `length` bytes, and syncs it; returns the bytes written. */
async function writeBody(body: Readable, file: string, length: number): Promise<number> {
  let written = 0;
  try {
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        written += chunk.length;
        if (written > length) callback(new AppError('VALIDATION', '上传的数据超过了 Content-Length'));
        else callback(null, chunk);
      },
    });
    await pipeline(body, counter, createWriteStream(file, { flags: 'wx' }));
    // On disk before it is renamed into place (fsync is of the file, whichever descriptor asks).
    const handle = await open(file, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw new AppError('SERVICE_UNAVAILABLE', '存储后端空间已满，请稍后再试或联系客服');
    if (code && /^E[A-Z]+$/.test(code) && code !== 'ECONNRESET' && code !== 'EPIPE') throw error;
    throw new AppError('VALIDATION', '上传中断，文件未保存，请重新上传');
  }
  return written;
}
