import { createSign, createVerify, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  AlipayGateway,
  alipaySignContent,
  extractAlipayResponseNode,
  fenToYuan,
  formatAlipayTime,
  yuanToFen,
  type AlipayOptions,
} from './alipay.js';
import { PaymentGatewayError, PaymentNotifyError } from './provider.js';
import { FakeAlipay } from './test-fakes.js';

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const app = pair();
const alipay = pair();
const stranger = pair();
const pem = (key: KeyObject, type: 'pkcs8' | 'spki') => key.export({ format: 'pem', type }) as string;
const bareBase64 = (key: KeyObject, type: 'pkcs8' | 'spki') => (key.export({ format: 'der', type }) as Buffer).toString('base64');

const NOW = new Date('2024-05-20T04:00:00Z');
const baseOptions: AlipayOptions = {
  appId: '2021000000000001',
  privateKeyPem: pem(app.privateKey, 'pkcs8'),
  alipayPublicKeyPem: pem(alipay.publicKey, 'spki'),
  now: () => NOW,
};

const rsaSign = (content: string, key: KeyObject) => createSign('RSA-SHA256').update(content, 'utf8').sign(key, 'base64');
const rsaVerify = (content: string, signature: string, key: KeyObject) =>
  createVerify('RSA-SHA256').update(content, 'utf8').verify(key, signature, 'base64');

const paymentInput = {
  rechargeId: 'rc_0001',
  amountFen: 10050,
  description: '算力港账户充值',
  notifyUrl: 'https://api.example.cn/api/payments/alipay/notify',
  expiresAt: new Date('2024-05-20T04:30:00Z'),
};

/** A response the way Alipay lays it out: the node's text followed by the signature over exactly that text. */
function signedResponse(nodeText: string, signer: KeyObject = alipay.privateKey, key = 'alipay_trade_precreate_response') {
  return new Response(`{"${key}":${nodeText},"sign":"${rsaSign(nodeText, signer)}"}`, {
    headers: { 'Content-Type': 'text/html;charset=utf-8' },
  });
}

function notifyBody(overrides: Record<string, string> = {}, signer: KeyObject = alipay.privateKey, tamper?: Record<string, string>) {
  const params: Record<string, string> = {
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
    app_id: '2021000000000001',
    buyer_pay_amount: '100.50',
    seller_id: '2088101117955611',
    gmt_payment: '2024-05-20 12:00:05',
    notify_time: '2024-05-20 12:00:06',
    version: '1.0',
    out_trade_no: 'rc_0001',
    total_amount: '100.50',
    trade_no: '2024052022001404330501234567',
    auth_app_id: '2021000000000001',
    point_amount: '0.00',
    ...overrides,
  };
  const sign = rsaSign(alipaySignContent(params, { exclude: ['sign', 'sign_type'], skipEmpty: false }), signer);
  return new URLSearchParams({ ...params, ...tamper, sign, sign_type: 'RSA2' }).toString();
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
});

describe('Alipay RSA2 signing', () => {
  it('sorts parameters, skips sign and empty values, and keeps values unencoded', () => {
    expect(alipaySignContent({ b: '2', a: '1', sign: 'x', empty: '', c: '{"k":"v w"}' })).toBe('a=1&b=2&c={"k":"v w"}');
    expect(alipaySignContent({ b: '', a: '1', sign_type: 'RSA2' }, { exclude: ['sign', 'sign_type'], skipEmpty: false })).toBe('a=1&b=');
  });

  it('formats timestamps in China time', () => {
    expect(formatAlipayTime(new Date('2024-05-20T16:30:05.999Z'))).toBe('2024-05-21 00:30:05');
  });

  it('extracts the exact text of the response node', () => {
    const text = '{ "alipay_trade_precreate_response" : {"code":"10000","msg":"Success","qr_code":"https:\\/\\/qr.alipay.com\\/x","n":{"a":"}"}} , "sign":"abc"}';
    expect(extractAlipayResponseNode(text, 'alipay_trade_precreate_response')).toBe(
      '{"code":"10000","msg":"Success","qr_code":"https:\\/\\/qr.alipay.com\\/x","n":{"a":"}"}}',
    );
    expect(extractAlipayResponseNode('{"sign":"x","error_response":{"code":"40002"}}', 'error_response')).toBe('{"code":"40002"}');
    expect(extractAlipayResponseNode('{"sign":"x"}', 'error_response')).toBeNull();
    expect(extractAlipayResponseNode('not json', 'error_response')).toBeNull();
  });
});

