import { createCipheriv, createSign, createVerify, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildAuthorization,
  decryptWechatPayResource,
  formatWechatPayTime,
  WechatPayGateway,
  wechatPaySignature,
  wechatPaySignMessage,
  type WechatPayOptions,
} from './wechatpay.js';
import { PaymentGatewayError, PaymentNotifyError, type NotificationRequest } from './provider.js';
import { FakeWechatPay } from './test-fakes.js';

const pem = (key: KeyObject, type: 'pkcs8' | 'spki') => key.export({ format: 'pem', type }) as string;
const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const merchant = pair();
const platform = pair();
const stranger = pair();

const API_V3_KEY = '0123456789abcdef0123456789ABCDEF';
const PLATFORM_SERIAL = 'PUB_KEY_ID_0114232134912410000000000000';
const NOW = new Date('2024-05-20T04:00:00Z');
const NOW_SECONDS = Math.floor(NOW.getTime() / 1000);

const baseOptions: WechatPayOptions = {
  appId: 'wxd678efh567hg6787',
  mchId: '1230000109',
  serialNo: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
  privateKeyPem: pem(merchant.privateKey, 'pkcs8'),
  apiV3Key: API_V3_KEY,
  platformPublicKeyPem: pem(platform.publicKey, 'spki'),
  platformSerialNo: PLATFORM_SERIAL,
  now: () => NOW,
};

const rsaSign = (message: string, key: KeyObject) => createSign('RSA-SHA256').update(message).sign(key, 'base64');
const rsaVerify = (message: string, signature: string, key: KeyObject) =>
  createVerify('RSA-SHA256').update(message).verify(key, signature, 'base64');

function parseAuthorization(header: string) {
  expect(header.startsWith('WECHATPAY2-SHA256-RSA2048 ')).toBe(true);
  const fields: Record<string, string> = {};
  for (const match of header.slice('WECHATPAY2-SHA256-RSA2048 '.length).matchAll(/(\w+)="([^"]*)"/g)) {
    fields[match[1] ?? ''] = match[2] ?? '';
  }
  return fields;
}

function encryptResource(plaintext: string, key = API_V3_KEY, nonce = 'fdasflkja484', associatedData = 'transaction') {
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key), Buffer.from(nonce));
  cipher.setAAD(Buffer.from(associatedData));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return {
    original_type: 'transaction',
    algorithm: 'AEAD_AES_256_GCM',
    ciphertext: ciphertext.toString('base64'),
    associated_data: associatedData,
    nonce,
  };
}

const transaction = (overrides: Record<string, unknown> = {}) => ({
  mchid: '1230000109',
  appid: 'wxd678efh567hg6787',
  out_trade_no: 'rc_0001',
  transaction_id: '1217752501201407033233368018',
  trade_type: 'NATIVE',
  trade_state: 'SUCCESS',
  trade_state_desc: '支付成功',
  bank_type: 'CMC',
  success_time: '2024-05-20T12:00:00+08:00',
  payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
  amount: { total: 10050, payer_total: 10050, currency: 'CNY', payer_currency: 'CNY' },
  ...overrides,
});

function notification(
  options: {
    transaction?: Record<string, unknown>;
    signer?: KeyObject;
    serial?: string;
    timestamp?: number;
    apiV3Key?: string;
    tamper?: (body: string) => string;
  } = {},
): NotificationRequest {
  const body = JSON.stringify({
    id: 'EV-2018022511223320873',
    create_time: '2024-05-20T12:00:01+08:00',
    resource_type: 'encrypt-resource',
    event_type: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: encryptResource(JSON.stringify(options.transaction ?? transaction()), options.apiV3Key),
  });
  const timestamp = String(options.timestamp ?? NOW_SECONDS - 3);
  const nonce = 'fdasfwerqwe234lkjkl';
  const signature = rsaSign(`${timestamp}\n${nonce}\n${body}\n`, options.signer ?? platform.privateKey);
  return {
    headers: {
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-signature': signature,
      'wechatpay-serial': options.serial ?? PLATFORM_SERIAL,
      'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
    },
    rawBody: options.tamper ? options.tamper(body) : body,
  };
}

