import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import { FILE_STORAGE_GB_BYTES } from '@slg/shared';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { insertMainAccount } from '../../../test/factories.js';
import { fileStorages, ledgerEntries, notifications, orders, smsOutbox, users, wallets, zones } from '../../db/schema/index.js';
import { postTransaction, unbalancedTransactions, walletsOutOfBalance } from '../billing/ledger.js';
import { OrderService } from '../billing/orders.js';
import { chinaDateTime } from '../notifications/service.js';
import { StatementService } from '../billing/statements.js';
import { billableGb, fileStorageDeletionAt, parseFileStorageNoticeKey } from './arrears.js';
import { FileStorageBilling, type RemoveFileStorageFiles } from './billing.js';
import { FileStorageChargingRecords } from './charging-records.js';
import { removeFileStorageFiles } from './usage.js';
import { runFileStorageJob } from '../../jobs/scheduler.js';

const DAY_S = 86_400;
const DAY_MS = DAY_S * 1000;
const GB = FILE_STORAGE_GB_BYTES;

let t: TestApp;
let root: string;
/** What the fake backend was asked to delete, in order. */
const removed: string[] = [];

/** The backend's deletion (usage.ts, on the temporary STORAGE_ROOT), counted. */
const removeFiles: RemoveFileStorageFiles = async (deps, ownerId, zoneId) => {
  removed.push(`${ownerId}/${zoneId}`);
  await removeFileStorageFiles(deps, ownerId, zoneId);
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'slg-storage-billing-'));
  t = await createTestApp({ env: { STORAGE_ROOT: root } });
  t.clock.freeze();
});
afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});

const db = () => t.deps.database.db;
const billing = () => new FileStorageBilling(t.deps, removeFiles);

async function setPrice(zoneId: string, fen: number): Promise<void> {
  await db().update(zones).set({ storagePriceFenPerGbDay: fen }).where(eq(zones.id, zoneId));
}

/** A store as initialisation leaves it: billed from now, with its free PLACED NEW_STORAGE order (unless `withOrder` is false). */
async function insertStore(ownerId: number, zoneId: string, usedBytes: number, options: { withOrder?: boolean } = {}) {
  const now = t.deps.now();
  const orderId =
    options.withOrder === false
      ? null
      : await db().transaction(async (tx) => {
          const order = await new OrderService(t.deps.now).open(tx, {
            ownerId,
            creatorId: ownerId,
            walletId: ownerId,
            type: 'NEW_STORAGE',
            billingType: 'USAGE',
            title: `文件存储初始化（${zoneId}）`,
            items: [{ name: '文件存储', spec: zoneId, quantity: 1, unit: 'GB·天', unitPriceFen: 1, amountFen: 0 }],
            resourceType: 'FILE_STORAGE',
            resourceId: zoneId,
          });
          return order.id;
        });
  const [store] = await db()
    .insert(fileStorages)
    .values({ ownerId, creatorId: ownerId, zoneId, usedBytes, measuredAt: now, billedUntil: now, orderId, createdAt: now, updatedAt: now })
    .returning();
  if (!store) throw new Error('no store');
  await mkdir(join(root, String(ownerId), zoneId, 'checkpoints'), { recursive: true });
  await writeFile(join(root, String(ownerId), zoneId, 'checkpoints', 'model.bin'), 'weights');
  return store;
}

async function storeRow(id: number) {
  const [row] = await db().select().from(fileStorages).where(eq(fileStorages.id, id));
  if (!row) throw new Error(`no store ${id}`);
  return row;
}

async function setUsage(id: number, usedBytes: number): Promise<void> {
  await db().update(fileStorages).set({ usedBytes, measuredAt: t.deps.now() }).where(eq(fileStorages.id, id));
}

async function balance(walletId: number): Promise<number> {
  const [row] = await db().select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, walletId));
  return row?.balance ?? Number.NaN;
}

