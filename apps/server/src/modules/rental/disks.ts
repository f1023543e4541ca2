import { rentedBy } from './scope.js';
import { and, eq, gte, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { diskCharge, diskRateFenPerDay, FREE_DATA_DISK_GB, formatYuan } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Database, Transaction } from '../../db/client.js';
import { hosts, instances, wallets } from '../../db/schema/index.js';
import {} from '../../db/scope.js';
import { AppError } from '../../core/errors.js';
import { DriverError } from '../../compute/driver.js';
import { assertAllowed } from './state-machine.js';
import type { Principal } from '../../core/principal.js';
import { OrderService } from '../billing/orders.js';
import type { InstanceRow } from './metering.js';
import { runSeconds } from './metering.js';
import { RentalService } from './service.js';
import { assertNoRunningCopy } from './copy-guard.js';

export type DiskAction = 'extend_disk' | 'shrink_disk';

export interface DiskResizeInput {
  instanceId: string;
  /** The data disk's new size in GB (not the difference). */
  sizeGb: number;
}

/** What the 扩容设置 dialog shows before anything is changed. */
export interface DiskInfo {
  instanceId: string;
  sizeGb: number;
  /** GB used on the data disk; null when the machine cannot be asked right now. */
  usedGb: number | null;
  /** The free part of every data disk. */
  freeGb: number;
  /** The smallest size a shrink may reach: the free size, and never below what is used. */
  minGb: number;
  /** The largest data disk one instance may have on its host. */
  maxGb: number;
  /** Disk space the host has not handed out yet (an extend takes the difference from it). */
  hostFreeGb: number;
  priceFenPerGbDay: number;
  /** What the disk costs per day now (0 at or below the free size). */
  rateFenPerDay: number;
}

const VERBS: Record<DiskAction, string> = { extend_disk: '扩容', shrink_disk: '缩容' };
const EVENT_TYPES: Record<DiskAction, string> = { extend_disk: 'EXTEND_DISK', shrink_disk: 'SHRINK_DISK' };
/** Passes of `syncMachine` before it gives up on a disk that keeps being resized by others. */
const SYNC_ATTEMPTS = 5;
/** Instances one transaction of the settlement job takes. */
const SETTLE_BATCH = 100;

/** The words a disk charge carries into 收支明细 and 账单明细. */
export function diskChargeDescription(instance: Pick<InstanceRow, 'name' | 'instanceId' | 'dataDiskGb'>): string {
  return `数据盘扩容按量计费：${instance.name}（${instance.instanceId}，${instance.dataDiskGb} GB）`;
}

/**
 * Settles an instance's disk meter up to `at` in the caller's transaction (the instance row locked):
 * charges `diskCharge(rate, seconds) − charged so far` to its PLACED EXPAND_DISK order, so the
 * settlements of one rate add up to exactly its final charge whenever they happen. `close` ends the
 * meter (the disk is back to the free size, or the instance is released) and lets go of the order,
 * as a metered run lets go of its usage order. Returns the fen charged now.
 */
export async function settleDisk(tx: Transaction, instance: InstanceRow, at: Date, options: { close: boolean }): Promise<number> {
  if (!instance.diskMeterStartedAt) return 0;
  const target = diskCharge(instance.diskRateFenPerDay, runSeconds(instance.diskMeterStartedAt, at));
  const due = target - instance.diskChargedFen;
  if (due > 0) {
    await new OrderService(() => at).postMetered(tx, {
      walletId: instance.walletId,
      amountFen: due,
      description: diskChargeDescription(instance),
      ...(instance.diskOrderId !== null ? { orderId: instance.diskOrderId } : {}),
    });
  }
  await tx
    .update(instances)
    .set(
      options.close
        ? { diskMeterStartedAt: null, diskRateFenPerDay: 0, diskChargedFen: 0, diskOrderId: null }
        : { diskChargedFen: Math.max(target, instance.diskChargedFen) },
    )
    .where(eq(instances.id, instance.id));
  return Math.max(0, due);
}

