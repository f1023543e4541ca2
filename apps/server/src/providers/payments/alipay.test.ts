/**
 * Alipay 当面付 through the official alipay-sdk, against FakeAlipay (a local HTTP server standing in for
 * openapi.alipay.com/gateway.do): the SDK signs and sends every request and checks every answer for real.
 * Answers and notifications follow the examples of Alipay's documentation (alipay.trade.precreate /
 * close / query 响应示例, 异步通知参数示例), signed RSA2 with test keys the way the documentation describes
 * (SHA256withRSA over the sorted `k=v&…` content; an answer's signature covers its response node's text).
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { AlipayGateway, fenToYuan, formatAlipayTime, yuanToFen, type AlipayOptions } from './alipay.js';
import { PaymentGatewayError, PaymentNotifyError } from './provider.js';
import { alipayNotificationBody, alipaySignContent, FakeAlipay, rsaSign, rsaVerify } from './test-fakes.js';

const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
const bareBase64 = (key: KeyObject, type: 'pkcs8' | 'spki') => (key.export({ format: 'der', type }) as Buffer).toString('base64');
const pkcs1Pem = (key: KeyObject) => key.export({ format: 'pem', type: 'pkcs1' }) as string;

const NOW = new Date('2024-05-20T04:00:00Z');

const fakes: FakeAlipay[] = [];
/** A double and a gateway configured with its application: every request goes to the double over HTTP. */
function setUp(overrides: Partial<AlipayOptions> = {}) {
  const fake = new FakeAlipay(() => NOW);
  fakes.push(fake);
  return { fake, gateway: new AlipayGateway({ ...fake.options, ...overrides }) };
}
afterAll(async () => {
  await Promise.all(fakes.map((fake) => fake.close()));
});

const paymentInput = {
  rechargeId: 'rc_0001',
  amountFen: 10050,
  description: '算力港账户充值',
  notifyUrl: 'https://api.example.cn/api/payments/alipay/notify',
  expiresAt: new Date('2024-05-20T04:30:00Z'),
};

/** All parameters of a request as the double received them (common ones in the query, biz_content in the form). */
const paramsOf = (request: { path: string; body: string } | undefined): Record<string, string> =>
  Object.fromEntries([...new URL(`http://x${request?.path ?? ''}`).searchParams, ...new URLSearchParams(request?.body ?? '')]);

/** The documentation's 异步通知 example for a 当面付 payment, with our app and recharge. */
function notifyParams(fake: FakeAlipay, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    gmt_create: '2024-05-20 12:00:00',
    charset: 'utf-8',
    seller_email: 'pay@example.cn',
    subject: '算力港账户充值',
    buyer_id: '2088102122524333',
    invoice_amount: '100.50',
    notify_id: '2024052000222120001234567890',
    fund_bill_list: '[{"amount":"100.50","fundChannel":"ALIPAYACCOUNT"}]',
    notify_type: 'trade_status_sync',
    trade_status: 'TRADE_SUCCESS',
    receipt_amount: '100.50',
    app_id: fake.options.appId,
    buyer_pay_amount: '100.50',
    seller_id: '2088101117955611',
    gmt_payment: '2024-05-20 12:00:05',
    notify_time: '2024-05-20 12:00:06',
    version: '1.0',
    out_trade_no: 'rc_0001',
    total_amount: '100.50',
    trade_no: '2024052022001404330501234567',
    auth_app_id: fake.options.appId,
    point_amount: '0.00',
    ...overrides,
  };
}

