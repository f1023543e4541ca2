import { rentedBy } from './scope.js';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, ne, sql } from 'drizzle-orm';
import {
  formatYuan,
  isPackageCount,
  packageEnd,
  packageKeyOfRule,
  packageRefund,
  packageUsedFen,
  PACKAGE_LABELS,
  PACKAGE_UNIT_LABELS,
  TIME_PACKAGE_KEYS,
  USAGE_CHARGING_RULE_ID,
  type PackageKey,
} from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Executor, Transaction } from '../../db/client.js';
import { gpuModels, hosts, instances, orders } from '../../db/schema/index.js';
import { ownershipFor } from '../../db/scope.js';
import { AppError } from '../../core/errors.js';
import { assertAllowed, RUNNING_STATUSES } from './state-machine.js';
import type { Principal } from '../../core/principal.js';
import { OrderService, type Order } from '../billing/orders.js';
import { chinaDateTime, NotificationService, type NewNotification } from '../notifications/service.js';
import { settleRun, type InstanceRow } from './metering.js';
import { hourlyRateFen, usagePricePerGpuFen, type PriceSource } from './pricing.js';
import { chargingOf, packagePrice, RentalService } from './service.js';
import { priceSourceOf } from './views.js';

/** Instances one batch renewal may name. */
export const MAX_RENEW_BATCH = 50;
/** Expired packages handled per pass of the expiry job (the rest wait for the next minute). */
const EXPIRY_BATCH = 200;

/** The orders whose cash a package holds: what switching it to pay-as-you-go refunds from. */
const PACKAGE_ORDER_TYPES = ['NEW_PURCHASE', 'RENEWAL_CONTAINER', 'SWITCH_TO_BUYOUT', 'UPGRADE_CONTAINER'] as const;

export interface RenewInput {
  instanceIds: string[];
  rentAmount: number;
  voucherId?: number | null | undefined;
}

export interface RenewLine {
  instanceId: string;
  name: string;
  packageName: string;
  amount: number;
  /** The package's end after this renewal. */
  expiresAt: string;
}

function label(instance: Pick<InstanceRow, 'name' | 'instanceId'>): string {
  return `「${instance.name}」（${instance.instanceId}）`;
}

function packageOf(instance: InstanceRow): PackageKey | null {
  return instance.expiresAt ? packageKeyOfRule(instance.chargingRuleId) : null;
}

/**
 * Day / week / month packages (DESIGN §7, docs/decisions.md "Packages"): renewals, switching between a
 * package and pay-as-you-go with the refund previewed as applied, auto-renewal and the expiry job.
 * Every change of money is an order paid or refunded in the same transaction as the instance change.
 */
export class PackageService {
  private readonly rental: RentalService;
  private readonly orders: OrderService;
  private readonly notifications: NotificationService;