function signedResponse(body: string, status = 200, signer: KeyObject = platform.privateKey, serial = PLATFORM_SERIAL) {
  const timestamp = String(NOW_SECONDS);
  const nonce = 'responsenonce123';
  return new Response(body, {
    status,
    headers: {
      'Content-Type': 'application/json',
      'Wechatpay-Timestamp': timestamp,
      'Wechatpay-Nonce': nonce,
      'Wechatpay-Signature': rsaSign(`${timestamp}\n${nonce}\n${body}\n`, signer),
      'Wechatpay-Serial': serial,
    },
  });
}

const paymentInput = {
  rechargeId: 'rc_0001',
  amountFen: 10050,
  description: '算力港账户充值',
  notifyUrl: 'https://api.example.cn/api/payments/wechatpay/notify',
  expiresAt: new Date('2024-05-20T04:30:00Z'),
};

describe('WeChat Pay API v3 request signature', () => {
  const input = { method: 'POST', url: '/v3/pay/transactions/native', timestamp: 1554208460, nonce: '593BEC0C930BF1AFEB40B4A08C8FB242', body: '{"a":1}' };

  it('signs method, canonical URL, timestamp, nonce and body, each line ending with \\n', () => {
    expect(wechatPaySignMessage(input)).toBe('POST\n/v3/pay/transactions/native\n1554208460\n593BEC0C930BF1AFEB40B4A08C8FB242\n{"a":1}\n');
    expect(wechatPaySignMessage({ ...input, url: 'https://api.mch.weixin.qq.com/v3/certificates?x=1' })).toContain('\n/v3/certificates?x=1\n');
    const signature = wechatPaySignature(input, merchant.privateKey);
    expect(rsaVerify(wechatPaySignMessage(input), signature, merchant.publicKey)).toBe(true);
    expect(rsaVerify(wechatPaySignMessage(input), signature, stranger.publicKey)).toBe(false);
    for (const changed of [{ method: 'GET' }, { url: '/v3/pay/transactions/jsapi' }, { body: '{"a":2}' }, { timestamp: 1554208461 }, { nonce: 'X' }]) {
      expect(rsaVerify(wechatPaySignMessage({ ...input, ...changed }), signature, merchant.publicKey)).toBe(false);
    }
  });

  it('builds the documented Authorization header', () => {
    const header = buildAuthorization({ ...input, mchId: '1900009191', serialNo: '1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C', privateKey: merchant.privateKey });
    const fields = parseAuthorization(header);
    expect(fields).toMatchObject({
      mchid: '1900009191',
      nonce_str: input.nonce,
      timestamp: '1554208460',
      serial_no: '1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C',
    });
    expect(rsaVerify(wechatPaySignMessage(input), fields.signature ?? '', merchant.publicKey)).toBe(true);
  });

  it('formats time_expire as RFC 3339 in China time', () => {
    expect(formatWechatPayTime(new Date('2024-05-20T16:30:05.123Z'))).toBe('2024-05-21T00:30:05+08:00');
  });
});