describe('fen ↔ yuan', () => {
  it('formats integer fen with two decimals', () => {
    expect(fenToYuan(1)).toBe('0.01');
    expect(fenToYuan(10)).toBe('0.10');
    expect(fenToYuan(10000)).toBe('100.00');
    expect(fenToYuan(10050)).toBe('100.50');
    expect(fenToYuan(123456789)).toBe('1234567.89');
    expect(() => fenToYuan(1.5)).toThrow(RangeError);
    expect(() => fenToYuan(-1)).toThrow(RangeError);
  });

  it('parses yuan exactly and refuses more than two decimals', () => {
    expect(yuanToFen('0.01')).toBe(1);
    expect(yuanToFen('100.00')).toBe(10000);
    expect(yuanToFen('100.5')).toBe(10050);
    expect(yuanToFen('100')).toBe(10000);
    expect(yuanToFen('0.29')).toBe(29);
    for (const bad of ['1.005', '', '.5', '100.', '-1.00', '1e2', ' 1.00', '01.00', '1,000.00', 'NaN']) {
      expect(() => yuanToFen(bad), bad).toThrow(RangeError);
    }
  });

  it('formats timestamps in China time', () => {
    expect(formatAlipayTime(new Date('2024-05-20T16:30:05.999Z'))).toBe('2024-05-21 00:30:05');
  });
});

describe('AlipayGateway.createPayment', () => {
  it('sends a precreate the gateway accepts (RSA2 by the application key) and returns the verified qr_code', async () => {
    const { fake, gateway } = setUp();
    await expect(gateway.createPayment(paymentInput)).resolves.toEqual({ payUrl: null, qrCode: 'https://qr.alipay.com/rc_0001' });

    const [request] = fake.requests;
    expect(request?.method).toBe('POST');
    expect(new URL(`http://x${request?.path}`).pathname).toBe('/gateway.do');
    const params = paramsOf(request);
    expect(params).toMatchObject({
      app_id: '2021000000000001',
      method: 'alipay.trade.precreate',
      charset: 'utf-8',
      sign_type: 'RSA2',
      timestamp: '2024-05-20 12:00:00',
      version: '1.0',
      notify_url: 'https://api.example.cn/api/payments/alipay/notify',
    });
    // biz_content travels in the form body, the common parameters in the query string.
    expect(new URLSearchParams(request?.body).has('biz_content')).toBe(true);
    expect(JSON.parse(params.biz_content ?? '{}')).toEqual({
      out_trade_no: 'rc_0001',
      total_amount: '100.50',
      subject: '算力港账户充值',
      timeout_express: '30m',
    });
    const { sign = '', ...unsigned } = params;
    const content = alipaySignContent(unsigned, { exclude: [], keepEmpty: false });
    expect(rsaVerify(content, sign, fake.app.publicKey)).toBe(true);
    expect(rsaVerify(content.replace('100.50', '100.51'), sign, fake.app.publicKey)).toBe(false);
  });

  it('sends the exact yuan of integer fen', async () => {
    const { fake, gateway } = setUp();
    for (const [amountFen, yuan] of [[1, '0.01'], [10, '0.10'], [100_000_00, '100000.00']] as const) {
      await gateway.createPayment({ ...paymentInput, amountFen });
      expect(JSON.parse(paramsOf(fake.requests.at(-1)).biz_content ?? '{}')).toMatchObject({ total_amount: yuan });
    }
    for (const amountFen of [0, -1, 100.5]) await expect(gateway.createPayment({ ...paymentInput, amountFen })).rejects.toThrow('支付宝下单金额无效');
  });

  it('is refused by the gateway (isv.invalid-signature) when signing with a key the application did not upload', async () => {
    const { gateway } = setUp({ privateKeyPem: stranger.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string });
    await expect(gateway.createPayment(paymentInput)).rejects.toThrow('支付宝下单失败: isv.invalid-signature 验签出错');
  });

  it('accepts keys as bare base64 (PKCS#8, as the key tool prints them) or PKCS#1 PEM', async () => {
    const { fake } = setUp();
    for (const keys of [
      { privateKeyPem: bareBase64(fake.app.privateKey, 'pkcs8'), alipayPublicKeyPem: bareBase64(fake.alipay.publicKey, 'spki') },
      { privateKeyPem: pkcs1Pem(fake.app.privateKey), alipayPublicKeyPem: fake.options.alipayPublicKeyPem },
    ]) {
      const gateway = new AlipayGateway({ ...fake.options, ...keys });
      await expect(gateway.createPayment(paymentInput)).resolves.toMatchObject({ qrCode: 'https://qr.alipay.com/rc_0001' });
    }
  });

  it('turns business failures into PaymentGatewayError with sub_code and sub_msg', async () => {
    const { fake, gateway } = setUp();
    fake.script = () => fake.signedReply('alipay.trade.precreate', '{"code":"40004","msg":"Business Failed","sub_code":"ACQ.TRADE_HAS_SUCCESS","sub_msg":"交易已被支付"}');
    await expect(gateway.createPayment(paymentInput)).rejects.toThrow('支付宝下单失败: ACQ.TRADE_HAS_SUCCESS 交易已被支付');
  });

  it('turns an unsigned error_response into PaymentGatewayError with what it says', async () => {
    const { fake, gateway } = setUp();
    fake.script = () => ({ status: 200, body: '{"error_response":{"code":"40002","msg":"Invalid Arguments","sub_code":"isv.invalid-app-id"}}' });
    await expect(gateway.createPayment(paymentInput)).rejects.toThrow('支付宝下单失败: isv.invalid-app-id Invalid Arguments');
  });

  it('refuses a success answer signed by another key, tampered, or unsigned, and an unreachable gateway', async () => {
    const { fake, gateway } = setUp();
    const node = '{"code":"10000","msg":"Success","out_trade_no":"rc_0001","qr_code":"https:\\/\\/qr.alipay.com\\/bax03431ljhokirwl38f00a7"}';
    const answers = [
      { script: () => fake.signedReply('alipay.trade.precreate', node, stranger.privateKey), message: '支付宝应答签名验证失败' },
      {
        script: () => {
          const genuine = fake.signedReply('alipay.trade.precreate', node);
          return { ...genuine, body: genuine.body?.replace('qr.alipay.com', 'evil.example') };
        },
        message: '支付宝应答签名验证失败',
      },
      { script: () => ({ status: 200, body: `{"alipay_trade_precreate_response":${node}}` }), message: '支付宝应答缺少签名' },
    ];
    for (const answer of answers) {
      fake.script = answer.script;
      await expect(gateway.createPayment(paymentInput)).rejects.toThrow(answer.message);
    }
    fake.script = () => fake.signedReply('alipay.trade.precreate', node);
    await expect(gateway.createPayment(paymentInput)).resolves.toEqual({ payUrl: null, qrCode: 'https://qr.alipay.com/bax03431ljhokirwl38f00a7' });
    fake.down = true;
    await expect(gateway.createPayment(paymentInput)).rejects.toThrow(/^支付宝下单请求失败/);
  });
});

