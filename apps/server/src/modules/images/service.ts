import { randomInt, randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { AccountType, imageRunsOnHost, isPrivateImageId, maskTelephone, PRIVATE_IMAGE_QUOTA_GB, type Page, type PrivateImageStatus } from '@slg/shared';
import type { PrivateImageView } from '@slg/shared/views/images';
import type { AppDeps } from '../../deps.js';
import type { Executor, Transaction } from '../../db/client.js';
import { hosts, imageShares, instances, privateImages, publicImages, users } from '../../db/schema/index.js';
import { ownedBy, ownershipFor } from '../../db/scope.js';
import { isUniqueViolation, violatedConstraint } from '../../db/errors.js';
import { AppError } from '../../core/errors.js';
import { offsetOf, pageOf, type PageQuery } from '../../http/pagination.js';
import { DriverError } from '../../compute/driver.js';
import type { Principal } from '../../core/principal.js';
import { RentalService } from '../rental/service.js';
import { assertNoRunningCopy } from '../rental/copy-guard.js';
import type { InstanceRow } from '../rental/metering.js';
import type { InstanceView } from '../rental/views.js';
import { sharedWith, usableImage, type UsableImage } from './usable.js';
import { beginOperation } from '../rental/lifecycle.js';

const IMAGE_ID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const NAME_INDEX = 'private_images_owner_name_key';

function newImageId(): string {
  return `img-${Array.from({ length: 12 }, () => IMAGE_ID_ALPHABET[randomInt(IMAGE_ID_ALPHABET.length)]).join('')}`;
}

/** GB as the console shows them: one decimal. */
function roundGb(value: number): number {
  return Math.round(value * 10) / 10;
}

/** The answer's shape: the schema in packages/shared (views/images), which the console reads too. */
export type { PrivateImageView };

type ImageRow = typeof privateImages.$inferSelect;

/**
 * Private images (我的镜像, DESIGN issue 8): saved from a stopped instance's system disk through the
 * reconciler (operation save_image), renamed, deleted, shared with other accounts; and the instance
 * operations that rebuild the system disk from an image (reset, switch_image: operation reset).
 * Images belong to the main account (MIRROR authority); 30 GB of them are free per account.
 */
export class ImageService {
  private readonly rental: RentalService;

  constructor(private readonly deps: AppDeps) {
    this.rental = new RentalService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  // ---- reading ------------------------------------------------------------------------------------

  private mine(principal: Principal): SQL {
    return and(ownedBy(principal, 'MIRROR', privateImages), isNull(privateImages.deletedAt)) as SQL;
  }

  private sharedWithMe(principal: Principal): SQL {
    // What others shared is the account's too: any MIRROR level sees it (403 without one).
    ownershipFor(principal, 'MIRROR');
    return and(isNull(privateImages.deletedAt), sharedWith(principal.ownerId)) as SQL;
  }

  /** My images (newest first), then those shared with me (newest share first), as one paged list. */
  async list(principal: Principal, query: PageQuery): Promise<Page<PrivateImageView>> {
    const mineWhere = this.mine(principal);
    const sharedWhere = this.sharedWithMe(principal);
    const [mineCount, sharedCount] = await Promise.all([this.db.$count(privateImages, mineWhere), this.db.$count(privateImages, sharedWhere)]);
    const offset = offsetOf(query);
    const limit = query.pageSize;
    const mineRows =
      offset < mineCount
        ? await this.db.select().from(privateImages).where(mineWhere).orderBy(desc(privateImages.createdAt), desc(privateImages.id)).limit(limit).offset(offset)
        : [];
    const sharedLimit = limit - mineRows.length;
    const sharedRows =
      sharedLimit > 0
        ? await this.db
            .select({ image: privateImages, ownerPhone: users.telephone })
            .from(imageShares)
            .innerJoin(privateImages, eq(privateImages.id, imageShares.imageRowId))
            .innerJoin(users, eq(users.id, privateImages.ownerId))
            .where(and(eq(imageShares.recipientId, principal.ownerId), isNull(privateImages.deletedAt)))
            .orderBy(desc(imageShares.createdAt), desc(imageShares.id))
            .limit(sharedLimit)
            .offset(Math.max(0, offset - mineCount))
        : [];
    const rows = [...mineRows.map((image) => ({ image, ownerPhone: null as string | null })), ...sharedRows];
    const ids = mineRows.map((image) => image.id);
    const shareCounts = new Map<number, number>();
    if (ids.length > 0) {
      const counted = await this.db
        .select({ imageRowId: imageShares.imageRowId, count: sql<number>`count(*)::int` })
        .from(imageShares)
        .where(inArray(imageShares.imageRowId, ids))
        .groupBy(imageShares.imageRowId);
      for (const row of counted) shareCounts.set(row.imageRowId, row.count);
    }
    const baseIds = [...new Set(rows.map((row) => row.image.baseImageId))];
    const baseNames = new Map<string, string>();
    if (baseIds.length > 0) {
      for (const base of await this.db.select({ id: publicImages.id, name: publicImages.name }).from(publicImages).where(inArray(publicImages.id, baseIds))) {
        baseNames.set(base.id, base.name);
      }
    }
    const list = rows.map(({ image, ownerPhone }) => ({
      ...this.viewOf(image, baseNames.get(image.baseImageId) ?? image.baseImageId, shareCounts.get(image.id) ?? 0),
      ...(ownerPhone !== null ? { sharedFrom: maskTelephone(ownerPhone) } : {}),
    }));
    return pageOf(list, mineCount + sharedCount, query);
  }

  private viewOf(image: ImageRow, baseImageName: string, shareCount: number): PrivateImageView {
    return {
      imageId: image.imageId,
      imageUId: image.uid,
      name: image.name,
      sizeGb: image.status === 'failed' ? 0 : roundGb(image.sizeGb),
      status: image.status as PrivateImageStatus,
      statusReason: image.statusReason,
      cuda: image.cuda,
      baseImageId: image.baseImageId,
      baseImageName,
      shareCount,
      createdAt: image.createdAt.toISOString(),
    };
  }

  /** What the account's images use of the free quota: ready ones by size, saving ones by the size they are saved from. */
  async usage(principal: Principal): Promise<{ usedGb: number; quotaGb: number }> {
    ownershipFor(principal, 'MIRROR');
    return { usedGb: roundGb(await this.usedGb(this.db, principal.ownerId)), quotaGb: PRIVATE_IMAGE_QUOTA_GB };
  }

  private async usedGb(executor: Executor, ownerId: number): Promise<number> {
    const [row] = await executor
      .select({ used: sql<number>`coalesce(sum(${privateImages.sizeGb}), 0)::float8` })
      .from(privateImages)
      .where(and(eq(privateImages.ownerId, ownerId), isNull(privateImages.deletedAt), inArray(privateImages.status, ['ready', 'saving'])));
    return Number(row?.used ?? 0);
  }

  // ---- saving ---------------------------------------------------------------------------------------

  /**
   * Saves a stopped instance's system disk as a private image: the image (status saving) and the
   * instance's save_image operation are written in one transaction; the reconciler asks the driver and
   * marks the image ready with its size (or failed). The quota is checked under a lock on the main
   * account's row, so concurrent saves of one account are decided one after the other; the name is
   * kept unique by the index on (owner, name).
   */
  async save(principal: Principal, input: { instanceId: string; name: string }): Promise<{ imageId: string }> {
    const owner = ownershipFor(principal, 'MIRROR');
    const name = input.name.trim();
    try {
      const imageId = await this.db.transaction(async (tx) => {
        // NO KEY UPDATE: waits for other saves of this account, not for rows that merely reference it.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, owner.ownerId)).for('no key update');
        const instance = await this.rental.lockOwned(tx, principal, input.instanceId, 'save_image');
        const used = await this.usedGb(tx, owner.ownerId);
        if (used >= PRIVATE_IMAGE_QUOTA_GB) {
          throw new AppError(
            'STATE_CONFLICT',
            `私有镜像已使用 ${roundGb(used)} GB，已达免费额度 ${PRIVATE_IMAGE_QUOTA_GB} GB，请先删除不再使用的镜像再保存`,
          );
        }
        const source = await this.sourceImageOf(tx, instance);
        const now = this.deps.now();
        const created = await this.insertImage(tx, {
          uid: randomUUID(),
          ownerId: owner.ownerId,
          creatorId: owner.creatorId,
          name,
          sourceInstanceRowId: instance.id,
          baseImageId: source.baseImageId,
          cuda: source.cuda,
          sizeGb: source.sizeGb,
          status: 'saving',
          createdAt: now,
          updatedAt: now,
        });
        await tx
          .update(instances)
          .set({ ...beginOperation('save_image', now, { arg: created.imageId }), statusReason: null })
          .where(eq(instances.id, instance.id));
        await this.rental.recordEvent(tx, instance.id, 'SAVE_IMAGE', instance.status, instance.status, `保存镜像「${name}」`, principal.userId);
        return created.imageId;
      });
      this.deps.compute.wake();
      return { imageId };
    } catch (error) {
      if (isUniqueViolation(error) && violatedConstraint(error) === NAME_INDEX) throw new AppError('NAME_EXISTS');
      throw error;
    }
  }

  /** The image the instance runs, whatever happened to it since (a deleted private image still says what it was). */
  private async sourceImageOf(tx: Transaction, instance: InstanceRow): Promise<Pick<UsableImage, 'cuda' | 'sizeGb' | 'baseImageId'>> {
    if (isPrivateImageId(instance.imageId)) {
      const [image] = await tx.select().from(privateImages).where(eq(privateImages.imageId, instance.imageId));
      if (image) return { cuda: image.cuda, sizeGb: image.sizeGb, baseImageId: image.baseImageId };
    }
    const [image] = await tx.select().from(publicImages).where(eq(publicImages.id, instance.imageId));
    if (!image) throw new Error(`image ${instance.imageId} of ${instance.instanceId} is unknown`);
    return { cuda: image.cuda, sizeGb: image.sizeGb, baseImageId: image.id };
  }

  /** Inserts with a fresh `img-` id, drawing again on the (rare) collision; a duplicate name is the caller's to answer. */
  private async insertImage(tx: Transaction, values: Omit<typeof privateImages.$inferInsert, 'imageId'>): Promise<ImageRow> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await tx.transaction(async (savepoint) => {
          const [row] = await savepoint
            .insert(privateImages)
            .values({ ...values, imageId: newImageId() })
            .returning();
          if (!row) throw new Error('private image insert returned nothing');
          return row;
        });
      } catch (error) {
        if (!isUniqueViolation(error) || violatedConstraint(error) === NAME_INDEX || attempt >= 4) throw error;
      }
    }
  }

  // ---- reset and switch -----------------------------------------------------------------------------

  /** Rebuilds the system disk from the image the instance runs; the data disk is kept. */
  async reset(principal: Principal, instanceId: string): Promise<InstanceView> {
    await this.db.transaction(async (tx) => {
      const instance = await this.rental.lockOwned(tx, principal, instanceId, 'reset');
      await assertNoRunningCopy(tx, instance.id, 'reset');
      const image = await usableImage(tx, principal, instance.imageId).catch((error: unknown) => {
        if (error instanceof AppError) throw new AppError('STATE_CONFLICT', '实例当前的镜像已删除、已下架或不再分享给您，无法重置系统，请使用「更换镜像」');
        throw error;
      });
      await this.startReset(tx, principal, instance, image, 'RESET_SYSTEM', `重置系统：系统盘将按「${image.name}」重建，数据盘保留`);
    });
    this.deps.compute.wake();
    return this.rental.get(principal, instanceId);
  }

  /**
   * Rebuilds the system disk from another image: a public one, or a private one of the caller or
   * shared with them, whose CUDA the host's driver supports. The data disk is kept.
   */
  async switchImage(principal: Principal, input: { instanceId: string; imageId: string }): Promise<InstanceView> {
    await this.db.transaction(async (tx) => {
      const instance = await this.rental.lockOwned(tx, principal, input.instanceId, 'switch_image');
      await assertNoRunningCopy(tx, instance.id, 'switch_image');
      const image = await usableImage(tx, principal, input.imageId);
      const [host] = await tx.select({ cudaVersion: hosts.cudaVersion }).from(hosts).where(eq(hosts.id, instance.hostId));
      if (host && !imageRunsOnHost(image.cuda, host.cudaVersion)) {
        throw new AppError('VALIDATION', `镜像需要 CUDA ${image.cuda}，实例所在主机驱动最高支持 CUDA ${host.cudaVersion}，请选择 CUDA 版本不高于 ${host.cudaVersion} 的镜像`);
      }
      await this.startReset(tx, principal, instance, image, 'SWITCH_IMAGE', `更换镜像为「${image.name}」：系统盘将重建，数据盘保留`);
    });
    this.deps.compute.wake();
    return this.rental.get(principal, input.instanceId);
  }

  private async startReset(tx: Transaction, principal: Principal, instance: InstanceRow, image: UsableImage, eventType: string, detail: string): Promise<void> {
    const now = this.deps.now();
    await tx
      .update(instances)
      .set({
        status: 'ResetStarted',
        ...beginOperation('reset', now, { arg: image.id }),
        statusReason: null,
      })
      .where(eq(instances.id, instance.id));
    await this.rental.recordEvent(tx, instance.id, eventType, instance.status, 'ResetStarted', detail, principal.userId);
  }

  // ---- managing ---------------------------------------------------------------------------------------

  async rename(principal: Principal, input: { imageId: string; name: string }): Promise<void> {
    try {
      const renamed = await this.db
        .update(privateImages)
        .set({ name: input.name.trim(), updatedAt: this.deps.now() })
        .where(and(this.mine(principal), eq(privateImages.imageId, input.imageId)))
        .returning({ id: privateImages.id });
      if (renamed.length === 0) throw new AppError('NOT_FOUND', '镜像不存在');
    } catch (error) {
      if (isUniqueViolation(error) && violatedConstraint(error) === NAME_INDEX) throw new AppError('NAME_EXISTS');
      throw error;
    }
  }

  /**
   * Deletes an image that is not saving. The row is marked deleted first (under its lock, so a reset
   * onto it cannot start meanwhile), then the registry deletes it (idempotent); should the registry
   * refuse, the mark is taken back and the user may try again. Shares go with it. Instances built from
   * it keep running; while an instance is being reset onto it the delete is refused (409).
   */
  async remove(principal: Principal, imageId: string): Promise<void> {
    const image = await this.db.transaction(async (tx) => {
      const [found] = await tx
        .select()
        .from(privateImages)
        .where(and(this.mine(principal), eq(privateImages.imageId, imageId)))
        .for('update');
      if (!found) throw new AppError('NOT_FOUND', '镜像不存在');
      if (found.status === 'saving') throw new AppError('STATE_CONFLICT', `镜像「${found.name}」正在保存，保存完成后才能删除`);
      const [resetting] = await tx
        .select({ instanceId: instances.instanceId })
        .from(instances)
        .where(and(eq(instances.operation, 'reset'), eq(instances.operationArg, found.imageId)))
        .limit(1);
      if (resetting) throw new AppError('STATE_CONFLICT', `实例 ${resetting.instanceId} 正在使用该镜像重建系统盘，完成后才能删除`);
      const now = this.deps.now();
      await tx.update(privateImages).set({ deletedAt: now, updatedAt: now }).where(eq(privateImages.id, found.id));
      return found;
    });
    try {
      await this.deps.compute.driver.deleteImage(image.uid);
    } catch (error) {
      await this.db.update(privateImages).set({ deletedAt: null, updatedAt: this.deps.now() }).where(eq(privateImages.id, image.id));
      if (error instanceof DriverError) throw new AppError('SERVICE_UNAVAILABLE', `删除镜像失败：${error.message}，请稍后再试`);
      throw error;
    }
    await this.db.delete(imageShares).where(eq(imageShares.imageRowId, image.id));
  }

  /** Shares a ready image with another main account, named by its phone; it may then build instances from it. */
  async share(principal: Principal, input: { imageId: string; telephone: string }): Promise<void> {
    const [image] = await this.db.select().from(privateImages).where(and(this.mine(principal), eq(privateImages.imageId, input.imageId)));
    if (!image) throw new AppError('NOT_FOUND', '镜像不存在');
    if (image.status !== 'ready') throw new AppError('STATE_CONFLICT', `镜像「${image.name}」${image.status === 'saving' ? '正在保存，保存完成后才能分享' : '保存失败，不能分享'}`);
    const [recipient] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.telephone, input.telephone), eq(users.accountType, AccountType.MAIN), isNull(users.disabledAt)));
    if (!recipient) throw new AppError('PHONE_NOT_REGISTERED', `手机号 ${maskTelephone(input.telephone)} 未注册本平台主账号，无法分享`);
    if (recipient.id === principal.ownerId) throw new AppError('VALIDATION', '不能分享给自己的账号');
    const inserted = await this.db
      .insert(imageShares)
      .values({ imageRowId: image.id, recipientId: recipient.id, createdAt: this.deps.now() })
      .onConflictDoNothing()
      .returning({ id: imageShares.id });
    if (inserted.length === 0) throw new AppError('STATE_CONFLICT', `镜像「${image.name}」已分享给 ${maskTelephone(input.telephone)}，无需重复分享`);
  }

  /** Stops sharing one of my images with everyone; instances they already built keep running. Returns how many shares ended. */
  async stopSharing(principal: Principal, imageUId: string): Promise<{ removed: number }> {
    const [image] = await this.db.select({ id: privateImages.id }).from(privateImages).where(and(this.mine(principal), eq(privateImages.uid, imageUId)));
    if (!image) throw new AppError('NOT_FOUND', '镜像不存在');
    const removed = await this.db.delete(imageShares).where(eq(imageShares.imageRowId, image.id)).returning({ id: imageShares.id });
    return { removed: removed.length };
  }

  /** Removes an image someone shared with my account from my list (and from what I can build from). */
  async leaveShared(principal: Principal, imageUId: string): Promise<void> {
    ownershipFor(principal, 'MIRROR');
    const removed = await this.db
      .delete(imageShares)
      .where(
        and(
          eq(imageShares.recipientId, principal.ownerId),
          sql`${imageShares.imageRowId} = (select ${privateImages.id} from ${privateImages} where ${privateImages.uid} = ${imageUId})`,
        ),
      )
      .returning({ id: imageShares.id });
    if (removed.length === 0) throw new AppError('NOT_FOUND', '没有他人分享给您的该镜像');
  }
}