describe('AlipayGateway.createPayment', () => {
  it('posts a signed precreate form and returns qr_code after verifying the response signature', async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const gateway = new AlipayGateway({
      ...baseOptions,
      fetchImpl: async (url, init) => {
        calls.push({ url: String(url), init });
        return signedResponse('{"code":"10000","msg":"Success","out_trade_no":"rc_0001","qr_code":"https:\\/\\/qr.alipay.com\\/bax03431ljhokirwl38f00a7"}');
      },
    });
    await expect(gateway.createPayment(paymentInput)).resolves.toEqual({ payUrl: null, qrCode: 'https://qr.alipay.com/bax03431ljhokirwl38f00a7' });

    const call = calls[0];
    const url = new URL(call?.url ?? '');
    expect(`${url.origin}${url.pathname}`).toBe('https://openapi.alipay.com/gateway.do');
    expect(call?.init?.method).toBe('POST');
    expect(new Headers(call?.init?.headers).get('content-type')).toBe('application/x-www-form-urlencoded;charset=utf-8');

    const params: Record<string, string> = Object.fromEntries([...url.searchParams, ...new URLSearchParams(String(call?.init?.body))]);
    expect(params).toMatchObject({
      app_id: '2021000000000001',
      method: 'alipay.trade.precreate',
      format: 'JSON',
      charset: 'utf-8',
      sign_type: 'RSA2',
      timestamp: '2024-05-20 12:00:00',
      version: '1.0',
      notify_url: 'https://api.example.cn/api/payments/alipay/notify',
    });
    expect(JSON.parse(params.biz_content ?? '{}')).toEqual({
      out_trade_no: 'rc_0001',
      total_amount: '100.50',
      subject: '算力港账户充值',
      timeout_express: '30m',
    });
    const { sign, ...unsigned } = params;
    const content = Object.keys(unsigned).sort().map((key) => `${key}=${unsigned[key]}`).join('&');
    expect(rsaVerify(content, sign ?? '', app.publicKey)).toBe(true);
    expect(rsaVerify(content.replace('100.50', '100.51'), sign ?? '', app.publicKey)).toBe(false);
  });

  it('accepts bare base64 keys and a custom gateway', async () => {
    const urls: string[] = [];
    const gateway = new AlipayGateway({
      ...baseOptions,
      privateKeyPem: bareBase64(app.privateKey, 'pkcs8'),
      alipayPublicKeyPem: bareBase64(alipay.publicKey, 'spki'),
      gateway: 'https://openapi-sandbox.dl.alipaydev.com/gateway.do',
      fetchImpl: async (url) => {
        urls.push(String(url));
        return signedResponse('{"code":"10000","msg":"Success","out_trade_no":"rc_0001","qr_code":"https://qr.alipay.com/x"}');
      },
    });
    await expect(gateway.createPayment(paymentInput)).resolves.toMatchObject({ qrCode: 'https://qr.alipay.com/x' });
    expect(urls[0]?.startsWith('https://openapi-sandbox.dl.alipaydev.com/gateway.do?')).toBe(true);
  });

  it('turns business failures into PaymentGatewayError with sub_msg', async () => {
    const gateway = new AlipayGateway({
      ...baseOptions,
      fetchImpl: async () =>
        signedResponse('{"code":"40004","msg":"Business Failed","sub_code":"ACQ.TRADE_HAS_SUCCESS","sub_msg":"交易已被支付"}'),
    });
    const error = await gateway.createPayment(paymentInput).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentGatewayError);
    expect((error as Error).message).toContain('交易已被支付');
  });

  it('turns an unsigned error_response into PaymentGatewayError with msg', async () => {
    const gateway = new AlipayGateway({
      ...baseOptions,
      fetchImpl: async () => new Response('{"error_response":{"code":"40002","msg":"Invalid Arguments","sub_code":"isv.invalid-app-id"}}'),
    });
    await expect(gateway.createPayment(paymentInput)).rejects.toThrow(/isv\.invalid-app-id Invalid Arguments/);
  });

  it('refuses a success response signed by another key, tampered, or unsigned', async () => {
    const node = '{"code":"10000","msg":"Success","out_trade_no":"rc_0001","qr_code":"https://qr.alipay.com/x"}';
    const makers = [
      () => signedResponse(node, stranger.privateKey),
      async () => new Response((await signedResponse(node).text()).replace('qr.alipay.com/x', 'evil.example/x')),
      () => new Response(`{"alipay_trade_precreate_response":${node}}`),
    ];
    for (const make of makers) {
      const gateway = new AlipayGateway({ ...baseOptions, fetchImpl: async () => make() });
      await expect(gateway.createPayment(paymentInput)).rejects.toBeInstanceOf(PaymentGatewayError);
    }
  });
});