describe('WechatPayGateway.createPayment', () => {
  it('posts a signed Native order and returns code_url as the QR code', async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const gateway = new WechatPayGateway({
      ...baseOptions,
      fetchImpl: async (url, init) => {
        calls.push({ url: String(url), init });
        return signedResponse(JSON.stringify({ code_url: 'weixin://wxpay/bizpayurl?pr=p4lpSuKzz' }));
      },
    });
    await expect(gateway.createPayment(paymentInput)).resolves.toEqual({ payUrl: null, qrCode: 'weixin://wxpay/bizpayurl?pr=p4lpSuKzz' });

    const call = calls[0];
    expect(call?.url).toBe('https://api.mch.weixin.qq.com/v3/pay/transactions/native');
    expect(call?.init?.method).toBe('POST');
    const headers = new Headers(call?.init?.headers);
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('accept')).toBe('application/json');
    const body = String(call?.init?.body);
    expect(JSON.parse(body)).toEqual({
      appid: 'wxd678efh567hg6787',
      mchid: '1230000109',
      description: '算力港账户充值',
      out_trade_no: 'rc_0001',
      time_expire: '2024-05-20T12:30:00+08:00',
      notify_url: 'https://api.example.cn/api/payments/wechatpay/notify',
      amount: { total: 10050, currency: 'CNY' },
    });

    const fields = parseAuthorization(headers.get('authorization') ?? '');
    expect(fields.mchid).toBe('1230000109');
    expect(fields.serial_no).toBe(baseOptions.serialNo);
    expect(fields.timestamp).toBe(String(NOW_SECONDS));
    expect(fields.nonce_str).toMatch(/^[0-9A-F]{32}$/);
    const signed = `POST\n/v3/pay/transactions/native\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`;
    expect(rsaVerify(signed, fields.signature ?? '', merchant.publicKey)).toBe(true);
  });

  it('honours baseUrl', async () => {
    const urls: string[] = [];
    const gateway = new WechatPayGateway({
      ...baseOptions,
      baseUrl: 'https://api2.mch.weixin.qq.com/',
      fetchImpl: async (url) => {
        urls.push(String(url));
        return signedResponse(JSON.stringify({ code_url: 'weixin://x' }));
      },
    });
    await gateway.createPayment(paymentInput);
    expect(urls).toEqual(['https://api2.mch.weixin.qq.com/v3/pay/transactions/native']);
  });

  it('turns gateway errors into PaymentGatewayError carrying code and message', async () => {
    const gateway = new WechatPayGateway({
      ...baseOptions,
      fetchImpl: async () =>
        new Response(JSON.stringify({ code: 'PARAM_ERROR', message: '参数错误: time_expire' }), {
          status: 400,
          headers: { 'Content-Type': 'application/json' },
        }),
    });
    const error = await gateway.createPayment(paymentInput).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentGatewayError);
    expect((error as Error).message).toContain('PARAM_ERROR');
    expect((error as Error).message).toContain('参数错误: time_expire');
  });

  it('refuses a success response that is unsigned, signed by another key or under another serial', async () => {
    const body = JSON.stringify({ code_url: 'weixin://wxpay/bizpayurl?pr=forged' });
    const responses = [
      () => new Response(body, { status: 200 }),
      () => signedResponse(body, 200, stranger.privateKey),
      () => signedResponse(body, 200, platform.privateKey, 'PUB_KEY_ID_OTHER'),
    ];
    for (const make of responses) {
      const gateway = new WechatPayGateway({ ...baseOptions, fetchImpl: async () => make() });
      await expect(gateway.createPayment(paymentInput)).rejects.toBeInstanceOf(PaymentGatewayError);
    }
  });

  it('wraps network failures', async () => {
    const gateway = new WechatPayGateway({
      ...baseOptions,
      fetchImpl: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(gateway.createPayment(paymentInput)).rejects.toThrow(PaymentGatewayError);
  });
});

