/**
 * Fake WeChat Pay and Alipay servers for tests (imported by *.test.ts only): each is a `fetch` that
 * answers the documented endpoints the way the real service does (signed answers, its own trade state,
 * ORDERPAID / ACQ.TRADE_STATUS_ERROR after payment, ACQ.TRADE_NOT_EXIST for an Alipay code nobody
 * scanned), checks our request signatures, and produces signed payment notifications.
 */
import { createCipheriv, createSign, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { alipaySignContent, type AlipayOptions, fenToYuan } from './alipay.js';
import type { NotificationRequest } from './provider.js';
import { wechatPaySignMessage, type WechatPayOptions } from './wechatpay.js';

const pem = (key: KeyObject, type: 'pkcs8' | 'spki') => key.export({ format: 'pem', type }) as string;
const rsaSign = (message: string, key: KeyObject) => createSign('RSA-SHA256').update(message, 'utf8').sign(key, 'base64');
const rsaVerify = (message: string, signature: string, key: KeyObject) => {
  try {
    return createVerify('RSA-SHA256').update(message, 'utf8').verify(key, signature, 'base64');
  } catch {
    return false;
  }
};

/** What every fake lets a test do to its network. */
abstract class FakeNetwork {
  /** Requests as received: method, path (with query) and body. */
  readonly requests: { method: string; path: string; body: string }[] = [];
  /** While true, every request fails like an unreachable host. */
  down = false;

  readonly fetch: typeof fetch = async (input, init) => {
    if (this.down) throw new TypeError('fetch failed: connect ECONNREFUSED');
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? init.body : '';
    this.requests.push({ method, path: `${url.pathname}${url.search}`, body });
    return this.answer(method, url, body, new Headers(init?.headers));
  };

  protected abstract answer(method: string, url: URL, body: string, headers: Headers): Response;

  /** Requests whose path contains `part`. */
  requestsTo(part: string) {
    return this.requests.filter((request) => request.path.includes(part));
  }
}

type WechatTradeState = 'NOTPAY' | 'SUCCESS' | 'CLOSED';

/** WeChat Pay API v3 (Native): 下单, 关闭订单, 查询订单, and the payer's side. */
export class FakeWechatPay extends FakeNetwork {
  private readonly merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
  private readonly platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
  private readonly trades = new Map<string, { amountFen: number; state: WechatTradeState; transactionId: string }>();
  readonly apiV3Key = randomBytes(16).toString('hex');
  readonly options: WechatPayOptions;

  constructor(private readonly now: () => Date) {
    super();
    this.options = {
      appId: 'wx8888888888888888',
      mchId: '1900000109',
      serialNo: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
      privateKeyPem: pem(this.merchant.privateKey, 'pkcs8'),
      apiV3Key: this.apiV3Key,
      platformPublicKeyPem: pem(this.platform.publicKey, 'spki'),
      platformSerialNo: 'PUB_KEY_ID_0119000001092025000000000000',
      baseUrl: 'https://api.mch.weixin.test',
      fetchImpl: this.fetch,
      now,
    };
  }

  stateOf(rechargeId: string): WechatTradeState | undefined {
    return this.trades.get(rechargeId)?.state;
  }

  /** The payer scans and pays: the trade becomes SUCCESS unless it was closed. The notification is not sent (see `notification`). */
  pay(rechargeId: string): boolean {
    const trade = this.trades.get(rechargeId);
    if (!trade || trade.state !== 'NOTPAY') return trade?.state === 'SUCCESS';
    trade.state = 'SUCCESS';
    return true;
  }

  /** The signed, encrypted notification of the trade's current state, as WeChat Pay posts it. */
  notification(rechargeId: string): NotificationRequest {
    const timestamp = String(Math.floor(this.now().getTime() / 1000));
    const nonce = randomBytes(8).toString('hex');
    const cipherNonce = randomBytes(6).toString('hex');
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(this.apiV3Key), Buffer.from(cipherNonce));
    cipher.setAAD(Buffer.from('transaction'));
    const plaintext = JSON.stringify(this.transaction(rechargeId));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64');
    const body = JSON.stringify({
      id: `EV-${randomBytes(8).toString('hex')}`,
      create_time: this.now().toISOString(),
      resource_type: 'encrypt-resource',
      event_type: 'TRANSACTION.SUCCESS',
      summary: '支付成功',
      resource: { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: 'transaction', nonce: cipherNonce },
    });
    return {
      headers: {
        'content-type': 'application/json',
        'wechatpay-timestamp': timestamp,
        'wechatpay-nonce': nonce,
        'wechatpay-signature': rsaSign(`${timestamp}\n${nonce}\n${body}\n`, this.platform.privateKey),
        'wechatpay-serial': this.options.platformSerialNo ?? '',
      },
      rawBody: body,
    };
  }

  private transaction(rechargeId: string) {
    const trade = this.trades.get(rechargeId);
    if (!trade) throw new Error(`no fake WeChat trade ${rechargeId}`);
    return {
      mchid: this.options.mchId,
      appid: this.options.appId,
      out_trade_no: rechargeId,
      ...(trade.state === 'SUCCESS' ? { transaction_id: trade.transactionId, success_time: this.now().toISOString() } : {}),
      trade_type: 'NATIVE',
      trade_state: trade.state,
      trade_state_desc: { NOTPAY: '未支付', SUCCESS: '支付成功', CLOSED: '订单已关闭' }[trade.state],
      amount: { total: trade.amountFen, payer_total: trade.amountFen, currency: 'CNY', payer_currency: 'CNY' },
    };
  }

  private signed(status: number, body: string): Response {
    const timestamp = String(Math.floor(this.now().getTime() / 1000));
    const nonce = randomBytes(8).toString('hex');
    return new Response(status === 204 ? null : body, {
      status,
      headers: {
        'Content-Type': 'application/json',
        'Wechatpay-Timestamp': timestamp,
        'Wechatpay-Nonce': nonce,
        'Wechatpay-Signature': rsaSign(`${timestamp}\n${nonce}\n${body}\n`, this.platform.privateKey),
        'Wechatpay-Serial': this.options.platformSerialNo ?? '',
      },
    });
  }

  private error(status: number, code: string, message: string): Response {
    return this.signed(status, JSON.stringify({ code, message }));
  }

  protected answer(method: string, url: URL, body: string, headers: Headers): Response {
    const fields = Object.fromEntries(
      [...(headers.get('authorization') ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1] ?? '', match[2] ?? '']),
    );
    const message = wechatPaySignMessage({ method, url: `${url.pathname}${url.search}`, timestamp: fields.timestamp ?? '', nonce: fields.nonce_str ?? '', body });
    if (fields.mchid !== this.options.mchId || !rsaVerify(message, fields.signature ?? '', this.merchant.publicKey)) {
      return this.error(401, 'SIGN_ERROR', '签名错误');
    }
    const path = url.pathname;
    if (method === 'POST' && path === '/v3/pay/transactions/native') {
      const order = JSON.parse(body) as { out_trade_no: string; amount: { total: number } };
      this.trades.set(order.out_trade_no, { amountFen: order.amount.total, state: 'NOTPAY', transactionId: `42000${randomBytes(10).toString('hex')}` });
      return this.signed(200, JSON.stringify({ code_url: `weixin://wxpay/bizpayurl?pr=${order.out_trade_no}` }));
    }
    const close = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(path);
    if (method === 'POST' && close) {
      if ((JSON.parse(body) as { mchid?: string }).mchid !== this.options.mchId) return this.error(400, 'PARAM_ERROR', '商户号不正确');
      const trade = this.trades.get(decodeURIComponent(close[1] ?? ''));
      if (!trade) return this.error(404, 'ORDER_NOT_EXIST', '订单不存在');
      if (trade.state === 'SUCCESS') return this.error(400, 'ORDERPAID', '订单已支付');
      trade.state = 'CLOSED';
      return this.signed(204, '');
    }
    const query = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(path);
    if (method === 'GET' && query) {
      if (url.searchParams.get('mchid') !== this.options.mchId) return this.error(400, 'PARAM_ERROR', '商户号不正确');
      const rechargeId = decodeURIComponent(query[1] ?? '');
      if (!this.trades.has(rechargeId)) return this.error(404, 'ORDER_NOT_EXIST', '订单不存在');
      return this.signed(200, JSON.stringify(this.transaction(rechargeId)));
    }
    return this.error(404, 'NOT_FOUND', '接口不存在');
  }
}

