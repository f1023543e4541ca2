import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCodes, REDEEM_FAILURE_WINDOW_SECONDS } from '@slg/shared';
import { call, createTestApp, loginToken, registerUser, type TestApp } from '../../../test/helpers.js';
import { attemptWindows, ledgerEntries, redemptionCodes, users, vouchers, wallets } from '../../db/schema/index.js';
import { NO_PERMISSIONS } from '@slg/shared';
import { SessionService } from '../auth/sessions.js';
import { unbalancedTransactions, walletsOutOfBalance } from '../billing/ledger.js';
import { OrderService } from '../billing/orders.js';
import { makeOperator, openOrder, userIdOf } from '../invoices/test-factories.js';
import { generateRedeemCode, normalizeRedeemCode, REDEEM_CODE_ALPHABET } from './codes.js';

let t: TestApp;
let operatorPhone: string;
beforeAll(async () => {
  t = await createTestApp();
  operatorPhone = (await registerUser(t)).telephone;
  await makeOperator(t.deps.database.db, operatorPhone);
});

const issueVoucher = async (telephone: string, name: string, amount: number, validDays: number) => {
  const issued = await call(t.app, {
    method: 'POST',
    url: '/api/v1/admin/vouchers',
    token: await loginToken(t, operatorPhone),
    payload: { telephones: [telephone], name, amount, validDays },
  });
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
};
afterAll(async () => {
  await t.close();
});

interface VoucherView {
  id: number;
  name: string;
  amount: number;
  minOrderAmount: number;
  scope: string[];
  validFrom: string;
  validTo: string;
  status: 'UNUSED' | 'USED' | 'EXPIRED';
  usedAt: string | null;
  usedOrderNo: string | null;
}
interface RedeemResult {
  kind: 'VOUCHER' | 'BALANCE';
  amount: number;
  voucher: VoucherView | null;
}

const db = () => t.deps.database.db;