/** `diskCharge(rate, whole seconds since the meter started)` at `now`, in SQL over `instances`. */
function diskTargetSql(now: Date) {
  const seconds = sql`floor(extract(epoch from (${now.toISOString()}::timestamptz - ${instances.diskMeterStartedAt})))::bigint`;
  return sql`(case when ${seconds} <= 0 or ${instances.diskRateFenPerDay} <= 0 then 0::bigint else (${instances.diskRateFenPerDay}::bigint * ${seconds} + 43200) / 86400 end)`;
}

export interface DiskMeteringResult {
  /** Instances charged (or closed) in this pass. */
  instances: number;
  /** Fen charged in total. */
  fen: number;
}

/**
 * The disk job: settles every open disk meter up to `now`, and closes the meters of released instances
 * at their release. Batches of instances are taken `FOR UPDATE SKIP LOCKED` (one a resize holds is
 * settled by that resize), each settled like `settleDisk`; a settlement to `now` charges only what is
 * due, so a second pass (another process, a restart) charges nothing twice.
 */
export async function meterOpenDisks(db: Database, now: Date): Promise<DiskMeteringResult> {
  const result: DiskMeteringResult = { instances: 0, fen: 0 };
  const target = diskTargetSql(now);
  for (;;) {
    const taken = await db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(instances)
        .where(and(isNotNull(instances.diskMeterStartedAt), or(isNotNull(instances.releasedAt), sql`${target} > ${instances.diskChargedFen}`)))
        .orderBy(instances.walletId, instances.id)
        .limit(SETTLE_BATCH)
        .for('update', { skipLocked: true });
      for (const instance of due) {
        const released = instance.releasedAt;
        const at = released && released.getTime() < now.getTime() ? released : now;
        result.fen += await settleDisk(tx, instance, at, { close: released !== null });
      }
      return due.length;
    });
    result.instances += taken;
    if (taken < SETTLE_BATCH) return result;
  }
}

/**
 * `POST /rental/extend_disk` and `/rental/shrink_disk` (docs/decisions.md "Disk"): the data disk is
 * 50 GB free; above that it is metered per GB per day like a run, whether the machine is on or off.
 *
 * The database decides and the machine follows. One transaction with the instance locked checks the
 * state and sizes, takes the host's space by a conditional update (or gives it back), settles the
 * meter and restarts it at the new rate, and records the event; concurrent resizes serialize on the
 * instance row, and a refused one never touches the machine. Then the machine is resized; when it
 * refuses, the database change is undone. Finally the machine is set again to whatever size the
 * database holds, until both agree, so concurrent resizes always end with machine and database equal.
 */
export class DiskService {
  private readonly rental: RentalService;
  private readonly orders: OrderService;

  constructor(private readonly deps: AppDeps) {
    this.rental = new RentalService(deps);
    this.orders = new OrderService(deps.now);
  }

  private get db() {
    return this.deps.database.db;
  }

  private get price(): number {
    return this.deps.config.compute.diskPriceFenPerGbDay;
  }

  private async owned(principal: Principal, instanceId: string): Promise<InstanceRow> {
    const [instance] = await this.db
      .select()
      .from(instances)
      .where(and(rentedBy(principal), eq(instances.instanceId, instanceId), isNull(instances.releasedAt)));
    if (!instance) throw new AppError('NOT_FOUND', '实例不存在');
    return instance;
  }

  private async hostOf(instance: InstanceRow) {
    const [host] = await this.db.select().from(hosts).where(eq(hosts.id, instance.hostId));
    if (!host) throw new AppError('NOT_FOUND', '实例所在主机不存在');
    return host;
  }

  private async usedGb(instanceId: string): Promise<number | null> {
    try {
      return (await this.deps.compute.driver.dataDiskUsage([instanceId])).get(instanceId) ?? null;
    } catch (error) {
      if (error instanceof DriverError) return null;
      throw error;
    }
  }

  async info(principal: Principal, instanceId: string): Promise<DiskInfo> {
    const instance = await this.owned(principal, instanceId);
    const host = await this.hostOf(instance);
    const usedGb = await this.usedGb(instance.instanceId);
    return {
      instanceId: instance.instanceId,
      sizeGb: instance.dataDiskGb,
      usedGb,
      freeGb: FREE_DATA_DISK_GB,
      minGb: Math.max(FREE_DATA_DISK_GB, usedGb ?? 0),
      maxGb: host.dataDiskMaxGb,
      hostFreeGb: host.dataDiskTotalGb - host.dataDiskAllocatedGb,
      priceFenPerGbDay: this.price,
      rateFenPerDay: instance.diskRateFenPerDay,
    };
  }