describe('WechatPayGateway.verifyNotification', () => {
  const gateway = new WechatPayGateway(baseOptions);

  it('verifies and decrypts a genuine notification into the payment facts', async () => {
    await expect(gateway.verifyNotification(notification())).resolves.toEqual({
      rechargeId: 'rc_0001',
      amountFen: 10050,
      providerTradeNo: '1217752501201407033233368018',
      succeeded: true,
      closed: false,
    });
  });

  it('reads headers case-insensitively and from arrays', async () => {
    const request = notification();
    const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key.replace(/^w/, 'W'), [String(value)]]));
    await expect(gateway.verifyNotification({ headers, rawBody: request.rawBody })).resolves.toMatchObject({ succeeded: true });
  });

  it('accepts any serial when platformSerialNo is not configured', async () => {
    const lenient = new WechatPayGateway({ ...baseOptions, platformSerialNo: undefined });
    await expect(lenient.verifyNotification(notification({ serial: 'ANY' }))).resolves.toMatchObject({ succeeded: true });
  });

  it('reports a non-success trade state as not succeeded', async () => {
    const request = notification({ transaction: transaction({ trade_state: 'NOTPAY', transaction_id: undefined }) });
    await expect(gateway.verifyNotification(request)).resolves.toMatchObject({ succeeded: false, closed: false, rechargeId: 'rc_0001' });
    const closed = notification({ transaction: transaction({ trade_state: 'CLOSED', transaction_id: undefined }) });
    await expect(gateway.verifyNotification(closed)).resolves.toMatchObject({ succeeded: false, closed: true });
  });

  const rejected: [string, () => NotificationRequest][] = [
    ['a tampered body', () => notification({ tamper: (body) => body.replace('支付成功', '支付失败') })],
    ['a signature by another key', () => notification({ signer: stranger.privateKey })],
    ['a wrong platform serial', () => notification({ serial: 'PUB_KEY_ID_SOMEONE_ELSE' })],
    ['a timestamp six minutes old', () => notification({ timestamp: NOW_SECONDS - 360 })],
    ['a timestamp six minutes ahead', () => notification({ timestamp: NOW_SECONDS + 360 })],
    ['a resource encrypted with another APIv3 key', () => notification({ apiV3Key: 'ffffffffffffffffffffffffffffffff' })],
    ['another merchant', () => notification({ transaction: transaction({ mchid: '1900000001' }) })],
    ['another appid', () => notification({ transaction: transaction({ appid: 'wx0000000000000000' }) })],
    ['a foreign currency', () => notification({ transaction: transaction({ amount: { total: 10050, currency: 'USD' } }) })],
    ['a fractional amount', () => notification({ transaction: transaction({ amount: { total: 100.5, currency: 'CNY' } }) })],
    ['a missing signature header', () => {
      const request = notification();
      return { ...request, headers: { ...request.headers, 'wechatpay-signature': undefined } };
    }],
  ];
  it.each(rejected)('rejects %s with PaymentNotifyError', async (_label, make) => {
    const error = await gateway.verifyNotification(make()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentNotifyError);
    expect((error as Error).message).toMatch(/[\u4e00-\u9fa5]/);
  });

  it('decrypts resources with the documented AEAD layout', () => {
    const resource = encryptResource('{"hello":"世界"}', API_V3_KEY, 'abcdefghijkl', 'certificate');
    expect(decryptWechatPayResource(resource, API_V3_KEY)).toBe('{"hello":"世界"}');
    expect(() => decryptWechatPayResource({ ...resource, associated_data: 'transaction' }, API_V3_KEY)).toThrow();
  });

  it('refuses an APIv3 key that is not 32 bytes', () => {
    expect(() => new WechatPayGateway({ ...baseOptions, apiV3Key: 'short' })).toThrow();
  });
});

describe('WechatPayGateway.acknowledge', () => {
  it('answers in the JSON WeChat Pay expects', () => {
    const gateway = new WechatPayGateway(baseOptions);
    expect(gateway.acknowledge(true)).toEqual({ status: 200, contentType: 'application/json', body: '{"code":"SUCCESS","message":"成功"}' });
    expect(gateway.acknowledge(false)).toEqual({ status: 400, contentType: 'application/json', body: '{"code":"FAIL","message":"失败"}' });
  });
});