async function createCodes(body: Record<string, unknown>): Promise<string[]> {
  const created = await call<{ batchId: number; codes: string[] }>(t.app, {
    method: 'POST',
    url: '/api/v1/admin/redeem-codes',
    token: await loginToken(t, operatorPhone),
    payload: { name: '新用户礼包', count: 1, expiresInDays: 30, ...body },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.result.codes;
}

const redeem = (token: string, code: string, headers: Record<string, string> = {}) =>
  call<RedeemResult>(t.app, { method: 'POST', url: '/api/v1/voucher/redeem', token, payload: { code }, headers });

const balanceOf = async (token: string) =>
  (await call<{ totalBalance: number }>(t.app, { method: 'GET', url: '/api/v1/account/', token })).body.result.totalBalance;

const listVouchers = (token: string, query = '') =>
  call<{ list: VoucherView[]; total: number; page: number; pageSize: number }>(t.app, {
    method: 'GET',
    url: `/api/v1/voucher${query}`,
    token,
  });

describe('redemption code format', () => {
  it('draws 16 characters from an alphabet without 0/O/1/I, and reads codes case-insensitively', () => {
    expect(REDEEM_CODE_ALPHABET).toHaveLength(32);
    expect(REDEEM_CODE_ALPHABET).not.toMatch(/[0O1I]/);
    const codes = new Set(Array.from({ length: 500 }, () => generateRedeemCode()));
    expect(codes.size).toBe(500);
    for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{16}$/);
    expect(normalizeRedeemCode(' abcd-efgh jkmn-pqrs ')).toBe('ABCDEFGHJKMNPQRS');
  });
});

describe('redeeming codes', () => {
  it('turns a VOUCHER code into a voucher for the redeemer, valid voucherValidDays from redemption', async () => {
    const user = await registerUser(t);
    const [code] = await createCodes({ kind: 'VOUCHER', amount: 2000, minOrderAmount: 5000, scope: ['NEW_PURCHASE'], voucherValidDays: 7 });
    if (!code) throw new Error('no code');
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{16}$/);

    const redeemed = await redeem(user.jwtToken, code.toLowerCase());
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.result).toMatchObject({
      kind: 'VOUCHER',
      amount: 2000,
      voucher: { name: '新用户礼包', amount: 2000, minOrderAmount: 5000, scope: ['NEW_PURCHASE'], status: 'UNUSED', usedAt: null, usedOrderNo: null },
    });
    const voucher = redeemed.body.result.voucher;
    expect(Date.parse(voucher?.validTo ?? '') - Date.parse(voucher?.validFrom ?? '')).toBe(7 * 24 * 3600 * 1000);
    expect(Math.abs(Date.parse(voucher?.validFrom ?? '') - t.deps.now().getTime())).toBeLessThan(5000);

    const listed = await listVouchers(user.jwtToken);
    expect(listed.body.result).toMatchObject({ total: 1, page: 1, pageSize: 10 });
    expect(listed.body.result.list[0]?.id).toBe(voucher?.id);
    // A voucher is never cash.
    expect(await balanceOf(user.jwtToken)).toBe(0);
  });

  it('credits a BALANCE code onto the wallet as a balanced GIFT transaction', async () => {
    const user = await registerUser(t);
    const [code] = await createCodes({ kind: 'BALANCE', amount: 5000 });
    if (!code) throw new Error('no code');
    const redeemed = await redeem(user.jwtToken, code);
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.result).toEqual({ kind: 'BALANCE', amount: 5000, voucher: null });
    expect(await balanceOf(user.jwtToken)).toBe(5000);
    expect(await walletsOutOfBalance(db())).toEqual([]);
    expect(await unbalancedTransactions(db())).toEqual([]);
    const entries = await call<{ list: { type: string; channel: string; amount: number; balanceAfter: number }[] }>(t.app, {
      method: 'GET',
      url: '/api/v1/ledger/entries',
      token: user.jwtToken,
    });
    expect(entries.body.result.list[0]).toMatchObject({ type: 'GIFT', channel: 'GIFT', amount: 5000, balanceAfter: 5000 });

    const again = await redeem(user.jwtToken, code);
    expect(again.status).toBe(400);
    expect(again.body.rspmsg).toBe('该兑换码已被使用');
    expect(again.body.rspcode).toBe(ErrorCodes.REDEEM_CODE_USED.code);
    expect(await balanceOf(user.jwtToken)).toBe(5000);
  });

  it('credits a code redeemed by several users at the same moment exactly once', async () => {
    const people = [];
    for (let i = 0; i < 5; i += 1) people.push(await registerUser(t));
    const [code] = await createCodes({ kind: 'BALANCE', amount: 800 });
    if (!code) throw new Error('no code');
    const results = await Promise.all(people.map((person) => redeem(person.jwtToken, code)));
    expect(results.map((result) => result.status).sort()).toEqual([200, 400, 400, 400, 400]);
    for (const result of results.filter((r) => r.status === 400)) expect(result.body.rspcode).toBe(ErrorCodes.REDEEM_CODE_USED.code);
    const balances = await Promise.all(people.map((person) => balanceOf(person.jwtToken)));
    expect(balances.sort((a, b) => a - b)).toEqual([0, 0, 0, 0, 800]);
    const [row] = await db().select().from(redemptionCodes).where(eq(redemptionCodes.code, code));
    expect(row?.redeemedAt).not.toBeNull();
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });

  it('refuses unknown and expired codes, and locks out after 5 wrong codes in 10 minutes', async () => {
    const user = await registerUser(t);
    const [expiring] = await createCodes({ kind: 'BALANCE', amount: 100, expiresInDays: 1 });
    const [good] = await createCodes({ kind: 'BALANCE', amount: 100, expiresInDays: 30 });
    if (!expiring || !good) throw new Error('no code');

    for (let i = 0; i < 4; i += 1) {
      const wrong = await redeem(user.jwtToken, `WRONG${i}CODE`);
      expect(wrong.status).toBe(400);
      expect(wrong.body.rspmsg).toBe('兑换码不存在或已失效');
    }
    t.clock.advance(24 * 3600 + 1);
    user.jwtToken = await loginToken(t, user.telephone);
    const expired = await redeem(user.jwtToken, expiring);
    expect(expired.status).toBe(400);
    expect(expired.body.rspcode).toBe(ErrorCodes.REDEEM_CODE_INVALID.code);
    // The window counts only the last 10 minutes: the four old ones have aged out, the expired one counts.
    for (let i = 0; i < 4; i += 1) expect((await redeem(user.jwtToken, `AGAIN${i}XX`)).status).toBe(400);

    const locked = await redeem(user.jwtToken, good);
    expect(locked.status).toBe(429);
    expect(locked.body.rspcode).toBe(ErrorCodes.REDEEM_TOO_MANY.code);
    expect(await balanceOf(user.jwtToken)).toBe(0);
    const [code] = await db().select().from(redemptionCodes).where(eq(redemptionCodes.code, good));
    expect(code?.redeemedAt).toBeNull();

    t.clock.advance(REDEEM_FAILURE_WINDOW_SECONDS + 1);
    user.jwtToken = await loginToken(t, user.telephone);
    const later = await redeem(user.jwtToken, good);
    expect(later.status).toBe(200);
    expect(await balanceOf(user.jwtToken)).toBe(100);
  });

  it('does not count used codes or bad input as wrong guesses', async () => {
    const user = await registerUser(t);
    const userId = await userIdOf(db(), user.telephone);
    const missing = await call(t.app, { method: 'POST', url: '/api/v1/voucher/redeem', token: user.jwtToken, payload: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.rspmsg).toBe('请输入兑换码');
    const number = await call(t.app, { method: 'POST', url: '/api/v1/voucher/redeem', token: user.jwtToken, payload: { code: 123 } });
    expect(number.body.rspmsg).toBe('兑换码必须是文本');
    const [window] = await db().select().from(attemptWindows).where(eq(attemptWindows.subject, `user:${userId}`));
    expect(window?.hits ?? []).toEqual([]);
  });

  it('answers a repeated Idempotency-Key with the first result and credits once', async () => {
    const user = await registerUser(t);
    const [code] = await createCodes({ kind: 'BALANCE', amount: 300 });
    if (!code) throw new Error('no code');
    const first = await redeem(user.jwtToken, code, { 'idempotency-key': 'redeem-key-0001' });
    const second = await redeem(user.jwtToken, code, { 'idempotency-key': 'redeem-key-0001' });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await balanceOf(user.jwtToken)).toBe(300);
  });

  it('needs a login', async () => {
    expect((await call(t.app, { method: 'POST', url: '/api/v1/voucher/redeem', payload: { code: 'X' } })).status).toBe(401);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/voucher' })).status).toBe(401);
  });
});

