/**
 * Cancelling a pending QR recharge on every gateway (sandbox, WeChat Pay and Alipay over fake networks
 * that behave like the real services), and the races between a cancel and the payment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { RECHARGE_CANCELED_REASON } from '@slg/shared';
import { call, createTestApp, eventually, registerUser, type TestApp } from '../../../test/helpers.js';
import { ledgerTransactions } from '../../db/schema/index.js';
import { AlipayGateway } from '../../providers/payments/alipay.js';
import type { GatewayName, NotificationRequest, PaymentGateway } from '../../providers/payments/provider.js';
import type { SandboxGateway } from '../../providers/payments/sandbox.js';
import { SANDBOX_SIGNATURE_HEADER } from '../../providers/payments/sandbox.js';
import { FakeAlipay, FakeWechatPay } from '../../providers/payments/test-fakes.js';
import { WechatPayGateway } from '../../providers/payments/wechatpay.js';
import { unbalancedTransactions, walletsOutOfBalance } from './ledger.js';

const BANK_ACCOUNT = '招商银行北京分行|算力港科技有限公司|110900000010101';

interface RechargeBody {
  rechargeId: string;
  amount: number;
  channel: string;
  status: string;
  payUrl: string | null;
  qrCode: string | null;
  failureReason: string | null;
}

let sandboxApp: TestApp;
let gatewayApp: TestApp;
let wechat: FakeWechatPay;
let alipay: FakeAlipay;

beforeAll(async () => {
  sandboxApp = await createTestApp({ env: { PAYMENT_PROVIDERS: 'sandbox,bank', BANK_TRANSFER_ACCOUNT: BANK_ACCOUNT } });
  gatewayApp = await createTestApp({
    env: { PAYMENT_PROVIDERS: 'bank', BANK_TRANSFER_ACCOUNT: BANK_ACCOUNT },
    payments: (clock) => {
      wechat = new FakeWechatPay(clock.now);
      alipay = new FakeAlipay(clock.now);
      return new Map<GatewayName, PaymentGateway>([
        ['wechatpay', new WechatPayGateway(wechat.options)],
        ['alipay', new AlipayGateway(alipay.options)],
      ]);
    },
  });
});

afterAll(async () => {
  for (const t of [sandboxApp, gatewayApp]) {
    expect(await walletsOutOfBalance(t.deps.database.db)).toEqual([]);
    expect(await unbalancedTransactions(t.deps.database.db)).toEqual([]);
    await t.close();
  }
});

async function createRecharge(t: TestApp, token: string, amount: number, channel: 'WXPAY' | 'ALIPAY' | 'BANK') {
  const created = await call<RechargeBody>(t.app, { method: 'POST', url: '/api/v1/payment/recharge', token, payload: { amount, channel } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.result;
}

const cancel = (t: TestApp, token: string, rechargeId: string) =>
  call<RechargeBody>(t.app, { method: 'POST', url: `/api/v1/payment/recharge/${rechargeId}/cancel`, token });

async function rechargeOf(t: TestApp, token: string, rechargeId: string) {
  return (await call<RechargeBody>(t.app, { method: 'GET', url: `/api/v1/payment/recharge/${rechargeId}`, token })).body.result;
}

const balanceOf = async (t: TestApp, token: string) =>
  (await call<{ totalBalance: number }>(t.app, { method: 'GET', url: '/api/v1/account/', token })).body.result.totalBalance;

const creditsOf = async (t: TestApp, rechargeId: string) =>
  (await t.deps.database.db.select().from(ledgerTransactions).where(eq(ledgerTransactions.rechargeId, rechargeId))).length;

function notify(t: TestApp, provider: 'wechatpay' | 'alipay', request: NotificationRequest) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/payment/notify/${provider}`,
    headers: request.headers as Record<string, string>,
    payload: request.rawBody,
  });
}

/** Yields to the event loop up to `turns` times, so that two racing requests interleave differently run to run. */
async function jitter(turns = 6): Promise<void> {
  for (let i = Math.floor(Math.random() * turns); i > 0; i -= 1) await new Promise((resolve) => setImmediate(resolve));
}

