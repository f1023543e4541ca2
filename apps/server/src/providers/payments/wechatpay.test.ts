/**
 * WeChat Pay API v3 (Native) through wechatpay-axios-plugin, against FakeWechatPay (a local HTTP server
 * standing in for api.mch.weixin.qq.com): the SDK signs and sends every request and checks every answer
 * for real. Bodies follow the examples of the APIv3 documentation (Native下单, 查询订单, 关闭订单, 支付成功
 * 通知); keys, signatures and ciphertexts are made with test keys the way the documentation describes
 * (SHA256withRSA over `timestamp\nnonce\nbody\n`, AEAD_AES_256_GCM with the APIv3 key).
 */
import { createCipheriv, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { formatWechatPayTime, WechatPayGateway, type WechatPayOptions } from './wechatpay.js';
import { PaymentGatewayError, PaymentNotifyError, type NotificationRequest } from './provider.js';
import { FakeWechatPay, rsaSign, rsaVerify } from './test-fakes.js';

const pem = (key: KeyObject, type: 'pkcs8' | 'spki') => key.export({ format: 'pem', type }) as string;
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });

const NOW = new Date('2024-05-20T04:00:00Z');
const NOW_SECONDS = Math.floor(NOW.getTime() / 1000);

const fakes: FakeWechatPay[] = [];
/** A double and a gateway configured with its merchant: every request goes to the double over HTTP. */
function setUp(overrides: Partial<WechatPayOptions> = {}) {
  const fake = new FakeWechatPay(() => NOW);
  fakes.push(fake);
  return { fake, gateway: new WechatPayGateway({ ...fake.options, ...overrides }) };
}
afterAll(async () => {
  await Promise.all(fakes.map((fake) => fake.close()));
});

/** The documented Native下单 request, with our recharge's id, amount and expiry. */
const paymentInput = {
  rechargeId: 'rc_0001',
  amountFen: 10050,
  description: '算力港账户充值',
  notifyUrl: 'https://api.example.cn/api/payments/wechatpay/notify',
  expiresAt: new Date('2024-05-20T04:30:00Z'),
};

/** The decrypted `resource` of the documentation's 支付成功通知 example (trade_type NATIVE, our merchant's ids). */
const transaction = (fake: FakeWechatPay, overrides: Record<string, unknown> = {}) => ({
  transaction_id: '1217752501201407033233368018',
  amount: { payer_total: 10050, total: 10050, currency: 'CNY', payer_currency: 'CNY' },
  mchid: fake.options.mchId,
  trade_state: 'SUCCESS',
  bank_type: 'CMC',
  success_time: '2024-05-20T12:00:00+08:00',
  payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
  out_trade_no: 'rc_0001',
  appid: fake.options.appId,
  trade_state_desc: '支付成功',
  trade_type: 'NATIVE',
  attach: '',
  ...overrides,
});

function encryptResource(plaintext: string, key: string, nonce = 'fdasflkja484', associatedData = 'transaction') {
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key), Buffer.from(nonce));
  cipher.setAAD(Buffer.from(associatedData));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext: ciphertext.toString('base64'), associated_data: associatedData, nonce };
}

/** The documentation's 支付成功通知 around a transaction, signed by the platform key (or another one). */
function notification(
  fake: FakeWechatPay,
  options: {
    transaction?: Record<string, unknown>;
    signer?: KeyObject;
    serial?: string;
    timestamp?: number;
    apiV3Key?: string;
    associatedData?: string;
    tamper?: (body: string) => string;
  } = {},
): NotificationRequest {
  const body = JSON.stringify({
    id: 'EV-2018022511223320873',
    create_time: '2024-05-20T12:00:01+08:00',
    resource_type: 'encrypt-resource',
    event_type: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: {
      ...encryptResource(JSON.stringify(options.transaction ?? transaction(fake)), options.apiV3Key ?? fake.apiV3Key),
      ...(options.associatedData === undefined ? {} : { associated_data: options.associatedData }),
    },
  });
  const timestamp = String(options.timestamp ?? NOW_SECONDS - 3);
  const nonce = 'fdasfwerqwe234lkjkl';
  return {
    headers: {
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-signature': rsaSign(`${timestamp}\n${nonce}\n${body}\n`, options.signer ?? fake.platform.privateKey),
      'wechatpay-serial': options.serial ?? fake.options.platformSerialNo,
      'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
    },
    rawBody: options.tamper ? options.tamper(body) : body,
  };
}