describe('voucher list', () => {
  it('computes UNUSED / USED / EXPIRED and filters by it, showing the order that used it', async () => {
    const user = await registerUser(t);
    const userId = await userIdOf(db(), user.telephone);
    await issueVoucher(user.telephone, '短期券', 1000, 1);
    t.clock.advance(3600);
    await issueVoucher(user.telephone, '长期券', 3000, 30);
    await issueVoucher(user.telephone, '待用券', 500, 30);
    user.jwtToken = await loginToken(t, user.telephone);
    const all = await listVouchers(user.jwtToken);
    const byName = new Map(all.body.result.list.map((voucher) => [voucher.name, voucher]));
    const longOne = byName.get('长期券');
    if (!longOne) throw new Error('missing voucher');

    const order = await openOrder(db(), t.deps.now, userId, 3000);
    await db().transaction((tx) => new OrderService(t.deps.now).pay(tx, order.id, { mode: 'use', voucherId: longOne.id }));
    t.clock.advance(24 * 3600);
    user.jwtToken = await loginToken(t, user.telephone);

    const statusOf = async (status: string) =>
      (await listVouchers(user.jwtToken, `?status=${status}`)).body.result.list.map((voucher) => voucher.name);
    expect(await statusOf('UNUSED')).toEqual(['待用券']);
    expect(await statusOf('EXPIRED')).toEqual(['短期券']);
    expect(await statusOf('USED')).toEqual(['长期券']);
    const used = (await listVouchers(user.jwtToken, '?status=USED')).body.result.list[0];
    expect(used).toMatchObject({ status: 'USED', usedOrderNo: order.orderNo });
    expect(used?.usedAt).not.toBeNull();

    const paged = await listVouchers(user.jwtToken, '?page=2&pageSize=2');
    expect(paged.body.result).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(paged.body.result.list).toHaveLength(1);

    const bad = await listVouchers(user.jwtToken, '?status=LOST');
    expect(bad.status).toBe(400);
    expect(bad.body.rspmsg).toContain('代金券状态');
  });

  it('shows only the caller’s own vouchers, and refuses sub-accounts without the INVOICE authority', async () => {
    const owner = await registerUser(t);
    const ownerId = await userIdOf(db(), owner.telephone);
    await issueVoucher(owner.telephone, '主账号券', 1000, 3);
    const stranger = await registerUser(t);
    expect((await listVouchers(stranger.jwtToken)).body.result.total).toBe(0);

    const sessions = new SessionService(t.deps);
    const subToken = async (invoice: 'ALL' | 'NONE') => {
      const [sub] = await db()
        .insert(users)
        .values({
          accountType: 2,
          parentId: ownerId,
          username: `sub_${ownerId}_${invoice}`,
          nickName: '财务',
          permissions: { ...NO_PERMISSIONS, INVOICE: invoice },
        })
        .returning({ id: users.id });
      if (!sub) throw new Error('no sub');
      await db().insert(wallets).values({ accountId: sub.id });
      return (await db().transaction((tx) => sessions.start(tx, sub.id))).jwtToken;
    };
    const finance = await subToken('ALL');
    expect((await listVouchers(finance)).body.result.list.map((voucher) => voucher.name)).toEqual(['主账号券']);
    const engineer = await subToken('NONE');
    expect((await listVouchers(engineer)).status).toBe(403);
    expect((await redeem(engineer, 'ANYCODE')).status).toBe(403);
  });
});

