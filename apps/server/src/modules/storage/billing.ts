import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import { FILE_STORAGE_BLOCK_DAYS, FILE_STORAGE_DELETE_DAYS, FILE_STORAGE_FREE_GB, formatYuan } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Transaction } from '../../db/client.js';
import { fileStorages, notifications, orders, wallets, zones } from '../../db/schema/index.js';
import { OrderService } from '../billing/orders.js';
import { openStorageOrder } from './order.js';
import { chinaDateTime, NotificationService, type NewNotification } from '../notifications/service.js';
import {
  billableGb,
  DAY_MS,
  daysAgo,
  FILE_STORAGE_FREE_BYTES,
  fileStorageDailyFen,
  fileStorageDeletionAt,
  fileStorageLabel,
  fileStorageNoticeKeys,
  reminderDueDays,
  wholeDaysSince,
} from './arrears.js';

export type FileStorageRow = typeof fileStorages.$inferSelect;

/** Deletes a store's files on the backend (`removeFileStorageFiles` of usage.ts; tests pass a fake). */
export type RemoveFileStorageFiles = (deps: AppDeps, ownerId: number, zoneId: string) => Promise<void>;

/** Stores one settlement transaction takes (locked `SKIP LOCKED`). */
const SETTLE_BATCH = 100;
/** Free stores whose days one statement advances. */
const ADVANCE_BATCH = 1000;

interface ZoneInfo {
  name: string;
  priceFenPerGbDay: number;
}

export interface FileStoragePassResult {
  /** Stores whose whole days were settled (charged or free). */
  settled: number;
  /** Fen charged in this pass. */
  fen: number;
  /** Stores whose wallet went below zero, and stores paid up again. */
  inArrears: number;
  paidUp: number;
  /** Stores whose writes were blocked, reminders sent, stores deleted. */
  blocked: number;
  reminded: number;
  deleted: number;
}

/** The words a storage charge carries into 收支明细 and 账单明细: the region, the GB billed and the period. */
export function fileStorageChargeDescription(zoneName: string, gb: number, days: number, from: Date, until: Date): string {
  return `${fileStorageLabel(zoneName)}超出免费 ${FILE_STORAGE_FREE_GB} GB 的 ${gb} GB × ${days}天（${chinaDateTime(from)} 至 ${chinaDateTime(until)}）`;
}

/** Live stores: not deleted. */
const live = isNull(fileStorages.deletedAt);
/** The paying wallet (the owner's) is below zero / at or above zero. */
const walletNegative = sql`exists (select 1 from ${wallets} where ${wallets.accountId} = ${fileStorages.ownerId} and ${wallets.balanceFen} < 0)`;
const walletPaidUp = sql`exists (select 1 from ${wallets} where ${wallets.accountId} = ${fileStorages.ownerId} and ${wallets.balanceFen} >= 0)`;
/** A day of the store costs something: usage above the free tier in a region with a price. */
const billable = and(
  gt(fileStorages.usedBytes, FILE_STORAGE_FREE_BYTES),
  sql`exists (select 1 from ${zones} where ${zones.id} = ${fileStorages.zoneId} and ${zones.storagePriceFenPerGbDay} > 0)`,
);
const notBillable = sql`not (${billable})`;
/** What an arrears step reads back from the stores it changed, with the paying wallet's balance. */
const ARREARS_RETURNING = {
  id: fileStorages.id,
  ownerId: fileStorages.ownerId,
  creatorId: fileStorages.creatorId,
  zoneId: fileStorages.zoneId,
  arrearsSince: fileStorages.arrearsSince,
  balanceFen: wallets.balanceFen,
};

/**
 * The 文件存储 money job (docs/decisions.md "文件存储 (issue 22)"), safe to run in several processes at
 * once and again after a crash:
 * - settlement: every whole day since `billed_until` is charged `ceil((used − 20 GB) / 1 GB) × the
 *   region's price` per day, with the usage measured at the settlement, on the store's PLACED
 *   NEW_STORAGE order from the owner's wallet (which may go below zero); `billed_until` moves by whole
 *   days in the same transaction as the ledger posting, the store row locked `SKIP LOCKED`, so no day is
 *   charged twice. Free days (under 20 GB, or a region without a price) only advance `billed_until`.
 * - arrears: a store is in arrears from the pass that sees its owner's wallet below zero until one sees
 *   it at or above zero; at 15 days writes are blocked, reminders come at 23 and 29 days, and at 30 days
 *   (never less than a day after the last reminder) its files are removed and the row kept as deleted.
 *   Each step is one conditional update with its notice in the same transaction, so it happens once.
 */
export class FileStorageBilling {
  private readonly orders: OrderService;
  private readonly notifications: NotificationService;

