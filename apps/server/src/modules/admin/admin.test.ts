import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { ErrorCodes, NO_PERMISSIONS } from '@slg/shared';
import { call, createTestApp, loginToken, registerUser, uniquePhone, type TestApp } from '../../../test/helpers.js';
import { auditLogs, issueBatches, recharges, redemptionCodes, users, vouchers, wallets } from '../../db/schema/index.js';
import { SessionService } from '../auth/sessions.js';
import { walletsOutOfBalance } from '../billing/ledger.js';
import { newRechargeId } from '../billing/numbers.js';
import { cashRecharge, makeOperator, userIdOf } from '../invoices/test-factories.js';

let t: TestApp;
let operatorPhone: string;
let operatorId: number;
beforeAll(async () => {
  t = await createTestApp();
  operatorPhone = (await registerUser(t)).telephone;
  operatorId = await makeOperator(t.deps.database.db, operatorPhone);
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;

const operatorToken = () => loginToken(t, operatorPhone);
const post = async <T = unknown>(url: string, payload: unknown) =>
  call<T>(t.app, { method: 'POST', url: `/api/v1${url}`, token: await operatorToken(), payload: payload as Record<string, unknown> });
const get = async <T = unknown>(url: string) => call<T>(t.app, { method: 'GET', url: `/api/v1${url}`, token: await operatorToken() });

const countOf = async (table: typeof issueBatches | typeof vouchers | typeof redemptionCodes | typeof auditLogs) =>
  (await db().select({ value: count() }).from(table))[0]?.value ?? 0;

/** A BANK recharge waiting for the operator, as POST /payment/recharge leaves it. */
async function pendingBankTransfer(userId: number, amountFen: number): Promise<string> {
  const id = newRechargeId(t.deps.now());
  await db().insert(recharges).values({
    id,
    ownerId: userId,
    creatorId: userId,
    walletId: userId,
    amountFen,
    channel: 'BANK',
    provider: 'bank',
    status: 'CREATED',
    bankReference: 'HZ20260601',
    createdAt: t.deps.now(),
  });
  return id;
}

describe('operator guard', () => {
  const routes: [string, string][] = [
    ['GET', '/api/v1/admin/recharge'],
    ['POST', '/api/v1/admin/recharge/RC1/confirm'],
    ['POST', '/api/v1/admin/vouchers'],
    ['POST', '/api/v1/admin/redeem-codes'],
    ['GET', '/api/v1/admin/invoices'],
    ['POST', '/api/v1/admin/invoices/1/issue'],
    ['POST', '/api/v1/admin/invoices/1/reject'],
    ['GET', '/api/v1/admin/audit-logs'],
  ];

  it('refuses every /admin route to a signed-in non-operator with 403, even with a bad body', async () => {
    const user = await registerUser(t);
    for (const [method, url] of routes) {
      const response = await call(t.app, { method: method as 'GET' | 'POST', url, token: user.jwtToken, ...(method === 'POST' ? { payload: {} } : {}) });
      expect(response.status, `${method} ${url}`).toBe(403);
      expect(response.body.rspcode).toBe(ErrorCodes.FORBIDDEN.code);
      expect((await call(t.app, { method: method as 'GET' | 'POST', url })).status, `${method} ${url} anonymous`).toBe(401);
    }
  });

  it('refuses sub-accounts (they never carry roles) and lets the role in once granted', async () => {
    const main = await registerUser(t);
    const mainId = await userIdOf(db(), main.telephone);
    const [sub] = await db()
      .insert(users)
      .values({ accountType: 2, parentId: mainId, username: `ops_sub_${mainId}`, nickName: '子账号', permissions: { ...NO_PERMISSIONS, INVOICE: 'ALL' }, roles: ['operator'] })
      .returning({ id: users.id });
    if (!sub) throw new Error('no sub');
    await db().insert(wallets).values({ accountId: sub.id });
    const subToken = (await db().transaction((tx) => new SessionService(t.deps).start(tx, sub.id))).jwtToken;
    expect((await call(t.app, { method: 'GET', url: '/api/v1/admin/audit-logs', token: subToken })).status).toBe(403);

    expect((await call(t.app, { method: 'GET', url: '/api/v1/admin/audit-logs', token: main.jwtToken })).status).toBe(403);
    await makeOperator(db(), main.telephone);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/admin/audit-logs', token: main.jwtToken })).status).toBe(200);
  });
});

describe('voucher batches', () => {
  it('issues one voucher per telephone in one batch, with an audit row', async () => {
    const [a, b] = [await registerUser(t), await registerUser(t)];
    const issued = await post<{ batchId: number; issued: number }>('/admin/vouchers', {
      telephones: [a.telephone, b.telephone, a.telephone],
      name: '回馈券',
      amount: 5_000,
      minOrderAmount: 10_000,
      scope: ['NEW_PURCHASE', 'RENEWAL_CONTAINER'],
      validDays: 15,
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.result.issued).toBe(2);
    const batchId = issued.body.result.batchId;
    const [batch] = await db().select().from(issueBatches).where(eq(issueBatches.id, batchId));
    expect(batch).toMatchObject({ kind: 'VOUCHER', name: '回馈券', operatorId, count: 2 });
    const rows = await db().select().from(vouchers).where(eq(vouchers.batchId, batchId));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({ source: 'OPERATOR', amountFen: 5_000, minOrderFen: 10_000, scope: ['NEW_PURCHASE', 'RENEWAL_CONTAINER'] });
      expect(row.validTo.getTime() - row.validFrom.getTime()).toBe(15 * 24 * 3600 * 1000);
    }
    const listed = await call<{ list: { name: string; status: string }[] }>(t.app, { method: 'GET', url: '/api/v1/voucher', token: a.jwtToken });
    expect(listed.body.result.list).toMatchObject([{ name: '回馈券', status: 'UNUSED' }]);

    const [audit] = await db().select().from(auditLogs).where(eq(auditLogs.targetId, String(batchId)));
    expect(audit).toMatchObject({ actorId: operatorId, action: 'voucher.issue', targetType: 'issue_batch' });
  });

  it('issues nothing and names the unknown telephones when any is not registered', async () => {
    const known = await registerUser(t);
    const [ghost1, ghost2] = [uniquePhone(), uniquePhone()];
    const before = [await countOf(issueBatches), await countOf(vouchers), await countOf(auditLogs)];
    const refused = await post('/admin/vouchers', { telephones: [known.telephone, ghost1, ghost2], name: '回馈券', amount: 100, validDays: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body.rspmsg).toBe(`以下手机号未注册，未发放任何代金券：${ghost1}、${ghost2}`);
    expect([await countOf(issueBatches), await countOf(vouchers), await countOf(auditLogs)]).toEqual(before);

    const badPhone = await post('/admin/vouchers', { telephones: ['12345'], name: '回馈券', amount: 100, validDays: 1 });
    expect(badPhone.body.rspmsg).toBe('请输入正确的11位手机号');
    expect((await post('/admin/vouchers', { telephones: [], name: '回馈券', amount: 100, validDays: 1 })).body.rspmsg).toBe('请至少填写一个手机号');
    expect((await post('/admin/vouchers', { telephones: [known.telephone], name: '回馈券', amount: 100, validDays: 1, scope: ['RECHARGE'] })).body.rspmsg).toBe(
      '适用订单类型不正确',
    );
  });
});

describe('money inputs', () => {
  const BAD_AMOUNTS: [unknown, string][] = [
    [-1, '不能低于'],
    [0, '不能低于'],
    [1.5, '必须是整数'],
    [1e20, '不能超过'],
    ['100', '必须是数字'],
    ['abc', '必须是数字'],
    [null, '请输入'],
  ];

  it('refuses bad voucher amounts with a Chinese message and changes nothing', async () => {
    const user = await registerUser(t);
    const before = [await countOf(issueBatches), await countOf(vouchers), await countOf(auditLogs)];
    for (const [amount, phrase] of BAD_AMOUNTS) {
      const refused = await post('/admin/vouchers', { telephones: [user.telephone], name: '券', amount, validDays: 1 });
      expect(refused.status, String(amount)).toBe(400);
      expect(refused.body.rspcode).toBe(ErrorCodes.VALIDATION.code);
      expect(refused.body.rspmsg).toContain('代金券金额');
      expect(refused.body.rspmsg).toContain(phrase);
    }
    for (const [minOrderAmount] of BAD_AMOUNTS.filter(([value]) => value !== 0 && value !== null)) {
      const refused = await post('/admin/vouchers', { telephones: [user.telephone], name: '券', amount: 100, minOrderAmount, validDays: 1 });
      expect(refused.status, `minOrderAmount ${String(minOrderAmount)}`).toBe(400);
      expect(refused.body.rspmsg).toContain('最低订单金额');
    }
    for (const validDays of [0, -3, 2.5, 1e9, '7']) {
      const refused = await post('/admin/vouchers', { telephones: [user.telephone], name: '券', amount: 100, validDays });
      expect(refused.status, `validDays ${String(validDays)}`).toBe(400);
      expect(refused.body.rspmsg).toContain('有效天数');
    }
    expect((await post('/admin/vouchers', { telephones: [user.telephone], amount: 100, validDays: 1 })).body.rspmsg).toBe('请输入名称');
    expect([await countOf(issueBatches), await countOf(vouchers), await countOf(auditLogs)]).toEqual(before);
  });

  it('refuses bad code amounts and counts with a Chinese message and creates nothing', async () => {
    const before = [await countOf(issueBatches), await countOf(redemptionCodes), await countOf(auditLogs)];
    const valid = { name: '码', count: 2, kind: 'BALANCE', amount: 100, expiresInDays: 7 };
    for (const [amount, phrase] of BAD_AMOUNTS) {
      const refused = await post('/admin/redeem-codes', { ...valid, amount });
      expect(refused.status, String(amount)).toBe(400);
      expect(refused.body.rspmsg).toContain('兑换金额');
      expect(refused.body.rspmsg).toContain(phrase);
    }
    for (const countValue of [0, -1, 1.5, 1001, 1e20, '10']) {
      const refused = await post('/admin/redeem-codes', { ...valid, count: countValue });
      expect(refused.status, `count ${String(countValue)}`).toBe(400);
      expect(refused.body.rspmsg).toContain('生成数量');
    }
    expect((await post('/admin/redeem-codes', { ...valid, kind: 'CASH' })).body.rspmsg).toContain('兑换码类型');
    expect((await post('/admin/redeem-codes', { ...valid, expiresInDays: 0 })).body.rspmsg).toBe('兑换码有效天数至少为1天');
    expect((await post('/admin/redeem-codes', { ...valid, voucherValidDays: 99999 })).body.rspmsg).toBe('代金券有效天数不能超过3650天');
    expect([await countOf(issueBatches), await countOf(redemptionCodes), await countOf(auditLogs)]).toEqual(before);
  });
});

describe('redemption code batches', () => {
  it('creates count unique codes in one CODE batch, audited without the codes themselves', async () => {
    const created = await post<{ batchId: number; codes: string[] }>('/admin/redeem-codes', {
      name: '开学季',
      count: 50,
      kind: 'VOUCHER',
      amount: 1_000,
      minOrderAmount: 2_000,
      scope: ['NEW_PURCHASE'],
      voucherValidDays: 14,
      expiresInDays: 60,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { batchId, codes } = created.body.result;
    expect(codes).toHaveLength(50);
    expect(new Set(codes).size).toBe(50);
    for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{16}$/);
    const [batch] = await db().select().from(issueBatches).where(eq(issueBatches.id, batchId));
    expect(batch).toMatchObject({ kind: 'CODE', name: '开学季', count: 50 });
    const rows = await db().select().from(redemptionCodes).where(eq(redemptionCodes.batchId, batchId));
    expect(rows).toHaveLength(50);
    expect(rows[0]).toMatchObject({ kind: 'VOUCHER', amountFen: 1_000, minOrderFen: 2_000, scope: ['NEW_PURCHASE'], voucherValidDays: 14, redeemedAt: null });
    expect(rows[0]?.expiresAt.getTime()).toBe(rows[0]!.createdAt.getTime() + 60 * 24 * 3600 * 1000);

    const [audit] = await db().select().from(auditLogs).where(eq(auditLogs.action, 'redeem_code.issue'));
    expect(audit).toMatchObject({ actorId: operatorId, targetType: 'issue_batch', targetId: String(batchId) });
    expect(JSON.stringify(audit?.detail)).not.toContain(codes[0]);
  });
});

describe('recharges', () => {
  it('lists recharges of all owners with their telephone, filtered by status and channel', async () => {
    const user = await registerUser(t);
    const userId = await userIdOf(db(), user.telephone);
    const cash = await cashRecharge(db(), { userId, amountFen: 2_000, now: t.deps.now(), channel: 'ALIPAY' });
    const bank = await pendingBankTransfer(userId, 50_000);

    const all = await get<{ list: { rechargeId: string; ownerTelephone: string; status: string; channel: string }[]; total: number }>(
      '/admin/recharge?pageSize=100',
    );
    expect(all.status).toBe(200);
    const mine = all.body.result.list.filter((row) => row.ownerTelephone === user.telephone);
    expect(mine.map((row) => row.rechargeId).sort()).toEqual([cash, bank].sort());

    const pendingBank = await get<{ list: { rechargeId: string; status: string; channel: string }[] }>('/admin/recharge?status=CREATED&channel=BANK&pageSize=100');
    expect(pendingBank.body.result.list.map((row) => row.rechargeId)).toContain(bank);
    expect(pendingBank.body.result.list.every((row) => row.status === 'CREATED' && row.channel === 'BANK')).toBe(true);
    expect((await get('/admin/recharge?channel=CASH')).status).toBe(400);
  });

  it('confirms a bank transfer once: the wallet is credited, the ledger balances, the action is audited', async () => {
    const user = await registerUser(t);
    const userId = await userIdOf(db(), user.telephone);
    const bank = await pendingBankTransfer(userId, 50_000);
    const confirmed = await post<{ rechargeId: string; status: string; bankReference: string }>(`/admin/recharge/${bank}/confirm`, { reference: 'HZ-0001' });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.result).toMatchObject({ rechargeId: bank, status: 'SUCCESS', bankReference: 'HZ-0001' });
    const balance = await call<{ totalBalance: number }>(t.app, { method: 'GET', url: '/api/v1/account/', token: user.jwtToken });
    expect(balance.body.result.totalBalance).toBe(50_000);

    const again = await post(`/admin/recharge/${bank}/confirm`, {});
    expect(again.status).toBe(409);
    expect(balance.body.result.totalBalance).toBe(50_000);
    const [wallet] = await db().select().from(wallets).where(eq(wallets.accountId, userId));
    expect(wallet?.balanceFen).toBe(50_000);
    expect(await walletsOutOfBalance(db())).toEqual([]);
    const audits = await db().select().from(auditLogs).where(eq(auditLogs.targetId, bank));
    expect(audits.map((row) => row.action)).toEqual(['recharge.confirm']);

    expect((await post('/admin/recharge/RC404/confirm', {})).status).toBe(404);
    const card = await cashRecharge(db(), { userId, amountFen: 100, now: t.deps.now() });
    expect((await post(`/admin/recharge/${card}/confirm`, {})).status).toBe(409);
    expect((await post(`/admin/recharge/${bank}/confirm`, { reference: 'x'.repeat(65) })).body.rspmsg).toBe('转账凭证号不能超过64个字符');
  });
});

describe('invoices and audit log', () => {
  it('lists every invoice with the owner’s telephone and profile, and every operator action in the audit log', async () => {
    const user = await registerUser(t);
    const userId = await userIdOf(db(), user.telephone);
    await call(t.app, {
      method: 'PUT',
      url: '/api/v1/invoice/info',
      token: user.jwtToken,
      payload: { titleType: 'PERSONAL', title: '王五', email: 'wangwu@example.com' },
    });
    const rechargeId = await cashRecharge(db(), { userId, amountFen: 1_234, now: t.deps.now() });
    const requested = await call<{ id: number }>(t.app, {
      method: 'POST',
      url: '/api/v1/invoice',
      token: user.jwtToken,
      payload: { method: 'RECHARGE', type: 'ORDINARY', rechargeIds: [rechargeId] },
    });
    const invoiceId = requested.body.result.id;

    const pending = await get<{ list: { id: number; ownerTelephone: string; profile: { title: string; email: string }; amount: number }[]; total: number }>(
      '/admin/invoices?status=PENDING&pageSize=100',
    );
    expect(pending.status).toBe(200);
    expect(pending.body.result.list.find((row) => row.id === invoiceId)).toMatchObject({
      ownerTelephone: user.telephone,
      amount: 1_234,
      profile: { title: '王五', email: 'wangwu@example.com', titleType: 'PERSONAL', taxNo: null },
    });

    expect((await post(`/admin/invoices/${invoiceId}/reject`, { reason: '' })).body.rspmsg).toBe('请输入驳回原因');
    expect((await post('/admin/invoices/999999/reject', { reason: '无' })).status).toBe(404);
    const rejected = await post<{ status: string }>(`/admin/invoices/${invoiceId}/reject`, { reason: '信息不全' });
    expect(rejected.body.result.status).toBe('REJECTED');
    expect((await post(`/admin/invoices/${invoiceId}/reject`, { reason: '再驳回' })).status).toBe(409);

    const logs = await get<{ list: { actorId: number; action: string; targetType: string; targetId: string; detail: Record<string, unknown> }[]; total: number; pageSize: number }>(
      '/admin/audit-logs?pageSize=2',
    );
    expect(logs.body.result.pageSize).toBe(2);
    expect(logs.body.result.list).toHaveLength(2);
    expect(logs.body.result.total).toBeGreaterThanOrEqual(4);
    expect(logs.body.result.list[0]).toMatchObject({ actorId: operatorId, action: 'invoice.reject', targetType: 'invoice', targetId: String(invoiceId), detail: { reason: '信息不全' } });
  });
});

describe('OpenAPI', () => {
  it('documents the money routes', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys((response.json() as { paths: Record<string, unknown> }).paths);
    for (const path of ['/api/v1/voucher/redeem', '/api/v1/invoice/info', '/api/v1/invoice/{id}/pdf', '/api/v1/admin/invoices/{id}/issue', '/api/v1/admin/redeem-codes']) {
      expect(paths).toContain(path);
    }
  });
});
