import { and, asc, eq, isNotNull, isNull, lte, or } from 'drizzle-orm';
import { AUTO_RELEASE_DAYS, formatYuan, SYSTEM_DISK_GB, USAGE_CHARGING_RULE_ID } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Transaction } from '../../db/client.js';
import { instances, wallets } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { OrderService } from '../billing/orders.js';
import { chinaDateTime, NotificationService } from '../notifications/service.js';
import type { InstanceRow } from './metering.js';
import { RentalService } from './service.js';

const DAY_MS = 86_400_000;
const AUTO_RELEASE_MS = AUTO_RELEASE_DAYS * DAY_MS;
/** Kept instances handled per pass (the rest wait for the next one). */
const RETENTION_BATCH = 200;

/** What keeping an instance costs per day: all its disks, system and data, at the disk price. */
export function retentionRateFenPerDay(dataDiskGb: number, priceFenPerGbDay: number): number {
  return (SYSTEM_DISK_GB + dataDiskGb) * priceFenPerGbDay;
}

function label(instance: Pick<InstanceRow, 'name' | 'instanceId'>): string {
  return `「${instance.name}」（${instance.instanceId}）`;
}

/**
 * 保留实例 (docs/decisions.md "Keeping an instance that stays off"): a pay-as-you-go instance off for
 * AUTO_RELEASE_DAYS is released unless the user turned 保留 on; then, from that day, its disks' storage
 * is paid a day at a time in advance from the balance, and it stays. A balance that cannot pay the next
 * day ends the keeping, and the release job releases it (a notice names what is lost).
 */
export class RetentionService {
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

  private get price(): number {
    return this.deps.config.compute.diskPriceFenPerGbDay;
  }

  async setKeep(principal: Principal, input: { instanceId: string; keep: boolean }): Promise<{ keepWhenOff: boolean; rateFenPerDay: number }> {
    const rate = await this.db.transaction(async (tx) => {
      const instance = await this.rental.lockOwned(tx, principal, input.instanceId, 'keep_when_off');
      if (instance.chargingRuleId !== USAGE_CHARGING_RULE_ID) throw new AppError('VALIDATION', '包年包月实例到期前不会被自动释放，无需保留');
      if (instance.keepWhenOff !== input.keep) {
        await tx.update(instances).set({ keepWhenOff: input.keep, updatedAt: this.deps.now() }).where(eq(instances.id, instance.id));
        const daily = formatYuan(retentionRateFenPerDay(instance.dataDiskGb, this.price));
        await this.rental.recordEvent(
          tx,
          instance.id,
          'RELEASE',
          instance.status,
          instance.status,
          input.keep ? `开启保留实例：关机满${AUTO_RELEASE_DAYS}天后按每天${daily}保留，不自动释放` : '关闭保留实例：已付费的保留天数用完后，关机满期将自动释放',
          principal.userId,
        );
      }
      return retentionRateFenPerDay(instance.dataDiskGb, this.price);
    });
    return { keepWhenOff: input.keep, rateFenPerDay: rate };
  }

  /**
   * Pays the next day (and any day missed while the job was down) of every kept instance whose paid
   * time is up; each instance in its own transaction, taken `SKIP LOCKED` so two processes never pay one
   * twice. Runs before the release pass, which then releases what could not be paid.
   */
  async retainDue(): Promise<{ retained: number; stopped: number }> {
    const now = this.deps.now();
    const releaseBefore = new Date(now.getTime() - AUTO_RELEASE_MS);
    const due = await this.db
      .select({ id: instances.id })
      .from(instances)
      .where(this.dueCondition(now, releaseBefore))
      .orderBy(asc(instances.poweredOffAt))
      .limit(RETENTION_BATCH);
    const result = { retained: 0, stopped: 0 };
    for (const { id } of due) {
      const outcome = await this.db.transaction(async (tx) => {
        const [instance] = await tx
          .select()
          .from(instances)
          .where(and(eq(instances.id, id), this.dueCondition(now, releaseBefore)))
          .for('update', { skipLocked: true });
        return instance ? this.payDays(tx, instance, now) : null;
      });
      if (outcome) result[outcome] += 1;
    }
    if (result.stopped > 0) await this.notifications.deliverSms();
    return result;
  }