  private assertSize(instance: InstanceRow, maxGb: number, sizeGb: number, action: DiskAction): void {
    if (sizeGb === instance.dataDiskGb) throw new AppError('VALIDATION', `数据盘已是 ${sizeGb} GB`);
    if (action === 'extend_disk') {
      if (sizeGb < instance.dataDiskGb) throw new AppError('VALIDATION', `扩容后的容量须大于当前的 ${instance.dataDiskGb} GB；减小容量请使用缩容`);
      if (sizeGb > maxGb) throw new AppError('VALIDATION', `该主机单个实例的数据盘最大 ${maxGb} GB`);
    } else {
      if (sizeGb > instance.dataDiskGb) throw new AppError('VALIDATION', `缩容后的容量须小于当前的 ${instance.dataDiskGb} GB；增大容量请使用扩容`);
      if (sizeGb < FREE_DATA_DISK_GB) throw new AppError('VALIDATION', `数据盘最小 ${FREE_DATA_DISK_GB} GB（免费容量）`);
    }
  }

  private driverRefusal(error: unknown, action: DiskAction): unknown {
    if (!(error instanceof DriverError)) return error;
    const text = `${VERBS[action]}数据盘失败：${error.message}`;
    return error.retryable ? new AppError('SERVICE_UNAVAILABLE', `${text}，请稍后再试`) : new AppError('STATE_CONFLICT', text);
  }

  async extend(principal: Principal, input: DiskResizeInput) {
    return this.resize(principal, input, 'extend_disk');
  }

  async shrink(principal: Principal, input: DiskResizeInput) {
    return this.resize(principal, input, 'shrink_disk');
  }

  private async resize(principal: Principal, input: DiskResizeInput, action: DiskAction): Promise<DiskInfo & { orderId: string | null }> {
    const { sizeGb } = input;
    // Checked without locks first (friendly refusals, and the used size from the machine); the
    // transaction checks again under the instance lock.
    const before = await this.owned(principal, input.instanceId);
    assertAllowed(before, action);
    const host = await this.hostOf(before);
    this.assertSize(before, host.dataDiskMaxGb, sizeGb, action);
    if (action === 'shrink_disk') {
      const used = await this.usedGb(before.instanceId);
      if (used === null) throw new AppError('SERVICE_UNAVAILABLE', '暂时无法读取数据盘的使用量，请稍后再试');
      if (sizeGb < used) throw new AppError('VALIDATION', `数据盘已使用 ${used} GB，不能缩容到 ${sizeGb} GB，请先清理数据或选择不小于 ${used} GB 的容量`);
    }

    const orderId = await this.db.transaction((tx) => this.apply(tx, principal, before, sizeGb, action));
    try {
      await this.deps.compute.driver.resizeDataDisk(before.instanceId, sizeGb);
    } catch (error) {
      if (!(error instanceof DriverError)) throw error;
      await this.undo(before, sizeGb, action, error.message);
      await this.syncMachine(before.instanceId);
      throw this.driverRefusal(error, action);
    }
    await this.syncMachine(before.instanceId);
    return { ...(await this.info(principal, input.instanceId)), orderId };
  }

  private hostShortage(freeGb: number, neededGb: number): AppError {
    return new AppError('STATE_CONFLICT', `主机数据盘空间不足：该主机当前剩余 ${freeGb} GB，本次扩容需要 ${neededGb} GB`);
  }