describe('WechatPayGateway.createPayment', () => {
  it('posts the documented Native order signed by the merchant key, and returns the verified code_url; amounts stay integer fen', async () => {
    const { fake, gateway } = setUp();
    const authorizations: string[] = [];
    await expect(gateway.createPayment(paymentInput)).resolves.toEqual({ payUrl: null, qrCode: 'weixin://wxpay/bizpayurl?pr=rc_0001' });

    const [request] = fake.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v3/pay/transactions/native');
    expect(JSON.parse(request?.body ?? '{}')).toEqual({
      appid: 'wx8888888888888888',
      mchid: '1900000109',
      description: '算力港账户充值',
      out_trade_no: 'rc_0001',
      time_expire: '2024-05-20T12:30:00+08:00',
      notify_url: 'https://api.example.cn/api/payments/wechatpay/notify',
      amount: { total: 10050, currency: 'CNY' },
    });

    // The documented Authorization header: scheme, merchant, certificate serial, and a signature over the request.
    fake.script = (received) => {
      authorizations.push(received.headers.authorization ?? '');
      return fake.signedAnswer(200, JSON.stringify({ code_url: 'weixin://wxpay/bizpayurl?pr=p4lpSuKzz' }));
    };
    await expect(gateway.createPayment({ ...paymentInput, amountFen: 1 })).resolves.toMatchObject({ qrCode: 'weixin://wxpay/bizpayurl?pr=p4lpSuKzz' });
    const header = authorizations[0] ?? '';
    expect(header.startsWith('WECHATPAY2-SHA256-RSA2048 ')).toBe(true);
    const fields = Object.fromEntries([...header.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]));
    expect(fields).toMatchObject({ mchid: '1900000109', serial_no: fake.options.serialNo });
    expect(Math.abs(Number(fields.timestamp) - Date.now() / 1000)).toBeLessThan(60);
    const body = fake.requests[1]?.body ?? '';
    expect(JSON.parse(body)).toMatchObject({ amount: { total: 1, currency: 'CNY' } });
    const signedMessage = `POST\n/v3/pay/transactions/native\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`;
    expect(rsaVerify(signedMessage, fields.signature ?? '', fake.merchant.publicKey)).toBe(true);
    expect(rsaVerify(signedMessage.replace('"total":1', '"total":2'), fields.signature ?? '', fake.merchant.publicKey)).toBe(false);
  });

  it('is refused by the gateway (SIGN_ERROR) when signing with a key the merchant did not register', async () => {
    const { gateway } = setUp({ privateKeyPem: pem(stranger.privateKey, 'pkcs8') });
    await expect(gateway.createPayment(paymentInput)).rejects.toThrow(/SIGN_ERROR 签名错误/);
  });

  it('honours baseUrl with a trailing slash', async () => {
    const fake = setUp().fake;
    const gateway = new WechatPayGateway({ ...fake.options, baseUrl: `${fake.origin}/` });
    await gateway.createPayment(paymentInput);
    expect(fake.requests.map((request) => request.path)).toEqual(['/v3/pay/transactions/native']);
  });

  it('turns gateway refusals into PaymentGatewayError carrying code and message', async () => {
    const { fake, gateway } = setUp();
    fake.script = () => ({ status: 400, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code: 'PARAM_ERROR', message: '参数错误: time_expire' }) });
    const error = await gateway.createPayment(paymentInput).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentGatewayError);
    expect((error as Error).message).toBe('微信支付下单失败: PARAM_ERROR 参数错误: time_expire');
  });

  it('refuses a success answer that is unsigned, signed by another key, under another serial, or ten minutes old', async () => {
    const { fake, gateway } = setUp();
    const body = JSON.stringify({ code_url: 'weixin://wxpay/bizpayurl?pr=forged' });
    const answers = [
      { script: () => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body }), message: '微信支付应答缺少签名' },
      { script: () => fake.signedAnswer(200, body, { signer: stranger.privateKey }), message: '微信支付应答签名验证失败' },
      { script: () => fake.signedAnswer(200, body, { serial: 'PUB_KEY_ID_OTHER' }), message: '微信支付应答的平台证书序列号不匹配' },
      { script: () => fake.signedAnswer(200, body, { timestamp: Math.floor(Date.now() / 1000) - 600 }), message: '微信支付应答时间戳与本机时间相差超过 5 分钟' },
    ];
    for (const answer of answers) {
      fake.script = answer.script;
      const error = await gateway.createPayment(paymentInput).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentGatewayError);
      expect((error as Error).message).toBe(answer.message);
    }
  });

  it('wraps an unreachable gateway, and refuses amounts that are not positive integer fen before sending', async () => {
    const { fake, gateway } = setUp();
    fake.down = true;
    await expect(gateway.createPayment(paymentInput)).rejects.toThrow(/^微信支付下单请求失败/);
    fake.down = false;
    for (const amountFen of [0, -1, 100.5]) {
      await expect(gateway.createPayment({ ...paymentInput, amountFen })).rejects.toThrow('微信支付下单金额无效');
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('formats time_expire as RFC 3339 in China time', () => {
    expect(formatWechatPayTime(new Date('2024-05-20T16:30:05.123Z'))).toBe('2024-05-21T00:30:05+08:00');
  });

  it('needs the platform key id and a 32-byte APIv3 key', () => {
    const { fake } = setUp();
    expect(() => new WechatPayGateway({ ...fake.options, platformSerialNo: '' })).toThrow('WECHATPAY_PLATFORM_SERIAL_NO');
    expect(() => new WechatPayGateway({ ...fake.options, apiV3Key: 'short' })).toThrow('32 字节');
  });
});

describe('WechatPayGateway.verifyNotification', () => {
  const { fake, gateway } = setUp();

  it('verifies and decrypts a genuine notification into the payment facts, amount in integer fen', async () => {
    await expect(gateway.verifyNotification(notification(fake))).resolves.toEqual({
      rechargeId: 'rc_0001',
      amountFen: 10050,
      providerTradeNo: '1217752501201407033233368018',
      succeeded: true,
      closed: false,
    });
    const oneFen = transaction(fake, { amount: { total: 1, payer_total: 1, currency: 'CNY', payer_currency: 'CNY' } });
    await expect(gateway.verifyNotification(notification(fake, { transaction: oneFen }))).resolves.toMatchObject({ amountFen: 1 });
  });

  it('accepts the notification the double sends for its own trade', async () => {
    const other = setUp();
    await other.gateway.createPayment({ ...paymentInput, rechargeId: 'RC20240520120000000001' });
    other.fake.pay('RC20240520120000000001');
    await expect(other.gateway.verifyNotification(other.fake.notification('RC20240520120000000001'))).resolves.toMatchObject({
      rechargeId: 'RC20240520120000000001',
      amountFen: 10050,
      succeeded: true,
    });
  });

  it('reads headers case-insensitively and from arrays', async () => {
    const request = notification(fake);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key.replace(/^w/, 'W'), [String(value)]]));
    await expect(gateway.verifyNotification({ headers, rawBody: request.rawBody })).resolves.toMatchObject({ succeeded: true });
  });

  it('reports a non-success trade state as not succeeded', async () => {
    const request = notification(fake, { transaction: transaction(fake, { trade_state: 'NOTPAY', transaction_id: undefined }) });
    await expect(gateway.verifyNotification(request)).resolves.toMatchObject({ succeeded: false, closed: false, rechargeId: 'rc_0001' });
    const closed = notification(fake, { transaction: transaction(fake, { trade_state: 'CLOSED', transaction_id: undefined }) });
    await expect(gateway.verifyNotification(closed)).resolves.toMatchObject({ succeeded: false, closed: true });
  });

  const rejected: [string, () => NotificationRequest][] = [
    ['a tampered body', () => notification(fake, { tamper: (body) => body.replace('支付成功', '支付失败') })],
    ['a signature by another key', () => notification(fake, { signer: stranger.privateKey })],
    ['a wrong platform serial', () => notification(fake, { serial: 'PUB_KEY_ID_SOMEONE_ELSE' })],
    ['a timestamp six minutes old', () => notification(fake, { timestamp: NOW_SECONDS - 360 })],
    ['a timestamp six minutes ahead', () => notification(fake, { timestamp: NOW_SECONDS + 360 })],
    ['a resource encrypted with another APIv3 key', () => notification(fake, { apiV3Key: 'ffffffffffffffffffffffffffffffff' })],
    ['a resource whose associated data was changed', () => notification(fake, { associatedData: 'certificate' })],
    ['another merchant', () => notification(fake, { transaction: transaction(fake, { mchid: '1900000001' }) })],
    ['another appid', () => notification(fake, { transaction: transaction(fake, { appid: 'wx0000000000000000' }) })],
    ['a foreign currency', () => notification(fake, { transaction: transaction(fake, { amount: { total: 10050, currency: 'USD' } }) })],
    ['a fractional amount', () => notification(fake, { transaction: transaction(fake, { amount: { total: 100.5, currency: 'CNY' } }) })],
    ['a missing signature header', () => {
      const request = notification(fake);
      return { ...request, headers: { ...request.headers, 'wechatpay-signature': undefined } };
    }],
  ];
  it.each(rejected)('rejects %s with PaymentNotifyError', async (_label, make) => {
    const error = await gateway.verifyNotification(make()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentNotifyError);
    expect((error as Error).message).toMatch(/[\u4e00-\u9fa5]/);
  });
});