describe('WechatPayGateway.closePayment and queryPayment', () => {
  const fakeWith = () => {
    const fake = new FakeWechatPay(() => NOW);
    return { fake, gateway: new WechatPayGateway(fake.options) };
  };
  const order = async (gateway: WechatPayGateway, rechargeId = 'RC20260601100000123456') => {
    await gateway.createPayment({ ...paymentInput, rechargeId });
    return rechargeId;
  };

  it('closes an unpaid trade with a signed POST …/out-trade-no/{no}/close carrying mchid, and answers CLOSED again on a repeat', async () => {
    const { fake, gateway } = fakeWith();
    const id = await order(gateway);
    await expect(gateway.closePayment(id)).resolves.toBe('CLOSED');
    const [close] = fake.requestsTo('/close');
    expect(close).toEqual({ method: 'POST', path: `/v3/pay/transactions/out-trade-no/${id}/close`, body: '{"mchid":"1900000109"}' });
    expect(fake.stateOf(id)).toBe('CLOSED');
    expect(fake.pay(id)).toBe(false);
    await expect(gateway.closePayment(id)).resolves.toBe('CLOSED');
  });

  it('answers PAID when the payer paid first (ORDERPAID), and the query returns the verified transaction', async () => {
    const { fake, gateway } = fakeWith();
    const id = await order(gateway);
    fake.pay(id);
    await expect(gateway.closePayment(id)).resolves.toBe('PAID');
    expect(fake.stateOf(id)).toBe('SUCCESS');
    const facts = await gateway.queryPayment(id);
    expect(facts).toEqual({ rechargeId: id, amountFen: 10050, providerTradeNo: expect.stringMatching(/^42000/), succeeded: true, closed: false });
    expect(fake.requestsTo('?mchid=')[0]).toMatchObject({ method: 'GET', path: `/v3/pay/transactions/out-trade-no/${id}?mchid=1900000109`, body: '' });
  });

  it('reports an unpaid trade as neither succeeded nor closed, and a closed one as closed', async () => {
    const { gateway } = fakeWith();
    const id = await order(gateway);
    await expect(gateway.queryPayment(id)).resolves.toMatchObject({ succeeded: false, closed: false });
    await gateway.closePayment(id);
    await expect(gateway.queryPayment(id)).resolves.toMatchObject({ succeeded: false, closed: true });
  });

  it('refuses to act on an unreachable gateway, a system error, USER_PAYING, or an unsigned or forged answer', async () => {
    const { fake, gateway } = fakeWith();
    const id = await order(gateway);
    fake.down = true;
    await expect(gateway.closePayment(id)).rejects.toBeInstanceOf(PaymentGatewayError);
    await expect(gateway.queryPayment(id)).rejects.toBeInstanceOf(PaymentGatewayError);
    expect(fake.stateOf(id)).toBe('NOTPAY');

    const answers: (() => Response)[] = [
      () => new Response(JSON.stringify({ code: 'SYSTEM_ERROR', message: '系统错误' }), { status: 500 }),
      () => new Response(JSON.stringify({ code: 'USER_PAYING', message: '用户支付中' }), { status: 202 }),
      () => new Response(null, { status: 204 }),
      () => {
        const forged = signedResponse('', 204, stranger.privateKey);
        return new Response(null, { status: 204, headers: forged.headers });
      },
    ];
    for (const answer of answers) {
      const strict = new WechatPayGateway({ ...baseOptions, fetchImpl: async () => answer() });
      await expect(strict.closePayment('RC1')).rejects.toBeInstanceOf(PaymentGatewayError);
    }
    const forgedQuery = new WechatPayGateway({ ...baseOptions, fetchImpl: async () => signedResponse(JSON.stringify(transaction()), 200, stranger.privateKey) });
    await expect(forgedQuery.queryPayment('rc_0001')).rejects.toBeInstanceOf(PaymentGatewayError);
    const otherOrder = new WechatPayGateway({ ...baseOptions, fetchImpl: async () => signedResponse(JSON.stringify(transaction())) });
    await expect(otherOrder.queryPayment('rc_0002')).rejects.toThrow('商户订单号不匹配');
  });
});