  constructor(
    private readonly deps: AppDeps,
    private readonly removeFiles: RemoveFileStorageFiles,
  ) {
    this.orders = new OrderService(deps.now);
    this.notifications = new NotificationService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  /** One pass: settle, then arrears, then the SMS of the notices recorded. */
  async run(): Promise<FileStoragePassResult> {
    const now = this.deps.now();
    const zoneInfo = await this.zones();
    const settlement = await this.settle(now, zoneInfo);
    const { failures, ...arrears } = await this.enforceArrears(now, zoneInfo);
    await this.notifications.deliverSms();
    // A store whose files could not be removed stays live for the next pass; the job reports the failure.
    if (failures.length > 0) throw failures[0];
    return { ...settlement, ...arrears };
  }

  private async zones(): Promise<Map<string, ZoneInfo>> {
    const rows = await this.db.select({ id: zones.id, name: zones.name, priceFenPerGbDay: zones.storagePriceFenPerGbDay }).from(zones);
    return new Map(rows.map(({ id, ...zone }) => [id, zone]));
  }

  /** Settles every live store with a whole day due; returns how many and the fen charged. */
  async settle(now: Date, zoneInfo?: Map<string, ZoneInfo>): Promise<{ settled: number; fen: number }> {
    const info = zoneInfo ?? (await this.zones());
    const dueBefore = daysAgo(now, 1);
    const due = and(live, lte(fileStorages.billedUntil, dueBefore));
    let settled = await this.advanceFree(now, due);
    let fen = 0;
    for (;;) {
      const taken = await this.db.transaction(async (tx) => {
        const batch = await tx
          .select()
          .from(fileStorages)
          .where(and(due, billable))
          .orderBy(asc(fileStorages.ownerId), asc(fileStorages.id))
          .limit(SETTLE_BATCH)
          .for('update', { skipLocked: true });
        const placed = await this.placedOrders(tx, batch);
        for (const store of batch) {
          const zone = info.get(store.zoneId) ?? { name: store.zoneId, priceFenPerGbDay: 0 };
          fen += await this.settleStore(tx, store, zone, now, placed);
        }
        return batch.length;
      });
      settled += taken;
      if (taken < SETTLE_BATCH) return { settled, fen };
    }
  }

  /**
   * Free stores (under the free tier, or in a region without a price) only move `billed_until` on by
   * their whole days: one statement per batch, rows taken `SKIP LOCKED`. Intervals in seconds, so no
   * session time zone's daylight saving bends a day.
   */
  private async advanceFree(now: Date, due: ReturnType<typeof and>): Promise<number> {
    const wholeDays = sql`floor(extract(epoch from (${now.toISOString()}::timestamptz - ${fileStorages.billedUntil})) / 86400)`;
    let advanced = 0;
    for (;;) {
      const ids = this.db
        .select({ id: fileStorages.id })
        .from(fileStorages)
        .where(and(due, notBillable))
        .orderBy(asc(fileStorages.id))
        .limit(ADVANCE_BATCH)
        .for('update', { skipLocked: true });
      const rows = await this.db
        .update(fileStorages)
        .set({ billedUntil: sql`${fileStorages.billedUntil} + interval '1 second' * (86400 * ${wholeDays})`, updatedAt: now })
        .where(inArray(fileStorages.id, ids))
        .returning({ id: fileStorages.id });
      advanced += rows.length;
      if (rows.length < ADVANCE_BATCH) return advanced;
    }
  }

  /** The orders of the batch that can take metered charges (PLACED), one query. */
  private async placedOrders(tx: Transaction, batch: readonly FileStorageRow[]): Promise<Set<number>> {
    const ids = [...new Set(batch.flatMap((store) => (store.orderId === null ? [] : [store.orderId])))];
    if (ids.length === 0) return new Set();
    const rows = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(inArray(orders.id, ids), eq(orders.status, 'PLACED')));
    return new Set(rows.map((row) => row.id));
  }

  /** One store's whole days, in the batch's transaction with its row locked. Returns the fen charged. */
  private async settleStore(tx: Transaction, store: FileStorageRow, zone: ZoneInfo, now: Date, placed: Set<number>): Promise<number> {
    const days = wholeDaysSince(store.billedUntil, now);
    if (days === 0) return 0;
    const until = new Date(store.billedUntil.getTime() + days * DAY_MS);
    const amount = fileStorageDailyFen(store.usedBytes, zone.priceFenPerGbDay) * days;
    let orderId = store.orderId;
    if (amount > 0) {
      if (orderId === null || !placed.has(orderId)) orderId = (await openStorageOrder(this.orders, tx, store, zone, `${fileStorageLabel(zone.name)}（超出免费 ${FILE_STORAGE_FREE_GB} GB 的部分按量计费）`)).id;
      await this.orders.postMetered(tx, {
        walletId: store.ownerId,
        amountFen: amount,
        description: fileStorageChargeDescription(zone.name, billableGb(store.usedBytes), days, store.billedUntil, until),
        orderId,
      });
    }
    await tx
      .update(fileStorages)
      .set({ billedUntil: until, chargedFen: sql`${fileStorages.chargedFen} + ${amount}`, orderId, updatedAt: now })
      .where(eq(fileStorages.id, store.id));
    return amount;
  }