  constructor(private readonly deps: AppDeps) {
    this.rental = new RentalService(deps);
    this.orders = new OrderService(deps.now);
    this.notifications = new NotificationService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  /** The price sources of these hosts, in one query. */
  private async priceSources(executor: Executor, hostIds: string[]): Promise<Map<string, PriceSource>> {
    const rows = await executor
      .select({ host: hosts, modelPrice: gpuModels.pricePerHourFen })
      .from(hosts)
      .innerJoin(gpuModels, eq(gpuModels.id, hosts.gpuModelId))
      .where(inArray(hosts.id, [...new Set(hostIds)]));
    return new Map(rows.map((row) => [row.host.id, priceSourceOf(row.host, row.modelPrice)]));
  }

  private usageRate(source: PriceSource, instance: InstanceRow): number {
    return hourlyRateFen(source, instance.gpuNum, 'gpu', this.deps.config.compute.noGpuPriceFen);
  }

  // ---- renewal ------------------------------------------------------------------------------------

  /**
   * The instances of a renewal, locked in id order (two batches naming the same instances never
   * deadlock), each checked: the caller's, a package, in a state that can be renewed, and sold for
   * `rentAmount` periods. Then what each renewal costs and when it would end.
   */
  private async renewalLines(executor: Executor, principal: Principal, input: RenewInput, lock: boolean) {
    const ids = [...new Set(input.instanceIds)];
    if (ids.length !== input.instanceIds.length) throw new AppError('VALIDATION', '实例列表中有重复的实例');
    if (input.voucherId && ids.length > 1) throw new AppError('VALIDATION', '批量续费不能使用代金券，请逐台续费以使用代金券');
    const query = executor
      .select()
      .from(instances)
      .where(and(rentedBy(principal), inArray(instances.instanceId, ids), isNull(instances.releasedAt)))
      .orderBy(asc(instances.id));
    const rows = lock ? await query.for('update') : await query;
    const missing = ids.filter((id) => !rows.some((row) => row.instanceId === id));
    if (missing.length > 0) throw new AppError('NOT_FOUND', `实例不存在：${missing.join('、')}`);
    const sources = await this.priceSources(executor, rows.map((row) => row.hostId));
    return rows.map((instance) => {
      const key = packageOf(instance);
      if (!key || !instance.expiresAt) {
        throw new AppError('VALIDATION', `实例${label(instance)}为按量计费，无需续费；如需包日、包周、包月，请使用「转包年包月」`);
      }
      assertAllowed(instance, 'renew');
      if (!isPackageCount(key, input.rentAmount)) {
        throw new AppError('VALIDATION', `实例${label(instance)}为${PACKAGE_LABELS[key]}，不能续费 ${input.rentAmount} ${PACKAGE_UNIT_LABELS[key]}`);
      }
      const source = sources.get(instance.hostId);
      if (!source) throw new AppError('STATE_CONFLICT', `实例${label(instance)}所在主机已下架，无法续费`);
      const price = packagePrice(source, instance.chargingRuleId, instance.gpuNum, input.rentAmount);
      return { instance, key, price, expiresAt: packageEnd(instance.expiresAt, key, input.rentAmount) };
    });
  }

  async renewPrepay(principal: Principal, input: RenewInput): Promise<{ amount: number; discount: number; payable: number; items: RenewLine[] }> {
    const owner = ownershipFor(principal, 'CONTAINER');
    const lines = await this.renewalLines(this.db, principal, input, false);
    const amount = lines.reduce((total, line) => total + line.price.totalFen, 0);
    const discount = input.voucherId
      ? await this.orders.previewVoucher(this.db, { ownerId: owner.ownerId, type: 'RENEWAL_CONTAINER', amountFen: amount }, input.voucherId)
      : 0;
    return {
      amount,
      discount,
      payable: amount - discount,
      items: lines.map((line) => ({
        instanceId: line.instance.instanceId,
        name: line.instance.name,
        packageName: PACKAGE_LABELS[line.key],
        amount: line.price.totalFen,
        expiresAt: line.expiresAt.toISOString(),
      })),
    };
  }

  /** Renews each instance by `rentAmount` of its own period from its current end: one paid order each, all or none. */
  async renew(tx: Transaction, principal: Principal, input: RenewInput): Promise<{ orderIds: string[] }> {
    const owner = ownershipFor(principal, 'CONTAINER');
    const lines = await this.renewalLines(tx, principal, input, true);
    const orderIds: string[] = [];
    for (const line of lines) {
      const { instance, key, price } = line;
      const opened = await this.orders.open(tx, {
        ownerId: owner.ownerId,
        creatorId: owner.creatorId,
        walletId: instance.walletId,
        type: 'RENEWAL_CONTAINER',
        billingType: 'BUYOUT',
        title: `续费实例 ${instance.name}（${PACKAGE_LABELS[key]} ${input.rentAmount}${PACKAGE_UNIT_LABELS[key]}）`,
        items: [
          {
            name: `${instance.instanceId} 续费`,
            spec: `${instance.gpuNum} 卡，至 ${chinaDateTime(line.expiresAt)}`,
            quantity: input.rentAmount,
            unit: PACKAGE_UNIT_LABELS[key],
            unitPriceFen: price.perPeriodFen,
            amountFen: price.totalFen,
          },
        ],
        resourceType: 'INSTANCE',
        resourceId: instance.uid,
      });
      const paid = await this.rental.payPrepaid(tx, opened, input.voucherId ? { mode: 'use', voucherId: input.voucherId } : { mode: 'none' });
      await this.extend(tx, instance, line.expiresAt, paid, principal.userId, `续费${PACKAGE_LABELS[key]} ${input.rentAmount}${PACKAGE_UNIT_LABELS[key]}`);
      orderIds.push(paid.orderNo);
    }
    return { orderIds };
  }

  private async extend(tx: Transaction, instance: InstanceRow, expiresAt: Date, paid: Order, actorId: number | null, what: string): Promise<void> {
    await tx
      .update(instances)
      .set({ expiresAt, packagePaidFen: instance.packagePaidFen + paid.paidFen, updatedAt: this.deps.now() })
      .where(eq(instances.id, instance.id));
    await this.rental.recordEvent(tx, instance.id, 'CHANGE_CHARGING_RULE', instance.status, instance.status, `${what}，到期时间 ${chinaDateTime(expiresAt)}`, actorId);
  }

  async setAutoRenew(principal: Principal, input: { instanceId: string; autoRenew: boolean }): Promise<void> {
    await this.db.transaction(async (tx) => {
      const instance = await this.rental.lockOwned(tx, principal, input.instanceId, 'auto_renew');
      if (!packageOf(instance)) throw new AppError('VALIDATION', '按量计费实例没有自动续费，转为包日、包周、包月后可开启');
      await tx.update(instances).set({ autoRenew: input.autoRenew, updatedAt: this.deps.now() }).where(eq(instances.id, instance.id));
    });
  }

  // ---- switching ----------------------------------------------------------------------------------

  /** What switching a package to pay-as-you-go would refund now: exactly what `switchToUsage` applies. */
  async refundPreview(principal: Principal, rentalUid: string): Promise<{ paid: number; used: number; refund: number }> {
    const [instance] = await this.db
      .select()
      .from(instances)
      .where(and(rentedBy(principal), eq(instances.uid, rentalUid), isNull(instances.releasedAt)));
    if (!instance) throw new AppError('NOT_FOUND', '实例不存在');
    return this.refundOf(this.db, instance);
  }

  private async refundOf(executor: Executor, instance: InstanceRow): Promise<{ paid: number; used: number; refund: number }> {
    if (!packageOf(instance) || !instance.packageStartedAt) throw new AppError('VALIDATION', '该实例为按量计费，没有可退的包年包月费用');
    const source = (await this.priceSources(executor, [instance.hostId])).get(instance.hostId);
    if (!source) throw new AppError('STATE_CONFLICT', '实例所在主机已下架');
    const hours = {
      startedAt: instance.packageStartedAt,
      pricedHours: instance.packagePricedHours,
      pricedFen: instance.packagePricedFen,
      nextHourMostGpus: instance.packageNextHourMostGpus,
    };
    return packageRefund(instance.packagePaidFen, packageUsedFen(hours, usagePricePerGpuFen(source), instance.gpuNum, this.deps.now()));
  }

  /**
   * `PUT /rental/update_charging_rule`: a package to pay-as-you-go (the unused part refunded to the
   * balance, a metered run opened if it runs, its GPUs back to the host if it is off), or pay-as-you-go
   * to a package (the run so far settled, the package paid, the GPUs taken back if it is off).
   */
  async updateChargingRule(
    tx: Transaction,
    principal: Principal,
    input: { instanceId: string; chargingRuleId: number; rentAmount?: number | undefined },
  ): Promise<{ orderId: string; refund: number; payable: number }> {
    {
      const instance = await this.rental.lockOwned(tx, principal, input.instanceId, 'switch_charging');
      const current = packageOf(instance);
      const target = chargingOf(input.chargingRuleId, input.rentAmount);
      if (target.kind === 'usage') {
        if (!current) throw new AppError('VALIDATION', '实例已是按量计费');
        return this.switchToUsage(tx, instance, principal.userId, '转按量计费');
      }
      if (current) throw new AppError('VALIDATION', `实例已是${PACKAGE_LABELS[current]}，如需更长时间请续费`);
      if (instance.gpuMode === 'nogpu' && instance.status === 'PoweredOnNoGPU') throw new AppError('STATE_CONFLICT', '无卡模式运行中不能转包年包月，请先关机');
      return this.switchToPackage(tx, principal, instance, target.key, target.count);
    }
  }

  /**
   * Ends a package (the instance row locked): refunds `paid − usage price × hours used` from its orders,
   * newest first, opens the SWITCH_TO_USAGE order its metered runs post to, and makes the instance
   * pay-as-you-go. Also what expiry does (with nothing left to refund).
   */
  private async switchToUsage(tx: Transaction, instance: InstanceRow, actorId: number | null, why: string) {
    const now = this.deps.now();
    const { refund } = await this.refundOf(tx, instance);
    if (refund > 0) await this.refundPackageOrders(tx, instance, refund, '转按量计费，退回未使用的包年包月费用');
    const source = (await this.priceSources(tx, [instance.hostId])).get(instance.hostId);
    const rate = source ? this.usageRate(source, instance) : 0;
    const usageOrder = await this.orders.open(tx, {
      ownerId: instance.ownerId,
      creatorId: instance.creatorId,
      walletId: instance.walletId,
      type: 'SWITCH_TO_USAGE',
      billingType: 'USAGE',
      title: `实例 ${instance.name} 转按量计费`,
      items: [{ name: `${instance.instanceId} 按量计费`, spec: `${instance.gpuNum} 卡`, quantity: 1, unit: '时', unitPriceFen: rate, amountFen: 0 }],
      resourceType: 'INSTANCE',
      resourceId: instance.uid,
    });
    const running = (RUNNING_STATUSES as readonly string[]).includes(instance.status) && instance.runStartedAt !== null;
    // Off for good (not merely out of reach, where the machine may still run with its GPUs).
    const off = (instance.status === 'PoweredOff' || instance.status === 'Error') && instance.operation === null;
    if (off && instance.gpuHeld > 0) {
      // A pay-as-you-go instance that is off holds no GPUs.
      await tx
        .update(hosts)
        .set({ gpuAllocated: sql`${hosts.gpuAllocated} - ${instance.gpuHeld}` })
        .where(eq(hosts.id, instance.hostId));
    }
    await tx
      .update(instances)
      .set({
        chargingRuleId: USAGE_CHARGING_RULE_ID,
        expiresAt: null,
        autoRenew: false,
        packagePaidFen: 0,
        packageStartedAt: null,
        packagePricedHours: 0,
        packagePricedFen: 0,
        packageNextHourMostGpus: 0,
        usageOrderId: usageOrder.id,
        ...(running ? { runStartedAt: now, runRateFen: rate, runChargedFen: 0 } : {}),
        ...(off ? { gpuHeld: 0, poweredOffAt: instance.status === 'PoweredOff' ? now : instance.poweredOffAt } : {}),
        updatedAt: now,
      })
      .where(eq(instances.id, instance.id));
    await this.rental.recordEvent(
      tx,
      instance.id,
      'CHANGE_CHARGING_RULE',
      instance.status,
      instance.status,
      refund > 0 ? `${why}，退回${formatYuan(refund)}` : why,
      actorId,
    );
    return { orderId: usageOrder.orderNo, refund, payable: 0 };
  }

  /** Refunds `amount` to the wallet from the package's paid orders, newest first (never the voucher part). */
  async refundPackageOrders(tx: Transaction, instance: InstanceRow, amount: number, reason: string): Promise<void> {
    const paidOrders = await tx
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.resourceType, 'INSTANCE'),
          eq(orders.resourceId, instance.uid),
          inArray(orders.type, [...PACKAGE_ORDER_TYPES]),
          eq(orders.status, 'PAID'),
          ne(orders.paidFen, orders.refundedFen),
        ),
      )
      .orderBy(desc(orders.createdAt), desc(orders.id));
    let left = amount;
    for (const order of paidOrders) {
      if (left <= 0) break;
      const part = Math.min(left, order.paidFen - order.refundedFen);
      if (part <= 0) continue;
      await this.orders.refund(tx, order.id, part, reason);
      left -= part;
    }
    if (left > 0) throw new Error(`package refund of ${instance.instanceId} exceeds its paid orders by ${left} fen`);
  }

  private async switchToPackage(tx: Transaction, principal: Principal, instance: InstanceRow, key: PackageKey, count: number) {
    const now = this.deps.now();
    const found = await this.rental.hostWithModel(tx, instance.hostId).catch(() => {
      throw new AppError('STATE_CONFLICT', '实例所在主机已下架，不能转包年包月');
    });
    const source = priceSourceOf(found.host, found.modelPricePerHourFen);
    const price = packagePrice(source, TIME_PACKAGE_KEYS[key], instance.gpuNum, count);
    const missing = instance.gpuNum - instance.gpuHeld;
    // A package keeps its GPUs reserved while off: an instance that is off takes them back now.
    await this.rental.lockWallet(tx, instance.walletId);
    if (missing > 0) await this.rental.takeGpus(tx, found.host, missing, 0);
    const expiresAt = packageEnd(now, key, count);
    const opened = await this.orders.open(tx, {
      ownerId: instance.ownerId,
      creatorId: instance.creatorId,
      walletId: instance.walletId,
      type: 'SWITCH_TO_BUYOUT',
      billingType: 'BUYOUT',
      title: `实例 ${instance.name} 转${PACKAGE_LABELS[key]}（${count}${PACKAGE_UNIT_LABELS[key]}）`,
      items: [
        {
          name: `${found.gpuModelName} × ${instance.gpuNum}`,
          spec: `${instance.instanceId}，至 ${chinaDateTime(expiresAt)}`,
          quantity: count,
          unit: PACKAGE_UNIT_LABELS[key],
          unitPriceFen: price.perPeriodFen,
          amountFen: price.totalFen,
        },
      ],
      resourceType: 'INSTANCE',
      resourceId: instance.uid,
    });
    const paid = await this.rental.payPrepaid(tx, opened, { mode: 'none' });
    // The metered run so far is charged; a running instance runs on, on the package.
    await settleRun(tx, instance, now, { close: true });
    const running = instance.status === 'PoweredOn';
    await tx
      .update(instances)
      .set({
        chargingRuleId: TIME_PACKAGE_KEYS[key],
        expiresAt,
        packageStartedAt: now,
        packagePricedHours: 0,
        packagePricedFen: 0,
        packageNextHourMostGpus: 0,
        packagePaidFen: paid.paidFen,
        usageOrderId: null,
        gpuHeld: instance.gpuNum,
        ...(running ? { runStartedAt: now, runRateFen: 0, runChargedFen: 0 } : {}),
        updatedAt: now,
      })
      .where(eq(instances.id, instance.id));
    await this.rental.recordEvent(
      tx,
      instance.id,
      'CHANGE_CHARGING_RULE',
      instance.status,
      instance.status,
      `转${PACKAGE_LABELS[key]} ${count}${PACKAGE_UNIT_LABELS[key]}，支付${formatYuan(paid.paidFen)}，到期时间 ${chinaDateTime(expiresAt)}`,
      principal.userId,
    );
    return { orderId: paid.orderNo, refund: 0, payable: paid.paidFen };
  }

  // ---- the expiry job -----------------------------------------------------------------------------

  /**
   * Packages whose time is up: renewed by one period when auto-renew is on and the balance pays it,
   * else switched to pay-as-you-go and, when running, powered off. Each instance in its own
   * transaction, taken `SKIP LOCKED` so two processes never handle one twice; one with an operation in
   * flight waits for the next pass.
   */
  async expirePackages(): Promise<{ renewed: number; expired: number }> {
    const now = this.deps.now();
    const due = await this.db
      .select({ id: instances.id })
      .from(instances)
      .where(and(isNotNull(instances.expiresAt), lte(instances.expiresAt, now), isNull(instances.releasedAt), isNull(instances.operation)))
      .orderBy(asc(instances.expiresAt))
      .limit(EXPIRY_BATCH);
    const result = { renewed: 0, expired: 0 };
    for (const { id } of due) {
      const outcome = await this.db.transaction(async (tx) => {
        const [instance] = await tx
          .select()
          .from(instances)
          .where(and(eq(instances.id, id), isNotNull(instances.expiresAt), lte(instances.expiresAt, now), isNull(instances.releasedAt), isNull(instances.operation)))
          .for('update', { skipLocked: true });
        if (!instance) return null;
        const key = packageOf(instance);
        if (!key || !instance.expiresAt) return null;
        if (instance.autoRenew && (await this.autoRenew(tx, instance, key))) return 'renewed' as const;
        await this.expire(tx, instance, key);
        return 'expired' as const;
      });
      if (outcome) result[outcome] += 1;
    }
    if (result.expired > 0) this.deps.compute.wake();
    await this.notifications.deliverSms();
    return result;
  }

  /** One period more from the current end, paid from the balance; false when the balance is short. */
  private async autoRenew(tx: Transaction, instance: InstanceRow, key: PackageKey): Promise<boolean> {
    if (!instance.expiresAt) return false;
    const source = (await this.priceSources(tx, [instance.hostId])).get(instance.hostId);
    if (!source) return false;
    const price = packagePrice(source, instance.chargingRuleId, instance.gpuNum, 1);
    const expiresAt = packageEnd(instance.expiresAt, key, 1);
    try {
      return await tx.transaction(async (savepoint) => {
        const opened = await this.orders.open(savepoint, {
          ownerId: instance.ownerId,
          creatorId: instance.creatorId,
          walletId: instance.walletId,
          type: 'RENEWAL_CONTAINER',
          billingType: 'BUYOUT',
          title: `自动续费实例 ${instance.name}（${PACKAGE_LABELS[key]} 1${PACKAGE_UNIT_LABELS[key]}）`,
          items: [
            { name: `${instance.instanceId} 自动续费`, spec: `${instance.gpuNum} 卡，至 ${chinaDateTime(expiresAt)}`, quantity: 1, unit: PACKAGE_UNIT_LABELS[key], unitPriceFen: price.perPeriodFen, amountFen: price.totalFen },
          ],
          resourceType: 'INSTANCE',
          resourceId: instance.uid,
        });
        const paid = await this.orders.pay(savepoint, opened.id, { mode: 'none' });
        await this.extend(savepoint, instance, expiresAt, paid, null, `自动续费${PACKAGE_LABELS[key]} 1${PACKAGE_UNIT_LABELS[key]}`);
        await this.notify(savepoint, instance, 'PACKAGE_RENEWED', `实例已自动续费至${chinaDateTime(expiresAt)}`, `实例${label(instance)}的${PACKAGE_LABELS[key]}已到期，已从余额自动续费1${PACKAGE_UNIT_LABELS[key]}（${formatYuan(paid.paidFen)}），新的到期时间为${chinaDateTime(expiresAt)}。`, `renewed:${instance.id}:${instance.expiresAt?.getTime() ?? 0}`);
        return true;
      });
    } catch (error) {
      if (error instanceof AppError && error.codeName === 'INSUFFICIENT_BALANCE') return false;
      throw error;
    }
  }

  private async expire(tx: Transaction, instance: InstanceRow, key: PackageKey): Promise<void> {
    const wasRunning = (RUNNING_STATUSES as readonly string[]).includes(instance.status);
    const reason = `${PACKAGE_LABELS[key]}已于${chinaDateTime(instance.expiresAt ?? this.deps.now())}到期${instance.autoRenew ? '（余额不足，未能自动续费）' : ''}，已关机并转为按量计费`;
    await this.switchToUsage(tx, instance, null, `${PACKAGE_LABELS[key]}到期，转按量计费`);
    if (wasRunning) {
      const [switched] = await tx.select().from(instances).where(eq(instances.id, instance.id));
      if (switched) await this.rental.stopInTransaction(tx, switched, { type: 'EXPIRE', detail: reason, actorId: null, reason });
    } else {
      await this.rental.recordEvent(tx, instance.id, 'EXPIRE', instance.status, instance.status, reason, null);
    }
    await this.notify(
      tx,
      instance,
      'PACKAGE_EXPIRED',
      `${PACKAGE_LABELS[key]}已到期，实例已转为按量计费`,
      `实例${label(instance)}的${PACKAGE_LABELS[key]}已到期${instance.autoRenew ? '，余额不足未能自动续费' : ''}。${wasRunning ? '实例已关机，' : ''}已转为按量计费，GPU不再为其预留；开机后按量计费。关机满15天的按量实例将被自动释放。`,
      `expired:${instance.id}:${instance.expiresAt?.getTime() ?? 0}`,
    );
  }

  private async notify(tx: Transaction, instance: InstanceRow, kind: 'PACKAGE_RENEWED' | 'PACKAGE_EXPIRED', title: string, body: string, dedupeKey: string): Promise<void> {
    const notification: NewNotification = {
      ownerId: instance.ownerId,
      creatorId: instance.creatorId,
      recipientId: instance.walletId,
      kind,
      title,
      body,
      instanceRowId: instance.id,
      dedupeKey,
    };
    await this.notifications.record(tx, [notification]);
  }
}