describe('AlipayGateway.verifyNotification', () => {
  const gateway = new AlipayGateway(baseOptions);
  const verify = (rawBody: string) => gateway.verifyNotification({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, rawBody });

  it('verifies a genuine notification and reads the payment facts', async () => {
    await expect(verify(notifyBody())).resolves.toEqual({
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
    await expect(verify(notifyBody({ total_amount: totalAmount }))).resolves.toMatchObject({ amountFen: fen });
  });

  it('treats TRADE_FINISHED as succeeded and other states as not', async () => {
    await expect(verify(notifyBody({ trade_status: 'TRADE_FINISHED' }))).resolves.toMatchObject({ succeeded: true });
    await expect(verify(notifyBody({ trade_status: 'WAIT_BUYER_PAY' }))).resolves.toMatchObject({ succeeded: false, closed: false });
    await expect(verify(notifyBody({ trade_status: 'TRADE_CLOSED' }))).resolves.toMatchObject({ succeeded: false, closed: true });
    await expect(verify(notifyBody({ trade_status: 'TRADE_CLOSED' }))).resolves.toMatchObject({ succeeded: false });
  });

  it('accepts a signature that leaves out empty values', async () => {
    const params = { app_id: '2021000000000001', out_trade_no: 'rc_2', total_amount: '1.00', trade_no: 't2', trade_status: 'TRADE_SUCCESS', body: '' };
    const sign = rsaSign(alipaySignContent(params, { exclude: ['sign', 'sign_type'], skipEmpty: true }), alipay.privateKey);
    await expect(verify(new URLSearchParams({ ...params, sign, sign_type: 'RSA2' }).toString())).resolves.toMatchObject({ amountFen: 100 });
  });

  it('enforces seller_id when configured', async () => {
    const strict = new AlipayGateway({ ...baseOptions, sellerId: '2088000000000000' });
    await expect(strict.verifyNotification({ headers: {}, rawBody: notifyBody() })).rejects.toBeInstanceOf(PaymentNotifyError);
    await expect(strict.verifyNotification({ headers: {}, rawBody: notifyBody({ seller_id: '2088000000000000' }) })).resolves.toMatchObject({
      succeeded: true,
      closed: false,
    });
  });

  it.each<[string, () => string]>([
    ['a tampered amount', () => notifyBody({}, alipay.privateKey, { total_amount: '0.01' })],
    ['a tampered trade status', () => notifyBody({ trade_status: 'WAIT_BUYER_PAY' }, alipay.privateKey, { trade_status: 'TRADE_SUCCESS' })],
    ['a signature by another key', () => notifyBody({}, stranger.privateKey)],
    ['the application key signing instead of Alipay', () => notifyBody({}, app.privateKey)],
    ['another app_id', () => notifyBody({ app_id: '2021000000000999' })],
    ['an amount with three decimals', () => notifyBody({ total_amount: '1.005' })],
    ['a zero amount', () => notifyBody({ total_amount: '0.00' })],
    ['a missing signature', () => notifyBody().replace(/&sign=[^&]*/, '')],
    ['a duplicated parameter', () => `${notifyBody()}&total_amount=100.50`],
  ])('rejects %s with PaymentNotifyError', async (_label, make) => {
    const error = await verify(make()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentNotifyError);
    expect((error as Error).message).toMatch(/[\u4e00-\u9fa5]/);
  });
});

describe('AlipayGateway.acknowledge', () => {
  it('answers success or failure as plain text', () => {
    const gateway = new AlipayGateway(baseOptions);
    expect(gateway.acknowledge(true)).toEqual({ status: 200, contentType: 'text/plain', body: 'success' });
    expect(gateway.acknowledge(false)).toEqual({ status: 200, contentType: 'text/plain', body: 'failure' });
  });
});

describe('AlipayGateway.closePayment and queryPayment', () => {
  const fakeWith = async (rechargeId = 'RC20260601100000123456') => {
    const fake = new FakeAlipay(() => NOW);
    const gateway = new AlipayGateway(fake.options);
    await gateway.createPayment({ ...paymentInput, rechargeId });
    return { fake, gateway, id: rechargeId };
  };
  const paramsOf = (request: { path: string; body: string } | undefined) =>
    Object.fromEntries([...new URL(`https://x${request?.path ?? ''}`).searchParams, ...new URLSearchParams(request?.body ?? '')]);

  it('closes a scanned, unpaid trade with a signed alipay.trade.close', async () => {
    const { fake, gateway, id } = await fakeWith();
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
    const { gateway, id } = await fakeWith();
    await expect(gateway.closePayment(id)).resolves.toBe('CLOSED');
  });

  it('answers PAID when the trade was paid (close refused, query TRADE_SUCCESS) and the query returns the facts', async () => {
    const { fake, gateway, id } = await fakeWith();
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

  it('refuses to act on an unreachable gateway, a system error, or an unsigned or forged success', async () => {
    const { fake, gateway, id } = await fakeWith();
    fake.scan(id);
    fake.down = true;
    await expect(gateway.closePayment(id)).rejects.toBeInstanceOf(PaymentGatewayError);
    await expect(gateway.queryPayment(id)).rejects.toBeInstanceOf(PaymentGatewayError);
    fake.down = false;
    expect(fake.statusOf(id)).toBe('WAIT_BUYER_PAY');

    const close = '{"code":"10000","msg":"Success","out_trade_no":"rc_0001","trade_no":"2026"}';
    const answers: (() => Response)[] = [
      () => signedResponse('{"code":"20000","msg":"Service Currently Unavailable","sub_code":"aop.ACQ.SYSTEM_ERROR","sub_msg":"系统繁忙"}', alipay.privateKey, 'alipay_trade_close_response'),
      () => new Response(`{"alipay_trade_close_response":${close}}`),
      () => signedResponse(close, stranger.privateKey, 'alipay_trade_close_response'),
    ];
    for (const answer of answers) {
      const strict = new AlipayGateway({ ...baseOptions, fetchImpl: async () => answer() });
      await expect(strict.closePayment('rc_0001')).rejects.toBeInstanceOf(PaymentGatewayError);
    }
    const query = '{"code":"10000","msg":"Success","out_trade_no":"rc_0001","trade_no":"2026","trade_status":"TRADE_SUCCESS","total_amount":"100.50"}';
    const unsignedQuery = new AlipayGateway({ ...baseOptions, fetchImpl: async () => new Response(`{"alipay_trade_query_response":${query}}`) });
    await expect(unsignedQuery.queryPayment('rc_0001')).rejects.toThrow('缺少签名');
    const otherOrder = new AlipayGateway({ ...baseOptions, fetchImpl: async () => signedResponse(query, alipay.privateKey, 'alipay_trade_query_response') });
    await expect(otherOrder.queryPayment('rc_0002')).rejects.toThrow('商户订单号不匹配');
    await expect(otherOrder.queryPayment('rc_0001')).resolves.toMatchObject({ amountFen: 10050, succeeded: true });
  });
});