  private dueCondition(now: Date, releaseBefore: Date) {
    return and(
      eq(instances.keepWhenOff, true),
      eq(instances.status, 'PoweredOff'),
      isNull(instances.releasedAt),
      isNull(instances.operation),
      isNotNull(instances.poweredOffAt),
      eq(instances.chargingRuleId, USAGE_CHARGING_RULE_ID),
      lte(instances.poweredOffAt, releaseBefore),
      or(isNull(instances.retainedUntil), lte(instances.retainedUntil, now)),
    );
  }

  private async payDays(tx: Transaction, instance: InstanceRow, now: Date): Promise<'retained' | 'stopped'> {
    const releaseAt = (instance.poweredOffAt?.getTime() ?? now.getTime()) + AUTO_RELEASE_MS;
    const from = Math.max(releaseAt, instance.retainedUntil?.getTime() ?? 0);
    const days = Math.max(1, Math.ceil((now.getTime() - from) / DAY_MS + Number.EPSILON));
    const rate = retentionRateFenPerDay(instance.dataDiskGb, this.price);
    const amount = rate * days;
    const until = new Date(from + days * DAY_MS);
    const [wallet] = await tx.select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, instance.walletId)).for('update');
    if (!wallet || wallet.balance < amount) {
      await tx.update(instances).set({ keepWhenOff: false, updatedAt: now }).where(eq(instances.id, instance.id));
      const reason = `账户余额不足以支付保留费用（每天${formatYuan(rate)}），保留实例已停止`;
      await this.rental.recordEvent(tx, instance.id, 'RELEASE', instance.status, instance.status, reason, null);
      await this.notifications.record(tx, [
        {
          ownerId: instance.ownerId,
          creatorId: instance.creatorId,
          recipientId: instance.walletId,
          kind: 'RELEASE_REMINDER',
          title: '余额不足，实例不再保留',
          body: `实例${label(instance)}已关机满${AUTO_RELEASE_DAYS}天，${reason}，将被自动释放，系统盘和数据盘的数据将被删除且无法恢复。`,
          instanceRowId: instance.id,
          dedupeKey: `retention-stopped:${instance.id}:${from}`,
        },
      ]);
      return 'stopped';
    }
    let orderId = instance.retentionOrderId;
    if (orderId === null) {
      const order = await this.orders.open(tx, {
        ownerId: instance.ownerId,
        creatorId: instance.creatorId,
        walletId: instance.walletId,
        type: 'NEW_STORAGE',
        billingType: 'USAGE',
        title: `保留实例 ${instance.name}（关机超过${AUTO_RELEASE_DAYS}天，按磁盘容量计费）`,
        items: [
          {
            name: `系统盘 ${SYSTEM_DISK_GB} GB + 数据盘 ${instance.dataDiskGb} GB`,
            spec: instance.instanceId,
            quantity: 1,
            unit: '天',
            unitPriceFen: rate,
            amountFen: 0,
          },
        ],
        resourceType: 'INSTANCE',
        resourceId: instance.uid,
      });
      orderId = order.id;
    }
    if (amount > 0) {
      await this.orders.postMetered(tx, { walletId: instance.walletId, amountFen: amount, description: `保留实例：${instance.name}（${instance.instanceId}）${days}天`, orderId });
    }
    await tx.update(instances).set({ retainedUntil: until, retentionOrderId: orderId, updatedAt: now }).where(eq(instances.id, instance.id));
    await this.rental.recordEvent(tx, instance.id, 'RELEASE', instance.status, instance.status, `保留实例：支付${days}天保留费用${formatYuan(amount)}，保留至${chinaDateTime(until)}`, null);
    return 'retained';
  }
}
