import { rentedBy } from './scope.js';
import { usableDatasetIds } from '../datasets/mounts.js';
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
  isPackageCount,
  packageEnd,
  packageKeyOfRule,
  PACKAGE_LABELS,
  PACKAGE_UNIT_LABELS,
  TIME_PACKAGE_COUNTS,
  type GpuMode,
  type PackageKey,
  type Page,
} from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Executor, Transaction } from '../../db/client.js';
import { recordInstanceEvents } from './events.js';
import { gpuModels, hosts, instanceEvents, instances, privateImages, publicImages, wallets, zones } from '../../db/schema/index.js';
import { ownershipFor } from '../../db/scope.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../core/errors.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import { randomPassword } from '../../lib/crypto.js';
import { openRootPassword, sealRootPassword } from './password.js';
import { chinaDateTime } from '../notifications/service.js';
import { DriverError } from '../../compute/driver.js';
import { assertAllowed, RUNNING_STATUSES, type UserAction } from './state-machine.js';
import type { Principal } from '../../core/principal.js';
import { payingWalletOf } from '../billing/ledger.js';
import { OrderService, type Order, type VoucherChoice } from '../billing/orders.js';
import { settleRun, type InstanceRow } from './metering.js';
import { hourlyRateFen, pricePerGpuFen, type PriceSource } from './pricing.js';
import { priceSourceOf, toInstanceView, type InstanceView } from './views.js';
import { runningCopyColumn, runningCopyOf } from './copy-view.js';
import { liveFileStorageColumn } from './file-storage.js';
import { assertNoRunningCopy } from './copy-guard.js';
import { usableImage } from '../images/usable.js';
import { assertVerifiedToCreate } from '../verification/gate.js';
import { beginOperation, beginRelease } from './lifecycle.js';

const AUTO_RELEASE_MS = AUTO_RELEASE_DAYS * 86_400_000;
const MAX_SCHEDULE_AHEAD_DAYS = 30;
const MAX_SCHEDULE_AHEAD_MS = MAX_SCHEDULE_AHEAD_DAYS * 86_400_000;
const INSTANCE_ID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

export interface CreateInstanceInput {
  hostId: string;
  gpuNum: number;
  imageId: string;
  chargingRuleId: number;
  rentAmount?: number | undefined;
  name?: string | undefined;
  voucherId?: number | null | undefined;
  autoRenew?: boolean | undefined;
  /** Shared datasets mounted read-only at /root/slg-pub/<name> (public ones always are). */
  datasetIds?: readonly number[] | undefined;
}

export interface PrepayInput {
  hostId: string;
  gpuNum: number;
  chargingRuleId: number;
  rentAmount?: number | undefined;
  voucherId?: number | null | undefined;
}

/** What a clone is made from: the source (locked by the caller), whether its data disk comes along, whether it is released afterwards. */
export interface CloneOf {
  source: InstanceRow;
  copyData: boolean;
  releasesSource: boolean;
}

function cloneText(clone: CloneOf): string {
  const what = clone.copyData ? '系统盘与数据盘' : '系统盘';
  return `${clone.releasesSource ? '迁移' : '克隆'}自实例「${clone.source.name}」（${clone.source.instanceId}，${what}）`;
}

/** The image a clone's copied system disk was built from: public or private, even one deleted since (only its CUDA matters). */
async function cloneImage(executor: Executor, imageId: string): Promise<{ id: string; name: string; cuda: string }> {
  const [publicImage] = await executor.select({ id: publicImages.id, name: publicImages.name, cuda: publicImages.cuda }).from(publicImages).where(eq(publicImages.id, imageId));
  if (publicImage) return publicImage;
  const [privateImage] = await executor.select({ id: privateImages.imageId, name: privateImages.name, cuda: privateImages.cuda }).from(privateImages).where(eq(privateImages.imageId, imageId));
  if (!privateImage) throw new AppError('STATE_CONFLICT', '源实例的镜像信息已不存在，无法克隆');
  return privateImage;
}

/** How an instance is paid for: metered per second, or `count` periods of a day / week / month package. */
export type Charging = { kind: 'usage' } | { kind: 'package'; key: PackageKey; count: number };

const COUNT_TEXT: Record<PackageKey, string> = {
  day: `包日可选 ${TIME_PACKAGE_COUNTS.day.join('、')} 天`,
  week: `包周可选 ${TIME_PACKAGE_COUNTS.week.join('、')} 周`,
  month: `包月可选 ${TIME_PACKAGE_COUNTS.month.join('、')} 个月`,
};