describe('WechatPayGateway.acknowledge', () => {
  it('answers in the JSON WeChat Pay expects', () => {
    const { gateway } = setUp();
    expect(gateway.acknowledge(true)).toEqual({ status: 200, contentType: 'application/json', body: '{"code":"SUCCESS","message":"成功"}' });
    expect(gateway.acknowledge(false)).toEqual({ status: 400, contentType: 'application/json', body: '{"code":"FAIL","message":"失败"}' });
  });
});

describe('WechatPayGateway.closePayment and queryPayment', () => {
  const order = async (gateway: WechatPayGateway, rechargeId = 'RC20260601100000123456') => {
    await gateway.createPayment({ ...paymentInput, rechargeId });
    return rechargeId;
  };

  it('closes an unpaid trade with a signed POST …/out-trade-no/{no}/close carrying mchid, and answers CLOSED again on a repeat', async () => {
    const { fake, gateway } = setUp();
    const id = await order(gateway);
    await expect(gateway.closePayment(id)).resolves.toBe('CLOSED');
    const [close] = fake.requestsTo('/close');
    expect(close).toEqual({ method: 'POST', path: `/v3/pay/transactions/out-trade-no/${id}/close`, body: '{"mchid":"1900000109"}' });
    expect(fake.stateOf(id)).toBe('CLOSED');
    expect(fake.pay(id)).toBe(false);
    await expect(gateway.closePayment(id)).resolves.toBe('CLOSED');
  });

  it('answers PAID when the payer paid first (ORDERPAID), and the query returns the verified transaction', async () => {
    const { fake, gateway } = setUp();
    const id = await order(gateway);
    fake.pay(id);
    await expect(gateway.closePayment(id)).resolves.toBe('PAID');
    expect(fake.stateOf(id)).toBe('SUCCESS');
    const facts = await gateway.queryPayment(id);
    expect(facts).toEqual({ rechargeId: id, amountFen: 10050, providerTradeNo: expect.stringMatching(/^42000/), succeeded: true, closed: false });
    expect(fake.requestsTo('?mchid=')[0]).toMatchObject({ method: 'GET', path: `/v3/pay/transactions/out-trade-no/${id}?mchid=1900000109`, body: '' });
  });

  it('reports an unpaid trade as neither succeeded nor closed, and a closed one as closed', async () => {
    const { gateway } = setUp();
    const id = await order(gateway);
    await expect(gateway.queryPayment(id)).resolves.toMatchObject({ succeeded: false, closed: false });
    await gateway.closePayment(id);
    await expect(gateway.queryPayment(id)).resolves.toMatchObject({ succeeded: false, closed: true });
  });

  it('refuses to act on an unreachable gateway, a system error, USER_PAYING, or an unsigned or forged answer', async () => {
    const { fake, gateway } = setUp();
    const id = await order(gateway);
    fake.down = true;
    await expect(gateway.closePayment(id)).rejects.toBeInstanceOf(PaymentGatewayError);
    await expect(gateway.queryPayment(id)).rejects.toBeInstanceOf(PaymentGatewayError);
    fake.down = false;
    expect(fake.stateOf(id)).toBe('NOTPAY');

    const answers = [
      () => ({ status: 500, body: JSON.stringify({ code: 'SYSTEM_ERROR', message: '系统错误' }) }),
      () => ({ status: 202, body: JSON.stringify({ code: 'USER_PAYING', message: '用户支付中' }) }),
      () => fake.signedAnswer(202, JSON.stringify({ code: 'USER_PAYING', message: '用户支付中' })),
      () => ({ status: 204 }),
      () => fake.signedAnswer(204, '', { signer: stranger.privateKey }),
    ];
    for (const answer of answers) {
      fake.script = answer;
      await expect(gateway.closePayment('RC1')).rejects.toBeInstanceOf(PaymentGatewayError);
    }
    fake.script = () => fake.signedAnswer(200, JSON.stringify(transaction(fake)), { signer: stranger.privateKey });
    await expect(gateway.queryPayment('rc_0001')).rejects.toBeInstanceOf(PaymentGatewayError);
    fake.script = () => fake.signedAnswer(200, JSON.stringify(transaction(fake)));
    await expect(gateway.queryPayment('rc_0002')).rejects.toThrow('商户订单号不匹配');
    await expect(gateway.queryPayment('rc_0001')).resolves.toMatchObject({ amountFen: 10050, succeeded: true });
  });
});