  /** The database half of a resize, in one transaction with the instance locked. Returns the order number when one was opened. */
  private async apply(tx: Transaction, principal: Principal, before: InstanceRow, sizeGb: number, action: DiskAction): Promise<string | null> {
    const instance = await this.rental.lockOwned(tx, principal, before.instanceId, action);
    if (action === 'shrink_disk') await assertNoRunningCopy(tx, instance.id, action);
    if (instance.dataDiskGb !== before.dataDiskGb) {
      throw new AppError('STATE_CONFLICT', `数据盘容量刚刚已变更为 ${instance.dataDiskGb} GB，请确认后重试`);
    }
    const delta = sizeGb - instance.dataDiskGb;
    const newRate = diskRateFenPerDay(sizeGb, this.price);
    // The wallet before the host, in the order creating an instance takes them, so they never wait on each other.
    const balance = await this.lockWallet(tx, instance.walletId);
    if (delta > 0 && newRate > balance) {
      throw new AppError(
        'INSUFFICIENT_BALANCE',
        `账户余额不足：扩容后数据盘每天${formatYuan(newRate)}，余额需至少可支付1天，当前余额${formatYuan(balance)}，请先充值`,
      );
    }
    const orderNo = await this.meterAtSize(tx, instance, sizeGb);
    if (delta > 0) {
      await this.takeHostDisk(tx, instance.hostId, delta);
    } else {
      await tx
        .update(hosts)
        .set({ dataDiskAllocatedGb: sql`${hosts.dataDiskAllocatedGb} - ${-delta}` })
        .where(eq(hosts.id, instance.hostId));
    }
    const money = newRate > 0 ? `，超出免费 ${FREE_DATA_DISK_GB} GB 的部分每天${formatYuan(newRate)}` : '，数据盘不再计费';
    await this.rental.recordEvent(
      tx,
      instance.id,
      EVENT_TYPES[action],
      instance.status,
      instance.status,
      `${VERBS[action]}数据盘：${instance.dataDiskGb} → ${sizeGb} GB${money}`,
      principal.userId,
    );
    return orderNo;
  }

  /**
   * Settles the meter at the old size, then sets the size and restarts the meter at its rate: open
   * while above the free size (the EXPAND_DISK order opened the first time), closed at or below it.
   */
  async meterAtSize(tx: Transaction, instance: InstanceRow, sizeGb: number): Promise<string | null> {
    const now = this.deps.now();
    const rate = diskRateFenPerDay(sizeGb, this.price);
    await settleDisk(tx, instance, now, { close: true });
    let orderId = instance.diskOrderId;
    let orderNo: string | null = null;
    if (rate > 0 && orderId === null) {
      const order = await this.orders.open(tx, {
        ownerId: instance.ownerId,
        creatorId: instance.creatorId,
        walletId: instance.walletId,
        type: 'EXPAND_DISK',
        billingType: 'USAGE',
        title: `实例 ${instance.name} 数据盘扩容（按量计费）`,
        items: [
          {
            name: `数据盘超出免费 ${FREE_DATA_DISK_GB} GB 的部分`,
            spec: `${instance.instanceId}，扩容至 ${sizeGb} GB`,
            quantity: 1,
            unit: 'GB·天',
            unitPriceFen: this.price,
            amountFen: 0,
          },
        ],
        resourceType: 'INSTANCE',
        resourceId: instance.uid,
      });
      orderId = order.id;
      orderNo = order.orderNo;
    }
    await tx
      .update(instances)
      .set({
        dataDiskGb: sizeGb,
        // Cleared once the machine has this size: a crash before that leaves it for the disk-sync job.
        dataDiskResizePending: true,
        diskRateFenPerDay: rate,
        diskMeterStartedAt: rate > 0 ? now : null,
        diskChargedFen: 0,
        diskOrderId: rate > 0 ? orderId : null,
        updatedAt: now,
      })
      .where(eq(instances.id, instance.id));
    return orderNo;
  }

  /** Takes disk space from the host by one conditional update; refuses with what is free. */
  private async takeHostDisk(tx: Transaction, hostId: string, gb: number): Promise<void> {
    const taken = await tx
      .update(hosts)
      .set({ dataDiskAllocatedGb: sql`${hosts.dataDiskAllocatedGb} + ${gb}` })
      .where(and(eq(hosts.id, hostId), eq(hosts.enabled, true), gte(sql`${hosts.dataDiskTotalGb} - ${hosts.dataDiskAllocatedGb}`, gb)))
      .returning({ id: hosts.id });
    if (taken.length > 0) return;
    const [host] = await tx
      .select({ enabled: hosts.enabled, freeGb: sql<number>`${hosts.dataDiskTotalGb} - ${hosts.dataDiskAllocatedGb}` })
      .from(hosts)
      .where(eq(hosts.id, hostId));
    if (host && !host.enabled) throw new AppError('STATE_CONFLICT', '实例所在主机已下架，不能扩容数据盘');
    throw this.hostShortage(Number(host?.freeGb ?? 0), gb);
  }

