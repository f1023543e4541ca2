import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { call, createTestApp, rechargeThroughSandbox, registerUser, type TestApp } from '../../../test/helpers.js';
import { vouchers, wallets } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import { userIdOf } from '../invoices/test-factories.js';
import { postTransaction, unbalancedTransactions, walletsOutOfBalance } from './ledger.js';
import { OrderService, type OpenOrderInput } from './orders.js';

let t: TestApp;
let service: OrderService;
beforeAll(async () => {
  t = await createTestApp();
  service = new OrderService(t.deps.now);
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;

async function fundedUser(amount: number) {
  const user = await registerUser(t);
  if (amount > 0) await rechargeThroughSandbox(t, user.jwtToken, amount);
  const userId = await userIdOf(db(), user.telephone);
  return { ...user, userId };
}

function orderInput(userId: number, amountFen: number, overrides: Partial<OpenOrderInput> = {}): OpenOrderInput {
  return {
    ownerId: userId,
    creatorId: userId,
    walletId: userId,
    type: 'NEW_PURCHASE',
    billingType: 'BUYOUT',
    title: 'RTX 4090 × 1 包日',
    items: [{ name: 'RTX 4090', spec: '1卡 · 包日', quantity: 1, unit: '天', unitPriceFen: amountFen, amountFen }],
    ...overrides,
  };
}

const openOrder = (input: OpenOrderInput) => db().transaction((tx) => service.open(tx, input));
const balanceOf = async (userId: number) => (await db().select().from(wallets).where(eq(wallets.accountId, userId)))[0]?.balanceFen;

async function giveVoucher(userId: number, amountFen: number, extra: Partial<typeof vouchers.$inferInsert> = {}) {
  const now = t.deps.now();
  const [voucher] = await db()
    .insert(vouchers)
    .values({
      ownerId: userId,
      name: `满减券${amountFen}`,
      amountFen,
      validFrom: new Date(now.getTime() - 1000),
      validTo: new Date(now.getTime() + 86_400_000),
      source: 'OPERATOR',
      ...extra,
    })
    .returning();
  if (!voucher) throw new Error('no voucher');
  return voucher;
}

describe('ledger invariants under load', () => {
  it('100 concurrent payments of small orders never overdraw the wallet and keep balance = sum of entries', async () => {
    const user = await fundedUser(5_000);
    const orders = [];
    for (let i = 0; i < 100; i += 1) orders.push(await openOrder(orderInput(user.userId, 73)));
    const results = await Promise.allSettled(orders.map((order) => db().transaction((tx) => service.pay(tx, order.id, { mode: 'none' }))));
    const paid = results.filter((result) => result.status === 'fulfilled').length;
    const refused = results.filter((result) => result.status === 'rejected');
    expect(paid).toBe(Math.floor(5_000 / 73));
    for (const result of refused) expect((result as PromiseRejectedResult).reason).toMatchObject({ codeName: 'INSUFFICIENT_BALANCE' });
    expect(await balanceOf(user.userId)).toBe(5_000 - paid * 73);
    expect(await walletsOutOfBalance(db())).toEqual([]);
    expect(await unbalancedTransactions(db())).toEqual([]);
  });

  it('refuses unbalanced or zero lines before writing anything', async () => {
    const user = await fundedUser(0);
    const now = t.deps.now();
    await expect(
      db().transaction((tx) =>
        postTransaction(tx, { type: 'CONSUME', channel: 'BALANCE', description: 'x', now, lines: [{ wallet: user.userId, amountFen: -5 }, { platform: 'revenue', amountFen: 4 }] }),
      ),
    ).rejects.toThrow('unbalanced');
    await expect(
      db().transaction((tx) =>
        postTransaction(tx, { type: 'CONSUME', channel: 'BALANCE', description: 'x', now, lines: [{ wallet: user.userId, amountFen: 0 }, { platform: 'revenue', amountFen: 0 }] }),
      ),
    ).rejects.toThrow('bad ledger amount');
    await expect(
      db().transaction((tx) =>
        postTransaction(tx, { type: 'CONSUME', channel: 'BALANCE', description: 'x', now, lines: [{ wallet: user.userId, amountFen: 1.5 }, { platform: 'revenue', amountFen: -1.5 }] }),
      ),
    ).rejects.toThrow('bad ledger amount');
    expect(await balanceOf(user.userId)).toBe(0);
  });
});

describe('orders', () => {
  it('pays with the best voucher preselected, and records cash and voucher parts', async () => {
    const user = await fundedUser(10_000);
    await giveVoucher(user.userId, 500);
    const best = await giveVoucher(user.userId, 1_500, { minOrderFen: 3_000 });
    await giveVoucher(user.userId, 9_000, { minOrderFen: 999_999 });
    await giveVoucher(user.userId, 2_000, { scope: ['NEW_STORAGE'] });
    const order = await openOrder(orderInput(user.userId, 4_000));
    expect(order.status).toBe('UNPAID');
    expect(order.orderNo).toMatch(/^\d{20}$/);

    const usable = await call<{ id: number }[]>(t.app, { method: 'GET', url: `/api/v1/order/${order.orderNo}/vouchers`, token: user.jwtToken });
    expect(usable.body.result.map((voucher) => voucher.id)[0]).toBe(best.id);
    expect(usable.body.result).toHaveLength(2);

    const paid = await call<{ status: string; discount: number; paidAmount: number; voucher: { id: number }; transactions: { amount: number }[] }>(
      t.app,
      { method: 'POST', url: `/api/v1/order/${order.orderNo}/pay`, token: user.jwtToken, payload: {} },
    );
    expect(paid.status).toBe(200);
    expect(paid.body.result).toMatchObject({ status: 'PAID', discount: 1_500, paidAmount: 2_500, voucher: { id: best.id } });
    expect(paid.body.result.transactions).toEqual([expect.objectContaining({ amount: -2_500 })]);
    expect(await balanceOf(user.userId)).toBe(7_500);

    const again = await call(t.app, { method: 'POST', url: `/api/v1/order/${order.orderNo}/pay`, token: user.jwtToken, payload: {} });
    expect(again.status).toBe(409);

    const bills = await call<{ list: { orderNo: string; amount: number; cashAmount: number; voucherAmount: number }[] }>(t.app, {
      method: 'GET',
      url: '/api/v1/bills',
      token: user.jwtToken,
    });
    expect(bills.body.result.list[0]).toMatchObject({ orderNo: order.orderNo, amount: 4_000, cashAmount: 2_500, voucherAmount: 1_500 });
  });

  it('pays a small order entirely by voucher; the bill still shows it', async () => {
    const user = await fundedUser(0);
    const voucher = await giveVoucher(user.userId, 1_000);
    const order = await openOrder(orderInput(user.userId, 800));
    const paid = await call<{ paidAmount: number; discount: number }>(t.app, {
      method: 'POST',
      url: `/api/v1/order/${order.orderNo}/pay`,
      token: user.jwtToken,
      payload: { voucherId: voucher.id },
    });
    expect(paid.body.result).toMatchObject({ paidAmount: 0, discount: 800 });
    const bills = await call<{ list: { amount: number; cashAmount: number; voucherAmount: number }[] }>(t.app, { method: 'GET', url: '/api/v1/bills', token: user.jwtToken });
    expect(bills.body.result.list).toEqual([expect.objectContaining({ amount: 800, cashAmount: 0, voucherAmount: 800 })]);
  });

  it('refuses paying without the balance, a foreign voucher, and paying without a voucher when asked', async () => {
    const user = await fundedUser(100);
    const other = await fundedUser(0);
    const foreign = await giveVoucher(other.userId, 5_000);
    const order = await openOrder(orderInput(user.userId, 1_000));
    const noMoney = await call(t.app, { method: 'POST', url: `/api/v1/order/${order.orderNo}/pay`, token: user.jwtToken, payload: { voucherId: null } });
    expect(noMoney.status).toBe(400);
    expect(noMoney.body.rspmsg).toBe('账户余额不足，请先充值');
    const stolen = await call(t.app, { method: 'POST', url: `/api/v1/order/${order.orderNo}/pay`, token: user.jwtToken, payload: { voucherId: foreign.id } });
    expect(stolen.body.rspmsg).toContain('代金券不可用');
    expect(await balanceOf(user.userId)).toBe(100);
    const [untouched] = await db().select().from(vouchers).where(eq(vouchers.id, foreign.id));
    expect(untouched?.usedAt).toBeNull();
  });

  it('cancels unpaid orders only, and hides orders of other accounts', async () => {
    const user = await fundedUser(0);
    const stranger = await registerUser(t);
    const order = await openOrder(orderInput(user.userId, 100));
    expect((await call(t.app, { method: 'GET', url: `/api/v1/order/${order.orderNo}`, token: stranger.jwtToken })).status).toBe(404);
    expect((await call(t.app, { method: 'POST', url: `/api/v1/order/${order.orderNo}/cancel`, token: stranger.jwtToken })).status).toBe(404);
    const canceled = await call<{ status: string; canceledAt: string }>(t.app, { method: 'POST', url: `/api/v1/order/${order.orderNo}/cancel`, token: user.jwtToken });
    expect(canceled.body.result.status).toBe('CANCELED');
    expect((await call(t.app, { method: 'POST', url: `/api/v1/order/${order.orderNo}/cancel`, token: user.jwtToken })).status).toBe(409);
    const payCanceled = await call(t.app, { method: 'POST', url: `/api/v1/order/${order.orderNo}/pay`, token: user.jwtToken });
    expect(payCanceled.body.rspmsg).toContain('不能支付');
    expect(payCanceled.status).toBe(409);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/order/123', token: user.jwtToken })).status).toBe(400);
  });

  it('refunds part, then the rest, never more than the cash paid', async () => {
    const user = await fundedUser(3_000);
    await giveVoucher(user.userId, 1_000);
    const order = await openOrder(orderInput(user.userId, 3_000));
    await db().transaction((tx) => service.pay(tx, order.id));
    expect(await balanceOf(user.userId)).toBe(1_000);
    await db().transaction((tx) => service.refund(tx, order.id, 500, '降配退款'));
    await expect(db().transaction((tx) => service.refund(tx, order.id, 1_501, '超额'))).rejects.toBeInstanceOf(AppError);
    for (const bad of [0, -1, 1.5]) await expect(db().transaction((tx) => service.refund(tx, order.id, bad, 'x'))).rejects.toThrow('金额不正确');
    const done = await db().transaction((tx) => service.refund(tx, order.id, 1_500, '退订'));
    expect(done.status).toBe('REFUNDED');
    expect(await balanceOf(user.userId)).toBe(3_000);
    const detail = await call<{ refundedAmount: number; transactions: { type: string; amount: number }[] }>(t.app, {
      method: 'GET',
      url: `/api/v1/order/${order.orderNo}`,
      token: user.jwtToken,
    });
    expect(detail.body.result.refundedAmount).toBe(2_000);
    expect(detail.body.result.transactions.map((tx) => [tx.type, tx.amount])).toEqual([
      ['CONSUME', -2_000],
      ['REFUND', 500],
      ['REFUND', 1_500],
    ]);
  });

  it('posts metered charges below zero on a usage order, but transfers never overdraw', async () => {
    const user = await fundedUser(100);
    const other = await fundedUser(0);
    const usage = await openOrder(orderInput(user.userId, 0, { billingType: 'USAGE', items: [] }));
    expect(usage.status).toBe('PLACED');
    await db().transaction((tx) => service.postMetered(tx, { walletId: user.userId, amountFen: 250, description: '按量计费 RTX 4090', orderId: usage.id }));
    expect(await balanceOf(user.userId)).toBe(-150);
    await expect(
      db().transaction((tx) => service.transfer(tx, { fromWalletId: user.userId, toWalletId: other.userId, amountFen: 1, description: '子账号充值' })),
    ).rejects.toMatchObject({ codeName: 'INSUFFICIENT_BALANCE' });
    const expense = await call<{ list: { amount: number; balanceAfter: number }[] }>(t.app, {
      method: 'GET',
      url: '/api/v1/ledger/entries?incomeType=EXPENSE',
      token: user.jwtToken,
    });
    expect(expense.body.result.list[0]).toMatchObject({ amount: -250, balanceAfter: -150 });
    expect(await walletsOutOfBalance(db())).toEqual([]);
  });

  it('lists orders with filters and pagination, and searches by order number prefix', async () => {
    const user = await fundedUser(0);
    const created = [];
    for (let i = 0; i < 12; i += 1) created.push(await openOrder(orderInput(user.userId, 100 + i, i % 2 ? { type: 'NEW_STORAGE' } : {})));
    const page2 = await call<{ list: unknown[]; total: number; page: number; pageSize: number }>(t.app, {
      method: 'GET',
      url: '/api/v1/order?page=2',
      token: user.jwtToken,
    });
    expect(page2.body.result).toMatchObject({ total: 12, page: 2, pageSize: 10 });
    expect(page2.body.result.list).toHaveLength(2);
    const storage = await call<{ total: number }>(t.app, { method: 'GET', url: '/api/v1/order?type=NEW_STORAGE', token: user.jwtToken });
    expect(storage.body.result.total).toBe(6);
    const target = created[3]?.orderNo ?? '';
    const search = await call<{ list: { orderNo: string }[] }>(t.app, { method: 'GET', url: `/api/v1/order?orderNo=${target}`, token: user.jwtToken });
    expect(search.body.result.list.map((order) => order.orderNo)).toEqual([target]);
    const bad = await call(t.app, { method: 'GET', url: '/api/v1/order?status=WHATEVER&pageSize=1000', token: user.jwtToken });
    expect(bad.status).toBe(400);
    expect(bad.body.rspmsg).toContain('订单状态不正确');
    expect(bad.body.rspmsg).toContain('每页条数不能超过100');
  });

  it('exports bills as a UTF-8 CSV that spreadsheets open', async () => {
    const user = await fundedUser(1_000);
    const order = await openOrder(orderInput(user.userId, 321, { title: '=HYPERLINK("x")' }));
    await db().transaction((tx) => service.pay(tx, order.id));
    const csv = await t.app.inject({ method: 'GET', url: '/api/v1/bills/export', headers: { authorization: `Bearer ${user.jwtToken}` } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('attachment');
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe('\uFEFF"时间","订单号","订单类型","计费方式","说明","金额（元）","余额支付（元）","代金券抵扣（元）"');
    expect(lines[1]).toContain(`"${order.orderNo}","新购实例","包年包月","'=HYPERLINK(""x"")","3.21","3.21","0.00"`);
  });

  it('refuses a reused Idempotency-Key on another route', async () => {
    const user = await fundedUser(1_000);
    const order = await openOrder(orderInput(user.userId, 100));
    const headers = { 'idempotency-key': 'shared-key-42424242' };
    const recharge = await call(t.app, { method: 'POST', url: '/api/v1/payment/recharge', token: user.jwtToken, headers, payload: { amount: 100, channel: 'WXPAY' } });
    expect(recharge.status).toBe(200);
    const pay = await call(t.app, { method: 'POST', url: `/api/v1/order/${order.orderNo}/pay`, token: user.jwtToken, headers, payload: {} });
    expect(pay.status).toBe(409);
    expect(pay.body.rspmsg).toBe('该 Idempotency-Key 已用于另一个内容不同的请求，请为新请求生成新的 Key');
  });

  it('refuses the cost centre to a sub-account without the INVOICE authority', async () => {
    const main = await fundedUser(0);
    const { users } = await import('../../db/schema/index.js');
    const { NO_PERMISSIONS } = await import('@slg/shared');
    const { SessionService } = await import('../auth/sessions.js');
    const [sub] = await db()
      .insert(users)
      .values({ accountType: 2, parentId: main.userId, username: `sub_${main.userId}`, nickName: '子账号', permissions: { ...NO_PERMISSIONS, CONTAINER: 'ALL' } })
      .returning();
    if (!sub) throw new Error('no sub');
    await db().insert(wallets).values({ accountId: sub.id });
    const session = await db().transaction((tx) => new SessionService(t.deps).start(tx, sub.id));
    for (const url of ['/api/v1/order', '/api/v1/bills', '/api/v1/ledger/entries', '/api/v1/payment/recharge']) {
      expect((await call(t.app, { method: 'GET', url, token: session.jwtToken })).status, url).toBe(403);
    }
  });
});
