/**
 * Payment notifications that carry a valid signature but absurd content (huge, negative or fractional
 * amounts, ids of the wrong shape, missing fields, NUL, lone surrogates, JSON that is not an object):
 * every gateway's notify path answers with that gateway's failure acknowledgement, never a 5xx, and
 * credits nothing.
 */
import { createCipheriv, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recharges, wallets } from '../src/db/schema/index.js';
import { SANDBOX_SIGNATURE_HEADER, type SandboxGateway } from '../src/providers/payments/sandbox.js';
import { alipayNotificationBody, rsaSign } from '../src/providers/payments/test-fakes.js';
import { newRechargeId } from '../src/modules/billing/numbers.js';
import { unbalancedTransactions, walletsOutOfBalance } from '../src/modules/billing/ledger.js';
import { createTestApp, registerUser, type TestApp } from './helpers.js';

const pem = (key: KeyObject, type: 'pkcs8' | 'spki') => key.export({ format: 'pem', type }) as string;

const merchantKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const wechatPlatform = generateKeyPairSync('rsa', { modulusLength: 2048 });
const alipayApp = generateKeyPairSync('rsa', { modulusLength: 2048 });
const alipayPlatform = generateKeyPairSync('rsa', { modulusLength: 2048 });
const WECHAT = { appId: 'wx8888888888888888', mchId: '1900000109', apiV3Key: randomBytes(16).toString('hex'), serial: 'PUB_KEY_ID_0119000001092025000000000000' };
const ALIPAY_APP_ID = '2021000000000001';

const AMOUNT_FEN = 10_000;

/** A WeChat Pay v3 notification around any transaction object, signed and encrypted as WeChat does. */
function wechatNotification(transaction: unknown, tamper: { rawPlaintext?: string } = {}) {
  const cipherNonce = randomBytes(6).toString('hex');
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(WECHAT.apiV3Key), Buffer.from(cipherNonce));
  cipher.setAAD(Buffer.from('transaction'));
  const plaintext = tamper.rawPlaintext ?? JSON.stringify(transaction);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64');
  const body = JSON.stringify({
    id: 'EV-1',
    create_time: new Date().toISOString(),
    resource_type: 'encrypt-resource',
    event_type: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: 'transaction', nonce: cipherNonce },
  });
  return signedWechatBody(body);
}

function signedWechatBody(body: string) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(8).toString('hex');
  return {
    headers: {
      'content-type': 'application/json',
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-signature': rsaSign(`${timestamp}\n${nonce}\n${body}\n`, wechatPlatform.privateKey),
      'wechatpay-serial': WECHAT.serial,
    },
    payload: body,
  };
}

function alipayNotification(params: Record<string, string>) {
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    payload: alipayNotificationBody(params, alipayPlatform.privateKey),
  };
}

