import { and, asc, eq, gt, isNotNull, isNull, lte, notExists, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  AccountType,
  ALWAYS_ON_REMIND_TYPES,
  formatYuan,
  PACKAGE_LABELS,
  PACKAGE_UNIT_LABELS,
  packageKeyOfRule,
  REMIND_TYPE_LABELS,
  REMIND_TYPES,
  REMINDER_DAYS_DEFAULT,
  type RemindType,
} from '@slg/shared';
import type { ReminderSettings, ReminderView } from '@slg/shared/views/reminders';
import type { AppDeps } from '../../deps.js';
import { instances, notifications, reminders, users, wallets } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { chinaDateTime, NotificationService, type NewNotification } from '../notifications/service.js';

const DAY_MS = 86_400_000;

/**
 * The reminders a user sets (提醒设置):
 * - BALANCE_LOW: the balance of the wallet that pays for the user fell below `thresholdFen`; once per crossing.
 * - PACKAGE_EXPIRING: a day / week / month package ends within `daysBefore` days; once per package end.
 * - RELEASE, STOCK: the release reminders and stock alerts the platform always sends; the setting only
 *   decides whether an SMS goes with the console notice.
 */
const isAlwaysOn = (type: RemindType) => ALWAYS_ON_REMIND_TYPES.includes(type);

export interface ReminderInput {
  remindType: RemindType;
  thresholdFen?: number | null | undefined;
  daysBefore?: number | null | undefined;
  sms?: boolean | undefined;
}

export interface FireResult {
  /** Balance reminders that fired (one notice each). */
  balanceLow: number;
  /** Balance reminders armed again because the balance is back at or above the threshold. */
  rearmed: number;
  /** Package reminders recorded (one per instance and package end). */
  packageExpiring: number;
}

type ReminderRow = typeof reminders.$inferSelect;

function viewOf(type: RemindType, row: ReminderRow | undefined): ReminderView {
  return {
    remindType: type,
    enabled: isAlwaysOn(type) || row !== undefined,
    thresholdFen: type === 'BALANCE_LOW' ? (row?.thresholdFen ?? null) : null,
    daysBefore: type === 'PACKAGE_EXPIRING' ? (row?.daysBefore ?? REMINDER_DAYS_DEFAULT) : null,
    sms: row?.sms ?? true,
    firedAt: type === 'BALANCE_LOW' ? (row?.firedAt?.toISOString() ?? null) : null,
  };
}

/** The wallet that pays for a user (as payingWalletOf in billing/ledger.ts decides it), as SQL over `users`. */
function payingWalletOf(user: typeof users): SQL<number> {
  return sql<number>`case when ${user.accountType} = ${AccountType.SUB} and ${user.sharedMainBalance} then ${user.parentId} else ${user.id} end`;
}

/** The main account of a user: itself, or a sub-account's parent. */
function ownerOf(user: typeof users): SQL<number> {
  return sql<number>`coalesce(${user.parentId}, ${user.id})`;
}

export function balanceLowDedupeKey(userId: number, firedAt: Date): string {
  return `balance-low:${userId}:${firedAt.getTime()}`;
}

export function packageExpiringDedupeKey(instanceRowId: number, packageEnd: Date): string {
  return `package-expiring:${instanceRowId}:${packageEnd.getTime()}`;
}

/** 约3天 / 约20小时 / 不足1小时. */
function remainingText(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  if (days >= 1) return `约${days}天`;
  const hours = Math.floor(ms / 3_600_000);
  return hours >= 1 ? `约${hours}小时` : '不足1小时';
}

/**
 * 提醒设置 (spec §7 `GET, POST /reminder`, `DELETE /reminder?remindType`) and the job that fires them.
 * Each signed-in account, main or sub, keeps its own settings. The job claims every balance crossing
 * with one conditional update, records package reminders once per package end (dedupe key), and
 * sends the SMS after the notices committed.
 */
export class ReminderService {
  private readonly notifications: NotificationService;