const sandbox = () => sandboxApp.deps.payments.get('sandbox') as SandboxGateway;

describe('cancelling a pending QR recharge', () => {
  it('WeChat Pay: closes the trade at the gateway first, then marks the recharge 已取消; a repeat changes nothing', async () => {
    const user = await registerUser(gatewayApp);
    const recharge = await createRecharge(gatewayApp, user.jwtToken, 1_000, 'WXPAY');
    expect(recharge.qrCode).toBe(`weixin://wxpay/bizpayurl?pr=${recharge.rechargeId}`);

    const cancelled = await cancel(gatewayApp, user.jwtToken, recharge.rechargeId);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.result).toMatchObject({ rechargeId: recharge.rechargeId, status: 'FAILED', failureReason: RECHARGE_CANCELED_REASON });
    expect(wechat.stateOf(recharge.rechargeId)).toBe('CLOSED');
    expect(wechat.requestsTo(`/out-trade-no/${recharge.rechargeId}/close`)).toHaveLength(1);
    // The payer can no longer pay the code.
    expect(wechat.pay(recharge.rechargeId)).toBe(false);

    const again = await cancel(gatewayApp, user.jwtToken, recharge.rechargeId);
    expect(again.status).toBe(200);
    expect(again.body.result).toEqual(cancelled.body.result);
    expect(wechat.requestsTo(`/out-trade-no/${recharge.rechargeId}/close`)).toHaveLength(1);
    expect(await balanceOf(gatewayApp, user.jwtToken)).toBe(0);
    expect(await creditsOf(gatewayApp, recharge.rechargeId)).toBe(0);
  });

  it('Alipay: closes a scanned trade; a code nobody scanned is cancelled too, and a payment made with it later still credits once', async () => {
    const user = await registerUser(gatewayApp);
    const scanned = await createRecharge(gatewayApp, user.jwtToken, 2_000, 'ALIPAY');
    expect(scanned.qrCode).toBe(`https://qr.alipay.com/${scanned.rechargeId}`);
    alipay.scan(scanned.rechargeId);
    const first = await cancel(gatewayApp, user.jwtToken, scanned.rechargeId);
    expect(first.body.result).toMatchObject({ status: 'FAILED', failureReason: RECHARGE_CANCELED_REASON });
    expect(alipay.statusOf(scanned.rechargeId)).toBe('TRADE_CLOSED');
    expect(alipay.pay(scanned.rechargeId)).toBe(false);

    // Alipay creates the trade only when the code is scanned: there is nothing to close yet.
    const unscanned = await createRecharge(gatewayApp, user.jwtToken, 3_000, 'ALIPAY');
    const second = await cancel(gatewayApp, user.jwtToken, unscanned.rechargeId);
    expect(second.body.result).toMatchObject({ status: 'FAILED', failureReason: RECHARGE_CANCELED_REASON });
    // Whoever still pays that code before it expires has paid: the notification credits it.
    expect(alipay.pay(unscanned.rechargeId)).toBe(true);
    const late = await notify(gatewayApp, 'alipay', alipay.notification(unscanned.rechargeId));
    expect(late.body).toBe('success');
    expect((await rechargeOf(gatewayApp, user.jwtToken, unscanned.rechargeId)).status).toBe('SUCCESS');
    expect(await balanceOf(gatewayApp, user.jwtToken)).toBe(3_000);
    expect(await creditsOf(gatewayApp, unscanned.rechargeId)).toBe(1);
  });

  it('sandbox: after a cancel the payment page shows the order closed and refuses to pay', async () => {
    const user = await registerUser(sandboxApp);
    const recharge = await createRecharge(sandboxApp, user.jwtToken, 500, 'WXPAY');
    const cancelled = await cancel(sandboxApp, user.jwtToken, recharge.rechargeId);
    expect(cancelled.body.result).toMatchObject({ status: 'FAILED', failureReason: RECHARGE_CANCELED_REASON });

    const pageAfter = await sandboxApp.app.inject({ method: 'GET', url: `/sandbox-pay/${recharge.rechargeId}` });
    expect(pageAfter.body).toContain('该订单已关闭');
    expect(pageAfter.body).not.toContain('确认支付');
    const pay = await sandboxApp.app.inject({ method: 'POST', url: `/sandbox-pay/${recharge.rechargeId}/pay` });
    expect(pay.statusCode).toBe(409);
    expect(pay.body).toContain('该订单已关闭');
    expect(await balanceOf(sandboxApp, user.jwtToken)).toBe(0);
  });

  it('sandbox: a trade closed at the gateway cannot be paid even while the platform still shows it pending', async () => {
    const user = await registerUser(sandboxApp);
    const recharge = await createRecharge(sandboxApp, user.jwtToken, 600, 'ALIPAY');
    expect(await sandbox().closePayment(recharge.rechargeId)).toBe('CLOSED');
    const pay = await sandboxApp.app.inject({ method: 'POST', url: `/sandbox-pay/${recharge.rechargeId}/pay` });
    expect(pay.statusCode).toBe(409);
    expect((await rechargeOf(sandboxApp, user.jwtToken, recharge.rechargeId)).status).toBe('CREATED');
  });

  it.each(['WXPAY', 'ALIPAY'] as const)(
    '%s paid before the cancel: not cancelled, credited once through the notification path, 409 该订单已支付',
    async (channel) => {
      const user = await registerUser(gatewayApp);
      const recharge = await createRecharge(gatewayApp, user.jwtToken, 4_321, channel);
      const fake = channel === 'WXPAY' ? wechat : alipay;
      // Paid at the gateway; its notification has not arrived yet.
      expect(fake.pay(recharge.rechargeId)).toBe(true);

      const refused = await cancel(gatewayApp, user.jwtToken, recharge.rechargeId);
      expect(refused.status).toBe(409);
      expect(refused.body.rspmsg).toContain('该订单已支付');
      expect(await rechargeOf(gatewayApp, user.jwtToken, recharge.rechargeId)).toMatchObject({ status: 'SUCCESS', failureReason: null });
      expect(await balanceOf(gatewayApp, user.jwtToken)).toBe(4_321);
      expect(await creditsOf(gatewayApp, recharge.rechargeId)).toBe(1);

      // The notification arrives after all: acknowledged, nothing credited twice; a second cancel says paid again.
      const provider = channel === 'WXPAY' ? 'wechatpay' : 'alipay';
      expect((await notify(gatewayApp, provider, fake.notification(recharge.rechargeId))).statusCode).toBe(200);
      expect(await creditsOf(gatewayApp, recharge.rechargeId)).toBe(1);
      expect((await cancel(gatewayApp, user.jwtToken, recharge.rechargeId)).status).toBe(409);
      expect(await balanceOf(gatewayApp, user.jwtToken)).toBe(4_321);
    },
  );

  it('sandbox: paid on the gateway page just before the cancel: credited once, 409 该订单已支付', async () => {
    const user = await registerUser(sandboxApp);
    const recharge = await createRecharge(sandboxApp, user.jwtToken, 700, 'WXPAY');
    const paid = await sandboxApp.app.inject({ method: 'POST', url: `/sandbox-pay/${recharge.rechargeId}/pay` });
    expect(paid.statusCode).toBe(200);
    const refused = await cancel(sandboxApp, user.jwtToken, recharge.rechargeId);
    expect(refused.status).toBe(409);
    expect(refused.body.rspmsg).toContain('该订单已支付');
    await eventually(async () => expect(await balanceOf(sandboxApp, user.jwtToken)).toBe(700));
    expect(await creditsOf(sandboxApp, recharge.rechargeId)).toBe(1);
  });

  it.each(['WXPAY', 'ALIPAY'] as const)('%s gateway unreachable: refused with 503 in Chinese, nothing changed', async (channel) => {
    const user = await registerUser(gatewayApp);
    const recharge = await createRecharge(gatewayApp, user.jwtToken, 800, channel);
    const fake = channel === 'WXPAY' ? wechat : alipay;
    if (channel === 'ALIPAY') alipay.scan(recharge.rechargeId);
    fake.down = true;
    try {
      const refused = await cancel(gatewayApp, user.jwtToken, recharge.rechargeId);
      expect(refused.status).toBe(503);
      expect(refused.body.rspmsg).toMatch(/^支付渠道暂时无法关闭该订单，充值未取消，请稍后再试/);
    } finally {
      fake.down = false;
    }
    expect(await rechargeOf(gatewayApp, user.jwtToken, recharge.rechargeId)).toMatchObject({ status: 'CREATED', failureReason: null });
    expect(channel === 'WXPAY' ? wechat.stateOf(recharge.rechargeId) : alipay.statusOf(recharge.rechargeId)).toBe(
      channel === 'WXPAY' ? 'NOTPAY' : 'WAIT_BUYER_PAY',
    );
    // Once the gateway is back, the cancel goes through.
    expect((await cancel(gatewayApp, user.jwtToken, recharge.rechargeId)).body.result.status).toBe('FAILED');
  });

  it('only the owner can cancel; bank transfers and unknown or malformed ids are refused', async () => {
    const owner = await registerUser(gatewayApp);
    const stranger = await registerUser(gatewayApp);
    const recharge = await createRecharge(gatewayApp, owner.jwtToken, 900, 'WXPAY');
    const peek = await cancel(gatewayApp, stranger.jwtToken, recharge.rechargeId);
    expect(peek.status).toBe(404);
    expect(peek.body.rspmsg).toBe('充值记录不存在');
    expect(wechat.requestsTo(`/out-trade-no/${recharge.rechargeId}/close`)).toHaveLength(0);
    expect((await rechargeOf(gatewayApp, owner.jwtToken, recharge.rechargeId)).status).toBe('CREATED');

    const bank = await createRecharge(gatewayApp, owner.jwtToken, 100_000, 'BANK');
    const bankCancel = await cancel(gatewayApp, owner.jwtToken, bank.rechargeId);
    expect(bankCancel.status).toBe(409);
    expect(bankCancel.body.rspmsg).toContain('对公转账');
    expect((await cancel(gatewayApp, owner.jwtToken, 'RC00000000000000000000')).status).toBe(404);
    const malformed = await cancel(gatewayApp, owner.jwtToken, 'RC%00');
    expect(malformed.status).toBe(400);
    expect((await call(gatewayApp.app, { method: 'POST', url: `/api/v1/payment/recharge/${recharge.rechargeId}/cancel` })).status).toBe(401);
  });
});

