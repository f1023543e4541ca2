import { randomInt, randomUUID } from 'node:crypto';
import { and, count, desc, eq, gte, ilike, isNull, sql, sum, type SQL } from 'drizzle-orm';
import {
  AUTO_RELEASE_DAYS,
  BALANCE_COVER_HOURS,
  CHARGING_RULES,
  FREE_DATA_DISK_GB,
  formatYuan,
  USAGE_CHARGING_RULE_ID,
  imageRunsOnHost,
  type GpuMode,
  type Page,
} from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Executor, Transaction } from '../../db/client.js';
import { gpuModels, hosts, instanceEvents, instances, publicImages, wallets, zones } from '../../db/schema/index.js';
import { ownedBy, ownershipFor } from '../../db/scope.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../http/errors.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import { randomPassword } from '../../lib/crypto.js';
import { openRootPassword, sealRootPassword } from './password.js';
import { DriverError } from '../../compute/driver.js';
import { assertAllowed, RUNNING_STATUSES, type UserAction } from '../../compute/state-machine.js';
import type { Principal } from '../auth/principal.js';
import { payingWalletOf } from '../billing/ledger.js';
import { OrderService } from '../billing/orders.js';
import { settleRun, type InstanceRow } from './metering.js';
import { hourlyRateFen, pricePerGpuFen } from './pricing.js';
import { priceSourceOf, toInstanceView, type InstanceView } from './views.js';

const AUTO_RELEASE_MS = AUTO_RELEASE_DAYS * 86_400_000;
const INSTANCE_ID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

export interface CreateInstanceInput {
  hostId: string;
  gpuNum: number;
  imageId: string;
  chargingRuleId: number;
  name?: string | undefined;
  voucherId?: number | null | undefined;
}

export interface PrepayInput {
  hostId: string;
  gpuNum: number;
  chargingRuleId: number;
  voucherId?: number | null | undefined;
}

export interface InstanceListQuery extends PageQuery {
  status?: string | undefined;
  name?: string | undefined;
}

/** A host with what pricing and views need from its zone and GPU model. */
interface HostWithModel {
  host: typeof hosts.$inferSelect;
  zoneName: string;
  zoneEnabled: boolean;
  gpuModelName: string;
  modelPricePerHourFen: number;
}

function newInstanceId(): string {
  return `slg-${Array.from({ length: 10 }, () => INSTANCE_ID_ALPHABET[randomInt(INSTANCE_ID_ALPHABET.length)]).join('')}`;
}

/** `%` and `_` typed into a name search are literal. */
function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Container instances (DESIGN §7): what users ask for is written here, in one transaction with its
 * money and its GPUs; the reconciler (compute/reconciler.ts) makes the machines follow.
 */
export class RentalService {
  private readonly orders: OrderService;

  constructor(private readonly deps: AppDeps) {
    this.orders = new OrderService(deps.now);
  }

  private get db() {
    return this.deps.database.db;
  }

  // ---- reading ------------------------------------------------------------------------------------

  private viewQuery(executor: Executor) {
    return executor
      .select({
        instance: instances,
        host: hosts,
        zoneName: zones.name,
        gpuModelName: gpuModels.name,
        modelPricePerHourFen: gpuModels.pricePerHourFen,
        imageName: publicImages.name,
      })
      .from(instances)
      .innerJoin(hosts, eq(hosts.id, instances.hostId))
      .innerJoin(zones, eq(zones.id, instances.zoneId))
      .innerJoin(gpuModels, eq(gpuModels.id, instances.gpuModelId))
      .leftJoin(publicImages, eq(publicImages.id, instances.imageId));
  }

  private toView(row: {
    instance: InstanceRow;
    host: typeof hosts.$inferSelect;
    zoneName: string;
    gpuModelName: string;
    modelPricePerHourFen: number;
    imageName: string | null;
  }): InstanceView {
    return toInstanceView({ ...row, noGpuPriceFen: this.deps.config.compute.noGpuPriceFen, autoReleaseMs: AUTO_RELEASE_MS });
  }

