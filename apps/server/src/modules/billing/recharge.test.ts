import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { call, createTestApp, eventually, loginToken, rechargeThroughSandbox, registerUser, type TestApp } from '../../../test/helpers.js';
import { ledgerTransactions, recharges } from '../../db/schema/index.js';
import { SANDBOX_SIGNATURE_HEADER, type SandboxGateway } from '../../providers/payments/sandbox.js';
import { userIdOf } from '../invoices/test-factories.js';
import { unbalancedTransactions, walletsOutOfBalance } from './ledger.js';
import { RechargeService } from './recharges.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PAYMENT_PROVIDERS: 'sandbox,bank', BANK_TRANSFER_ACCOUNT: '招商银行北京分行|算力港科技有限公司|110900000010101' } });
});
afterAll(async () => {
  expect(await walletsOutOfBalance(t.deps.database.db)).toEqual([]);
  expect(await unbalancedTransactions(t.deps.database.db)).toEqual([]);
  await t.close();
});

const balanceOf = async (token: string) =>
  (await call<{ totalBalance: number }>(t.app, { method: 'GET', url: '/api/v1/account/', token })).body.result.totalBalance;

const sandbox = () => t.deps.payments.get('sandbox') as SandboxGateway;

async function createRecharge(token: string, amount: number, channel = 'WXPAY') {
  const created = await call<{ rechargeId: string; status: string; payUrl: string; qrCode: string }>(t.app, {
    method: 'POST',
    url: '/api/v1/payment/recharge',
    token,
    payload: { amount, channel },
  });
  expect(created.status).toBe(200);
  return created.body.result;
}

function notify(body: string, signature: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/payment/notify/sandbox',
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
    payload: body,
  });
}