/** Reads a charging rule and its rent amount; refuses unknown rules, counts a package does not sell, and vouchers on usage. */
export function chargingOf(chargingRuleId: number, rentAmount: number | undefined, voucherId?: number | null): Charging {
  if (chargingRuleId === USAGE_CHARGING_RULE_ID) {
    // Vouchers pay prepaid orders; a metered run has nothing upfront for one to pay.
    if (voucherId !== undefined && voucherId !== null) throw new AppError('VALIDATION', '按量计费不能使用代金券，代金券可用于包日、包周、包月');
    return { kind: 'usage' };
  }
  const key = packageKeyOfRule(chargingRuleId);
  if (!key || !CHARGING_RULES.some((rule) => rule.id === chargingRuleId)) throw new AppError('VALIDATION', '计费方式不正确');
  if (rentAmount === undefined) throw new AppError('VALIDATION', `请选择${PACKAGE_LABELS[key]}时长：${COUNT_TEXT[key]}`);
  if (!isPackageCount(key, rentAmount)) throw new AppError('VALIDATION', `${PACKAGE_LABELS[key]}时长不正确：${COUNT_TEXT[key]}`);
  return { kind: 'package', key, count: rentAmount };
}

/** What `count` periods of a package cost for `gpuNum` GPUs: per period, and in all. */
export function packagePrice(source: PriceSource, chargingRuleId: number, gpuNum: number, count: number): { perPeriodFen: number; totalFen: number } {
  const perPeriodFen = pricePerGpuFen(source, chargingRuleId) * gpuNum;
  return { perPeriodFen, totalFen: perPeriodFen * count };
}

export interface InstanceListQuery extends PageQuery {
  status?: string | undefined;
  name?: string | undefined;
}

/** A host with what pricing and views need from its zone and GPU model. */
export interface HostWithModel {
  host: typeof hosts.$inferSelect;
  zoneName: string;
  zoneEnabled: boolean;
  gpuModelName: string;
  modelPricePerHourFen: number;
}

/** A new instance id: `slg-` and 10 characters that cannot be misread (no l, o, 0, 1). */
export function newInstanceId(): string {
  return `slg-${Array.from({ length: 10 }, () => INSTANCE_ID_ALPHABET[randomInt(INSTANCE_ID_ALPHABET.length)]).join('')}`;
}

