/**
 * 提醒设置 (issue 9): settings per account with clear refusals, the balance reminder firing once per
 * crossing below its threshold (and again after the balance climbed back), package reminders once per
 * package end, and the SMS switch of every reminder type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { PACKAGE_PRICE_HOURS } from '@slg/shared';
import type { ReminderSettings, ReminderView } from '@slg/shared/views/reminders';
import { call, createTestApp, loginToken, rechargeThroughSandbox, registerUser, type TestApp } from '../../../test/helpers.js';
import { notifications, reminders, users } from '../../db/schema/index.js';
import { Reconciler } from '../rental/reconciler.js';
import { NotificationService } from '../notifications/service.js';
import { ReminderService } from './service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { SIM_CREATE_SECONDS: '2', SIM_START_SECONDS: '2', SIM_STOP_SECONDS: '2', SIM_DESTROY_SECONDS: '2' } });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;
const DAY_S = 86_400;
const SUB_PASSWORD = 'team2026pass';
let counter = 0;

type Method = 'GET' | 'POST' | 'DELETE';
const send = <T = unknown>(token: string, method: Method, url: string, payload?: Record<string, unknown>) =>
  call<T>(t.app, { method, url, token, ...(payload ? { payload } : {}) });

interface Account {
  id: number;
  telephone: string;
  token: string;
}

async function mainAccount(rechargeFen: number): Promise<Account> {
  const user = await registerUser(t);
  if (rechargeFen > 0) await rechargeThroughSandbox(t, user.jwtToken, rechargeFen);
  const info = await send<{ userId: number }>(user.jwtToken, 'GET', '/api/v1/user/userinfo');
  return { id: info.body.result.userId, telephone: user.telephone, token: user.jwtToken };
}

/** A fresh access token (tests move the clock past the token lifetime). */
async function fresh(account: Account): Promise<string> {
  account.token = await loginToken(t, account.telephone);
  return account.token;
}

async function subAccount(main: Account, sharedMainBalance: boolean): Promise<{ id: number; token: string }> {
  const username = `remind_${process.pid}_${++counter}`;
  const created = await send<{ id: number }>(main.token, 'POST', '/api/v1/subuser/create', { username, password: SUB_PASSWORD, sharedMainBalance });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const login = await call<{ jwtToken: string }>(t.app, { method: 'POST', url: '/api/v1/subuser/login', payload: { username, password: SUB_PASSWORD } });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return { id: created.body.result.id, token: login.body.result.jwtToken };
}

/** Moves money out of (recharge) or back into (deduct) the main wallet through a sub-account with its own wallet. */
async function move(main: Account, subId: number, direction: 'recharge' | 'deduct', amount: number): Promise<void> {
  const moved = await send(main.token, 'POST', `/api/v1/subuser/${direction}`, { id: subId, amount });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
}

const setReminder = (token: string, body: Record<string, unknown>) => send<ReminderView>(token, 'POST', '/api/v1/reminder', body);
const settings = async (token: string) => {
  const got = await send<ReminderSettings>(token, 'GET', '/api/v1/reminder');
  expect(got.status, JSON.stringify(got.body)).toBe(200);
  return got.body.result;
};
const settingOf = async (token: string, type: string) => (await settings(token)).list.find((item) => item.remindType === type);

const fire = () => new ReminderService(t.deps).fire();

async function noticesOf(creatorId: number, kind: string) {
  return db()
    .select()
    .from(notifications)
    .where(and(eq(notifications.creatorId, creatorId), eq(notifications.kind, kind)))
    .orderBy(notifications.id);
}

const count = async (creatorId: number, kind = 'BALANCE_LOW') => (await noticesOf(creatorId, kind)).length;

async function texts(telephone: string, type: string): Promise<string[]> {
  const outbox = await call<{ type: string; content: string | null }[]>(t.app, { method: 'GET', url: `/api/dev/sms?telephone=${telephone}` });
  return outbox.body.result.filter((message) => message.type === type).map((message) => message.content ?? '');
}