  constructor(private readonly deps: Pick<AppDeps, 'database' | 'sms' | 'now'>) {
    this.notifications = new NotificationService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  private async rowsOf(userId: number): Promise<Map<RemindType, ReminderRow>> {
    const rows = await this.db.select().from(reminders).where(eq(reminders.userId, userId));
    return new Map(rows.flatMap((row) => ((REMIND_TYPES as readonly string[]).includes(row.remindType) ? [[row.remindType as RemindType, row] as const] : [])));
  }

  /** Every type with its setting, or its default when the caller never set it. */
  async list(principal: Principal, balance: { balanceFen: number; sharedMainBalance: boolean }): Promise<ReminderSettings> {
    const rows = await this.rowsOf(principal.userId);
    return { list: REMIND_TYPES.map((type) => viewOf(type, rows.get(type))), balanceFen: balance.balanceFen, sharedMainBalance: balance.sharedMainBalance };
  }

  /** Sets one type (the whole setting: what is left out takes its default); returns it as GET shows it. */
  async save(principal: Principal, input: ReminderInput): Promise<ReminderView> {
    const type = input.remindType;
    const label = REMIND_TYPE_LABELS[type];
    const thresholdFen = input.thresholdFen ?? null;
    const daysBefore = input.daysBefore ?? null;
    if (type === 'BALANCE_LOW' && thresholdFen === null) throw new AppError('VALIDATION', '请设置提醒金额：余额低于该金额时提醒您');
    if (type !== 'BALANCE_LOW' && thresholdFen !== null) throw new AppError('VALIDATION', `${label}不需要设置提醒金额，提醒金额仅用于余额不足提醒`);
    if (type !== 'PACKAGE_EXPIRING' && daysBefore !== null) throw new AppError('VALIDATION', `${label}不需要设置提前天数，提前天数仅用于包年包月到期提醒`);
    const now = this.deps.now();
    const values = {
      userId: principal.userId,
      remindType: type,
      thresholdFen,
      daysBefore: type === 'PACKAGE_EXPIRING' ? (daysBefore ?? REMINDER_DAYS_DEFAULT) : null,
      sms: input.sms ?? true,
      firedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const [row] = await this.db
      .insert(reminders)
      .values(values)
      .onConflictDoUpdate({
        target: [reminders.userId, reminders.remindType],
        set: {
          thresholdFen: values.thresholdFen,
          daysBefore: values.daysBefore,
          sms: values.sms,
          updatedAt: now,
          // A new threshold is watched afresh: the balance is compared with it at the next run.
          firedAt: sql`case when ${reminders.thresholdFen} is distinct from excluded.threshold_fen then null else ${reminders.firedAt} end`,
        },
      })
      .returning();
    return viewOf(type, row);
  }

  /**
   * Turns a type off: BALANCE_LOW and PACKAGE_EXPIRING lose their row (no notice, no SMS); RELEASE and
   * STOCK keep their console notice and only stop the SMS (their row says sms = false, since no row
   * means the SMS is on). Returns the type as GET now shows it.
   */
  async remove(principal: Principal, type: RemindType): Promise<ReminderView> {
    if (!isAlwaysOn(type)) {
      await this.db.delete(reminders).where(and(eq(reminders.userId, principal.userId), eq(reminders.remindType, type)));
      return viewOf(type, undefined);
    }
    return this.save(principal, { remindType: type, sms: false });
  }

  // ---- the job ------------------------------------------------------------------------------------

  /** The minute's job: balance crossings, packages about to end, then their SMS. */
  async fire(): Promise<FireResult> {
    const { balanceLow, rearmed } = await this.fireBalanceLow();
    const packageExpiring = await this.firePackageExpiring();
    await this.notifications.deliverSms();
    return { balanceLow, rearmed, packageExpiring };
  }

  /** Each user's watched balance (the paying wallet) beside the user, for the balance reminders. */
  private watchedBalances() {
    return this.db
      .select({
        userId: sql<number>`${users.id}`.as('watched_user_id'),
        ownerId: ownerOf(users).as('watched_owner_id'),
        shared: sql<boolean>`(${payingWalletOf(users)} <> ${users.id})`.as('watched_shared'),
        balanceFen: sql<number>`${wallets.balanceFen}`.mapWith(Number).as('watched_balance_fen'),
      })
      .from(users)
      .innerJoin(wallets, eq(wallets.accountId, payingWalletOf(users)))
      .where(isNull(users.disabledAt))
      .as('watched');
  }

  /**
   * Balance reminders: those back at or above their threshold are armed again; then every armed one
   * below its threshold is claimed by ONE conditional update (fired_at set where it was null), and its
   * notice recorded in the same transaction — two runs at once never fire one crossing twice.
   */
  private async fireBalanceLow(): Promise<{ balanceLow: number; rearmed: number }> {
    const now = this.deps.now();
    const watched = this.watchedBalances();
    const rearmed = await this.db
      .update(reminders)
      .set({ firedAt: null, updatedAt: now })
      .from(watched)
      .where(
        and(
          eq(reminders.remindType, 'BALANCE_LOW'),
          isNotNull(reminders.firedAt),
          eq(reminders.userId, watched.userId),
          sql`${watched.balanceFen} >= ${reminders.thresholdFen}`,
        ),
      )
      .returning({ userId: reminders.userId });

    const fired = await this.db.transaction(async (tx) => {
      const claimed = await tx
        .update(reminders)
        .set({ firedAt: now })
        .from(watched)
        .where(
          and(
            eq(reminders.remindType, 'BALANCE_LOW'),
            isNull(reminders.firedAt),
            isNotNull(reminders.thresholdFen),
            eq(reminders.userId, watched.userId),
            sql`${watched.balanceFen} < ${reminders.thresholdFen}`,
          ),
        )
        .returning({
          userId: reminders.userId,
          thresholdFen: reminders.thresholdFen,
          firedAt: reminders.firedAt,
          ownerId: watched.ownerId,
          shared: watched.shared,
          balanceFen: watched.balanceFen,
        });
      await this.notifications.record(
        tx,
        claimed.map((row): NewNotification => {
          const wallet = row.shared ? '主账号余额（本账号共用主账号余额）' : '账户余额';
          const threshold = formatYuan(row.thresholdFen ?? 0);
          return {
            ownerId: Number(row.ownerId),
            creatorId: row.userId,
            recipientId: row.userId,
            kind: 'BALANCE_LOW',
            title: `余额已低于${threshold}`,
            body: `您的${wallet}为${formatYuan(Number(row.balanceFen))}，已低于您在提醒设置中设定的${threshold}。为免按量计费的实例因欠费自动关机，请及时充值。余额回到${threshold}以上后，再次低于时会重新提醒。`,
            instanceRowId: null,
            dedupeKey: balanceLowDedupeKey(row.userId, row.firedAt ?? now),
          };
        }),
      );
      return claimed.length;
    });
    return { balanceLow: fired, rearmed: rearmed.length };
  }

  /**
   * Package reminders: every live package ending within the days its reminder names gets one notice per
   * package end (the dedupe key carries the end, so a renewal reminds again). The instance's creator is
   * reminded when it set the reminder, else its main account; the notice shows to both in the console.
   */
  private async firePackageExpiring(): Promise<number> {
    const now = this.deps.now();
    const byCreator = alias(reminders, 'creator_reminder');
    const byOwner = alias(reminders, 'owner_reminder');
    const creator = alias(users, 'creator');
    const recipientId = sql<number>`coalesce(${byCreator.userId}, ${byOwner.userId})`.mapWith(Number);
    const days = sql<number>`coalesce(${byCreator.daysBefore}, ${byOwner.daysBefore})`;
    const endMs = sql`round(extract(epoch from ${instances.expiresAt}) * 1000)::bigint`;
    const due = await this.db
      .select({
        id: instances.id,
        instanceId: instances.instanceId,
        name: instances.name,
        ownerId: instances.ownerId,
        creatorId: instances.creatorId,
        chargingRuleId: instances.chargingRuleId,
        autoRenew: instances.autoRenew,
        expiresAt: instances.expiresAt,
        recipientId,
      })
      .from(instances)
      .innerJoin(creator, eq(creator.id, instances.creatorId))
      .leftJoin(byCreator, and(eq(byCreator.userId, instances.creatorId), eq(byCreator.remindType, 'PACKAGE_EXPIRING'), isNull(creator.disabledAt)))
      .leftJoin(byOwner, and(eq(byOwner.userId, instances.ownerId), eq(byOwner.remindType, 'PACKAGE_EXPIRING')))
      .where(
        and(
          isNotNull(instances.expiresAt),
          isNull(instances.releasedAt),
          gt(instances.expiresAt, now),
          sql`coalesce(${byCreator.userId}, ${byOwner.userId}) is not null`,
          lte(instances.expiresAt, sql`${now.toISOString()}::timestamptz + ${days} * interval '1 day'`),
          // Reminded already for this package end: skipped here rather than refused by the dedupe key.
          notExists(
            this.db
              .select({ one: sql`1` })
              .from(notifications)
              .where(eq(notifications.dedupeKey, sql`'package-expiring:' || ${instances.id} || ':' || ${endMs}`)),
          ),
        ),
      )
      .orderBy(asc(instances.expiresAt), asc(instances.id))
      .limit(500);
    const items = due.flatMap((instance): NewNotification[] => {
      const key = packageKeyOfRule(instance.chargingRuleId);
      if (!key || !instance.expiresAt) return [];
      const when = chinaDateTime(instance.expiresAt);
      const label = `「${instance.name}」（${instance.instanceId}）`;
      const after = instance.autoRenew
        ? `已开启自动续费：到期时将从余额续费1${PACKAGE_UNIT_LABELS[key]}，请确保余额充足，余额不足时将关机并转为按量计费。`
        : '到期后如未续费，实例将关机并转为按量计费，GPU不再为其预留。如需继续使用，请在实例列表中续费。';
      return [
        {
          ownerId: instance.ownerId,
          creatorId: instance.creatorId,
          recipientId: instance.recipientId,
          kind: 'PACKAGE_EXPIRING',
          title: `${PACKAGE_LABELS[key]}将于${when}到期`,
          body: `实例${label}的${PACKAGE_LABELS[key]}将于${when}到期（剩余${remainingText(instance.expiresAt.getTime() - now.getTime())}）。${after}`,
          instanceRowId: instance.id,
          dedupeKey: packageExpiringDedupeKey(instance.id, instance.expiresAt),
        },
      ];
    });
    return (await this.notifications.record(this.db, items)).length;
  }
}