describe('AlipayGateway.verifyNotification', () => {
  const { fake, gateway } = setUp();
  const verify = (rawBody: string) => gateway.verifyNotification({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, rawBody });
  const body = (overrides: Record<string, string> = {}, signer: KeyObject = fake.alipay.privateKey, tamper?: Record<string, string>) =>
    alipayNotificationBody(notifyParams(fake, overrides), signer, tamper);

  it('verifies a genuine notification and reads the payment facts, amount in integer fen', async () => {
    await expect(verify(body())).resolves.toEqual({
      rechargeId: 'rc_0001',
      amountFen: 10050,
      providerTradeNo: '2024052022001404330501234567',
      succeeded: true,
      closed: false,
    });
  });

  it.each([
    ['0.01', 1],
    ['100.00', 10000],
    ['100.5', 10050],
  ])('reads total_amount %s as %i fen', async (totalAmount, fen) => {
    await expect(verify(body({ total_amount: totalAmount }))).resolves.toMatchObject({ amountFen: fen });
  });

  it('treats TRADE_FINISHED as succeeded and other states as not', async () => {
    await expect(verify(body({ trade_status: 'TRADE_FINISHED' }))).resolves.toMatchObject({ succeeded: true });
    await expect(verify(body({ trade_status: 'WAIT_BUYER_PAY' }))).resolves.toMatchObject({ succeeded: false, closed: false });
    await expect(verify(body({ trade_status: 'TRADE_CLOSED' }))).resolves.toMatchObject({ succeeded: false, closed: true });
  });

  it('accepts a signature that leaves out empty values', async () => {
    const params = { app_id: fake.options.appId, out_trade_no: 'rc_2', total_amount: '1.00', trade_no: 't2', trade_status: 'TRADE_SUCCESS', body: '' };
    const sign = rsaSign(alipaySignContent(params, { exclude: ['sign', 'sign_type'], keepEmpty: false }), fake.alipay.privateKey);
    await expect(verify(new URLSearchParams({ ...params, sign, sign_type: 'RSA2' }).toString())).resolves.toMatchObject({ amountFen: 100 });
  });

  it('accepts the notification the double sends for its own trade', async () => {
    const other = setUp();
    await other.gateway.createPayment({ ...paymentInput, rechargeId: 'RC20240520120000000002', amountFen: 2_000 });
    other.fake.pay('RC20240520120000000002');
    await expect(other.gateway.verifyNotification(other.fake.notification('RC20240520120000000002'))).resolves.toMatchObject({
      rechargeId: 'RC20240520120000000002',
      amountFen: 2_000,
      succeeded: true,
    });
  });

  it('enforces seller_id when configured', async () => {
    const strict = new AlipayGateway({ ...fake.options, sellerId: '2088000000000000' });
    await expect(strict.verifyNotification({ headers: {}, rawBody: body() })).rejects.toBeInstanceOf(PaymentNotifyError);
    await expect(strict.verifyNotification({ headers: {}, rawBody: body({ seller_id: '2088000000000000' }) })).resolves.toMatchObject({
      succeeded: true,
      closed: false,
    });
  });

  it.each<[string, () => string]>([
    ['a tampered amount', () => body({}, fake.alipay.privateKey, { total_amount: '0.01' })],
    ['a tampered trade status', () => body({ trade_status: 'WAIT_BUYER_PAY' }, fake.alipay.privateKey, { trade_status: 'TRADE_SUCCESS' })],
    ['a signature by another key', () => body({}, stranger.privateKey)],
    ['the application key signing instead of Alipay', () => body({}, fake.app.privateKey)],
    ['another app_id', () => body({ app_id: '2021000000000999' })],
    ['an amount with three decimals', () => body({ total_amount: '1.005' })],
    ['a zero amount', () => body({ total_amount: '0.00' })],
    ['a missing signature', () => body().replace(/&sign=[^&]*/, '')],
    ['an RSA (SHA-1) signature type', () => body().replace('sign_type=RSA2', 'sign_type=RSA')],
    ['a duplicated parameter', () => `${body()}&total_amount=100.50`],
  ])('rejects %s with PaymentNotifyError', async (_label, make) => {
    const error = await verify(make()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentNotifyError);
    expect((error as Error).message).toMatch(/[\u4e00-\u9fa5]/);
  });
});