type AlipayTradeStatus = 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';

/** Alipay OpenAPI (当面付): precreate, close, query, and the payer's side (scan, pay). */
export class FakeAlipay extends FakeNetwork {
  private readonly app = generateKeyPairSync('rsa', { modulusLength: 2048 });
  private readonly alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
  /** Codes handed out: a trade exists at Alipay only once the payer scans one. */
  private readonly precreated = new Map<string, number>();
  private readonly trades = new Map<string, { amountFen: number; status: AlipayTradeStatus; tradeNo: string }>();
  readonly options: AlipayOptions;

  constructor(private readonly now: () => Date) {
    super();
    this.options = {
      appId: '2021000000000001',
      privateKeyPem: pem(this.app.privateKey, 'pkcs8'),
      alipayPublicKeyPem: pem(this.alipay.publicKey, 'spki'),
      gateway: 'https://openapi.alipay.test/gateway.do',
      fetchImpl: this.fetch,
      now,
    };
  }

  statusOf(rechargeId: string): AlipayTradeStatus | undefined {
    return this.trades.get(rechargeId)?.status;
  }

  /** The payer scans the code: the trade now exists, waiting for payment. */
  scan(rechargeId: string): void {
    const amountFen = this.precreated.get(rechargeId);
    if (amountFen === undefined) throw new Error(`no fake Alipay code ${rechargeId}`);
    if (!this.trades.has(rechargeId)) this.trades.set(rechargeId, { amountFen, status: 'WAIT_BUYER_PAY', tradeNo: `2026${randomBytes(10).toString('hex')}` });
  }