async function entriesSum(walletId: number): Promise<number> {
  const [row] = await db()
    .select({ sum: sql<number>`coalesce(sum(${ledgerEntries.amountFen}), 0)`.mapWith(Number) })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.walletId, walletId));
  return row?.sum ?? Number.NaN;
}

async function noticesOf(ownerId: number) {
  return db().select().from(notifications).where(and(eq(notifications.ownerId, ownerId), like(notifications.kind, 'FILE_STORAGE_%'))).orderBy(notifications.id);
}

async function gift(walletId: number, amountFen: number): Promise<void> {
  await db().transaction((tx) =>
    postTransaction(tx, {
      type: 'GIFT',
      channel: 'GIFT',
      description: '测试充值',
      lines: [
        { wallet: walletId, amountFen },
        { platform: 'gifts', amountFen: -amountFen },
      ],
      now: t.deps.now(),
    }),
  );
}

/** Two processes running the pass at once: every step must still happen once. */
async function passTwice(): Promise<void> {
  await Promise.all([billing().run(), billing().run()]);
}

describe('文件存储 billing rule', () => {
  it('bills whole GB above the free 20 GB, rounded up', () => {
    expect(billableGb(0)).toBe(0);
    expect(billableGb(20 * GB)).toBe(0);
    expect(billableGb(20 * GB + 1)).toBe(1);
    expect(billableGb(21 * GB)).toBe(1);
    expect(billableGb(35.5 * GB)).toBe(16);
  });

  it('deletes 30 days into the arrears, never less than a day after the last reminder', () => {
    const since = new Date('2026-06-01T02:00:00Z');
    expect(fileStorageDeletionAt(since, null).toISOString()).toBe('2026-07-01T02:00:00.000Z');
    expect(fileStorageDeletionAt(since, new Date('2026-06-30T02:00:00Z')).toISOString()).toBe('2026-07-01T02:00:00.000Z');
    expect(fileStorageDeletionAt(since, new Date('2026-07-03T00:00:00Z')).toISOString()).toBe('2026-07-04T00:00:00.000Z');
    expect(parseFileStorageNoticeKey(`file-storage-reminder:2:7:${since.getTime()}`)).toEqual({ kind: 'reminder', stage: 2, storeId: 7, arrearsSince: since });
    expect(parseFileStorageNoticeKey('release-reminder:3:7:1')).toBeNull();
  });
});

