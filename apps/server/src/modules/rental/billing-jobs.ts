import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, notExists, or } from 'drizzle-orm';
import { AUTO_RELEASE_DAYS, formatYuan, RELEASE_WARNING_DAYS, USAGE_CHARGING_RULE_ID } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import { copyTasks, instances, wallets } from '../../db/schema/index.js';
import { assertAllowed, RUNNING_STATUSES } from './state-machine.js';
import { chinaDateTime, NotificationService, type NewNotification } from '../notifications/service.js';
import { meterOpenRuns, type InstanceRow, type MeteringPassResult } from './metering.js';
import { RentalService } from './service.js';
import { RetentionService } from './retention.js';
import { beginRelease } from './lifecycle.js';
import { ElasticService } from '../elastic/service.js';

const DAY_MS = 86_400_000;
/** What an instance powered off for arrears shows, and what its events and notification say. */
export const ARREARS_REASON = '账户余额不足，已自动关机';
/** What an elastic deployment stopped for arrears shows. */
export const ELASTIC_ARREARS_REASON = '账户余额不足，部署已自动停止';
export const AUTO_RELEASE_REASON = `关机已满${AUTO_RELEASE_DAYS}天，已自动释放`;

export interface ArrearsResult {
  /** Wallets below zero whose running instances were powered off. */
  wallets: number;
  /** Instances powered off. */
  instances: number;
  /** Elastic deployments stopped. */
  deployments?: number;
}

export interface ReleaseResult {
  /** Reminders recorded (3 and 1 days before). */
  reminded: number;
  /** Instances whose release was started. */
  released: number;
}

function instanceLabel(instance: Pick<InstanceRow, 'name' | 'instanceId'>): string {
  return `「${instance.name}」（${instance.instanceId}）`;
}

/**
 * The money jobs of instances (DESIGN §7), each safe to run in several processes at once and again
 * after a crash: the metering pass settles every open run; the arrears pass powers off the running
 * pay-as-you-go instances of wallets below zero; the release pass reminds, then releases, instances
 * powered off for AUTO_RELEASE_DAYS. Notifications are recorded with their cause and their SMS sent
 * after it committed.
 */
export class InstanceBillingJobs {
  private readonly rental: RentalService;
  private readonly notifications: NotificationService;