  /**
   * Arrears, in this order: stores of wallets paid up are cleared; stores of wallets below zero start
   * their arrears; those due are deleted (before reminders, so a reminder sent in this pass is never
   * followed by a deletion in it); then writes are blocked and reminders sent.
   */
  async enforceArrears(
    now: Date,
    zoneInfo?: Map<string, ZoneInfo>,
  ): Promise<{ inArrears: number; paidUp: number; blocked: number; reminded: number; deleted: number; failures: unknown[] }> {
    const info = zoneInfo ?? (await this.zones());
    const zoneName = (zoneId: string) => info.get(zoneId)?.name ?? zoneId;
    const paidUp = await this.db
      .update(fileStorages)
      .set({ arrearsSince: null, writesBlockedAt: null, deletionReminders: 0, updatedAt: now })
      .where(and(live, isNotNull(fileStorages.arrearsSince), walletPaidUp))
      .returning({ id: fileStorages.id });
    const inArrears = await this.db
      .update(fileStorages)
      .set({ arrearsSince: now, updatedAt: now })
      .where(and(live, isNull(fileStorages.arrearsSince), walletNegative))
      .returning({ id: fileStorages.id });
    const { deleted, failures } = await this.deleteDue(now, zoneName);
    const blocked = await this.blockWrites(now, zoneName);
    let reminded = 0;
    // The nearer reminder first: a job down through the first sends only the second.
    for (const stage of [2, 1] as const) reminded += await this.remind(now, stage, zoneName);
    return { inArrears: inArrears.length, paidUp: paidUp.length, blocked, reminded, deleted, failures };
  }

  private async blockWrites(now: Date, zoneName: (zoneId: string) => string): Promise<number> {
    return this.db.transaction(async (tx) => {
      const blocked = await tx
        .update(fileStorages)
        .set({ writesBlockedAt: now, updatedAt: now })
        .from(wallets)
        .where(
          and(
            live,
            isNull(fileStorages.writesBlockedAt),
            lte(fileStorages.arrearsSince, daysAgo(now, FILE_STORAGE_BLOCK_DAYS)),
            eq(wallets.accountId, fileStorages.ownerId),
            lt(wallets.balanceFen, 0),
          ),
        )
        .returning(ARREARS_RETURNING);
      const at = chinaDateTime(now);
      await this.notifications.record(
        tx,
        blocked.flatMap(({ balanceFen, ...store }): NewNotification[] => {
          if (!store.arrearsSince) return [];
          const label = fileStorageLabel(zoneName(store.zoneId));
          const deleteAt = chinaDateTime(fileStorageDeletionAt(store.arrearsSince, null));
          return [
            {
              ...this.addressed(store),
              kind: 'FILE_STORAGE_WRITES_BLOCKED',
              title: `${label}因欠费已禁止写入`,
              body: `您的账户已欠费满${FILE_STORAGE_BLOCK_DAYS}天（当前余额${formatYuan(balanceFen)}），${label}已于${at}禁止写入：已有文件仍可查看和下载，上传、新建等写入操作将被拒绝。请尽快充值，余额不再为负后恢复写入；若一直欠费，将于${deleteAt}（欠费满${FILE_STORAGE_DELETE_DAYS}天）删除该地区文件存储中的全部文件，且无法恢复。`,
              dedupeKey: fileStorageNoticeKeys.blocked(store.id, store.arrearsSince),
            },
          ];
        }),
      );
      return blocked.length;
    });
  }