/** `%` and `_` typed into a name search are literal. */
function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Container instances (DESIGN §7): what users ask for is written here, in one transaction with its
 * money and its GPUs; the reconciler (reconciler.ts) makes the machines follow.
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
        imageName: sql<string | null>`coalesce(${publicImages.name}, ${privateImages.name})`,
        copyTask: runningCopyColumn(),
        fileStorageLive: liveFileStorageColumn(),
      })
      .from(instances)
      .innerJoin(hosts, eq(hosts.id, instances.hostId))
      .innerJoin(zones, eq(zones.id, instances.zoneId))
      .innerJoin(gpuModels, eq(gpuModels.id, instances.gpuModelId))
      .leftJoin(publicImages, eq(publicImages.id, instances.imageId))
      .leftJoin(privateImages, eq(privateImages.imageId, instances.imageId));
  }

  private toView(row: {
    instance: InstanceRow;
    host: typeof hosts.$inferSelect;
    zoneName: string;
    gpuModelName: string;
    modelPricePerHourFen: number;
    imageName: string | null;
    copyTask: unknown;
    fileStorageLive: boolean;
  }): InstanceView {
    return toInstanceView({
      ...row,
      // A driver that mounts no store (Kubernetes without K8S_STORAGE_CLAIM): no restart would bring it, so none is shown.
      fileStorageLive: row.fileStorageLive && this.deps.compute.driver.mountsFileStorage,
      copyTask: runningCopyOf(row.copyTask),
      noGpuPriceFen: this.deps.config.compute.noGpuPriceFen,
      autoReleaseMs: AUTO_RELEASE_MS,
    });
  }

  private listConditions(principal: Principal, query: Pick<InstanceListQuery, 'status' | 'name'>): SQL {
    // `Running` is the spec's alias of PoweredOn (运行中).
    const status = query.status === 'Running' ? 'PoweredOn' : query.status;
    const conditions: SQL[] = [rentedBy(principal), isNull(instances.releasedAt)];
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

  async hostWithModel(executor: Executor, hostId: string): Promise<HostWithModel> {
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

  private assertGpuNum(host: typeof hosts.$inferSelect, gpuNum: number): void {
    if (gpuNum > host.gpuTotal) throw new AppError('VALIDATION', `该主机最多 ${host.gpuTotal} 卡`);
  }

  /**
   * What creating would charge. Pay-as-you-go: the hourly rate, which the balance must cover for
   * BALANCE_COVER_HOURS (nothing is taken upfront; the run is metered per second). A package: its
   * price, what the chosen voucher takes off, what the balance pays, and when it would end.
   */
  async prepay(principal: Principal, input: PrepayInput, orderType: 'NEW_PURCHASE' | 'CLONE_INSTANCE' = 'NEW_PURCHASE') {
    const owner = ownershipFor(principal, 'CONTAINER');
    const charging = chargingOf(input.chargingRuleId, input.rentAmount, input.voucherId);
    const found = await this.hostWithModel(this.db, input.hostId);
    this.assertGpuNum(found.host, input.gpuNum);
    const source = priceSourceOf(found.host, found.modelPricePerHourFen);
    if (charging.kind === 'package') {
      const { totalFen } = packagePrice(source, input.chargingRuleId, input.gpuNum, charging.count);
      const discount = input.voucherId ? await this.orders.previewVoucher(this.db, { ownerId: owner.ownerId, type: orderType, amountFen: totalFen }, input.voucherId) : 0;
      return {
        amount: totalFen,
        discount,
        payable: totalFen - discount,
        pricePerGpuFen: pricePerGpuFen(source, input.chargingRuleId),
        unit: PACKAGE_UNIT_LABELS[charging.key],
        balanceRequired: totalFen - discount,
        expiresAt: packageEnd(this.deps.now(), charging.key, charging.count).toISOString(),
      };
    }
    const hourly = hourlyRateFen(source, input.gpuNum, 'gpu', this.deps.config.compute.noGpuPriceFen);
    // What the create will check: an hour of this one and of what the wallet already runs.
    const running = await this.committedHourlyFen(this.db, await payingWalletOf(this.db, principal));
    return {
      amount: hourly,
      discount: 0,
      payable: (running + hourly) * BALANCE_COVER_HOURS,
      pricePerGpuFen: pricePerGpuFen(source, input.chargingRuleId),
      unit: '时',
      balanceRequired: (running + hourly) * BALANCE_COVER_HOURS,
      expiresAt: null,
    };
  }

  /**
   * Pays a prepaid order from the wallet (and the voucher, if one is chosen) in the caller's
   * transaction; a short balance is refused with what is needed and what there is.
   */
  async payPrepaid(tx: Transaction, order: Order, voucher: VoucherChoice): Promise<Order> {
    try {
      return await this.orders.pay(tx, order.id, voucher);
    } catch (error) {
      if (!(error instanceof AppError) || error.codeName !== 'INSUFFICIENT_BALANCE') throw error;
      const [wallet] = await tx.select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, order.walletId));
      throw new AppError('INSUFFICIENT_BALANCE', `账户余额不足：需支付${formatYuan(order.originalAmountFen)}（代金券抵扣后以实付为准），当前余额${formatYuan(wallet?.balance ?? 0)}，请先充值`);
    }
  }

  // ---- creating -----------------------------------------------------------------------------------

  /**
   * Locks the paying wallet and refuses when it cannot pay BALANCE_COVER_HOURS of everything it would
   * then be running: its pay-as-you-go instances that run or are being created or powered on, plus
   * `rateFen`. The wallet lock comes first, so two creates of one wallet are decided one after the
   * other, the second counting the first (without it, one hour's balance started 20 instances at once).
   */
  async assertBalanceCovers(tx: Transaction, walletId: number, rateFen: number, what: string): Promise<void> {
    const [wallet] = await tx.select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, walletId)).for('update');
    const running = await this.committedHourlyFen(tx, walletId);
    const needed = (running + rateFen) * BALANCE_COVER_HOURS;
    if (!wallet || wallet.balance < needed) {
      const others = running > 0 ? `（含其他运行中按量实例${formatYuan(running)}/时）` : '';
      throw new AppError(
        'INSUFFICIENT_BALANCE',
        `账户余额不足：${what}需要余额至少可支付${BALANCE_COVER_HOURS}小时（${formatYuan(needed)}${others}），当前余额${formatYuan(wallet?.balance ?? 0)}，请先充值`,
      );
    }
  }

  /** Fen per hour the wallet's pay-as-you-go instances cost while they run, counting those being created or powered on. */
  private async committedHourlyFen(executor: Executor, walletId: number): Promise<number> {
    const pendingRate = sql`case when ${instances.operationMode} = 'nogpu' then ${this.deps.config.compute.noGpuPriceFen}
      else coalesce(${hosts.usagePriceFen}, ${gpuModels.pricePerHourFen}) * ${instances.gpuNum} end`;
    const [row] = await executor
      .select({
        fen: sql<number>`coalesce(sum(case
          when ${instances.runStartedAt} is not null then ${instances.runRateFen}
          when ${instances.operation} in ('create', 'power_on') then ${pendingRate}
          else 0 end), 0)::float8`,
      })
      .from(instances)
      .innerJoin(hosts, eq(hosts.id, instances.hostId))
      .innerJoin(gpuModels, eq(gpuModels.id, hosts.gpuModelId))
      .where(and(eq(instances.walletId, walletId), eq(instances.chargingRuleId, USAGE_CHARGING_RULE_ID), isNull(instances.releasedAt)));
    return Number(row?.fen ?? 0);
  }

  /**
   * Locks the paying wallet. Whatever both pays and takes GPUs locks the wallet first, as `create`
   * does, so two such transactions of one user never wait on each other in opposite orders.
   */
  async lockWallet(tx: Transaction, walletId: number): Promise<void> {
    await tx.select({ id: wallets.accountId }).from(wallets).where(eq(wallets.accountId, walletId)).for('update');
  }

  /** Takes GPUs (and disk) from a host by one conditional update; refuses with what is free. */
  async takeGpus(tx: Transaction, host: typeof hosts.$inferSelect, gpuNum: number, diskGb: number): Promise<void> {
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
  async create(tx: Transaction, principal: Principal, input: CreateInstanceInput, clone?: CloneOf) {
    const owner = ownershipFor(principal, 'CONTAINER');
    await assertVerifiedToCreate(tx, this.deps.config, principal);
    const charging = chargingOf(input.chargingRuleId, input.rentAmount, input.voucherId);
    const found = await this.hostWithModel(tx, input.hostId);
    this.assertGpuNum(found.host, input.gpuNum);
    // A public image, or a ready private image of the caller's account or shared with it; a clone
    // copies its source's system disk, built from whatever image the source runs.
    const image = clone ? await cloneImage(tx, clone.source.imageId) : await usableImage(tx, principal, input.imageId);
    if (!imageRunsOnHost(image.cuda, found.host.cudaVersion)) {
      throw new AppError('VALIDATION', `镜像需要 CUDA ${image.cuda}，该主机驱动最高支持 CUDA ${found.host.cudaVersion}，请选择 CUDA 版本不高于 ${found.host.cudaVersion} 的镜像或其他主机`);
    }

    // A clone that names none inherits its source's that are still usable.
    const datasetIds = await usableDatasetIds(tx, principal, input.datasetIds ?? clone?.source.datasetIds ?? [], input.datasetIds === undefined);

    const now = this.deps.now();
    const source = priceSourceOf(found.host, found.modelPricePerHourFen);
    const hourly = hourlyRateFen(source, input.gpuNum, 'gpu', this.deps.config.compute.noGpuPriceFen);
    const walletId = await payingWalletOf(tx, principal);
    if (charging.kind === 'usage') await this.assertBalanceCovers(tx, walletId, hourly, '创建按量计费实例');
    const dataDiskGb = clone?.copyData ? Math.max(FREE_DATA_DISK_GB, clone.source.dataDiskGb) : FREE_DATA_DISK_GB;
    await this.takeGpus(tx, found.host, input.gpuNum, dataDiskGb);
    const expiresAt = charging.kind === 'package' ? packageEnd(now, charging.key, charging.count) : null;

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
      dataDiskGb,
      cloneSourceRowId: clone?.source.id ?? null,
      cloneCopyData: clone?.copyData ?? false,
      cloneReleasesSource: clone?.releasesSource ?? false,
      datasetIds,
      status: 'CreationStarted',
      ...beginOperation('create', now, { mode: 'gpu' }),
      rootPasswordEnc: sealRootPassword(this.deps.config.jwtSecret, password),
      expiresAt,
      autoRenew: charging.kind === 'package' && input.autoRenew === true,
      packageStartedAt: expiresAt ? now : null,
      createdAt: now,
      updatedAt: now,
    });
    const spec = `${found.zoneName} · ${found.host.name} · ${image.name}`;
    if (charging.kind === 'package') {
      const price = packagePrice(source, input.chargingRuleId, input.gpuNum, charging.count);
      const opened = await this.orders.open(tx, {
        ownerId: owner.ownerId,
        creatorId: owner.creatorId,
        walletId,
        type: clone ? 'CLONE_INSTANCE' : 'NEW_PURCHASE',
        billingType: 'BUYOUT',
        title: `${clone ? '克隆' : '新购'}实例 ${instance.name}（${PACKAGE_LABELS[charging.key]} ${charging.count}${PACKAGE_UNIT_LABELS[charging.key]}）`,
        items: [
          { name: `${found.gpuModelName} × ${input.gpuNum}`, spec, quantity: charging.count, unit: PACKAGE_UNIT_LABELS[charging.key], unitPriceFen: price.perPeriodFen, amountFen: price.totalFen },
        ],
        resourceType: 'INSTANCE',
        resourceId: uid,
      });
      const paid = await this.payPrepaid(tx, opened, input.voucherId ? { mode: 'use', voucherId: input.voucherId } : { mode: 'none' });
      await tx.update(instances).set({ packagePaidFen: paid.paidFen }).where(eq(instances.id, instance.id));
      await this.recordEvent(tx, instance.id, 'CREATE', null, 'CreationStarted', `${clone ? cloneText(clone) : '创建实例'}：${found.gpuModelName} × ${input.gpuNum}，${image.name}，${PACKAGE_LABELS[charging.key]} ${charging.count}${PACKAGE_UNIT_LABELS[charging.key]}`, principal.userId);
      return { instanceId: instance.instanceId, rentalId: instance.id, rentalUid: uid, orderId: paid.orderNo };
    }
    const order = await this.orders.open(tx, {
      ownerId: owner.ownerId,
      creatorId: owner.creatorId,
      walletId,
      type: clone ? 'CLONE_INSTANCE' : 'NEW_PURCHASE',
      billingType: 'USAGE',
      title: `${clone ? '克隆' : '新购'}实例 ${instance.name}（按量计费）`,
      items: [
        {
          name: `${found.gpuModelName} × ${input.gpuNum}`,
          spec,
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
    await this.recordEvent(tx, instance.id, 'CREATE', null, 'CreationStarted', `${clone ? cloneText(clone) : '创建实例'}：${found.gpuModelName} × ${input.gpuNum}，${image.name}`, principal.userId);
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
    await recordInstanceEvents(executor, [{ instanceRowId, type, fromStatus, toStatus, detail, actorId }], this.deps.now());
  }

  // ---- operations ---------------------------------------------------------------------------------

  /** The caller's instance, locked for the rest of the transaction (404 for anyone else's). */
  async lockOwned(tx: Transaction, principal: Principal, instanceId: string, action: UserAction): Promise<InstanceRow> {
    const [instance] = await tx
      .select()
      .from(instances)
      .where(and(rentedBy(principal), eq(instances.instanceId, instanceId), isNull(instances.releasedAt)))
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
      const prepaid = instance.chargingRuleId !== USAGE_CHARGING_RULE_ID;
      // A package's GPUs stay reserved while it is off, and its time is paid: no-GPU mode saves nothing.
      if (prepaid && input.mode === 'nogpu') throw new AppError('VALIDATION', '包年包月实例开机使用已预留的GPU，不提供无卡模式');
      const source = priceSourceOf(found.host, found.modelPricePerHourFen);
      const rate = hourlyRateFen(source, instance.gpuNum, input.mode, this.deps.config.compute.noGpuPriceFen);
      if (!prepaid) await this.assertBalanceCovers(tx, instance.walletId, rate, input.mode === 'nogpu' ? '无卡模式开机' : '开机');
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
          ...beginOperation('power_on', now, { mode: input.mode }),
          statusReason: null,
        })
        .where(eq(instances.id, instance.id));
      await this.recordEvent(tx, instance.id, 'POWER_ON', instance.status, instance.status, input.mode === 'nogpu' ? '无卡模式开机' : '开机', principal.userId);
    });
    this.deps.compute.wake();
    return this.get(principal, input.instanceId);
  }

  /** Powers off now, or at `at` (a scheduled power-off the instance shows until it fires or is cancelled). */
  async powerOff(principal: Principal, input: { instanceId: string; at?: Date | undefined }): Promise<InstanceView> {
    const { at } = input;
    if (at) {
      const now = this.deps.now();
      if (at.getTime() <= now.getTime() + 60_000) throw new AppError('VALIDATION', '定时关机时间须晚于当前时间至少1分钟');
      if (at.getTime() > now.getTime() + MAX_SCHEDULE_AHEAD_MS) throw new AppError('VALIDATION', `定时关机时间不能晚于${MAX_SCHEDULE_AHEAD_DAYS}天后`);
      await this.db.transaction(async (tx) => {
        const instance = await this.lockOwned(tx, principal, input.instanceId, 'schedule_power_off');
        await tx.update(instances).set({ scheduledPowerOffAt: at, updatedAt: now }).where(eq(instances.id, instance.id));
        await this.recordEvent(tx, instance.id, 'SCHEDULED_POWER_OFF', instance.status, instance.status, `设置定时关机：${chinaDateTime(at)}`, principal.userId);
      });
      return this.get(principal, input.instanceId);
    }
    await this.db.transaction(async (tx) => {
      const instance = await this.lockOwned(tx, principal, input.instanceId, 'power_off');
      await this.stopInTransaction(tx, instance, { type: 'POWER_OFF', detail: '关机', actorId: principal.userId, reason: null });
    });
    this.deps.compute.wake();
    return this.get(principal, input.instanceId);
  }

  async cancelScheduledPowerOff(principal: Principal, instanceId: string): Promise<InstanceView> {
    await this.db.transaction(async (tx) => {
      const instance = await this.lockOwned(tx, principal, instanceId, 'cancel_power_off');
      if (!instance.scheduledPowerOffAt) throw new AppError('STATE_CONFLICT', '该实例没有定时关机');
      await tx.update(instances).set({ scheduledPowerOffAt: null, updatedAt: this.deps.now() }).where(eq(instances.id, instance.id));
      await this.recordEvent(tx, instance.id, 'SCHEDULED_POWER_OFF', instance.status, instance.status, `取消定时关机（原定${chinaDateTime(instance.scheduledPowerOffAt)}）`, principal.userId);
    });
    return this.get(principal, instanceId);
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
        ...beginOperation('power_off', now),
        statusReason: cause.reason,
        scheduledPowerOffAt: null,
      })
      .where(eq(instances.id, instance.id));
    await this.recordEvent(tx, instance.id, cause.type, instance.status, instance.status, cause.detail, cause.actorId);
  }

  /** Releases a stopped instance: the machine and its data are deleted; the record stays. */
  async release(principal: Principal, input: { instanceId: string; rentalId?: number | undefined }): Promise<void> {
    await this.db.transaction(async (tx) => {
      const instance = await this.lockOwned(tx, principal, input.instanceId, 'release');
      if (input.rentalId !== undefined && input.rentalId !== instance.id) throw new AppError('NOT_FOUND', '实例不存在');
      await assertNoRunningCopy(tx, instance.id, 'release');
      const now = this.deps.now();
      if (instance.expiresAt && instance.expiresAt.getTime() > now.getTime()) {
        throw new AppError('STATE_CONFLICT', `包年包月实例在到期（${chinaDateTime(instance.expiresAt)}）前不能释放：请先转为按量计费（未使用部分退回余额），再释放`);
      }
      await beginRelease(tx, [instance], now, { detail: '释放实例，系统盘与数据盘数据将被删除', actorId: principal.userId });
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
      .where(and(rentedBy(principal), eq(instances.instanceId, instanceId), isNull(instances.releasedAt)));
    if (!instance) throw new AppError('NOT_FOUND', '实例不存在');
    assertAllowed(instance, 'reveal_pwd');
    return { password: openRootPassword(this.deps.config.jwtSecret, instance.rootPasswordEnc) };
  }

  /** The instance's history, newest first. */
  async events(principal: Principal, instanceId: string) {
    const [instance] = await this.db
      .select({ id: instances.id })
      .from(instances)
      .where(and(rentedBy(principal), eq(instances.instanceId, instanceId)));
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