describe('using vouchers', () => {
  it('lets exactly one of two concurrent orders use the same voucher', async () => {
    const user = await registerUser(t);
    const userId = await userIdOf(db(), user.telephone);
    await issueVoucher(user.telephone, '抢用券', 1500, 3);
    const [voucher] = await db().select().from(vouchers).where(eq(vouchers.ownerId, userId));
    if (!voucher) throw new Error('no voucher');
    const service = new OrderService(t.deps.now);
    const first = await openOrder(db(), t.deps.now, userId, 1500);
    const second = await openOrder(db(), t.deps.now, userId, 1500);
    const results = await Promise.allSettled([
      db().transaction((tx) => service.pay(tx, first.id, { mode: 'use', voucherId: voucher.id })),
      db().transaction((tx) => service.pay(tx, second.id, { mode: 'use', voucherId: voucher.id })),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((result) => result.status === 'rejected');
    expect((rejected as PromiseRejectedResult | undefined)?.reason).toMatchObject({ codeName: 'VOUCHER_UNAVAILABLE' });
    const [after] = await db().select().from(vouchers).where(eq(vouchers.id, voucher.id));
    expect([first.id, second.id]).toContain(after?.usedOrderId);
    // Paid entirely by the voucher: nothing touched the wallet.
    expect(await db().select().from(ledgerEntries).where(eq(ledgerEntries.walletId, userId))).toEqual([]);
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });
});