describe('settings', () => {
  it('lists every type with its default, saves each in fen and turns it off again', async () => {
    const user = await mainAccount(12_345);
    const initial = await settings(user.token);
    expect(initial).toEqual({
      balanceFen: 12_345,
      sharedMainBalance: false,
      list: [
        { remindType: 'BALANCE_LOW', enabled: false, thresholdFen: null, daysBefore: null, sms: true, firedAt: null },
        { remindType: 'PACKAGE_EXPIRING', enabled: false, thresholdFen: null, daysBefore: 3, sms: true, firedAt: null },
        { remindType: 'RELEASE', enabled: true, thresholdFen: null, daysBefore: null, sms: true, firedAt: null },
        { remindType: 'STOCK', enabled: true, thresholdFen: null, daysBefore: null, sms: true, firedAt: null },
      ],
    });

    const saved = await setReminder(user.token, { remindType: 'BALANCE_LOW', thresholdFen: 5_000 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.result).toEqual({ remindType: 'BALANCE_LOW', enabled: true, thresholdFen: 5_000, daysBefore: null, sms: true, firedAt: null });
    expect((await setReminder(user.token, { remindType: 'PACKAGE_EXPIRING', sms: false })).body.result).toMatchObject({ enabled: true, daysBefore: 3, sms: false });
    expect((await setReminder(user.token, { remindType: 'PACKAGE_EXPIRING', daysBefore: 7 })).body.result).toMatchObject({ daysBefore: 7, sms: true });

    const release = await send<ReminderView>(user.token, 'DELETE', '/api/v1/reminder?remindType=RELEASE');
    expect(release.status).toBe(200);
    // Off for RELEASE is the SMS only: the console notice stays.
    expect(release.body.result).toMatchObject({ remindType: 'RELEASE', enabled: true, sms: false });
    expect((await send<ReminderView>(user.token, 'DELETE', '/api/v1/reminder?remindType=BALANCE_LOW')).body.result).toMatchObject({ enabled: false, thresholdFen: null });

    const after = await settings(user.token);
    expect(after.list.map((item) => [item.remindType, item.enabled, item.sms])).toEqual([
      ['BALANCE_LOW', false, true],
      ['PACKAGE_EXPIRING', true, true],
      ['RELEASE', true, false],
      ['STOCK', true, true],
    ]);
    const rows = await db().select().from(reminders).where(eq(reminders.userId, user.id));
    expect(rows.map((row) => row.remindType).sort()).toEqual(['PACKAGE_EXPIRING', 'RELEASE']);
  });

  it('refuses bad settings with a Chinese message that names the problem, and writes nothing', async () => {
    const user = await mainAccount(0);
    const refusals: [Record<string, unknown>, string][] = [
      [{ remindType: 'BALANCE_LOW' }, '请设置提醒金额：余额低于该金额时提醒您'],
      [{ remindType: 'BALANCE_LOW', thresholdFen: null }, '请设置提醒金额：余额低于该金额时提醒您'],
      [{ remindType: 'BALANCE_LOW', thresholdFen: 0 }, '提醒金额不能低于¥0.01'],
      [{ remindType: 'BALANCE_LOW', thresholdFen: 10_000_001 }, '提醒金额不能超过¥100,000.00'],
      [{ remindType: 'BALANCE_LOW', thresholdFen: 12.5 }, '提醒金额必须是整数（单位：分）'],
      [{ remindType: 'BALANCE_LOW', thresholdFen: '100' }, '提醒金额必须是数字（单位：分）'],
      [{ remindType: 'BALANCE_LOW', thresholdFen: 100, daysBefore: 3 }, '余额不足提醒不需要设置提前天数，提前天数仅用于包年包月到期提醒'],
      [{ remindType: 'PACKAGE_EXPIRING', daysBefore: 0 }, '提前天数必须是1到30之间的整数'],
      [{ remindType: 'PACKAGE_EXPIRING', daysBefore: 31 }, '提前天数必须是1到30之间的整数'],
      [{ remindType: 'PACKAGE_EXPIRING', daysBefore: 2.5 }, '提前天数必须是1到30之间的整数'],
      [{ remindType: 'RELEASE', thresholdFen: 100 }, '实例释放提醒不需要设置提醒金额，提醒金额仅用于余额不足提醒'],
      [{ remindType: 'STOCK', sms: 'no' }, 'sms 必须是布尔值（是否同时发送短信）'],
      [{ remindType: 'WEEKLY' }, '提醒类型必须是 BALANCE_LOW（余额不足提醒）、PACKAGE_EXPIRING（包年包月到期提醒）、RELEASE（实例释放提醒）、STOCK（到货提醒） 之一'],
      [{}, '请选择提醒类型'],
    ];
    for (const [body, message] of refusals) {
      const refused = await setReminder(user.token, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.rspmsg, JSON.stringify(body)).toBe(message);
    }
    const deleted = await send(user.token, 'DELETE', '/api/v1/reminder?remindType=WEEKLY');
    expect(deleted.status).toBe(400);
    expect(deleted.body.rspmsg).toContain('提醒类型必须是');
    expect((await send(user.token, 'DELETE', '/api/v1/reminder')).body.rspmsg).toBe('请选择提醒类型');
    expect((await call(t.app, { method: 'GET', url: '/api/v1/reminder' })).status).toBe(401);
    expect(await db().select().from(reminders).where(eq(reminders.userId, user.id))).toEqual([]);
  });

  it('keeps each account’s own settings: a sub-account sets its own, whatever its permissions', async () => {
    const main = await mainAccount(0);
    const sub = await subAccount(main, false);
    expect((await setReminder(sub.token, { remindType: 'BALANCE_LOW', thresholdFen: 800 })).status).toBe(200);
    expect((await settingOf(sub.token, 'BALANCE_LOW'))?.thresholdFen).toBe(800);
    expect((await settingOf(main.token, 'BALANCE_LOW'))?.enabled).toBe(false);
  });
});

describe('balance reminder', () => {
  it('fires once when the balance crosses below, never again while low, and again after a recharge above and a new drop', async () => {
    const main = await mainAccount(10_000);
    const sink = await subAccount(main, false);
    expect((await setReminder(main.token, { remindType: 'BALANCE_LOW', thresholdFen: 5_000 })).status).toBe(200);

    await fire();
    expect(await count(main.id)).toBe(0);
    await move(main, sink.id, 'recharge', 6_000); // ¥40 left, below ¥50
    await fire();
    await fire();

    const first = await noticesOf(main.id, 'BALANCE_LOW');
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ ownerId: main.id, recipientId: main.id, smsStatus: 'sent', title: '余额已低于¥50.00' });
    expect(first[0]?.body).toContain('账户余额为¥40.00');
    expect(first[0]?.dedupeKey).toMatch(new RegExp(`^balance-low:${main.id}:\\d+$`));
    expect(await texts(main.telephone, 'balance_low')).toEqual(['您的账户余额为40.00元，已低于您设置的提醒金额50.00元。为免按量计费实例欠费关机，请及时充值。']);
    expect((await settingOf(main.token, 'BALANCE_LOW'))?.firedAt).not.toBeNull();

    // Lower still: the same crossing, no second reminder.
    await move(main, sink.id, 'recharge', 1_000);
    await fire();
    expect(await count(main.id)).toBe(1);

    // Back at the threshold exactly: armed again, nothing sent.
    await move(main, sink.id, 'deduct', 2_000);
    await fire();
    expect(await count(main.id)).toBe(1);
    expect((await settingOf(main.token, 'BALANCE_LOW'))?.firedAt).toBeNull();

    t.clock.advance(60);
    await move(main, sink.id, 'recharge', 1);
    await fire();
    expect(await noticesOf(main.id, 'BALANCE_LOW')).toHaveLength(2);
    expect(await texts(main.telephone, 'balance_low')).toHaveLength(2);
  });

  it('a new threshold is watched afresh', async () => {
    const main = await mainAccount(3_000);
    await setReminder(main.token, { remindType: 'BALANCE_LOW', thresholdFen: 5_000 });
    await fire();
    expect(await count(main.id)).toBe(1);
    // Saving the same threshold keeps the reminder fired; a different one re-arms it.
    await setReminder(main.token, { remindType: 'BALANCE_LOW', thresholdFen: 5_000, sms: false });
    await fire();
    expect(await count(main.id)).toBe(1);
    t.clock.advance(1);
    await setReminder(main.token, { remindType: 'BALANCE_LOW', thresholdFen: 4_000, sms: false });
    await fire();
    expect((await noticesOf(main.id, 'BALANCE_LOW')).map((row) => row.smsStatus)).toEqual(['sent', null]);
  });

  it('with sms off records the console notice without an SMS', async () => {
    const main = await mainAccount(1_000);
    await setReminder(main.token, { remindType: 'BALANCE_LOW', thresholdFen: 2_000, sms: false });
    await fire();
    const [notice] = await noticesOf(main.id, 'BALANCE_LOW');
    expect(notice?.smsStatus).toBeNull();
    expect(await texts(main.telephone, 'balance_low')).toEqual([]);
    const bell = await send<{ list: { kind: string; title: string }[] }>(main.token, 'GET', '/api/v1/notifications?page=1&pageSize=10');
    expect(bell.body.result.list.map((item) => item.kind)).toEqual(['BALANCE_LOW']);
  });

  it('a sub-account sharing the main balance watches the main wallet', async () => {
    const main = await mainAccount(10_000);
    const sink = await subAccount(main, false);
    const shared = await subAccount(main, true);
    // Its own wallet is empty, far below the threshold: it does not count.
    expect((await setReminder(shared.token, { remindType: 'BALANCE_LOW', thresholdFen: 5_000 })).status).toBe(200);
    expect(await settings(shared.token)).toMatchObject({ balanceFen: 10_000, sharedMainBalance: true });
    await fire();
    expect(await count(shared.id)).toBe(0);

    await move(main, sink.id, 'recharge', 6_000);
    await fire();
    const [notice] = await noticesOf(shared.id, 'BALANCE_LOW');
    expect(notice).toMatchObject({ ownerId: main.id, creatorId: shared.id, recipientId: shared.id, smsStatus: 'sent' });
    expect(notice?.body).toContain('主账号余额（本账号共用主账号余额）为¥40.00');
    // A sub-account without a phone is texted through its main account.
    expect(await texts(main.telephone, 'balance_low')).toEqual([expect.stringContaining('余额为40.00元，已低于您设置的提醒金额50.00元')]);
    // The sub-account sees it in its bell.
    const bell = await send<{ list: { kind: string }[] }>(shared.token, 'GET', '/api/v1/notifications?page=1&pageSize=10');
    expect(bell.body.result.list.map((item) => item.kind)).toEqual(['BALANCE_LOW']);
  });

  it('two runs at once still fire one reminder', async () => {
    const main = await mainAccount(100);
    await setReminder(main.token, { remindType: 'BALANCE_LOW', thresholdFen: 500 });
    const results = await Promise.all([fire(), fire(), fire()]);
    // Only this account's reminder is armed and below its threshold: one run claims it.
    expect(results.map((result) => result.balanceLow).sort()).toEqual([0, 0, 1]);
    expect(await noticesOf(main.id, 'BALANCE_LOW')).toHaveLength(1);
    expect(await texts(main.telephone, 'balance_low')).toHaveLength(1);
  });

  it('a deleted (disabled) account is not reminded', async () => {
    const main = await mainAccount(0);
    await setReminder(main.token, { remindType: 'BALANCE_LOW', thresholdFen: 500 });
    await db().update(users).set({ disabledAt: t.deps.now() }).where(eq(users.id, main.id));
    await fire();
    expect(await noticesOf(main.id, 'BALANCE_LOW')).toEqual([]);
  });
});