  /** The payer scans (if not yet) and pays: TRADE_SUCCESS unless the trade was closed. */
  pay(rechargeId: string): boolean {
    this.scan(rechargeId);
    const trade = this.trades.get(rechargeId);
    if (!trade || trade.status === 'TRADE_CLOSED') return false;
    trade.status = 'TRADE_SUCCESS';
    return true;
  }

  /** The signed asynchronous notification of the trade's current state (form-encoded). */
  notification(rechargeId: string): NotificationRequest {
    const trade = this.trades.get(rechargeId);
    if (!trade) throw new Error(`no fake Alipay trade ${rechargeId}`);
    const params: Record<string, string> = {
      notify_time: '2026-06-01 10:00:00',
      notify_type: 'trade_status_sync',
      notify_id: randomBytes(8).toString('hex'),
      app_id: this.options.appId,
      charset: 'utf-8',
      version: '1.0',
      trade_no: trade.tradeNo,
      out_trade_no: rechargeId,
      trade_status: trade.status,
      total_amount: fenToYuan(trade.amountFen),
      seller_id: '2088101117955611',
    };
    const sign = rsaSign(alipaySignContent(params, { exclude: ['sign', 'sign_type'], skipEmpty: false }), this.alipay.privateKey);
    return {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: new URLSearchParams({ ...params, sign, sign_type: 'RSA2' }).toString(),
    };
  }

  private reply(method: string, node: Record<string, string>): Response {
    const nodeText = JSON.stringify(node);
    return new Response(`{"${method.replace(/\./g, '_')}_response":${nodeText},"sign":"${rsaSign(nodeText, this.alipay.privateKey)}"}`, {
      headers: { 'Content-Type': 'text/html;charset=utf-8' },
    });
  }

  private failed(method: string, subCode: string, subMsg: string): Response {
    return this.reply(method, { code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg });
  }

  protected answer(_method: string, url: URL, body: string): Response {
    const params: Record<string, string> = Object.fromEntries([...url.searchParams, ...new URLSearchParams(body)]);
    const { sign = '', ...unsigned } = params;
    if (params.app_id !== this.options.appId || !rsaVerify(alipaySignContent(unsigned), sign, this.app.publicKey)) {
      return new Response(JSON.stringify({ error_response: { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: '验签出错' } }));
    }
    const method = params.method ?? '';
    const biz = JSON.parse(params.biz_content ?? '{}') as { out_trade_no: string; total_amount?: string };
    const trade = this.trades.get(biz.out_trade_no);
    if (method === 'alipay.trade.precreate') {
      const [yuan = '0', cents = ''] = (biz.total_amount ?? '0').split('.');
      this.precreated.set(biz.out_trade_no, Number(yuan) * 100 + Number(cents.padEnd(2, '0')));
      return this.reply(method, { code: '10000', msg: 'Success', out_trade_no: biz.out_trade_no, qr_code: `https://qr.alipay.com/${biz.out_trade_no}` });
    }
    if (method === 'alipay.trade.close') {
      if (!trade) return this.failed(method, 'ACQ.TRADE_NOT_EXIST', '交易不存在');
      if (trade.status !== 'WAIT_BUYER_PAY') return this.failed(method, 'ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
      trade.status = 'TRADE_CLOSED';
      return this.reply(method, { code: '10000', msg: 'Success', out_trade_no: biz.out_trade_no, trade_no: trade.tradeNo });
    }
    if (method === 'alipay.trade.query') {
      if (!trade) return this.failed(method, 'ACQ.TRADE_NOT_EXIST', '交易不存在');
      return this.reply(method, {
        code: '10000',
        msg: 'Success',
        out_trade_no: biz.out_trade_no,
        trade_no: trade.tradeNo,
        trade_status: trade.status,
        total_amount: fenToYuan(trade.amountFen),
        buyer_logon_id: '159****5620',
      });
    }
    return new Response(JSON.stringify({ error_response: { code: '40004', msg: 'Business Failed', sub_code: 'isv.invalid-method', sub_msg: '不存在的方法名' } }));
  }
}
