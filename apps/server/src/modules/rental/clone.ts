import { rentedBy } from './scope.js';
import { and, eq, isNull } from 'drizzle-orm';
import { diskRateFenPerDay, FREE_DATA_DISK_GB, USAGE_CHARGING_RULE_ID } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Executor, Transaction } from '../../db/client.js';
import { instances } from '../../db/schema/index.js';
import {} from '../../db/scope.js';
import { AppError } from '../../core/errors.js';
import { assertAllowed } from './state-machine.js';
import type { Principal } from '../../core/principal.js';
import { DiskService } from './disks.js';
import type { InstanceRow } from './metering.js';
import { RentalService } from './service.js';
import { assertNoRunningCopy } from './copy-guard.js';

export interface CloneInput {
  instanceId: string;
  hostId: string;
  gpuNum: number;
  chargingRuleId: number;
  rentAmount?: number | undefined;
  name?: string | undefined;
  voucherId?: number | null | undefined;
  autoRenew?: boolean | undefined;
  /** Copy the data disk too (same region only). */
  copyData: boolean;
  /** Release the source once the clone runs: a move to another host. */
  releaseSource?: boolean | undefined;
  /** The clone's shared datasets; absent: the source's (those still usable). */
  datasetIds?: readonly number[] | undefined;
}

/** `clone` keeps to the source's region and may carry the data disk; `clone/v2` crosses regions with the system disk only. */
export type CloneScope = 'same_region' | 'any_region';

/**
 * 克隆实例 / 迁移 (`POST /rental/clone`, `/clone/v2`): a new instance on the chosen host made from a
 * stopped source's system disk (and, in its region, its data disk), paid like a new one
 * (CLONE_INSTANCE). With `releaseSource` the source is released once the clone runs — the way out of
 * a host with no free GPUs; if the clone fails the source stays.
 */
export class CloneService {
  private readonly rental: RentalService;
  private readonly disks: DiskService;

  constructor(private readonly deps: AppDeps) {
    this.rental = new RentalService(deps);
    this.disks = new DiskService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  /** The source, checked against what the clone asks (locked when `lock`). */
  private async sourceOf(executor: Executor, principal: Principal, input: CloneInput, scope: CloneScope, lock: boolean): Promise<InstanceRow> {
    const query = executor
      .select()
      .from(instances)
      .where(and(rentedBy(principal), eq(instances.instanceId, input.instanceId), isNull(instances.releasedAt)));
    const [source] = lock ? await query.for('update') : await query;
    if (!source) throw new AppError('NOT_FOUND', '实例不存在');
    assertAllowed(source, 'clone');
    const target = await this.rental.hostWithModel(executor, input.hostId);
    if (scope === 'same_region' && target.host.zoneId !== source.zoneId) {
      throw new AppError('VALIDATION', '克隆只能选择源实例所在地区的主机；跨地区克隆请使用 clone/v2（只复制系统盘）');
    }
    if (scope === 'any_region' && input.copyData) throw new AppError('VALIDATION', '跨地区克隆只复制系统盘，不能复制数据盘');
    if (input.releaseSource) {
      if (!input.copyData || scope === 'any_region') throw new AppError('VALIDATION', '迁移会释放原实例，须在同一地区并复制数据盘，以免数据丢失');
      if (source.chargingRuleId !== USAGE_CHARGING_RULE_ID) throw new AppError('VALIDATION', '包年包月实例迁移后不能释放原实例：请先转为按量计费（未使用部分退回余额），再迁移');
      if (target.host.id === source.hostId) throw new AppError('VALIDATION', '迁移须选择其他主机');
      // Decides under the source's lock when `lock` (the clone itself); the price only warns early.
      await assertNoRunningCopy(executor, source.id, 'move');
    }
    return source;
  }

  private dataDiskGb(source: InstanceRow, input: CloneInput): number {
    return input.copyData ? Math.max(FREE_DATA_DISK_GB, source.dataDiskGb) : FREE_DATA_DISK_GB;
  }

  /** The price of the clone as `/rental/prepay` answers it, with the copied data disk and its daily price. */
  async prepay(principal: Principal, input: CloneInput, scope: CloneScope) {
    const source = await this.sourceOf(this.db, principal, input, scope, false);
    // Priced as the order it becomes, so a voucher scoped to clones (or not to them) previews as it pays.
    const price = await this.rental.prepay(principal, input, 'CLONE_INSTANCE');
    const dataDiskGb = this.dataDiskGb(source, input);
    return { ...price, dataDiskGb, diskRateFenPerDay: diskRateFenPerDay(dataDiskGb, this.deps.config.compute.diskPriceFenPerGbDay), sourceInstanceId: source.instanceId };
  }

  async clone(tx: Transaction, principal: Principal, input: CloneInput, scope: CloneScope) {
    const source = await this.sourceOf(tx, principal, input, scope, true);
    const created = await this.rental.create(
      tx,
      principal,
      { ...input, imageId: source.imageId, name: input.name ?? `${source.name.slice(0, 29)}-克隆` },
      { source, copyData: input.copyData, releasesSource: input.releaseSource === true },
    );
    const dataDiskGb = this.dataDiskGb(source, input);
    if (dataDiskGb > FREE_DATA_DISK_GB) {
      const [row] = await tx.select().from(instances).where(eq(instances.id, created.rentalId));
      if (row) await this.disks.meterAtSize(tx, row, dataDiskGb);
    }
    await this.rental.recordEvent(
      tx,
      source.id,
      'CLONE',
      source.status,
      source.status,
      input.releaseSource ? `迁移到实例 ${created.instanceId}，新实例运行后将释放本实例` : `克隆为实例 ${created.instanceId}`,
      principal.userId,
    );
    return created;
  }
}