describe('package reminder', () => {
  const HOST = 'bj-a-4090-02';
  const WEEK = 198 * PACKAGE_PRICE_HOURS.week;

  it('reminds once per package end within the days asked, and again after a renewal', async () => {
    const main = await mainAccount(WEEK * 3);
    const created = await send<{ instanceId: string }>(main.token, 'POST', '/api/v1/rental', {
      hostId: HOST,
      gpuNum: 1,
      imageId: 'pytorch-2.5.1-py3.12-cu124',
      chargingRuleId: 3,
      rentAmount: 1,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { instanceId } = created.body.result;
    await new Reconciler(t.deps).tick();
    t.clock.advance(3);
    await new Reconciler(t.deps).tick();

    // Off: nothing, whatever the days.
    t.clock.advance(5 * DAY_S);
    await fire();
    expect(await count(main.id, 'PACKAGE_EXPIRING')).toBe(0);
    expect((await setReminder(await fresh(main), { remindType: 'PACKAGE_EXPIRING', daysBefore: 1 })).status).toBe(200);
    // Two days left: outside one day.
    await fire();
    expect(await count(main.id, 'PACKAGE_EXPIRING')).toBe(0);
    await setReminder(main.token, { remindType: 'PACKAGE_EXPIRING', daysBefore: 3 });
    await fire();
    await fire();
    expect(await count(main.id, 'PACKAGE_EXPIRING')).toBe(1);

    const [notice] = await noticesOf(main.id, 'PACKAGE_EXPIRING');
    expect(notice).toMatchObject({ recipientId: main.id, smsStatus: 'sent' });
    expect(notice?.title).toMatch(/^包周将于\d{4}-\d{2}-\d{2} \d{2}:\d{2}到期$/);
    expect(notice?.body).toContain(`（${instanceId}）的包周将于`);
    expect(notice?.body).toMatch(/剩余约(1天|\d+小时)/);
    const [sms] = await texts(main.telephone, 'package_expiring');
    expect(sms).toMatch(new RegExp(`^您的包年包月实例${instanceId}将于\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}到期`));

    const renewed = await send(main.token, 'POST', '/api/v1/rental/renew', { instanceIds: [instanceId], rentAmount: 1 });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    // Nine days left now: quiet until three days before the new end.
    await fire();
    expect(await count(main.id, 'PACKAGE_EXPIRING')).toBe(1);
    t.clock.advance(6 * DAY_S + 60);
    await fire();
    const all = await noticesOf(main.id, 'PACKAGE_EXPIRING');
    expect(all).toHaveLength(2);
    expect(new Set(all.map((row) => row.dedupeKey)).size).toBe(2);
    expect(await texts(main.telephone, 'package_expiring')).toHaveLength(2);
  });
});

describe('SMS switch of the platform’s reminders', () => {
  it('a release reminder or stock alert to someone who switched its SMS off is recorded without an SMS; others keep theirs', async () => {
    const quiet = await mainAccount(0);
    const loud = await mainAccount(0);
    expect((await send(quiet.token, 'DELETE', '/api/v1/reminder?remindType=RELEASE')).status).toBe(200);
    expect((await setReminder(quiet.token, { remindType: 'STOCK', sms: false })).status).toBe(200);
    const service = new NotificationService(t.deps);
    const notice = (user: Account, kind: 'RELEASE_REMINDER' | 'STOCK_AVAILABLE') => ({
      ownerId: user.id,
      creatorId: user.id,
      recipientId: user.id,
      kind,
      title: '测试',
      body: '测试',
      instanceRowId: null,
      dedupeKey: `reminder-test:${kind}:${user.id}`,
    });
    await service.record(db(), [notice(quiet, 'RELEASE_REMINDER'), notice(loud, 'RELEASE_REMINDER'), notice(quiet, 'STOCK_AVAILABLE'), notice(loud, 'STOCK_AVAILABLE')]);
    const rows = await db().select({ creatorId: notifications.creatorId, kind: notifications.kind, smsStatus: notifications.smsStatus }).from(notifications).where(eq(notifications.title, '测试'));
    const statusOf = (user: Account, kind: string) => rows.find((row) => row.creatorId === user.id && row.kind === kind)?.smsStatus;
    expect(statusOf(quiet, 'RELEASE_REMINDER')).toBeNull();
    expect(statusOf(quiet, 'STOCK_AVAILABLE')).toBeNull();
    expect(statusOf(loud, 'RELEASE_REMINDER')).toBe('pending');
    expect(statusOf(loud, 'STOCK_AVAILABLE')).toBe('pending');

    // Switched on again: the SMS goes with the next one.
    expect((await setReminder(quiet.token, { remindType: 'RELEASE', sms: true })).body.result).toMatchObject({ sms: true });
    await service.record(db(), [{ ...notice(quiet, 'RELEASE_REMINDER'), dedupeKey: 'reminder-test:again' }]);
    const [again] = await db().select().from(notifications).where(eq(notifications.dedupeKey, 'reminder-test:again'));
    expect(again?.smsStatus).toBe('pending');
  });
});