  /** Reminder `stage` to every store in arrears long enough that has not had it (nor a later one). */
  private async remind(now: Date, stage: 1 | 2, zoneName: (zoneId: string) => string): Promise<number> {
    return this.db.transaction(async (tx) => {
      const reminded = await tx
        .update(fileStorages)
        .set({ deletionReminders: stage, updatedAt: now })
        .from(wallets)
        .where(
          and(
            live,
            lt(fileStorages.deletionReminders, stage),
            lte(fileStorages.arrearsSince, daysAgo(now, reminderDueDays(stage))),
            eq(wallets.accountId, fileStorages.ownerId),
            lt(wallets.balanceFen, 0),
          ),
        )
        .returning(ARREARS_RETURNING);
      await this.notifications.record(
        tx,
        reminded.flatMap(({ balanceFen, ...store }): NewNotification[] => {
          if (!store.arrearsSince) return [];
          const label = fileStorageLabel(zoneName(store.zoneId));
          const deleteAt = fileStorageDeletionAt(store.arrearsSince, stage === 2 ? now : null);
          const daysLeft = Math.max(1, Math.ceil((deleteAt.getTime() - now.getTime()) / DAY_MS));
          const when = chinaDateTime(deleteAt);
          return [
            {
              ...this.addressed(store),
              kind: 'FILE_STORAGE_DELETION_REMINDER',
              title: `${label}将于${when}删除`,
              body: `您的账户已欠费${wholeDaysSince(store.arrearsSince, now)}天（当前余额${formatYuan(balanceFen)}），${label}已禁止写入，将于${when}（${daysLeft}天后）删除全部文件，且无法恢复。请在此之前充值：余额不再为负后文件保留并恢复写入。`,
              dedupeKey: fileStorageNoticeKeys.reminder(stage, store.id, store.arrearsSince),
            },
          ];
        }),
      );
      return reminded.length;
    });
  }

  /**
   * Stores 30 days in arrears with their last reminder a day old: each in its own transaction, its row
   * locked `SKIP LOCKED` with the conditions read again, the files removed on the backend while the row
   * is held (so no second process removes them and nothing re-initialises the store meanwhile), then the
   * row marked deleted with a notice. A removal that fails rolls back (the store stays live, its files
 * possibly in part) and is tried on the next pass; the others go on.
   */
  private async deleteDue(now: Date, zoneName: (zoneId: string) => string): Promise<{ deleted: number; failures: unknown[] }> {
    const candidates = await this.db
      .select({ id: fileStorages.id, arrearsSince: fileStorages.arrearsSince })
      .from(fileStorages)
      .where(and(live, eq(fileStorages.deletionReminders, 2), lte(fileStorages.arrearsSince, daysAgo(now, FILE_STORAGE_DELETE_DAYS)), walletNegative))
      .orderBy(asc(fileStorages.id))
      .limit(100);
    if (candidates.length === 0) return { deleted: 0, failures: [] };
    const keys = candidates.flatMap((store) => (store.arrearsSince ? [fileStorageNoticeKeys.reminder(2, store.id, store.arrearsSince)] : []));
    const lastReminders = await this.db
      .select({ dedupeKey: notifications.dedupeKey, createdAt: notifications.createdAt })
      .from(notifications)
      .where(inArray(notifications.dedupeKey, keys));
    const remindedAt = new Map(lastReminders.map((row) => [row.dedupeKey, row.createdAt]));
    let deleted = 0;
    const failures: unknown[] = [];
    for (const candidate of candidates) {
      if (!candidate.arrearsSince) continue;
      const sentAt = remindedAt.get(fileStorageNoticeKeys.reminder(2, candidate.id, candidate.arrearsSince)) ?? null;
      if (fileStorageDeletionAt(candidate.arrearsSince, sentAt).getTime() > now.getTime()) continue;
      try {
        if (await this.deleteStore(candidate.id, candidate.arrearsSince, now, zoneName)) deleted += 1;
      } catch (error) {
        failures.push(error);
      }
    }
    return { deleted, failures };
  }

  /** Deletes one store if it is still live and in the same arrears, with its wallet still below zero. */
  private async deleteStore(id: number, arrearsSince: Date, now: Date, zoneName: (zoneId: string) => string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [store] = await tx
        .select()
        .from(fileStorages)
        .where(and(eq(fileStorages.id, id), live, eq(fileStorages.arrearsSince, arrearsSince), walletNegative))
        .for('update', { skipLocked: true });
      if (!store) return false;
      await this.removeFiles(this.deps, store.ownerId, store.zoneId);
      await tx.update(fileStorages).set({ deletedAt: now, updatedAt: now }).where(eq(fileStorages.id, store.id));
      const label = fileStorageLabel(zoneName(store.zoneId));
      await this.notifications.record(tx, [
        {
          ...this.addressed(store),
          kind: 'FILE_STORAGE_DELETED',
          title: `${label}已删除`,
          body: `您的账户欠费已满${FILE_STORAGE_DELETE_DAYS}天，${label}中的全部文件已于${chinaDateTime(now)}删除。充值后可重新初始化该地区的文件存储。`,
          dedupeKey: fileStorageNoticeKeys.deleted(store.id),
        },
      ]);
      return true;
    });
  }

  /** A store's notices: the main account sees them, and the sub-account that initialised it; the owner gets the SMS. */
  private addressed(store: Pick<FileStorageRow, 'ownerId' | 'creatorId'>): Pick<NewNotification, 'ownerId' | 'creatorId' | 'recipientId' | 'instanceRowId'> {
    return { ownerId: store.ownerId, creatorId: store.creatorId, recipientId: store.ownerId, instanceRowId: null };
  }
}