describe('validly signed payment notifications with absurd content', () => {
  let test: TestApp;
  let walletId: number;
  const rechargeOf: Record<'sandbox' | 'wechatpay' | 'alipay', string> = { sandbox: '', wechatpay: '', alipay: '' };

  beforeAll(async () => {
    test = await createTestApp({
      env: {
        PAYMENT_PROVIDERS: 'sandbox,wechatpay,alipay',
        WECHATPAY_APP_ID: WECHAT.appId,
        WECHATPAY_MCH_ID: WECHAT.mchId,
        WECHATPAY_SERIAL_NO: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
        WECHATPAY_PRIVATE_KEY: pem(merchantKeys.privateKey, 'pkcs8'),
        WECHATPAY_API_V3_KEY: WECHAT.apiV3Key,
        WECHATPAY_PLATFORM_PUBLIC_KEY: pem(wechatPlatform.publicKey, 'spki'),
        WECHATPAY_PLATFORM_SERIAL_NO: WECHAT.serial,
        ALIPAY_APP_ID: ALIPAY_APP_ID,
        ALIPAY_PRIVATE_KEY: pem(alipayApp.privateKey, 'pkcs8'),
        ALIPAY_PUBLIC_KEY: pem(alipayPlatform.publicKey, 'spki'),
      },
    });
    const user = await registerUser(test);
    const [wallet] = await test.deps.database.db.select().from(wallets);
    if (!wallet) throw new Error('no wallet');
    walletId = wallet.accountId;
    // One open recharge per gateway, as if the payer had just been shown its QR code.
    for (const [provider, channel] of [['sandbox', 'WXPAY'], ['wechatpay', 'WXPAY'], ['alipay', 'ALIPAY']] as const) {
      const id = newRechargeId(test.deps.now());
      await test.deps.database.db.insert(recharges).values({
        id,
        ownerId: walletId,
        creatorId: walletId,
        walletId,
        amountFen: AMOUNT_FEN,
        channel,
        provider,
        status: 'CREATED',
        createdAt: test.deps.now(),
      });
      rechargeOf[provider] = id;
    }
    expect(user.telephone).toBeTruthy();
  });

  afterAll(async () => {
    await test?.close();
  });

  async function post(provider: string, request: { headers: Record<string, string>; payload: string | Buffer }) {
    return test.app.inject({ method: 'POST', url: `/api/v1/payment/notify/${provider}`, headers: request.headers, payload: request.payload });
  }

  async function expectNothingCredited() {
    const db = test.deps.database.db;
    const rows = await db.select({ id: recharges.id, status: recharges.status }).from(recharges);
    expect(rows.every((row) => row.status === 'CREATED')).toBe(true);
    const [wallet] = await db.select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, walletId));
    expect(wallet?.balance).toBe(0);
    expect(await walletsOutOfBalance(db)).toEqual([]);
    expect(await unbalancedTransactions(db)).toEqual([]);
  }

  it('sandbox: answers {"code":"FAIL"} with 400 and credits nothing', async () => {
    const gateway = test.deps.payments.get('sandbox') as unknown as SandboxGateway;
    const id = rechargeOf.sandbox;
    const valid = { rechargeId: id, amountFen: AMOUNT_FEN, tradeNo: 'SANDBOX123', status: 'SUCCESS', nonce: 'n' };
    const absurd: unknown[] = [
      { ...valid, amountFen: -AMOUNT_FEN },
      { ...valid, amountFen: 0 },
      { ...valid, amountFen: AMOUNT_FEN + 0.5 },
      { ...valid, amountFen: 1e300 },
      { ...valid, amountFen: Number.MAX_SAFE_INTEGER },
      { ...valid, amountFen: String(AMOUNT_FEN) },
      { ...valid, rechargeId: `${id}\u0000` },
      { ...valid, rechargeId: '\ud800' },
      { ...valid, rechargeId: 'x'.repeat(100_000) },
      { ...valid, rechargeId: '../../etc/passwd' },
      { ...valid, rechargeId: 12345 },
      { ...valid, tradeNo: 'T\u0000' },
      { ...valid, tradeNo: 'T'.repeat(10_000) },
      { ...valid, tradeNo: '\udc00' },
      { ...valid, tradeNo: undefined },
      { rechargeId: id },
      {},
      null,
      [],
      'SUCCESS',
      12,
      [valid],
    ];
    const bodies = [...absurd.map((value) => JSON.stringify(value)), '', 'not json', '\u0000', `${'['.repeat(5000)}${']'.repeat(5000)}`];
    for (const body of bodies) {
      const response = await post('sandbox', { headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: gateway.sign(body) }, payload: body });
      expect(response.statusCode, body.slice(0, 80)).toBe(400);
      expect(response.json()).toEqual({ code: 'FAIL' });
    }
    await expectNothingCredited();
  });

  it('WeChat Pay: answers {"code":"FAIL"} with 400 and credits nothing', async () => {
    const id = rechargeOf.wechatpay;
    const valid = {
      mchid: WECHAT.mchId,
      appid: WECHAT.appId,
      out_trade_no: id,
      transaction_id: '4200000000000000000000000001',
      trade_type: 'NATIVE',
      trade_state: 'SUCCESS',
      amount: { total: AMOUNT_FEN, payer_total: AMOUNT_FEN, currency: 'CNY', payer_currency: 'CNY' },
    };
    const absurd: unknown[] = [
      { ...valid, amount: { ...valid.amount, total: -AMOUNT_FEN } },
      { ...valid, amount: { ...valid.amount, total: 1e300 } },
      { ...valid, amount: { ...valid.amount, total: AMOUNT_FEN + 0.5 } },
      { ...valid, amount: { ...valid.amount, total: String(AMOUNT_FEN) } },
      { ...valid, amount: null },
      { ...valid, amount: undefined },
      { ...valid, out_trade_no: `${id}\u0000` },
      { ...valid, out_trade_no: 'x'.repeat(100_000) },
      { ...valid, out_trade_no: '\ud800' },
      { ...valid, out_trade_no: ['RC'] },
      { ...valid, transaction_id: 'T\u0000' },
      { ...valid, transaction_id: 'T'.repeat(10_000) },
      { ...valid, transaction_id: '\udc00' },
      { ...valid, trade_state: { $ne: 1 } },
      { ...valid, trade_state: undefined },
      {},
      null,
      [],
      'SUCCESS',
    ];
    const requests = [
      ...absurd.map((transaction) => wechatNotification(transaction)),
      wechatNotification(null, { rawPlaintext: 'not json' }),
      wechatNotification(null, { rawPlaintext: `${'['.repeat(5000)}${']'.repeat(5000)}` }),
      signedWechatBody('null'),
      signedWechatBody('[]'),
      signedWechatBody('{"resource":null}'),
      signedWechatBody('{"resource":{"ciphertext":"\\u0000","nonce":"\\ud800","algorithm":"AEAD_AES_256_GCM"}}'),
      signedWechatBody(''),
    ];
    for (const request of requests) {
      const response = await post('wechatpay', request);
      expect(response.statusCode, request.payload.slice(0, 80)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'FAIL' });
    }
    await expectNothingCredited();
  });

  it('Alipay: answers "failure" and credits nothing', async () => {
    const id = rechargeOf.alipay;
    const valid: Record<string, string> = {
      app_id: ALIPAY_APP_ID,
      out_trade_no: id,
      trade_no: '2026060122001404330501234567',
      trade_status: 'TRADE_SUCCESS',
      total_amount: '100.00',
      notify_time: '2026-06-01 10:00:00',
    };
    const absurd: Record<string, string>[] = [
      { ...valid, total_amount: '-100.00' },
      { ...valid, total_amount: '0.00' },
      { ...valid, total_amount: '100.001' },
      { ...valid, total_amount: '1e3' },
      { ...valid, total_amount: '99999999999999999999999.99' },
      { ...valid, total_amount: 'NaN' },
      { ...valid, total_amount: '' },
      { ...valid, out_trade_no: `${id}\u0000` },
      { ...valid, out_trade_no: 'x'.repeat(50_000) },
      { ...valid, out_trade_no: '\ud800' },
      { ...valid, trade_no: 'T\u0000' },
      { ...valid, trade_no: 'T'.repeat(10_000) },
      { ...valid, trade_status: '' },
      Object.fromEntries(Object.entries(valid).filter(([key]) => key !== 'total_amount')),
      Object.fromEntries(Object.entries(valid).filter(([key]) => key !== 'out_trade_no')),
      { app_id: ALIPAY_APP_ID },
    ];
    for (const params of absurd) {
      const response = await post('alipay', alipayNotification(params));
      expect(response.statusCode, JSON.stringify(params).slice(0, 80)).toBe(200);
      expect(response.body).toBe('failure');
    }
    // A body that is not a form at all, and bytes that are not UTF-8.
    for (const payload of ['\u0000', '%ED%A0%80=%00', Buffer.from([0xff, 0xfe, 0x00])]) {
      const response = await post('alipay', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('failure');
    }
    await expectNothingCredited();
  });
});