  constructor(private readonly deps: AppDeps) {
    this.rental = new RentalService(deps);
    this.notifications = new NotificationService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  /** The minute's job: settle every open run, then power off what wallets below zero keep running, then text the users. */
  async meterAndEnforce(): Promise<{ metering: MeteringPassResult; arrears: ArrearsResult }> {
    const metering = await this.meter();
    const arrears = await this.powerOffArrears();
    await this.notifications.deliverSms();
    return { metering, arrears };
  }

  meter(): Promise<MeteringPassResult> {
    return meterOpenRuns(this.db, this.deps.now());
  }

  /**
   * Every wallet below zero powers off its running pay-as-you-go instances: per wallet one transaction
   * locks them (instance rows first, then the wallet, as a user's power-off does), checks the balance is
   * still below zero, and stops each through the same path as a power-off (the run's last settlement,
   * operation power_off, the reason the instance shows, event ARREARS_POWER_OFF), with a notification.
   */
  async powerOffArrears(): Promise<ArrearsResult> {
    const runningUsage = and(
      // Elastic containers stop with their deployment (stopInArrears).
      isNull(instances.deploymentRowId),
      isNotNull(instances.runStartedAt),
      isNull(instances.operation),
      isNull(instances.releasedAt),
      eq(instances.chargingRuleId, USAGE_CHARGING_RULE_ID),
      inArray(instances.status, [...RUNNING_STATUSES]),
    );
    const inArrears = await this.db
      .selectDistinct({ walletId: instances.walletId })
      .from(instances)
      .innerJoin(wallets, eq(wallets.accountId, instances.walletId))
      .where(and(runningUsage, lt(wallets.balanceFen, 0)))
      .orderBy(asc(instances.walletId));

    const result: ArrearsResult = { wallets: 0, instances: 0 };
    for (const { walletId } of inArrears) {
      const stopped = await this.db.transaction(async (tx) => {
        const running = await tx
          .select()
          .from(instances)
          .where(and(eq(instances.walletId, walletId), runningUsage))
          .orderBy(asc(instances.id))
          .for('update');
        if (running.length === 0) return 0;
        const [wallet] = await tx.select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, walletId)).for('update');
        if (!wallet || wallet.balance >= 0) return 0;
        for (const instance of running) {
          assertAllowed(instance, 'power_off');
          await this.rental.stopInTransaction(tx, instance, { type: 'ARREARS_POWER_OFF', detail: ARREARS_REASON, actorId: null, reason: ARREARS_REASON });
        }
        // The balance after the runs' last settlements.
        const [after] = await tx.select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, walletId));
        const at = chinaDateTime(this.deps.now());
        await this.notifications.record(
          tx,
          running.map(
            (instance): NewNotification => ({
              ownerId: instance.ownerId,
              creatorId: instance.creatorId,
              recipientId: walletId,
              kind: 'ARREARS_POWER_OFF',
              title: '账户余额不足，实例已自动关机',
              body: `实例${instanceLabel(instance)}因账户余额不足（当前余额${formatYuan(after?.balance ?? wallet.balance)}）已于${at}自动关机并停止计费。请充值后重新开机；关机满${AUTO_RELEASE_DAYS}天的实例将被自动释放，数据将被删除。`,
              instanceRowId: instance.id,
              // One run is powered off for arrears at most once.
              dedupeKey: `arrears:${instance.id}:${instance.runStartedAt?.getTime() ?? 0}`,
            }),
          ),
        );
        return running.length;
      });
      if (stopped > 0) {
        result.wallets += 1;
        result.instances += stopped;
      }
    }
    if (result.instances > 0) this.deps.compute.wake();
    result.deployments = await new ElasticService(this.deps).stopInArrears(ELASTIC_ARREARS_REASON);
    return result;
  }

  /**
   * Scheduled power-offs whose time has come: a running instance is stopped through the same path as
   * a power-off (event SCHEDULED_POWER_OFF); one that is no longer running just loses the schedule; one
   * with an operation in flight waits for the next pass. Each instance is taken `SKIP LOCKED`, so two
   * processes never stop one twice.
   */
  async powerOffScheduled(): Promise<number> {
    const now = this.deps.now();
    const stopped = await this.db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(instances)
        .where(and(isNotNull(instances.scheduledPowerOffAt), lte(instances.scheduledPowerOffAt, now), isNull(instances.operation)))
        .orderBy(asc(instances.scheduledPowerOffAt))
        .limit(500)
        .for('update', { skipLocked: true });
      let count = 0;
      for (const instance of due) {
        if (!instance.releasedAt && (RUNNING_STATUSES as readonly string[]).includes(instance.status)) {
          const detail = `定时关机（${chinaDateTime(instance.scheduledPowerOffAt ?? now)}）`;
          await this.rental.stopInTransaction(tx, instance, { type: 'SCHEDULED_POWER_OFF', detail, actorId: null, reason: null });
          count += 1;
        } else {
          await tx.update(instances).set({ scheduledPowerOffAt: null, updatedAt: now }).where(eq(instances.id, instance.id));
        }
      }
      return count;
    });
    if (stopped > 0) this.deps.compute.wake();
    return stopped;
  }

  /**
   * Pay-as-you-go instances powered off AUTO_RELEASE_DAYS in a row are released (the reconciler deletes
   * the machine and its disks); RELEASE_WARNING_DAYS before, the user is reminded — once per reminder
   * and power-off (dedupe key), and only the nearest one when the job was down through an earlier one.
   */
  async releasePoweredOff(): Promise<ReleaseResult> {
    const now = this.deps.now();
    const reminded = await this.remindBeforeRelease(now);
    // Kept instances pay their next day first; what cannot pay is released in the same run.
    await new RetentionService(this.deps).retainDue();
    const released = await this.releaseDue(now);
    await this.notifications.deliverSms();
    return { reminded, released };
  }

  private poweredOffUsage() {
    return and(
      eq(instances.status, 'PoweredOff'),
      isNull(instances.releasedAt),
      isNull(instances.operation),
      isNotNull(instances.poweredOffAt),
      eq(instances.chargingRuleId, USAGE_CHARGING_RULE_ID),
    );
  }

  private async remindBeforeRelease(now: Date): Promise<number> {
    const warnings = [...RELEASE_WARNING_DAYS].sort((a, b) => b - a);
    const earliestWarning = warnings[0] ?? 0;
    const candidates = await this.db
      .select()
      .from(instances)
      .where(
        and(
          this.poweredOffUsage(),
          eq(instances.keepWhenOff, false),
          lte(instances.poweredOffAt, new Date(now.getTime() - (AUTO_RELEASE_DAYS - earliestWarning) * DAY_MS)),
        ),
      )
      .orderBy(asc(instances.poweredOffAt))
      .limit(1000);
    const reminders: NewNotification[] = [];
    for (const instance of candidates) {
      if (!instance.poweredOffAt) continue;
      const releaseAt = instance.poweredOffAt.getTime() + AUTO_RELEASE_DAYS * DAY_MS;
      if (releaseAt <= now.getTime()) continue;
      // The nearest reminder whose time has come (1 day before wins over 3 days before).
      const daysBefore = [...warnings].reverse().find((days) => now.getTime() >= releaseAt - days * DAY_MS);
      if (daysBefore === undefined) continue;
      const when = chinaDateTime(new Date(releaseAt));
      reminders.push({
        ownerId: instance.ownerId,
        creatorId: instance.creatorId,
        recipientId: instance.walletId,
        kind: 'RELEASE_REMINDER',
        title: `实例将于${when}自动释放`,
        body: `实例${instanceLabel(instance)}已关机，将于${when}（${daysBefore}天后）自动释放，系统盘和数据盘的数据将被删除且无法恢复。如需保留，请在此之前开机，或在实例列表「更多」中开启保留实例（按磁盘容量每天付费）。`,
        instanceRowId: instance.id,
        dedupeKey: `release-reminder:${daysBefore}:${instance.id}:${instance.poweredOffAt.getTime()}`,
      });
    }
    return (await this.notifications.record(this.db, reminders)).length;
  }

  private async releaseDue(now: Date): Promise<number> {
    const released = await this.db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(instances)
        .where(
          and(
            this.poweredOffUsage(),
            lte(instances.poweredOffAt, new Date(now.getTime() - AUTO_RELEASE_DAYS * DAY_MS)),
            // Days of storage paid for are kept even after 保留 was switched off.
            or(isNull(instances.retainedUntil), lte(instances.retainedUntil, now)),
            // A kept instance whose next day could not be paid had 保留 switched off by the retention pass.
            eq(instances.keepWhenOff, false),
            // A copy from or into it runs: released once it ends (a copy locks both instances before it starts).
            notExists(
              tx
                .select({ id: copyTasks.id })
                .from(copyTasks)
                .where(and(eq(copyTasks.status, 'running'), or(eq(copyTasks.fromInstanceRowId, instances.id), eq(copyTasks.toInstanceRowId, instances.id)))),
            ),
          ),
        )
        .orderBy(asc(instances.id))
        .limit(500)
        .for('update', { skipLocked: true });
      if (due.length === 0) return 0;
      for (const instance of due) assertAllowed(instance, 'release');
      await beginRelease(tx, due, now, { detail: `${AUTO_RELEASE_REASON}，系统盘与数据盘数据将被删除`, actorId: null, statusReason: AUTO_RELEASE_REASON });
      const at = chinaDateTime(now);
      await this.notifications.record(
        tx,
        due.map((instance) => ({
          ownerId: instance.ownerId,
          creatorId: instance.creatorId,
          recipientId: instance.walletId,
          kind: 'AUTO_RELEASED' as const,
          title: '实例已自动释放',
          body: `实例${instanceLabel(instance)}关机已满${AUTO_RELEASE_DAYS}天，已于${at}自动释放，数据已删除。`,
          instanceRowId: instance.id,
          dedupeKey: `released:${instance.id}`,
        })),
      );
      return due.length;
    });
    if (released > 0) this.deps.compute.wake();
    return released;
  }
}