describe('recharge through the sandbox gateway', () => {
  it('lists the channels and the bank account', async () => {
    const user = await registerUser(t);
    const channels = await call(t.app, { method: 'GET', url: '/api/v1/payment/channels', token: user.jwtToken });
    expect(channels.body.result).toEqual({
      channels: ['WXPAY', 'ALIPAY', 'BANK'],
      bankAccount: { bankName: '招商银行北京分行', accountName: '算力港科技有限公司', accountNo: '110900000010101' },
    });
  });

  it('creates a recharge with a QR code, shows the gateway page, and credits after the payer confirms', async () => {
    const user = await registerUser(t);
    const recharge = await createRecharge(user.jwtToken, 10_000);
    expect(recharge.status).toBe('CREATED');
    expect(recharge.payUrl).toBe(`${t.deps.config.publicUrl}/sandbox-pay/${recharge.rechargeId}`);
    expect(recharge.qrCode).toBe(recharge.payUrl);

    const page = await t.app.inject({ method: 'GET', url: `/sandbox-pay/${recharge.rechargeId}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('¥100.00');
    expect(page.body).toContain('确认支付');

    const paid = await t.app.inject({
      method: 'POST',
      url: `/sandbox-pay/${recharge.rechargeId}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.body).toContain('支付成功');
    await eventually(async () => expect(await balanceOf(user.jwtToken)).toBe(10_000));
    const status = await call<{ status: string; paidAt: string }>(t.app, {
      method: 'GET',
      url: `/api/v1/payment/recharge/${recharge.rechargeId}`,
      token: user.jwtToken,
    });
    expect(status.body.result.status).toBe('SUCCESS');
    expect(status.body.result.paidAt).toBeTruthy();

    const entries = await call<{ list: { type: string; incomeType: string; amount: number; balanceAfter: number; rechargeId: string }[] }>(
      t.app,
      { method: 'GET', url: '/api/v1/ledger/entries?incomeType=INCOME', token: user.jwtToken },
    );
    expect(entries.body.result.list).toEqual([
      expect.objectContaining({ type: 'RECHARGE', incomeType: 'INCOME', amount: 10_000, balanceAfter: 10_000, rechargeId: recharge.rechargeId }),
    ]);
    const record = await call<{ total: number; list: { rechargeId: string }[] }>(t.app, {
      method: 'GET',
      url: '/api/v1/payment/recharge?status=SUCCESS',
      token: user.jwtToken,
    });
    expect(record.body.result.total).toBe(1);
  });

  it('marks a recharge the payer cancelled at the gateway as failed, crediting nothing', async () => {
    const user = await registerUser(t);
    const recharge = await createRecharge(user.jwtToken, 500);
    await t.app.inject({ method: 'POST', url: `/sandbox-pay/${recharge.rechargeId}/cancel` });
    await eventually(async () => {
      const status = await call<{ status: string }>(t.app, { method: 'GET', url: `/api/v1/payment/recharge/${recharge.rechargeId}`, token: user.jwtToken });
      expect(status.body.result.status).toBe('FAILED');
    });
    expect(await balanceOf(user.jwtToken)).toBe(0);
  });

  it('credits once however often the notification is replayed (50 times, concurrently too)', async () => {
    const user = await registerUser(t);
    const recharge = await createRecharge(user.jwtToken, 2_345);
    const { body, signature } = sandbox().notificationFor(recharge.rechargeId, 2_345, 'SUCCESS');
    const sequential = [];
    for (let i = 0; i < 25; i += 1) sequential.push((await notify(body, signature)).statusCode);
    const parallel = await Promise.all(Array.from({ length: 25 }, () => notify(body, signature)));
    expect(new Set([...sequential, ...parallel.map((response) => response.statusCode)])).toEqual(new Set([200]));
    expect(await balanceOf(user.jwtToken)).toBe(2_345);
    const credits = await t.deps.database.db.select().from(ledgerTransactions).where(eq(ledgerTransactions.rechargeId, recharge.rechargeId));
    expect(credits).toHaveLength(1);
  });

  it('refuses a forged signature and a mismatched amount without crediting', async () => {
    const user = await registerUser(t);
    const recharge = await createRecharge(user.jwtToken, 10_000);
    const genuine = sandbox().notificationFor(recharge.rechargeId, 10_000, 'SUCCESS');
    const forgedSignature = await notify(genuine.body, 'f'.repeat(64));
    expect(forgedSignature.statusCode).toBe(400);
    const tampered = await notify(genuine.body.replace('10000', '99999999'), genuine.signature);
    expect(tampered.statusCode).toBe(400);
    const unsigned = await t.app.inject({ method: 'POST', url: '/api/v1/payment/notify/sandbox', payload: genuine.body, headers: { 'content-type': 'application/json' } });
    expect(unsigned.statusCode).toBe(400);
    // Correctly signed, but for a different amount than the recharge asked for.
    const wrongAmount = sandbox().notificationFor(recharge.rechargeId, 1, 'SUCCESS');
    expect((await notify(wrongAmount.body, wrongAmount.signature)).statusCode).toBe(400);
    const unknown = sandbox().notificationFor('RC00000000000000000000', 10_000, 'SUCCESS');
    expect((await notify(unknown.body, unknown.signature)).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/payment/notify/paypal', payload: '{}' })).statusCode).toBe(404);

    expect(await balanceOf(user.jwtToken)).toBe(0);
    const [row] = await t.deps.database.db.select().from(recharges).where(eq(recharges.id, recharge.rechargeId));
    expect(row?.status).toBe('CREATED');
  });

  it('refuses bad amounts and channels with clear messages and records nothing', async () => {
    const user = await registerUser(t);
    const cases: [unknown, string][] = [
      [-100, '充值金额不能低于¥1.00'],
      [0, '充值金额不能低于¥1.00'],
      [99, '充值金额不能低于¥1.00'],
      [150.5, '充值金额必须是整数（单位：分）'],
      [1e20, '充值金额不能超过¥100,000.00'],
      [10_000_001, '充值金额不能超过¥100,000.00'],
      ['10000', '充值金额必须是数字（单位：分）'],
      [null, '请输入充值金额'],
      [undefined, '请输入充值金额'],
    ];
    for (const [amount, message] of cases) {
      const response = await call(t.app, { method: 'POST', url: '/api/v1/payment/recharge', token: user.jwtToken, payload: { amount, channel: 'WXPAY' } });
      expect(response.status, String(amount)).toBe(400);
      expect(response.body.rspmsg).toContain(message);
    }
    const badChannel = await call(t.app, { method: 'POST', url: '/api/v1/payment/recharge', token: user.jwtToken, payload: { amount: 100, channel: 'PAYPAL' } });
    expect(badChannel.body.rspmsg).toContain('充值方式必须是');
    const list = await call<{ total: number }>(t.app, { method: 'GET', url: '/api/v1/payment/recharge', token: user.jwtToken });
    expect(list.body.result.total).toBe(0);
  });

  it('returns the first answer for a repeated Idempotency-Key and refuses a malformed key', async () => {
    const user = await registerUser(t);
    const send = () =>
      call<{ rechargeId: string }>(t.app, {
        method: 'POST',
        url: '/api/v1/payment/recharge',
        token: user.jwtToken,
        headers: { 'idempotency-key': 'recharge-key-0001' },
        payload: { amount: 1_000, channel: 'ALIPAY' },
      });
    const first = await send();
    const second = await send();
    expect(second.body).toEqual(first.body);
    const list = await call<{ total: number }>(t.app, { method: 'GET', url: '/api/v1/payment/recharge', token: user.jwtToken });
    expect(list.body.result.total).toBe(1);
    const badKey = await call(t.app, {
      method: 'POST',
      url: '/api/v1/payment/recharge',
      token: user.jwtToken,
      headers: { 'idempotency-key': 'x' },
      payload: { amount: 1_000, channel: 'ALIPAY' },
    });
    expect(badKey.status).toBe(400);
  });

  it('takes a bank transfer reference and credits once when the operator confirms', async () => {
    const user = await registerUser(t);
    const recharge = await createRecharge(user.jwtToken, 500_000, 'BANK');
    expect(recharge.payUrl).toBeNull();
    const reference = await call<{ bankReference: string }>(t.app, {
      method: 'POST',
      url: `/api/v1/payment/recharge/${recharge.rechargeId}/bank-reference`,
      token: user.jwtToken,
      payload: { reference: 'CMB20261121001' },
    });
    expect(reference.body.result.bankReference).toBe('CMB20261121001');
    const service = new RechargeService(t.deps);
    const operatorId = await userIdOf(t.deps.database.db, (await registerUser(t)).telephone);
    const confirmed = await service.confirmBankTransfer(t.deps.database.db, operatorId, recharge.rechargeId, undefined);
    expect(confirmed.status).toBe('SUCCESS');
    await expect(service.confirmBankTransfer(t.deps.database.db, operatorId, recharge.rechargeId, undefined)).rejects.toThrow('成功');
    expect(await balanceOf(user.jwtToken)).toBe(500_000);
    // A WXPAY recharge is never confirmed by hand.
    const qr = await createRecharge(user.jwtToken, 100);
    await expect(service.confirmBankTransfer(t.deps.database.db, operatorId, qr.rechargeId, 'X')).rejects.toThrow('对公转账');
  });

  it('keeps recharges private to their account', async () => {
    const owner = await registerUser(t);
    const stranger = await registerUser(t);
    const recharge = await createRecharge(owner.jwtToken, 100);
    const peek = await call(t.app, { method: 'GET', url: `/api/v1/payment/recharge/${recharge.rechargeId}`, token: stranger.jwtToken });
    expect(peek.status).toBe(404);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/payment/recharge' })).status).toBe(401);
  });

  it('closes unpaid QR recharges after the payment window, keeps bank transfers, and still credits a late payment', async () => {
    const user = await registerUser(t);
    const stale = await createRecharge(user.jwtToken, 300);
    const bank = await createRecharge(user.jwtToken, 400, 'BANK');
    const service = new RechargeService(t.deps);
    t.clock.advance(60 * 60);
    const fresh = await createRecharge(await loginToken(t, user.telephone), 500);
    t.clock.advance(60 * 60 + 1);
    expect(await service.expireStale()).toBeGreaterThanOrEqual(1);
    const token = await loginToken(t, user.telephone);
    const statusOf = async (id: string) =>
      (await call<{ status: string; failureReason: string | null }>(t.app, { method: 'GET', url: `/api/v1/payment/recharge/${id}`, token })).body.result;
    expect(await statusOf(stale.rechargeId)).toEqual(expect.objectContaining({ status: 'FAILED', failureReason: '支付超时，订单已关闭' }));
    expect((await statusOf(bank.rechargeId)).status).toBe('CREATED');
    expect((await statusOf(fresh.rechargeId)).status).toBe('CREATED');
    // The payer paid at the last second: the gateway's success still credits.
    const late = sandbox().notificationFor(stale.rechargeId, 300, 'SUCCESS');
    expect((await notify(late.body, late.signature)).statusCode).toBe(200);
    expect((await statusOf(stale.rechargeId)).status).toBe('SUCCESS');
    expect(await balanceOf(token)).toBe(300);
  });

  it('recharges end to end through the helper used by other suites', async () => {
    const user = await registerUser(t);
    await rechargeThroughSandbox(t, user.jwtToken, 777);
    expect(await balanceOf(user.jwtToken)).toBe(777);
  });
});