describe('文件存储 daily settlement over a simulated month', () => {
  it('charges exactly the GB·days above the free tier at the region price, once per day, through the ledger', async () => {
    const { id: ownerId, principal } = await insertMainAccount(t, { balanceFen: 100_000 });
    await setPrice('bj-b', 3);
    const store = await insertStore(ownerId, 'bj-b', 10 * GB);
    // A second region under the free tier, whose initialisation opened no order: never charged.
    const free = await insertStore(ownerId, 'nm-b', 19 * GB, { withOrder: false });
    const start = t.deps.now().getTime();
    const before = await balance(ownerId);

    // The usage each day ends with (the day's settlement reads it), in GB of 2^30 bytes.
    const days: number[] = [
      ...Array<number>(5).fill(10 * GB), // under the free tier: nothing
      ...Array<number>(5).fill(20 * GB), // exactly the free tier: nothing
      ...Array<number>(5).fill(20 * GB + 1), // one byte above: 1 GB a day
      ...Array<number>(10).fill(35.5 * GB), // 16 GB a day
      ...Array<number>(3).fill(50 * GB), // 30 GB a day
    ];
    let expected = 0;
    for (const [index, usedBytes] of days.entries()) {
      await setUsage(store.id, usedBytes);
      // Most of the day passes: nothing is due yet.
      t.clock.advance(DAY_S - 600);
      await billing().run();
      expect(await balance(ownerId)).toBe(before - expected);
      // The day ends; the job's next pass (10 minutes later) settles it, and a second one charges nothing.
      t.clock.advance(600 + 7);
      await passTwice();
      await billing().run();
      expected += billableGb(usedBytes) * 3;
      expect(await balance(ownerId), `day ${index + 1}`).toBe(before - expected);
      expect((await storeRow(store.id)).billedUntil.getTime()).toBe(start + (index + 1) * DAY_MS);
    }
    expect(expected).toBe(3 * (5 * 1 + 10 * 16 + 3 * 30));

    // The job is down for two days: both are settled at once, at the usage measured then (21 GB: 1 GB a day).
    await setUsage(store.id, 21 * GB);
    t.clock.advance(2 * DAY_S);
    await passTwice();
    expected += 2 * 1 * 3;
    expect(await balance(ownerId)).toBe(before - expected);

    const settled = await storeRow(store.id);
    expect(settled.billedUntil.getTime()).toBe(start + 30 * DAY_MS);
    expect(settled.chargedFen).toBe(expected);
    expect(settled.arrearsSince).toBeNull();
    const [order] = await db().select().from(orders).where(eq(orders.id, settled.orderId ?? 0));
    expect(order).toMatchObject({ id: store.orderId, type: 'NEW_STORAGE', status: 'PLACED', billingType: 'USAGE', meteredFen: expected });

    const untouched = await storeRow(free.id);
    expect(untouched).toMatchObject({ chargedFen: 0, orderId: null });
    expect(untouched.billedUntil.getTime()).toBe(start + 30 * DAY_MS);

    // The wallet is the sum of its entries; every transaction balances.
    expect(await balance(ownerId)).toBe(await entriesSum(ownerId));
    expect(await walletsOutOfBalance(db())).toEqual([]);
    expect(await unbalancedTransactions(db())).toEqual([]);

    // 账单明细: one row per settlement, with the region, the GB and the period, not grouped by hour.
    const bills = await new StatementService(db()).bills(ownerId, { page: 1, pageSize: 100, orderType: 'NEW_STORAGE' });
    expect(bills.list.reduce((total, bill) => total + bill.amount, 0)).toBe(expected);
    expect(bills.list).toHaveLength(5 + 10 + 3 + 1);
    const last = bills.list[0];
    expect(last).toMatchObject({ orderType: 'NEW_STORAGE', billingType: 'USAGE', amount: 6, cashAmount: 6 });
    const period = `${chinaDateTime(new Date(start + 28 * DAY_MS))} 至 ${chinaDateTime(new Date(start + 30 * DAY_MS))}`;
    expect(last?.title).toBe(`文件存储（北京B区）超出免费 20 GB 的 1 GB × 2天（${period}）`);

    // 计费记录: each store with what it has cost.
    const records = await new FileStorageChargingRecords(db()).list(principal);
    expect(records.totalFen).toBe(expected);
    expect(records.list.find((record) => record.zoneId === 'bj-b')).toMatchObject({
      zoneName: '北京B区',
      usedBytes: 21 * GB,
      billableGb: 1,
      priceFenPerGbDay: 3,
      rateFenPerDay: 3,
      chargedFen: expected,
      status: 'ACTIVE',
    });
    expect(records.list.find((record) => record.zoneId === 'nm-b')).toMatchObject({ chargedFen: 0, rateFenPerDay: 0, status: 'ACTIVE' });
    await setPrice('bj-b', 1);
  });

  it('opens the usage order itself when initialisation left none, and a region without a price charges nothing', async () => {
    const { id: ownerId } = await insertMainAccount(t, { balanceFen: 1_000 });
    await setPrice('xb-a', 0);
    const priceless = await insertStore(ownerId, 'xb-a', 100 * GB, { withOrder: false });
    const orphan = await insertStore(ownerId, 'hd-a', 25 * GB, { withOrder: false });
    t.clock.advance(DAY_S + 1);
    await passTwice();
    expect(await storeRow(priceless.id)).toMatchObject({ chargedFen: 0, orderId: null });
    const charged = await storeRow(orphan.id);
    expect(charged.chargedFen).toBe(5);
    const [order] = await db().select().from(orders).where(eq(orders.id, charged.orderId ?? 0));
    expect(order).toMatchObject({ type: 'NEW_STORAGE', status: 'PLACED', meteredFen: 5, resourceType: 'FILE_STORAGE' });
    expect(await balance(ownerId)).toBe(1_000 - 5);
    await setPrice('xb-a', 1);
  });
});