describe('AlipayGateway.acknowledge', () => {
  it('answers success or failure as plain text', () => {
    const { gateway } = setUp();
    expect(gateway.acknowledge(true)).toEqual({ status: 200, contentType: 'text/plain', body: 'success' });
    expect(gateway.acknowledge(false)).toEqual({ status: 200, contentType: 'text/plain', body: 'failure' });
  });
});

describe('AlipayGateway.closePayment and queryPayment', () => {
  const withTrade = async (rechargeId = 'RC20260601100000123456') => {
    const { fake, gateway } = setUp();
    await gateway.createPayment({ ...paymentInput, rechargeId });
    return { fake, gateway, id: rechargeId };
  };

  it('closes a scanned, unpaid trade with a signed alipay.trade.close', async () => {
    const { fake, gateway, id } = await withTrade();
    fake.scan(id);
    await expect(gateway.closePayment(id)).resolves.toBe('CLOSED');
    const close = paramsOf(fake.requests.at(-1));
    expect(close).toMatchObject({ method: 'alipay.trade.close', app_id: '2021000000000001', sign_type: 'RSA2' });
    expect(JSON.parse(close.biz_content ?? '{}')).toEqual({ out_trade_no: id });
    expect(fake.statusOf(id)).toBe('TRADE_CLOSED');
    expect(fake.pay(id)).toBe(false);
    // Closed already: Alipay refuses with ACQ.TRADE_STATUS_ERROR; the query says closed.
    await expect(gateway.closePayment(id)).resolves.toBe('CLOSED');
  });

  it('answers CLOSED for a code nobody scanned yet (ACQ.TRADE_NOT_EXIST)', async () => {
    const { gateway, id } = await withTrade();
    await expect(gateway.closePayment(id)).resolves.toBe('CLOSED');
  });

  it('answers PAID when the trade was paid (close refused, query TRADE_SUCCESS) and the query returns the facts', async () => {
    const { fake, gateway, id } = await withTrade();
    fake.pay(id);
    await expect(gateway.closePayment(id)).resolves.toBe('PAID');
    expect(fake.requests.map((request) => paramsOf(request).method)).toEqual(['alipay.trade.precreate', 'alipay.trade.close', 'alipay.trade.query']);
    await expect(gateway.queryPayment(id)).resolves.toEqual({
      rechargeId: id,
      amountFen: 10050,
      providerTradeNo: expect.stringMatching(/^2026/),
      succeeded: true,
      closed: false,
    });
  });

  it('refuses to act on an unreachable gateway, a system error, or an unsigned or forged answer', async () => {
    const { fake, gateway, id } = await withTrade();
    fake.scan(id);
    fake.down = true;
    await expect(gateway.closePayment(id)).rejects.toBeInstanceOf(PaymentGatewayError);
    await expect(gateway.queryPayment(id)).rejects.toBeInstanceOf(PaymentGatewayError);
    fake.down = false;
    expect(fake.statusOf(id)).toBe('WAIT_BUYER_PAY');

    const close = '{"code":"10000","msg":"Success","out_trade_no":"rc_0001","trade_no":"2026"}';
    const answers = [
      () => fake.signedReply('alipay.trade.close', '{"code":"20000","msg":"Service Currently Unavailable","sub_code":"aop.ACQ.SYSTEM_ERROR","sub_msg":"系统繁忙"}'),
      () => ({ status: 200, body: `{"alipay_trade_close_response":${close}}` }),
      () => ({ status: 200, body: '{"alipay_trade_close_response":{"code":"40004","msg":"Business Failed","sub_code":"ACQ.TRADE_NOT_EXIST"}}' }),
      () => fake.signedReply('alipay.trade.close', close, stranger.privateKey),
      () => ({ status: 502, body: '<html>Bad Gateway</html>' }),
    ];
    for (const answer of answers) {
      fake.script = answer;
      await expect(gateway.closePayment('rc_0001')).rejects.toBeInstanceOf(PaymentGatewayError);
    }
    const query = '{"code":"10000","msg":"Success","out_trade_no":"rc_0001","trade_no":"2026","trade_status":"TRADE_SUCCESS","total_amount":"100.50"}';
    fake.script = () => ({ status: 200, body: `{"alipay_trade_query_response":${query}}` });
    await expect(gateway.queryPayment('rc_0001')).rejects.toThrow('缺少签名');
    fake.script = () => fake.signedReply('alipay.trade.query', query);
    await expect(gateway.queryPayment('rc_0002')).rejects.toThrow('商户订单号不匹配');
    await expect(gateway.queryPayment('rc_0001')).resolves.toMatchObject({ amountFen: 10050, succeeded: true });
    fake.script = () => fake.signedReply('alipay.trade.query', query.replace('"100.50"', '"100.505"'));
    await expect(gateway.queryPayment('rc_0001')).rejects.toThrow('支付宝查单应答金额无效');
  });
});
