import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { AccountType, AUTO_RELEASE_DAYS, formatFen, type Page } from '@slg/shared';
import type { NotificationView } from '@slg/shared/views/notifications';
import type { AppDeps } from '../../deps.js';
import type { Executor } from '../../db/client.js';
import { fileStorages, gpuModels, instances, notifications, reminders, stockSubscriptions, users, wallets, zones } from '../../db/schema/index.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import { SmsSendError } from '../../providers/sms/provider.js';
import type { SmsNotice, SmsNoticeKind } from '../../providers/sms/notices.js';
import { isMainAccount, type Principal } from '../../core/principal.js';
import { fileStorageDeletionAt, parseFileStorageNoticeKey } from '../storage/arrears.js';

/** What the platform tells users about; the kinds with an SMS name their notice template. */
export const NOTIFICATION_KINDS = {
  ARREARS_POWER_OFF: { sms: 'arrears' },
  RELEASE_REMINDER: { sms: 'release_reminder' },
  AUTO_RELEASED: { sms: null },
  PACKAGE_RENEWED: { sms: null },
  PACKAGE_EXPIRED: { sms: null },
  STOCK_AVAILABLE: { sms: 'stock_alert' },
  BALANCE_LOW: { sms: 'balance_low' },
  PACKAGE_EXPIRING: { sms: 'package_expiring' },
  VERIFICATION_DECIDED: { sms: null },
  FILE_STORAGE_WRITES_BLOCKED: { sms: 'storage_arrears' },
  FILE_STORAGE_DELETION_REMINDER: { sms: 'storage_arrears' },
  FILE_STORAGE_DELETED: { sms: null },
  DATASET_REVIEWED: { sms: null },
} as const satisfies Record<string, { sms: SmsNoticeKind | null }>;
export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

/**
 * The reminder setting (提醒设置, modules/reminders) whose `sms` flag decides whether a kind's SMS goes
 * out: a recipient whose row says sms = false gets the console notice only; no row means the SMS goes.
 */
export const REMINDER_TYPE_OF_KIND: Partial<Record<NotificationKind, string>> = {
  RELEASE_REMINDER: 'RELEASE',
  STOCK_AVAILABLE: 'STOCK',
  BALANCE_LOW: 'BALANCE_LOW',
  PACKAGE_EXPIRING: 'PACKAGE_EXPIRING',
};

export interface NewNotification {
  ownerId: number;
  /** Whose resource it is about: a sub-account sees the notifications of what it created. */
  creatorId: number;
  /** Who gets the SMS (the holder of the paying wallet); ignored for kinds without SMS. */
  recipientId: number;
  kind: NotificationKind;
  title: string;
  body: string;
  instanceRowId: number | null;
  /** The event's identity: a second notification with the same key is never recorded. */
  dedupeKey: string;
}

/** The answer's shape: the schema in packages/shared (views/notifications), which the console reads too. */
export type { NotificationView };

/** Names instances in an SMS within the gateways' 20-character variable limit: one id, or the first and a count. */
export function instancesForSms(instanceIds: readonly string[]): string {
  const [first = ''] = instanceIds;
  return instanceIds.length > 1 ? `${first}等${instanceIds.length}台` : first;
}

/** The dedupe key of a stock alert's notification: a subscription fires once. */
export function stockAlertDedupeKey(subscriptionId: number): string {
  return `stock-alert:${subscriptionId}`;
}

function subscriptionIdOf(dedupeKey: string): number | null {
  const match = /^stock-alert:(\d+)$/.exec(dedupeKey);
  return match ? Number(match[1]) : null;
}