describe('the file-storage job', () => {
  it('measures the stores on the backend, then settles the day at the usage measured', async () => {
    const { id: ownerId } = await insertMainAccount(t, { balanceFen: 1_000 });
    const store = await insertStore(ownerId, 'hd-a', 0, { withOrder: false });
    // A sparse file: 22.25 GiB of apparent size (what usage counts) without taking the disk.
    await truncate(join(root, String(ownerId), 'hd-a', 'checkpoints', 'model.bin'), 22.25 * GB);
    t.clock.advance(DAY_S + 60);
    await runFileStorageJob(t.deps);
    await runFileStorageJob(t.deps);
    const row = await storeRow(store.id);
    expect(row.usedBytes).toBe(22.25 * GB);
    expect(row.measuredAt?.getTime()).toBe(t.deps.now().getTime());
    expect(row.chargedFen).toBe(3);
    expect(await balance(ownerId)).toBe(1_000 - 3);
  });
});

describe('文件存储 in arrears', () => {
  it('blocks writes at 15 days, reminds twice, deletes at 30 days — each once, with two processes', async () => {
    const { id: ownerId, principal } = await insertMainAccount(t, { balanceFen: 100 });
    const [owner] = await db().select({ telephone: users.telephone }).from(users).where(eq(users.id, ownerId));
    // 16 GB above the free tier at 1 fen: 16 fen a day, so the 7th day's charge takes the wallet below zero.
    const store = await insertStore(ownerId, 'cq-a', 35.5 * GB);
    for (let day = 1; day <= 6; day += 1) {
      t.clock.advance(DAY_S);
      await passTwice();
    }
    expect(await balance(ownerId)).toBe(100 - 6 * 16);
    expect((await storeRow(store.id)).arrearsSince).toBeNull();
    t.clock.advance(DAY_S);
    await passTwice();
    expect(await balance(ownerId)).toBe(100 - 7 * 16);
    const arrearsSince = t.deps.now();
    expect((await storeRow(store.id)).arrearsSince?.getTime()).toBe(arrearsSince.getTime());
    const deletionAt = chinaDateTime(new Date(arrearsSince.getTime() + 30 * DAY_MS));

    // Days 1–14 in arrears: still writable; the store keeps being billed (the wallet only goes further down).
    for (let day = 1; day <= 14; day += 1) {
      t.clock.advance(DAY_S);
      await passTwice();
    }
    expect((await storeRow(store.id)).writesBlockedAt).toBeNull();
    expect(await noticesOf(ownerId)).toEqual([]);

    // Day 15: writes blocked, one notice (and one SMS).
    t.clock.advance(DAY_S);
    await passTwice();
    const blocked = await storeRow(store.id);
    expect(blocked.writesBlockedAt?.getTime()).toBe(t.deps.now().getTime());
    let notices = await noticesOf(ownerId);
    expect(notices.map((notice) => notice.kind)).toEqual(['FILE_STORAGE_WRITES_BLOCKED']);
    expect(notices[0]?.title).toBe('文件存储（重庆A区）因欠费已禁止写入');
    expect(notices[0]?.body).toContain('请尽快充值');
    expect(notices[0]?.body).toContain(`将于${deletionAt}（欠费满30天）删除`);
    expect(notices[0]).toMatchObject({ recipientId: ownerId, smsStatus: 'sent' });
    const texts = await db().select().from(smsOutbox).where(eq(smsOutbox.telephone, owner?.telephone ?? ''));
    expect(texts.map((text) => text.content)).toEqual([
      '您的账户已欠费，文件存储（重庆A区）已禁止写入。欠费满30天的文件存储将删除全部文件且无法恢复，请尽快充值。',
    ]);

    // Days 16–22: nothing new. Day 23: the first reminder (7 days before); day 29: the second (1 day before).
    for (let day = 16; day <= 29; day += 1) {
      t.clock.advance(DAY_S);
      await passTwice();
      const kinds = (await noticesOf(ownerId)).map((notice) => notice.kind);
      const reminders = kinds.filter((kind) => kind === 'FILE_STORAGE_DELETION_REMINDER').length;
      expect(reminders, `day ${day}`).toBe(day >= 29 ? 2 : day >= 23 ? 1 : 0);
      expect((await storeRow(store.id)).deletionReminders).toBe(reminders);
    }
    notices = await noticesOf(ownerId);
    expect(notices.slice(1).map((notice) => notice.title)).toEqual([`文件存储（重庆A区）将于${deletionAt}删除`, `文件存储（重庆A区）将于${deletionAt}删除`]);
    expect(notices[1]?.body).toContain('（7天后）删除全部文件');
    expect(notices[2]?.body).toContain('（1天后）删除全部文件');
    const reminderTexts = await db().select().from(smsOutbox).where(eq(smsOutbox.telephone, owner?.telephone ?? ''));
    const reminderText = `您的账户已欠费，文件存储（重庆A区）将于${deletionAt}删除。欠费满30天的文件存储将删除全部文件且无法恢复，请尽快充值。`;
    expect(reminderTexts.map((text) => text.content).slice(1)).toEqual([reminderText, reminderText]);
    expect(removed).not.toContain(`${ownerId}/cq-a`);
    expect(existsSync(join(root, String(ownerId), 'cq-a', 'checkpoints', 'model.bin'))).toBe(true);

    // Day 30: the files are removed (once), the row kept as a record, a notice says so.
    t.clock.advance(DAY_S);
    await passTwice();
    const deleted = await storeRow(store.id);
    expect(deleted.deletedAt?.getTime()).toBe(t.deps.now().getTime());
    expect(removed.filter((key) => key === `${ownerId}/cq-a`)).toHaveLength(1);
    expect(existsSync(join(root, String(ownerId), 'cq-a'))).toBe(false);
    notices = await noticesOf(ownerId);
    expect(notices.map((notice) => notice.kind)).toEqual([
      'FILE_STORAGE_WRITES_BLOCKED',
      'FILE_STORAGE_DELETION_REMINDER',
      'FILE_STORAGE_DELETION_REMINDER',
      'FILE_STORAGE_DELETED',
    ]);
    expect(notices[3]?.body).toContain(`全部文件已于${deletionAt}删除`);

    // A deleted store is neither billed nor handled again.
    const after = await balance(ownerId);
    t.clock.advance(3 * DAY_S);
    await passTwice();
    expect(await balance(ownerId)).toBe(after);
    expect((await storeRow(store.id)).billedUntil.getTime()).toBe(deleted.billedUntil.getTime());
    expect(removed.filter((key) => key === `${ownerId}/cq-a`)).toHaveLength(1);
    expect(await balance(ownerId)).toBe(await entriesSum(ownerId));

    // Charged every whole day until the deletion: 7 + 30 days of 16 fen (the deletion day's partial day is not).
    expect(deleted.chargedFen).toBe((7 + 30) * 16);
    const records = await new FileStorageChargingRecords(db()).list(principal);
    expect(records.list.find((record) => record.zoneId === 'cq-a')).toMatchObject({ status: 'DELETED', chargedFen: (7 + 30) * 16 });
    expect(arrearsSince.getTime() + 30 * DAY_MS).toBe(deleted.deletedAt?.getTime());
  });

  it('paying up clears the arrears and the block, and a new arrears starts its count again', async () => {
    const { id: ownerId } = await insertMainAccount(t);
    const store = await insertStore(ownerId, 'hn-a', 21 * GB);
    t.clock.advance(DAY_S);
    await passTwice();
    expect(await balance(ownerId)).toBe(-1);
    expect((await storeRow(store.id)).arrearsSince).not.toBeNull();
    for (let day = 1; day <= 16; day += 1) {
      t.clock.advance(DAY_S);
      await passTwice();
    }
    expect((await storeRow(store.id)).writesBlockedAt).not.toBeNull();

    await gift(ownerId, 1_000);
    await passTwice();
    expect(await storeRow(store.id)).toMatchObject({ arrearsSince: null, writesBlockedAt: null, deletionReminders: 0, deletedAt: null });

    // Below zero again: a new count from that pass, so nothing is blocked before another 15 days.
    await db().update(fileStorages).set({ usedBytes: 20 * GB + 1001 * GB }).where(eq(fileStorages.id, store.id));
    t.clock.advance(DAY_S);
    await passTwice();
    const again = await storeRow(store.id);
    expect(await balance(ownerId)).toBeLessThan(0);
    expect(again.arrearsSince?.getTime()).toBe(t.deps.now().getTime());
    expect(again.writesBlockedAt).toBeNull();
    expect(await balance(ownerId)).toBe(await entriesSum(ownerId));
  });

  it('after a job outage through both reminder days, sends only the last reminder and deletes a day later, not at once', async () => {
    const { id: ownerId } = await insertMainAccount(t);
    const store = await insertStore(ownerId, 'bj-a', 21 * GB);
    t.clock.advance(DAY_S);
    await passTwice();
    const since = (await storeRow(store.id)).arrearsSince;
    expect(since).not.toBeNull();
    // Down for 31 days.
    t.clock.advance(31 * DAY_S);
    await passTwice();
    let row = await storeRow(store.id);
    expect(row).toMatchObject({ deletionReminders: 2, deletedAt: null });
    expect(row.writesBlockedAt).not.toBeNull();
    const kinds = (await noticesOf(ownerId)).map((notice) => notice.kind);
    expect(kinds).toEqual(['FILE_STORAGE_WRITES_BLOCKED', 'FILE_STORAGE_DELETION_REMINDER']);
    expect((await noticesOf(ownerId))[1]?.body).toContain('（1天后）');
    t.clock.advance(DAY_S - 60);
    await passTwice();
    expect((await storeRow(store.id)).deletedAt).toBeNull();
    t.clock.advance(60);
    await passTwice();
    row = await storeRow(store.id);
    expect(row.deletedAt).not.toBeNull();
    expect(removed).toContain(`${ownerId}/bj-a`);
  });

  it('a failed removal leaves the store live and is tried again on the next pass', async () => {
    const { id: ownerId } = await insertMainAccount(t);
    const store = await insertStore(ownerId, 'nm-b', 21 * GB);
    t.clock.advance(DAY_S);
    await passTwice();
    t.clock.advance(29 * DAY_S);
    await passTwice();
    t.clock.advance(DAY_S + 1);
    const failing: RemoveFileStorageFiles = () => Promise.reject(new Error('storage backend unreachable'));
    await expect(new FileStorageBilling(t.deps, failing).run()).rejects.toThrow('storage backend unreachable');
    expect((await storeRow(store.id)).deletedAt).toBeNull();
    expect(existsSync(join(root, String(ownerId), 'nm-b', 'checkpoints', 'model.bin'))).toBe(true);
    await billing().run();
    expect((await storeRow(store.id)).deletedAt).not.toBeNull();
    expect(existsSync(join(root, String(ownerId), 'nm-b'))).toBe(false);
    expect((await noticesOf(ownerId)).filter((notice) => notice.kind === 'FILE_STORAGE_DELETED')).toHaveLength(1);
  });
});
