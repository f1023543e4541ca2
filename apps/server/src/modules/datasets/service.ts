import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { and, asc, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { datasetMountPath, maskTelephone, type DatasetStatus, type Page } from '@slg/shared';
import type { AdminDatasetView, DatasetView } from '@slg/shared/views/datasets';
import type { StorageListingView } from '@slg/shared/views/storage';
import type { AppDeps } from '../../deps.js';
import type { Executor } from '../../db/client.js';
import { datasetFavorites, datasets, users } from '../../db/schema/index.js';
import { isUniqueViolation, violatedConstraint } from '../../db/errors.js';
import { ownedBy, ownershipFor } from '../../db/scope.js';
import { AppError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import type { Principal } from '../../core/principal.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import { NotificationService } from '../notifications/service.js';
import { FileStorageService, listingOf, type ListingPage } from '../storage/service.js';
import { parseStorePath, splitEntryPath } from '../storage/paths.js';
import { removeDirectory, StoreTree } from '../storage/tree.js';
import { PUBLIC_DATASETS_DIR, SHARED_SNAPSHOTS_DIR } from './keys.js';
import { listed, visibleTo } from './visibility.js';
import { measureFolder, snapshotFolder } from './snapshot.js';

export type DatasetRow = typeof datasets.$inferSelect;

export interface DatasetInput {
  name: string;
  description: string;
  zoneId: string;
  path: string;
  tags?: string[] | undefined;
  license?: string | undefined;
}

export type DatasetEdit = Partial<DatasetInput>;

const NOT_FOUND = '数据集不存在';
const OWNER_NAME_INDEX = 'datasets_owner_name_key';
const PUBLIC_NAME_INDEX = 'datasets_public_name_key';

const owners = alias(users, 'dataset_owner');

/**
 * 数据集 (docs/api-datasets.md): public datasets the operator curates, and folders users share from
 * their 文件存储 as snapshots, visible to others once the operator approves them.
 */
export class DatasetService {
  private readonly storage: FileStorageService;
  private readonly notifications: NotificationService;

  constructor(private readonly deps: AppDeps) {
    this.storage = new FileStorageService(deps);
    this.notifications = new NotificationService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  /** The columns of a view: the row, its owner's name and the favourite figures, in the same query. */
  private viewColumns(viewer: Principal | null) {
    return {
      row: datasets,
      ownerNickName: owners.nickName,
      ownerTelephone: owners.telephone,
      favoriteCount: sql<number>`(select count(*) from ${datasetFavorites} where ${datasetFavorites.datasetId} = ${datasets.id})`.mapWith(Number),
      favorited: viewer
        ? sql<boolean>`exists (select 1 from ${datasetFavorites} where ${datasetFavorites.datasetId} = ${datasets.id} and ${datasetFavorites.userId} = ${viewer.userId})`.mapWith(Boolean)
        : sql<boolean>`false`.mapWith(Boolean),
    };
  }

  private selectViews(viewer: Principal | null) {
    return this.db.select(this.viewColumns(viewer)).from(datasets).leftJoin(owners, eq(owners.id, datasets.ownerId));
  }

  private viewOf(
    viewer: Principal | null,
    item: { row: DatasetRow; ownerNickName: string | null; ownerTelephone: string | null; favoriteCount: number; favorited: boolean },
  ): DatasetView {
    const { row } = item;
    const mine = viewer !== null && row.ownerId === viewer.ownerId;
    return {
      id: row.id,
      kind: row.kind,
      name: row.name,
      description: row.description,
      tags: row.tags,
      license: row.license,
      sizeBytes: row.sizeBytes,
      fileCount: row.fileCount,
      mountPath: datasetMountPath(row.name),
      status: row.status,
      rejectReason: mine ? row.rejectReason : null,
      ownerName: row.kind === 'PUBLIC' ? null : item.ownerNickName || (item.ownerTelephone ? maskTelephone(item.ownerTelephone) : null),
      mine,
      favorited: item.favorited,
      favoriteCount: item.favoriteCount,
      zoneId: mine ? row.zoneId : null,
      sourcePath: mine ? row.sourcePath : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      reviewedAt: row.reviewedAt?.toISOString() ?? null,
    };
  }

  private async page(viewer: Principal | null, query: PageQuery, where: SQL, order: SQL[]): Promise<Page<DatasetView>> {
    return paged(
      query,
      (limit, offset) =>
        this.selectViews(viewer)
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset),
      () => this.db.$count(datasets, where),
      (rows) => rows.map((item) => this.viewOf(viewer, item)),
    );
  }

  private static nameMatches(name: string | undefined): SQL | undefined {
    if (!name) return undefined;
    const pattern = `%${name.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    return or(ilike(datasets.name, pattern), ilike(datasets.description, pattern));
  }

  async listPublic(viewer: Principal | null, query: PageQuery & { name?: string | undefined }): Promise<Page<DatasetView>> {
    const where = and(eq(datasets.kind, 'PUBLIC'), eq(datasets.status, 'PASS'), isNull(datasets.deletedAt), DatasetService.nameMatches(query.name)) as SQL;
    return this.page(viewer, query, where, [asc(datasets.name)]);
  }

  async listShared(viewer: Principal | null, query: PageQuery & { name?: string | undefined; tag?: string | undefined }): Promise<Page<DatasetView>> {
    const where = and(
      eq(datasets.kind, 'SHARED'),
      eq(datasets.status, 'PASS'),
      isNull(datasets.deletedAt),
      DatasetService.nameMatches(query.name),
      query.tag ? sql`${datasets.tags} @> ${JSON.stringify([query.tag])}::jsonb` : undefined,
    ) as SQL;
    return this.page(viewer, query, where, [desc(datasets.id)]);
  }

  async listMine(principal: Principal, query: PageQuery & { status?: DatasetStatus | undefined }): Promise<Page<DatasetView>> {
    const where = and(
      eq(datasets.kind, 'SHARED'),
      ownedBy(principal, 'FILE_STORAGE', datasets),
      isNull(datasets.deletedAt),
      query.status ? eq(datasets.status, query.status) : undefined,
    ) as SQL;
    return this.page(principal, query, where, [desc(datasets.id)]);
  }

  async listFavorites(principal: Principal, query: PageQuery): Promise<Page<DatasetView>> {
    const where = and(eq(datasetFavorites.userId, principal.userId), isNull(datasets.deletedAt), listed()) as SQL;
    return paged(
      query,
      (limit, offset) =>
        this.db
          .select(this.viewColumns(principal))
          .from(datasetFavorites)
          .innerJoin(datasets, eq(datasets.id, datasetFavorites.datasetId))
          .leftJoin(owners, eq(owners.id, datasets.ownerId))
          .where(where)
          .orderBy(desc(datasetFavorites.createdAt), desc(datasets.id))
          .limit(limit)
          .offset(offset),
      async () => {
        const [row] = await this.db
          .select({ total: sql<number>`count(*)`.mapWith(Number) })
          .from(datasetFavorites)
          .innerJoin(datasets, eq(datasets.id, datasetFavorites.datasetId))
          .where(where);
        return row?.total ?? 0;
      },
      (rows) => rows.map((item) => this.viewOf(principal, item)),
    );
  }

  /** One dataset the viewer may see; 404 for the rest (a rejected one of another account does not exist for them). */
  async get(viewer: Principal | null, id: number): Promise<DatasetView> {
    const [item] = await this.selectViews(viewer)
      .where(and(eq(datasets.id, id), isNull(datasets.deletedAt), visibleTo(viewer)))
      .limit(1);
    if (!item) throw new AppError('NOT_FOUND', NOT_FOUND);
    return this.viewOf(viewer, item);
  }

  private async visibleRow(viewer: Pick<Principal, 'ownerId'> | null, id: number): Promise<DatasetRow> {
    const [row] = await this.db
      .select()
      .from(datasets)
      .where(and(eq(datasets.id, id), isNull(datasets.deletedAt), visibleTo(viewer)));
    if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
    return row;
  }

  private async snapshotTree(row: DatasetRow): Promise<StoreTree> {
    return StoreTree.open(join(this.deps.config.storageRoot, row.snapshot));
  }

  async listFiles(viewer: Principal | null, id: number, path: string, paging?: ListingPage): Promise<StorageListingView> {
    const row = await this.visibleRow(viewer, id);
    return listingOf(await this.snapshotTree(row), path, paging);
  }

  async openDownload(viewer: Pick<Principal, 'ownerId'> | null, id: number, path: string) {
    const row = await this.visibleRow(viewer, id);
    const { parent, name } = splitEntryPath(path, 'existing', '请指定要下载的文件');
    return { ...(await (await this.snapshotTree(row)).openFile([...parent, name])), name };
  }

  // ── Sharing ───────────────────────────────────────────────────────────────

  /**
   * Copies the folder `path` of the caller's store in `zoneId` to a new snapshot; returns its key. The
   * caller removes it when what it was made for fails.
   */
  private async takeSnapshot(principal: Principal, zoneId: string, path: string): Promise<{ snapshot: string; bytes: number; files: number; sourcePath: string }> {
    const segments = parseStorePath(path, 'existing');
    const store = await this.storage.storeOf(principal, zoneId);
    const tree = await this.storage.tree(store);
    const snapshot = `${SHARED_SNAPSHOTS_DIR}/${randomUUID()}`;
    const destination = join(this.deps.config.storageRoot, snapshot);
    try {
      const size = await snapshotFolder(tree, segments, destination);
      return { snapshot, ...size, sourcePath: `/${segments.join('/')}` };
    } catch (error) {
      await removeDirectory(destination);
      if (error instanceof AppError && error.codeName === 'STATE_CONFLICT' && error.message === '该路径是文件，不是文件夹') throw new AppError('STATE_CONFLICT', '只能共享文件夹：该路径是文件');
      throw error;
    }
  }

  private async nameTaken(ownerId: number, name: string, exceptId?: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: datasets.id })
      .from(datasets)
      .where(and(eq(datasets.kind, 'SHARED'), eq(datasets.ownerId, ownerId), eq(datasets.name, name), isNull(datasets.deletedAt)))
      .limit(1);
    return row !== undefined && row.id !== exceptId;
  }

  /** Shares a folder: snapshot first, then the row (the unique index decides a name raced for); → its id, IN_REVIEW. */
  async share(principal: Principal, input: DatasetInput): Promise<{ id: number }> {
    const owner = ownershipFor(principal, 'FILE_STORAGE');
    // A name already taken is refused before a possibly long copy; the index still decides races.
    if (await this.nameTaken(owner.ownerId, input.name)) throw new AppError('NAME_EXISTS');
    const taken = await this.takeSnapshot(principal, input.zoneId, input.path);
    const now = this.deps.now();
    try {
      const [row] = await this.db
        .insert(datasets)
        .values({
          kind: 'SHARED',
          ...owner,
          name: input.name,
          description: input.description,
          tags: input.tags ?? [],
          license: input.license ?? null,
          zoneId: input.zoneId,
          sourcePath: taken.sourcePath,
          snapshot: taken.snapshot,
          sizeBytes: taken.bytes,
          fileCount: taken.files,
          status: 'IN_REVIEW',
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: datasets.id });
      if (!row) throw new Error('dataset insert returned nothing');
      return { id: row.id };
    } catch (error) {
      await removeDirectory(join(this.deps.config.storageRoot, taken.snapshot));
      if (isUniqueViolation(error) && violatedConstraint(error) === OWNER_NAME_INDEX) throw new AppError('NAME_EXISTS');
      throw error;
    }
  }

  private async ownRow(principal: Principal, id: number): Promise<DatasetRow> {
    const [row] = await this.db
      .select()
      .from(datasets)
      .where(and(eq(datasets.id, id), eq(datasets.kind, 'SHARED'), ownedBy(principal, 'FILE_STORAGE', datasets), isNull(datasets.deletedAt)));
    if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
    return row;
  }

  /**
   * Edits a shared dataset; it goes back to review (hidden from others until approved again). A new
   * `path` (or `zoneId`) takes a new snapshot; the old one stays for machines that have it and is
   * removed by the cleanup once none does.
   */
  async update(principal: Principal, id: number, edit: DatasetEdit): Promise<DatasetView> {
    const row = await this.ownRow(principal, id);
    if (edit.name !== undefined && edit.name !== row.name && (await this.nameTaken(row.ownerId ?? 0, edit.name, row.id))) throw new AppError('NAME_EXISTS');
    const resnapshot = edit.path !== undefined || (edit.zoneId !== undefined && edit.zoneId !== row.zoneId);
    const taken = resnapshot ? await this.takeSnapshot(principal, edit.zoneId ?? row.zoneId ?? '', edit.path ?? row.sourcePath ?? '/') : null;
    try {
      const [updated] = await this.db
        .update(datasets)
        .set({
          ...(edit.name !== undefined ? { name: edit.name } : {}),
          ...(edit.description !== undefined ? { description: edit.description } : {}),
          ...(edit.tags !== undefined ? { tags: edit.tags } : {}),
          ...(edit.license !== undefined ? { license: edit.license } : {}),
          ...(taken ? { zoneId: edit.zoneId ?? row.zoneId, sourcePath: taken.sourcePath, snapshot: taken.snapshot, sizeBytes: taken.bytes, fileCount: taken.files } : {}),
          status: 'IN_REVIEW',
          rejectReason: null,
          reviewerId: null,
          reviewedAt: null,
          updatedAt: this.deps.now(),
        })
        .where(and(eq(datasets.id, row.id), isNull(datasets.deletedAt)))
        .returning({ id: datasets.id });
      if (!updated) throw new AppError('NOT_FOUND', NOT_FOUND);
    } catch (error) {
      if (taken) await removeDirectory(join(this.deps.config.storageRoot, taken.snapshot));
      if (isUniqueViolation(error) && violatedConstraint(error) === OWNER_NAME_INDEX) throw new AppError('NAME_EXISTS');
      throw error;
    }
    return this.get(principal, row.id);
  }

  /** Deletes a shared dataset: gone from every list and favourite at once; its snapshot goes once no machine has it. */
  async remove(principal: Principal, id: number): Promise<void> {
    const row = await this.ownRow(principal, id);
    await this.db.transaction(async (tx) => {
      await tx.update(datasets).set({ deletedAt: this.deps.now(), updatedAt: this.deps.now() }).where(and(eq(datasets.id, row.id), isNull(datasets.deletedAt)));
      await tx.delete(datasetFavorites).where(eq(datasetFavorites.datasetId, row.id));
    });
  }

  // ── Favourites ────────────────────────────────────────────────────────────

  /** Favourites a listed dataset (idempotent: the primary key). */
  async favorite(principal: Principal, id: number): Promise<DatasetView> {
    const [row] = await this.db.select({ id: datasets.id }).from(datasets).where(and(eq(datasets.id, id), isNull(datasets.deletedAt), listed()));
    if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
    await this.db.insert(datasetFavorites).values({ userId: principal.userId, datasetId: id, createdAt: this.deps.now() }).onConflictDoNothing();
    return this.get(principal, id);
  }

  async unfavorite(principal: Principal, id: number): Promise<DatasetView> {
    await this.db.delete(datasetFavorites).where(and(eq(datasetFavorites.userId, principal.userId), eq(datasetFavorites.datasetId, id)));
    return this.get(principal, id);
  }

  // ── Operator ──────────────────────────────────────────────────────────────

  async reviewQueue(query: PageQuery & { status: DatasetStatus }): Promise<Page<AdminDatasetView>> {
    const where = and(eq(datasets.kind, 'SHARED'), eq(datasets.status, query.status), isNull(datasets.deletedAt)) as SQL;
    return paged(
      query,
      (limit, offset) =>
        this.selectViews(null)
          .where(where)
          .orderBy(asc(datasets.updatedAt), asc(datasets.id))
          .limit(limit)
          .offset(offset),
      () => this.db.$count(datasets, where),
      (rows) =>
        rows.map((item) => ({
          ...this.viewOf(null, item),
          rejectReason: item.row.rejectReason,
          zoneId: item.row.zoneId,
          sourcePath: item.row.sourcePath,
          ownerId: item.row.ownerId,
          ownerTelephone: item.ownerTelephone,
        })),
    );
  }

  /**
   * Decides a dataset under review: one conditional UPDATE (a second decision, or one racing an edit
   * that re-opened the review, finds nothing and is refused), the audit row and the owner's notice in
   * the same transaction.
   */
  async review(executor: Executor, actorId: number, id: number, decision: { pass: true } | { pass: false; reason: string }): Promise<AdminDatasetView> {
    const now = this.deps.now();
    await executor.transaction(async (tx) => {
      const [row] = await tx
        .update(datasets)
        .set({ status: decision.pass ? 'PASS' : 'REJECTED', rejectReason: decision.pass ? null : decision.reason, reviewerId: actorId, reviewedAt: now, updatedAt: now })
        .where(and(eq(datasets.id, id), eq(datasets.kind, 'SHARED'), eq(datasets.status, 'IN_REVIEW'), isNull(datasets.deletedAt)))
        .returning();
      if (!row) {
        const [current] = await tx.select({ status: datasets.status }).from(datasets).where(and(eq(datasets.id, id), eq(datasets.kind, 'SHARED'), isNull(datasets.deletedAt)));
        if (!current) throw new AppError('NOT_FOUND', NOT_FOUND);
        throw new AppError('STATE_CONFLICT', `该数据集不在审核中（当前：${current.status === 'PASS' ? '已通过' : '未通过'}）`);
      }
      await recordAudit(tx, { actorId, action: decision.pass ? 'dataset.approve' : 'dataset.reject', targetType: 'dataset', targetId: id, detail: decision.pass ? {} : { reason: decision.reason } }, now);
      if (row.ownerId !== null) {
        await this.notifications.record(tx, [
          {
            ownerId: row.ownerId,
            creatorId: row.creatorId ?? row.ownerId,
            recipientId: row.ownerId,
            kind: 'DATASET_REVIEWED',
            title: decision.pass ? `数据集「${row.name}」已通过审核` : `数据集「${row.name}」未通过审核`,
            body: decision.pass ? '其他用户现在可以在共享数据中找到、收藏并在实例中挂载它。' : `原因：${decision.reason}。修改后会重新提交审核。`,
            instanceRowId: null,
            dedupeKey: `dataset-review:${id}:${now.getTime()}`,
          },
        ]);
      }
    });
    const [item] = await this.selectViews(null).where(eq(datasets.id, id));
    if (!item) throw new AppError('NOT_FOUND', NOT_FOUND);
    return { ...this.viewOf(null, item), rejectReason: item.row.rejectReason, zoneId: item.row.zoneId, sourcePath: item.row.sourcePath, ownerId: item.row.ownerId, ownerTelephone: item.ownerTelephone };
  }

  /** Publishes the folder `${STORAGE_ROOT}/.public/<name>` the operator put there as a public dataset. */
  async publish(executor: Executor, actorId: number, input: { name: string; description: string; tags?: string[] | undefined; license?: string | undefined }): Promise<DatasetView> {
    const snapshot = `${PUBLIC_DATASETS_DIR}/${input.name}`;
    const size = await measureFolder(join(this.deps.config.storageRoot, snapshot)).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') {
        throw new AppError('VALIDATION', `请先把数据集的文件放到存储后端的 ${snapshot} 文件夹中`);
      }
      throw error;
    });
    const now = this.deps.now();
    let id = 0;
    try {
      await executor.transaction(async (tx) => {
        const [row] = await tx
          .insert(datasets)
          .values({ kind: 'PUBLIC', name: input.name, description: input.description, tags: input.tags ?? [], license: input.license ?? null, snapshot, sizeBytes: size.bytes, fileCount: size.files, status: 'PASS', reviewerId: actorId, reviewedAt: now, createdAt: now, updatedAt: now })
          .returning({ id: datasets.id });
        id = row?.id ?? 0;
        await recordAudit(tx, { actorId, action: 'dataset.publish', targetType: 'dataset', targetId: id, detail: { name: input.name } }, now);
      });
    } catch (error) {
      if (isUniqueViolation(error) && violatedConstraint(error) === PUBLIC_NAME_INDEX) throw new AppError('NAME_EXISTS');
      throw error;
    }
    return this.get(null, id);
  }

  async withdraw(executor: Executor, actorId: number, id: number): Promise<void> {
    const now = this.deps.now();
    await executor.transaction(async (tx) => {
      const [row] = await tx
        .update(datasets)
        .set({ deletedAt: now, updatedAt: now })
        .where(and(eq(datasets.id, id), eq(datasets.kind, 'PUBLIC'), isNull(datasets.deletedAt)))
        .returning({ id: datasets.id });
      if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
      await tx.delete(datasetFavorites).where(eq(datasetFavorites.datasetId, id));
      await recordAudit(tx, { actorId, action: 'dataset.withdraw', targetType: 'dataset', targetId: id }, now);
    });
  }
}

/** A dataset's file for a download link made for the main account `viewerOwnerId` (null: a visitor): visible to it still, or 404. */
export async function linkedDatasetDownload(deps: AppDeps, datasetId: number, viewerOwnerId: number | null, path: string) {
  return new DatasetService(deps).openDownload(viewerOwnerId === null ? null : { ownerId: viewerOwnerId }, datasetId, path);
}