  private listConditions(principal: Principal, query: Pick<InstanceListQuery, 'status' | 'name'>): SQL {
    // `Running` is the spec's alias of PoweredOn (运行中).
    const status = query.status === 'Running' ? 'PoweredOn' : query.status;
    const conditions: SQL[] = [ownedBy(principal, 'CONTAINER', instances), isNull(instances.releasedAt)];
    if (status) conditions.push(eq(instances.status, status));
    if (query.name) conditions.push(ilike(instances.name, `%${likeEscaped(query.name)}%`));
    return and(...conditions) as SQL;
  }

  async list(principal: Principal, query: InstanceListQuery): Promise<Page<InstanceView>> {
    const where = this.listConditions(principal, query);
    return paged(
      query,
      (limit, offset) => this.viewQuery(this.db).where(where).orderBy(desc(instances.createdAt), desc(instances.id)).limit(limit).offset(offset),
      () => this.db.$count(instances, where),
      (rows) => rows.map((row) => this.toView(row)),
    );
  }

  async get(principal: Principal, instanceId: string): Promise<InstanceView> {
    const [row] = await this.viewQuery(this.db).where(and(this.listConditions(principal, {}), eq(instances.instanceId, instanceId)));
    if (!row) throw new AppError('NOT_FOUND', '实例不存在');
    return this.toView(row);
  }

  /** Counts by status and what the running ones cost per hour, for 总览. */
  async summary(principal: Principal): Promise<{ total: number; byStatus: Record<string, number>; runningCostPerHourFen: number }> {
    const where = this.listConditions(principal, {});
    const rows = await this.db
      .select({ status: instances.status, count: count(), rate: sum(instances.runRateFen).mapWith(Number) })
      .from(instances)
      .where(where)
      .groupBy(instances.status);
    const byStatus: Record<string, number> = {};
    let total = 0;
    let runningCostPerHourFen = 0;
    for (const row of rows) {
      byStatus[row.status] = row.count;
      total += row.count;
      if ((RUNNING_STATUSES as readonly string[]).includes(row.status)) runningCostPerHourFen += row.rate ?? 0;
    }
    return { total, byStatus, runningCostPerHourFen };
  }

  // ---- prices -------------------------------------------------------------------------------------

  private async hostWithModel(executor: Executor, hostId: string): Promise<HostWithModel> {
    const [row] = await executor
      .select({
        host: hosts,
        zoneName: zones.name,
        zoneEnabled: zones.enabled,
        gpuModelName: gpuModels.name,
        modelPricePerHourFen: gpuModels.pricePerHourFen,
      })
      .from(hosts)
      .innerJoin(zones, eq(zones.id, hosts.zoneId))
      .innerJoin(gpuModels, eq(gpuModels.id, hosts.gpuModelId))
      .where(eq(hosts.id, hostId));
    if (!row || !row.host.enabled || !row.zoneEnabled) throw new AppError('NOT_FOUND', '主机不存在或已下架，请重新选择');
    return row;
  }

  private assertUsageRule(chargingRuleId: number, voucherId: number | null | undefined): void {
    if (!CHARGING_RULES.some((rule) => rule.id === chargingRuleId)) throw new AppError('VALIDATION', '计费方式不正确');
    if (chargingRuleId !== USAGE_CHARGING_RULE_ID) throw new AppError('VALIDATION', '包日、包周、包月暂未开放，请选择按量计费');
    // Vouchers pay prepaid orders; a metered run has nothing upfront for one to pay.
    if (voucherId !== undefined && voucherId !== null) throw new AppError('VALIDATION', '按量计费不能使用代金券，代金券可用于包日、包周、包月');
  }

  private assertGpuNum(host: typeof hosts.$inferSelect, gpuNum: number): void {
    if (gpuNum > host.gpuTotal) throw new AppError('VALIDATION', `该主机最多 ${host.gpuTotal} 卡`);
  }