/** A text cut to the gateways' 20-character variable limit (an ellipsis marks the cut). */
export function fitSmsVariable(text: string, max = 20): string {
  const characters = [...text];
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join('')}…`;
}

/** 2026-06-16 10:00 in China time. */
export function chinaDateTime(date: Date): string {
  const shifted = new Date(date.getTime() + 8 * 3600 * 1000).toISOString();
  return `${shifted.slice(0, 10)} ${shifted.slice(11, 16)}`;
}

/**
 * Notifications (the console header's bell, and SMS where it matters). `record` writes them in the
 * caller's transaction, at most once per dedupe key; `deliverSms` sends the pending SMS afterwards,
 * one per recipient and kind per batch, each notification claimed by one conditional update so two
 * processes never text the same event twice.
 */
export class NotificationService {
  constructor(private readonly deps: Pick<AppDeps, 'database' | 'sms' | 'now'>) {}

  private get db() {
    return this.deps.database.db;
  }

  /** Inserts the notifications whose dedupe key is new; returns the ids written. */
  async record(executor: Executor, items: readonly NewNotification[]): Promise<number[]> {
    if (items.length === 0) return [];
    const now = this.deps.now();
    const smsOff = await this.smsSwitchedOff(executor, items);
    const rows = await executor
      .insert(notifications)
      .values(
        items.map((item) => ({
          ownerId: item.ownerId,
          creatorId: item.creatorId,
          recipientId: NOTIFICATION_KINDS[item.kind].sms ? item.recipientId : null,
          kind: item.kind,
          title: item.title,
          body: item.body,
          instanceRowId: item.instanceRowId,
          dedupeKey: item.dedupeKey,
          smsStatus: NOTIFICATION_KINDS[item.kind].sms && !smsOff.has(`${item.recipientId}:${REMINDER_TYPE_OF_KIND[item.kind]}`) ? 'pending' : null,
          createdAt: now,
        })),
      )
      .onConflictDoNothing({ target: notifications.dedupeKey })
      .returning({ id: notifications.id });
    return rows.map((row) => row.id);
  }

  /** `recipientId:remindType` of the recipients who switched off these kinds' SMS (one query for the batch). */
  private async smsSwitchedOff(executor: Executor, items: readonly NewNotification[]): Promise<Set<string>> {
    const asked = items.flatMap((item) => {
      const type = NOTIFICATION_KINDS[item.kind].sms ? REMINDER_TYPE_OF_KIND[item.kind] : undefined;
      return type ? [{ userId: item.recipientId, type }] : [];
    });
    if (asked.length === 0) return new Set();
    const off = await executor
      .select({ userId: reminders.userId, type: reminders.remindType })
      .from(reminders)
      .where(
        and(
          eq(reminders.sms, false),
          inArray(reminders.userId, [...new Set(asked.map((item) => item.userId))]),
          inArray(reminders.remindType, [...new Set(asked.map((item) => item.type))]),
        ),
      );
    return new Set(off.map((row) => `${row.userId}:${row.type}`));
  }

  /**
   * Sends the SMS of pending notifications (oldest first, `limit` at a time). Each is claimed
   * (pending → sending) by one statement before anything is sent, so an SMS goes out at most once; a
   * process that dies after the claim leaves it `sending` rather than risk a second text.
   */
  async deliverSms(limit = 200): Promise<{ sent: number; failed: number; skipped: number }> {
    const pending = this.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(eq(notifications.smsStatus, 'pending'))
      .orderBy(asc(notifications.createdAt), asc(notifications.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    const claimed = await this.db
      .update(notifications)
      .set({ smsStatus: 'sending' })
      .where(inArray(notifications.id, pending))
      .returning({ id: notifications.id });
    if (claimed.length === 0) return { sent: 0, failed: 0, skipped: 0 };

    const owner = alias(users, 'owner');
    const recipient = alias(users, 'recipient');
    // The wallet that pays for the recipient (a sub-account sharing the main balance: the main wallet).
    const paying = alias(wallets, 'paying');
    const rows = await this.db
      .select({
        id: notifications.id,
        kind: notifications.kind,
        // A recipient without a phone (a sub-account signed up by user name) is reached through its main account.
        telephone: sql<string | null>`coalesce(${recipient.telephone}, ${owner.telephone})`,
        balanceFen: wallets.balanceFen,
        instanceId: instances.instanceId,
        poweredOffAt: instances.poweredOffAt,
        expiresAt: instances.expiresAt,
        payingBalanceFen: paying.balanceFen,
        thresholdFen: reminders.thresholdFen,
        dedupeKey: notifications.dedupeKey,
        createdAt: notifications.createdAt,
      })
      .from(notifications)
      .innerJoin(owner, eq(owner.id, notifications.ownerId))
      .leftJoin(recipient, eq(recipient.id, notifications.recipientId))
      .leftJoin(wallets, eq(wallets.accountId, notifications.recipientId))
      .leftJoin(instances, eq(instances.id, notifications.instanceRowId))
      .leftJoin(
        paying,
        eq(paying.accountId, sql`case when ${recipient.accountType} = ${AccountType.SUB} and ${recipient.sharedMainBalance} then ${recipient.parentId} else ${recipient.id} end`),
      )
      .leftJoin(reminders, and(eq(notifications.kind, 'BALANCE_LOW'), eq(reminders.userId, notifications.recipientId), eq(reminders.remindType, 'BALANCE_LOW')))
      .where(
        inArray(
          notifications.id,
          claimed.map((row) => row.id),
        ),
      )
      .orderBy(asc(notifications.id));

    const groups = new Map<string, typeof rows>();
    const noPhone: number[] = [];
    for (const row of rows) {
      if (!row.telephone) {
        noPhone.push(Number(row.id));
        continue;
      }
      const key = `${row.telephone}|${row.kind}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    if (noPhone.length > 0) await this.setStatus(noPhone, 'skipped');
    const stockAlerts = await this.stockAlertsOf(rows);
    const storeZones = await this.storeZonesOf(rows);

    let sent = 0;
    let failed = 0;
    for (const group of groups.values()) {
      const [first] = group;
      if (!first?.telephone) continue;
      const ids = group.map((row) => Number(row.id));
      const instanceIds = group.flatMap((row) => (row.instanceId ? [row.instanceId] : []));
      const notice = this.noticeOf(first.kind as NotificationKind, first.telephone, instanceIds, group, stockAlerts, storeZones);
      try {
        if (!notice) throw new SmsSendError(`通知类型 ${first.kind} 没有短信模板`);
        await this.deps.sms.sendNotice(notice, this.db);
        await this.setStatus(ids, 'sent');
        sent += ids.length;
      } catch {
        // A refusal, a timeout or a network failure: the text may or may not have left, so it is not
        // retried (the notification stays in the console either way).
        await this.setStatus(ids, 'failed');
        failed += ids.length;
      }
    }
    return { sent, failed, skipped: noPhone.length };
  }

  private noticeOf(
    kind: NotificationKind,
    telephone: string,
    instanceIds: string[],
    group: {
      balanceFen: number | null;
      poweredOffAt: Date | null;
      expiresAt: Date | null;
      payingBalanceFen: number | null;
      thresholdFen: number | null;
      dedupeKey: string;
      createdAt: Date;
    }[],
    stockAlerts: ReadonlyMap<number, { zone: string; gpuModel: string; gpuNum: number }>,
    storeZones: ReadonlyMap<number, string>,
  ): SmsNotice | null {
    const instancesText = instancesForSms(instanceIds);
    if (kind === 'ARREARS_POWER_OFF') {
      return { telephone, kind: 'arrears', params: { instances: instancesText, balance: formatFen(group[0]?.balanceFen ?? 0) } };
    }
    if (kind === 'RELEASE_REMINDER') {
      const earliest = Math.min(...group.map((row) => row.poweredOffAt?.getTime() ?? Number.POSITIVE_INFINITY));
      const releaseAt = Number.isFinite(earliest) ? chinaDateTime(new Date(earliest + AUTO_RELEASE_DAYS * 86_400_000)) : '近日';
      return { telephone, kind: 'release_reminder', params: { instances: instancesText, releaseAt } };
    }
    if (kind === 'BALANCE_LOW') {
      // Several crossings of one person in one batch (rare) make one text: the balance and threshold now.
      const last = group[group.length - 1];
      return { telephone, kind: 'balance_low', params: { balance: formatFen(last?.payingBalanceFen ?? 0), threshold: formatFen(last?.thresholdFen ?? 0) } };
    }
    if (kind === 'PACKAGE_EXPIRING') {
      const earliest = Math.min(...group.map((row) => row.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY));
      const expireAt = Number.isFinite(earliest) ? chinaDateTime(new Date(earliest)) : '近日';
      return { telephone, kind: 'package_expiring', params: { instances: instancesText, expireAt } };
    }
    if (kind === 'STOCK_AVAILABLE') {
      const alerts = group.flatMap((row) => {
        const alert = stockAlerts.get(subscriptionIdOf(row.dedupeKey) ?? 0);
        return alert ? [alert] : [];
      });
      const [first] = alerts;
      if (!first) return null;
      // Several alerts of one person in one batch make one text: the first, and how many in all.
      const more = alerts.length > 1 ? `等${alerts.length}项` : '';
      const count = ` ${first.gpuNum}卡${more}`;
      return {
        telephone,
        kind: 'stock_alert',
        params: { zone: fitSmsVariable(first.zone), gpu: `${fitSmsVariable(first.gpuModel, 20 - count.length)}${count}` },
      };
    }
    if (kind === 'FILE_STORAGE_WRITES_BLOCKED' || kind === 'FILE_STORAGE_DELETION_REMINDER') {
      // Several stores of one person in one batch make one text: the first region, and how many in all.
      const [first] = group;
      const key = first ? parseFileStorageNoticeKey(first.dedupeKey) : null;
      if (!first || !key || key.kind === 'deleted') return null;
      const zoneOf = (row: { dedupeKey: string }) => storeZones.get(parseFileStorageNoticeKey(row.dedupeKey)?.storeId ?? 0);
      const zoneNames = [...new Set(group.flatMap((row) => zoneOf(row) ?? []))];
      const more = zoneNames.length > 1 ? `等${zoneNames.length}个地区` : '';
      const zone = `${fitSmsVariable(zoneNames[0] ?? '', 20 - more.length)}${more}`;
      const status =
        key.kind === 'blocked'
          ? '已禁止写入'
          : `将于${chinaDateTime(fileStorageDeletionAt(key.arrearsSince, key.stage === 2 ? first.createdAt : null))}删除`;
      return { telephone, kind: 'storage_arrears', params: { zone, status } };
    }
    return null;
  }

  /** The region names of the 文件存储 stores the rows' notices are about (one query for the batch). */
  private async storeZonesOf(rows: readonly { kind: string; dedupeKey: string }[]): Promise<Map<number, string>> {
    const storeIdOf = (row: { kind: string; dedupeKey: string }) =>
      row.kind.startsWith('FILE_STORAGE_') ? parseFileStorageNoticeKey(row.dedupeKey)?.storeId : undefined;
    const ids = [...new Set(rows.flatMap((row) => storeIdOf(row) ?? []))];
    if (ids.length === 0) return new Map();
    const found = await this.db
      .select({ id: fileStorages.id, zone: zones.name })
      .from(fileStorages)
      .innerJoin(zones, eq(zones.id, fileStorages.zoneId))
      .where(inArray(fileStorages.id, ids));
    return new Map(found.map((row) => [row.id, row.zone]));
  }

  /** The zone, GPU model and count of the stock alerts among the rows (one query for the batch). */
  private async stockAlertsOf(
    rows: readonly { kind: string; dedupeKey: string }[],
  ): Promise<Map<number, { zone: string; gpuModel: string; gpuNum: number }>> {
    const ids = rows.flatMap((row) => {
      const id = row.kind === 'STOCK_AVAILABLE' ? subscriptionIdOf(row.dedupeKey) : null;
      return id === null ? [] : [id];
    });
    if (ids.length === 0) return new Map();
    const found = await this.db
      .select({ id: stockSubscriptions.id, zone: zones.name, gpuModel: gpuModels.name, gpuNum: stockSubscriptions.gpuNum })
      .from(stockSubscriptions)
      .innerJoin(zones, eq(zones.id, stockSubscriptions.zoneId))
      .innerJoin(gpuModels, eq(gpuModels.id, stockSubscriptions.gpuModelId))
      .where(inArray(stockSubscriptions.id, ids));
    return new Map(found.map(({ id, ...alert }) => [id, alert]));
  }

  private async setStatus(ids: number[], status: 'sent' | 'failed' | 'skipped'): Promise<void> {
    await this.db.update(notifications).set({ smsStatus: status }).where(inArray(notifications.id, ids));
  }

  // ---- the console --------------------------------------------------------------------------------

  /**
   * Which notifications a caller sees: a main account every one of its account, a sub-account those
   * about what it created. Notifications are messages to people, not resources under an authority
   * type, so no permission level hides them.
   */
  private visibleTo(principal: Principal): SQL {
    const sameOwner = eq(notifications.ownerId, principal.ownerId);
    return isMainAccount(principal) ? sameOwner : (and(sameOwner, eq(notifications.creatorId, principal.userId)) as SQL);
  }

  async list(principal: Principal, query: PageQuery & { unread?: boolean | undefined }): Promise<Page<NotificationView>> {
    const where = and(this.visibleTo(principal), ...(query.unread ? [isNull(notifications.readAt)] : [])) as SQL;
    return paged(
      query,
      (limit, offset) =>
        this.db
          .select({ notification: notifications, instanceId: instances.instanceId })
          .from(notifications)
          .leftJoin(instances, eq(instances.id, notifications.instanceRowId))
          .where(where)
          .orderBy(desc(notifications.createdAt), desc(notifications.id))
          .limit(limit)
          .offset(offset),
      () => this.db.$count(notifications, where),
      (rows) =>
        rows.map(({ notification, instanceId }) => ({
          id: notification.id,
          kind: notification.kind,
          title: notification.title,
          body: notification.body,
          instanceId,
          read: notification.readAt !== null,
          createdAt: notification.createdAt.toISOString(),
          readAt: notification.readAt?.toISOString() ?? null,
        })),
    );
  }

  async unreadCount(principal: Principal): Promise<number> {
    const [row] = await this.db
      .select({ unread: count() })
      .from(notifications)
      .where(and(this.visibleTo(principal), isNull(notifications.readAt)));
    return row?.unread ?? 0;
  }

  /** Marks the given notifications (all the caller sees when `ids` is omitted) read; returns how many changed. */
  async markRead(principal: Principal, ids?: readonly number[]): Promise<number> {
    const conditions = [this.visibleTo(principal), isNull(notifications.readAt)];
    if (ids) {
      if (ids.length === 0) return 0;
      conditions.push(inArray(notifications.id, [...ids]));
    }
    const changed = await this.db
      .update(notifications)
      .set({ readAt: this.deps.now() })
      .where(and(...conditions))
      .returning({ id: notifications.id });
    return changed.length;
  }
}