  private async lockWallet(tx: Transaction, walletId: number): Promise<number> {
    const [wallet] = await tx.select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, walletId)).for('update');
    return wallet?.balance ?? 0;
  }

  /**
   * The machine refused a resize the database already applied: the size, the host's space and the
   * meter go back to what they were, unless the instance changed meanwhile (a later resize or an
   * operation wins) or, for a shrink, the space it gave back is already taken (then the machine simply
   * stays larger than what is billed).
   */
  private async undo(before: InstanceRow, sizeGb: number, action: DiskAction, reason: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [instance] = await tx
        .select()
        .from(instances)
        .where(and(eq(instances.id, before.id), isNull(instances.releasedAt)))
        .for('update');
      if (!instance || instance.dataDiskGb !== sizeGb || instance.operation !== null) return;
      await this.lockWallet(tx, instance.walletId);
      const back = before.dataDiskGb - sizeGb;
      const moved = await tx
        .update(hosts)
        .set({ dataDiskAllocatedGb: sql`${hosts.dataDiskAllocatedGb} + ${back}` })
        .where(and(eq(hosts.id, instance.hostId), gte(sql`${hosts.dataDiskTotalGb} - ${hosts.dataDiskAllocatedGb}`, back)))
        .returning({ id: hosts.id });
      if (moved.length === 0) return;
      await this.meterAtSize(tx, instance, before.dataDiskGb);
      await this.rental.recordEvent(
        tx,
        instance.id,
        EVENT_TYPES[action],
        instance.status,
        instance.status,
        `${VERBS[action]}数据盘失败：${reason}，数据盘恢复为 ${before.dataDiskGb} GB`,
        null,
      );
    });
  }

  /**
   * Sets the machine's disk to the size the database holds, again until both agree: whoever resized
   * last, the last call to the machine carries the database's final size. A machine that cannot be
   * asked keeps its size until the next resize.
   */
  private async syncMachine(instanceId: string): Promise<void> {
    const current = async () => {
      const [row] = await this.db
        .select({ sizeGb: instances.dataDiskGb, operation: instances.operation, releasedAt: instances.releasedAt })
        .from(instances)
        .where(eq(instances.instanceId, instanceId));
      return row && !row.releasedAt && row.operation !== 'release' ? row.sizeGb : null;
    };
    for (let attempt = 0; attempt < SYNC_ATTEMPTS; attempt += 1) {
      const sizeGb = await current();
      if (sizeGb === null) return;
      try {
        await this.deps.compute.driver.resizeDataDisk(instanceId, sizeGb);
      } catch (error) {
        if (error instanceof DriverError) return;
        throw error;
      }
      if ((await current()) === sizeGb) {
        await this.db
          .update(instances)
          .set({ dataDiskResizePending: false })
          .where(and(eq(instances.instanceId, instanceId), eq(instances.dataDiskGb, sizeGb), eq(instances.dataDiskResizePending, true)));
        return;
      }
    }
  }

  /**
   * The disk-sync job: instances whose data disk was resized in the database but whose machine was not
   * confirmed at that size (the process died between the commit and the machine's answer) get the
   * machine set to the database's size. Idempotent, so a second process or a repeat changes nothing.
   * A machine that cannot be asked stays pending for the next pass. Returns how many were settled.
   */
  async syncPending(batch = 100): Promise<number> {
    const pending = await this.db
      .select({ instanceId: instances.instanceId })
      .from(instances)
      .where(and(eq(instances.dataDiskResizePending, true), isNull(instances.releasedAt), isNull(instances.operation)))
      .orderBy(instances.id)
      .limit(batch);
    let settled = 0;
    for (const { instanceId } of pending) {
      await this.syncMachine(instanceId);
      const [row] = await this.db.select({ pending: instances.dataDiskResizePending }).from(instances).where(eq(instances.instanceId, instanceId));
      if (!row?.pending) settled += 1;
    }
    return settled;
  }
}