describe('cancel racing the payment (real parallel requests)', () => {
  it('twin cancels both answer with the cancelled recharge', async () => {
    const user = await registerUser(gatewayApp);
    const recharge = await createRecharge(gatewayApp, user.jwtToken, 1_100, 'WXPAY');
    const answers = await Promise.all(Array.from({ length: 5 }, () => cancel(gatewayApp, user.jwtToken, recharge.rechargeId)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    for (const answer of answers) expect(answer.body.result).toMatchObject({ status: 'FAILED', failureReason: RECHARGE_CANCELED_REASON });
  });

  it('a cancel and the notification of a trade paid at the gateway credit it exactly once', async () => {
    const user = await registerUser(gatewayApp);
    const recharges = [];
    for (let i = 0; i < 8; i += 1) recharges.push(await createRecharge(gatewayApp, user.jwtToken, 1_000 + i, i % 2 === 0 ? 'WXPAY' : 'ALIPAY'));
    for (const recharge of recharges) expect((recharge.channel === 'WXPAY' ? wechat : alipay).pay(recharge.rechargeId)).toBe(true);

    const outcomes = await Promise.all(
      recharges.map(async (recharge) => {
        const fake = recharge.channel === 'WXPAY' ? wechat : alipay;
        const provider = recharge.channel === 'WXPAY' ? 'wechatpay' : 'alipay';
        const [cancelled, notified] = await Promise.all([
          (async () => {
            await jitter();
            return cancel(gatewayApp, user.jwtToken, recharge.rechargeId);
          })(),
          (async () => {
            await jitter();
            return notify(gatewayApp, provider, fake.notification(recharge.rechargeId));
          })(),
        ]);
        return { recharge, cancelled, notified };
      }),
    );
    for (const { recharge, cancelled, notified } of outcomes) {
      expect(cancelled.status).toBe(409);
      expect(cancelled.body.rspmsg).toContain('该订单已支付');
      expect(notified.statusCode).toBe(200);
      expect((await rechargeOf(gatewayApp, user.jwtToken, recharge.rechargeId)).status).toBe('SUCCESS');
      expect(await creditsOf(gatewayApp, recharge.rechargeId)).toBe(1);
    }
    expect(await balanceOf(gatewayApp, user.jwtToken)).toBe(recharges.reduce((sum, recharge) => sum + recharge.amount, 0));
    expect(await walletsOutOfBalance(gatewayApp.deps.database.db)).toEqual([]);
    expect(await unbalancedTransactions(gatewayApp.deps.database.db)).toEqual([]);
  });

  it('a payer paying while the user cancels ends in exactly one outcome per recharge: cancelled and unpaid, or paid and credited once', async () => {
    const user = await registerUser(gatewayApp);
    const recharges = [];
    for (let i = 0; i < 12; i += 1) recharges.push(await createRecharge(gatewayApp, user.jwtToken, 2_000 + i, i % 2 === 0 ? 'WXPAY' : 'ALIPAY'));
    // Scanned codes: a trade exists at Alipay too, so closing it is final.
    for (const recharge of recharges) if (recharge.channel === 'ALIPAY') alipay.scan(recharge.rechargeId);

    const outcomes = await Promise.all(
      recharges.map(async (recharge) => {
        const fake = recharge.channel === 'WXPAY' ? wechat : alipay;
        const provider = recharge.channel === 'WXPAY' ? 'wechatpay' : 'alipay';
        const [cancelled, paid] = await Promise.all([
          (async () => {
            await jitter();
            return cancel(gatewayApp, user.jwtToken, recharge.rechargeId);
          })(),
          (async () => {
            // A cancel spends a few database round trips before it reaches the gateway: give the payer as many.
            await jitter(16);
            if (!fake.pay(recharge.rechargeId)) return false;
            expect((await notify(gatewayApp, provider, fake.notification(recharge.rechargeId))).statusCode).toBe(200);
            return true;
          })(),
        ]);
        return { recharge, cancelled, paid };
      }),
    );
    let paidTotal = 0;
    for (const { recharge, cancelled, paid } of outcomes) {
      const final = await rechargeOf(gatewayApp, user.jwtToken, recharge.rechargeId);
      if (paid) {
        paidTotal += recharge.amount;
        expect(cancelled.status).toBe(409);
        expect(final.status).toBe('SUCCESS');
        expect(await creditsOf(gatewayApp, recharge.rechargeId)).toBe(1);
      } else {
        expect(cancelled.status).toBe(200);
        expect(final).toMatchObject({ status: 'FAILED', failureReason: RECHARGE_CANCELED_REASON });
        expect(await creditsOf(gatewayApp, recharge.rechargeId)).toBe(0);
      }
    }
    expect(await balanceOf(gatewayApp, user.jwtToken)).toBe(paidTotal);
    expect(await walletsOutOfBalance(gatewayApp.deps.database.db)).toEqual([]);
    expect(await unbalancedTransactions(gatewayApp.deps.database.db)).toEqual([]);
  });

  it('sandbox: a late notification of the payer cancelling at the gateway does not undo a success', async () => {
    const user = await registerUser(sandboxApp);
    const recharge = await createRecharge(sandboxApp, user.jwtToken, 1_200, 'WXPAY');
    const closed = sandbox().notificationFor(recharge.rechargeId, 1_200, 'CLOSED');
    const success = sandbox().notificationFor(recharge.rechargeId, 1_200, 'SUCCESS');
    const post = (notification: { body: string; signature: string }) =>
      sandboxApp.app.inject({
        method: 'POST',
        url: '/api/v1/payment/notify/sandbox',
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: notification.signature },
        payload: notification.body,
      });
    expect((await post(success)).statusCode).toBe(200);
    expect((await post(closed)).statusCode).toBe(200);
    expect((await rechargeOf(sandboxApp, user.jwtToken, recharge.rechargeId)).status).toBe('SUCCESS');
    expect(await creditsOf(sandboxApp, recharge.rechargeId)).toBe(1);
  });
});