  /**
   * What creating would charge: for pay-as-you-go the hourly rate, which the balance must cover for
   * BALANCE_COVER_HOURS (nothing is taken upfront; the run is metered per second).
   */
  async prepay(principal: Principal, input: PrepayInput) {
    ownershipFor(principal, 'CONTAINER');
    this.assertUsageRule(input.chargingRuleId, input.voucherId);
    const found = await this.hostWithModel(this.db, input.hostId);
    this.assertGpuNum(found.host, input.gpuNum);
    const source = priceSourceOf(found.host, found.modelPricePerHourFen);
    const hourly = hourlyRateFen(source, input.gpuNum, 'gpu', this.deps.config.compute.noGpuPriceFen);
    return {
      amount: hourly,
      discount: 0,
      payable: hourly * BALANCE_COVER_HOURS,
      pricePerGpuFen: pricePerGpuFen(source, input.chargingRuleId),
      unit: '时',
      balanceRequired: hourly * BALANCE_COVER_HOURS,
    };
  }

  // ---- creating -----------------------------------------------------------------------------------

  /** Locks the paying wallet and refuses when it cannot pay `hours` of `rateFen`. */
  private async assertBalanceCovers(tx: Transaction, walletId: number, rateFen: number, what: string): Promise<void> {
    const [wallet] = await tx.select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, walletId)).for('update');
    const needed = rateFen * BALANCE_COVER_HOURS;
    if (!wallet || wallet.balance < needed) {
      throw new AppError(
        'INSUFFICIENT_BALANCE',
        `账户余额不足：${what}需要余额至少可支付${BALANCE_COVER_HOURS}小时（${formatYuan(needed)}），当前余额${formatYuan(wallet?.balance ?? 0)}，请先充值`,
      );
    }
  }

  /** Takes GPUs (and disk) from a host by one conditional update; refuses with what is free. */
  private async takeGpus(tx: Transaction, host: typeof hosts.$inferSelect, gpuNum: number, diskGb: number): Promise<void> {
    const taken = await tx
      .update(hosts)
      .set({
        gpuAllocated: sql`${hosts.gpuAllocated} + ${gpuNum}`,
        dataDiskAllocatedGb: sql`${hosts.dataDiskAllocatedGb} + ${diskGb}`,
      })
      .where(
        and(
          eq(hosts.id, host.id),
          eq(hosts.enabled, true),
          gte(sql`${hosts.gpuTotal} - ${hosts.gpuAllocated}`, gpuNum),
          gte(sql`${hosts.dataDiskTotalGb} - ${hosts.dataDiskAllocatedGb}`, diskGb),
        ),
      )
      .returning({ id: hosts.id });
    if (taken.length > 0) return;
    const [now] = await tx
      .select({
        enabled: hosts.enabled,
        freeGpus: sql<number>`${hosts.gpuTotal} - ${hosts.gpuAllocated}`,
        freeDiskGb: sql<number>`${hosts.dataDiskTotalGb} - ${hosts.dataDiskAllocatedGb}`,
      })
      .from(hosts)
      .where(eq(hosts.id, host.id));
    if (now && !now.enabled) throw new AppError('STATE_CONFLICT', '该主机已下架，请选择其他主机');
    if (now && now.freeGpus >= gpuNum) {
      throw new AppError('STATE_CONFLICT', `主机数据盘空间不足：该主机当前剩余 ${now.freeDiskGb} GB，需要 ${diskGb} GB，请选择其他主机`);
    }
    throw new AppError('HOST_GPU_SHORTAGE', `主机GPU不足：该主机当前空闲 ${now?.freeGpus ?? 0} 卡，需要 ${gpuNum} 卡`);
  }

  /**
   * Creates a pay-as-you-go instance in the caller's transaction: checks the balance covers an hour,
   * takes the GPUs, writes the instance (CreationStarted, operation create), its PLACED NEW_PURCHASE
   * order and the CREATE event. Nothing is charged until the machine runs.
   */
  async create(tx: Transaction, principal: Principal, input: CreateInstanceInput) {
    const owner = ownershipFor(principal, 'CONTAINER');
    this.assertUsageRule(input.chargingRuleId, input.voucherId);
    const found = await this.hostWithModel(tx, input.hostId);
    this.assertGpuNum(found.host, input.gpuNum);
    const [image] = await tx.select().from(publicImages).where(and(eq(publicImages.id, input.imageId), eq(publicImages.enabled, true)));
    if (!image) throw new AppError('NOT_FOUND', '镜像不存在或已下架，请重新选择');
    if (!imageRunsOnHost(image.cuda, found.host.cudaVersion)) {
      throw new AppError('VALIDATION', `镜像需要 CUDA ${image.cuda}，该主机驱动最高支持 CUDA ${found.host.cudaVersion}，请选择 CUDA 版本不高于 ${found.host.cudaVersion} 的镜像或其他主机`);
    }

    const now = this.deps.now();
    const source = priceSourceOf(found.host, found.modelPricePerHourFen);
    const hourly = hourlyRateFen(source, input.gpuNum, 'gpu', this.deps.config.compute.noGpuPriceFen);
    const walletId = await payingWalletOf(tx, principal);
    await this.assertBalanceCovers(tx, walletId, hourly, '创建按量计费实例');
    await this.takeGpus(tx, found.host, input.gpuNum, FREE_DATA_DISK_GB);

    const password = randomPassword();
    const uid = randomUUID();
    const instance = await this.insertInstance(tx, {
      uid,
      ownerId: owner.ownerId,
      creatorId: owner.creatorId,
      walletId,
      name: input.name?.trim() || `${found.gpuModelName}-${found.zoneName}`,
      hostId: found.host.id,
      zoneId: found.host.zoneId,
      gpuModelId: found.host.gpuModelId,
      gpuNum: input.gpuNum,
      gpuHeld: input.gpuNum,
      gpuMode: 'gpu',
      imageId: image.id,
      chargingRuleId: input.chargingRuleId,
      dataDiskGb: FREE_DATA_DISK_GB,
      status: 'CreationStarted',
      operation: 'create',
      operationMode: 'gpu',
      operationStartedAt: now,
      rootPasswordEnc: sealRootPassword(this.deps.config.jwtSecret, password),
      createdAt: now,
      updatedAt: now,
    });
    const order = await this.orders.open(tx, {
      ownerId: owner.ownerId,
      creatorId: owner.creatorId,
      walletId,
      type: 'NEW_PURCHASE',
      billingType: 'USAGE',
      title: `新购实例 ${instance.name}（按量计费）`,
      items: [
        {
          name: `${found.gpuModelName} × ${input.gpuNum}`,
          spec: `${found.zoneName} · ${found.host.name} · ${image.name}`,
          quantity: 1,
          unit: '时',
          unitPriceFen: hourly,
          amountFen: 0,
        },
      ],
      resourceType: 'INSTANCE',
      resourceId: uid,
    });
    await tx.update(instances).set({ usageOrderId: order.id }).where(eq(instances.id, instance.id));
    await this.recordEvent(tx, instance.id, 'CREATE', null, 'CreationStarted', `创建实例：${found.gpuModelName} × ${input.gpuNum}，${image.name}`, principal.userId);
    return { instanceId: instance.instanceId, rentalId: instance.id, rentalUid: uid, orderId: order.orderNo };
  }

  private async insertInstance(tx: Transaction, values: Omit<typeof instances.$inferInsert, 'instanceId'>): Promise<InstanceRow> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await tx.transaction(async (savepoint) => {
          const [row] = await savepoint
            .insert(instances)
            .values({ ...values, instanceId: newInstanceId() })
            .returning();
          if (!row) throw new Error('instance insert returned nothing');
          return row;
        });
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 4) throw error;
      }
    }
  }

  async recordEvent(
    executor: Executor,
    instanceRowId: number,
    type: string,
    fromStatus: string | null,
    toStatus: string | null,
    detail: string,
    actorId: number | null,
  ): Promise<void> {
    await executor.insert(instanceEvents).values({ instanceRowId, type, fromStatus, toStatus, detail, actorId, createdAt: this.deps.now() });
  }

  // ---- operations ---------------------------------------------------------------------------------

  /** The caller's instance, locked for the rest of the transaction (404 for anyone else's). */
  private async lockOwned(tx: Transaction, principal: Principal, instanceId: string, action: UserAction): Promise<InstanceRow> {
    const [instance] = await tx
      .select()
      .from(instances)
      .where(and(ownedBy(principal, 'CONTAINER', instances), eq(instances.instanceId, instanceId), isNull(instances.releasedAt)))
      .for('update');
    if (!instance) throw new AppError('NOT_FOUND', '实例不存在');
    assertAllowed(instance, action);
    return instance;
  }

  /**
   * Powers on with the GPUs (taken again from the host: refused with 主机GPU不足 when it has too few
   * free) or in no-GPU mode; the balance must cover an hour of that mode's rate.
   */
  async powerOn(principal: Principal, input: { instanceId: string; mode: GpuMode }): Promise<InstanceView> {
    await this.db.transaction(async (tx) => {
      const instance = await this.lockOwned(tx, principal, input.instanceId, 'power_on');
      const found = await this.hostWithModel(tx, instance.hostId).catch(() => {
        throw new AppError('STATE_CONFLICT', '实例所在主机已下架，无法开机');
      });
      const source = priceSourceOf(found.host, found.modelPricePerHourFen);
      const rate = hourlyRateFen(source, instance.gpuNum, input.mode, this.deps.config.compute.noGpuPriceFen);
      await this.assertBalanceCovers(tx, instance.walletId, rate, input.mode === 'nogpu' ? '无卡模式开机' : '开机');
      const missing = input.mode === 'gpu' ? instance.gpuNum - instance.gpuHeld : 0;
      if (missing > 0) {
        try {
          await this.takeGpus(tx, found.host, missing, 0);
        } catch (error) {
          if (error instanceof AppError && error.codeName === 'HOST_GPU_SHORTAGE') {
            throw new AppError('HOST_GPU_SHORTAGE', `${error.message}。可以选择无卡模式开机（${formatYuan(this.deps.config.compute.noGpuPriceFen)}/时）先使用数据，或稍后再试`);
          }
          throw error;
        }
      }
      const now = this.deps.now();
      await tx
        .update(instances)
        .set({
          gpuHeld: instance.gpuHeld + missing,
          operation: 'power_on',
          operationMode: input.mode,
          operationStartedAt: now,
          operationAttempts: 0,
          operationLeaseUntil: null,
          statusReason: null,
          updatedAt: now,
        })
        .where(eq(instances.id, instance.id));
      await this.recordEvent(tx, instance.id, 'POWER_ON', instance.status, instance.status, input.mode === 'nogpu' ? '无卡模式开机' : '开机', principal.userId);
    });
    this.deps.compute.wake();
    return this.get(principal, input.instanceId);
  }

  async powerOff(principal: Principal, input: { instanceId: string }): Promise<InstanceView> {
    await this.db.transaction(async (tx) => {
      const instance = await this.lockOwned(tx, principal, input.instanceId, 'power_off');
      await this.stopInTransaction(tx, instance, { type: 'POWER_OFF', detail: '关机', actorId: principal.userId, reason: null });
    });
    this.deps.compute.wake();
    return this.get(principal, input.instanceId);
  }

  /**
   * Stops a running instance in the caller's transaction (the instance row locked): billing ends now,
   * with the run's last settlement, and the reconciler stops the machine. Used by a user's power-off
   * and by the platform (arrears, with a reason the instance then shows).
   */
  async stopInTransaction(
    tx: Transaction,
    instance: InstanceRow,
    cause: { type: string; detail: string; actorId: number | null; reason: string | null },
  ): Promise<void> {
    const now = this.deps.now();
    await settleRun(tx, instance, now, { close: true });
    await tx
      .update(instances)
      .set({
        operation: 'power_off',
        operationMode: null,
        operationStartedAt: now,
        operationAttempts: 0,
        operationLeaseUntil: null,
        statusReason: cause.reason,
        updatedAt: now,
      })
      .where(eq(instances.id, instance.id));
    await this.recordEvent(tx, instance.id, cause.type, instance.status, instance.status, cause.detail, cause.actorId);
  }

  /** Releases a stopped instance: the machine and its data are deleted; the record stays. */
  async release(principal: Principal, input: { instanceId: string; rentalId?: number | undefined }): Promise<void> {
    await this.db.transaction(async (tx) => {
      const instance = await this.lockOwned(tx, principal, input.instanceId, 'release');
      if (input.rentalId !== undefined && input.rentalId !== instance.id) throw new AppError('NOT_FOUND', '实例不存在');
      const now = this.deps.now();
      await tx
        .update(instances)
        .set({
          status: 'DestroyStarted',
          operation: 'release',
          operationMode: null,
          operationStartedAt: now,
          operationAttempts: 0,
          operationLeaseUntil: null,
          updatedAt: now,
        })
        .where(eq(instances.id, instance.id));
      await this.recordEvent(tx, instance.id, 'RELEASE', instance.status, 'DestroyStarted', '释放实例，系统盘与数据盘数据将被删除', principal.userId);
    });
    this.deps.compute.wake();
  }

  async rename(principal: Principal, input: { instanceId: string; name: string }): Promise<InstanceView> {
    await this.db.transaction(async (tx) => {
      const instance = await this.lockOwned(tx, principal, input.instanceId, 'rename');
      await tx.update(instances).set({ name: input.name.trim(), updatedAt: this.deps.now() }).where(eq(instances.id, instance.id));
    });
    return this.get(principal, input.instanceId);
  }

  /** Sets the root password in the running machine first, then keeps it (sealed) for the owner to read. */
  async updatePassword(principal: Principal, input: { instanceId: string; password: string }): Promise<void> {
    const instance = await this.db.transaction((tx) => this.lockOwned(tx, principal, input.instanceId, 'update_pwd'));
    try {
      await this.deps.compute.driver.setPassword(instance.instanceId, input.password);
    } catch (error) {
      if (error instanceof DriverError) throw new AppError('SERVICE_UNAVAILABLE', `修改密码失败：${error.message}，请稍后再试`);
      throw error;
    }
    await this.db
      .update(instances)
      .set({ rootPasswordEnc: sealRootPassword(this.deps.config.jwtSecret, input.password), updatedAt: this.deps.now() })
      .where(eq(instances.id, instance.id));
  }

  async revealPassword(principal: Principal, instanceId: string): Promise<{ password: string }> {
    const [instance] = await this.db
      .select()
      .from(instances)
      .where(and(ownedBy(principal, 'CONTAINER', instances), eq(instances.instanceId, instanceId), isNull(instances.releasedAt)));
    if (!instance) throw new AppError('NOT_FOUND', '实例不存在');
    assertAllowed(instance, 'reveal_pwd');
    return { password: openRootPassword(this.deps.config.jwtSecret, instance.rootPasswordEnc) };
  }

  /** The instance's history, newest first. */
  async events(principal: Principal, instanceId: string) {
    const [instance] = await this.db
      .select({ id: instances.id })
      .from(instances)
      .where(and(ownedBy(principal, 'CONTAINER', instances), eq(instances.instanceId, instanceId)));
    if (!instance) throw new AppError('NOT_FOUND', '实例不存在');
    const rows = await this.db
      .select()
      .from(instanceEvents)
      .where(eq(instanceEvents.instanceRowId, instance.id))
      .orderBy(desc(instanceEvents.createdAt), desc(instanceEvents.id))
      .limit(100);
    return rows.map((row) => ({
      type: row.type,
      fromStatus: row.fromStatus,
      toStatus: row.toStatus,
      detail: row.detail,
      byPlatform: row.actorId === null,
      createdAt: row.createdAt.toISOString(),
    }));
  }
}
