/**
 * TEST DOUBLES (imported by tests only). Each class here is a local HTTP server standing in for a real
 * gateway — WeChat Pay API v3, Alipay OpenAPI — so that the official SDKs' own code runs end to end: they
 * sign, send over HTTP and verify the answers exactly as they would against the real service. A double
 * checks the request signatures, keeps its own trade state the way the documented endpoints describe
 * (ORDERPAID / ACQ.TRADE_STATUS_ERROR after payment, ACQ.TRADE_NOT_EXIST for an Alipay code nobody
 * scanned), answers with the documented bodies signed by its own platform key, and produces signed
 * payment notifications. Keys are generated per double the way the providers' key tools do (RSA 2048).
 */
import { createCipheriv, createSign, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AlipayOptions, fenToYuan } from './alipay.js';
import type { NotificationRequest } from './provider.js';
import type { WechatPayOptions } from './wechatpay.js';

const pem = (key: KeyObject, type: 'pkcs8' | 'spki') => key.export({ format: 'pem', type }) as string;
export const rsaSign = (message: string, key: KeyObject) => createSign('RSA-SHA256').update(message, 'utf8').sign(key, 'base64');
export const rsaVerify = (message: string, signature: string, key: KeyObject) => {
  try {
    return createVerify('RSA-SHA256').update(message, 'utf8').verify(key, signature, 'base64');
  } catch {
    return false;
  }
};

/** A request as the double received it. */
export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface DoubleAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * A local HTTP server answering like a gateway. Listening without a host is the one form of `listen`
 * whose port is known at once, and tests build gateways from a double's options synchronously; every
 * connection that does not come from this machine is dropped on arrival.
 */
export abstract class LocalGatewayDouble {
  /** Requests as received: method, path (with query) and body. */
  readonly requests: { method: string; path: string; body: string }[] = [];
  /** While true, every connection is cut like an unreachable host's. */
  down = false;
  /** While set, answers every request in place of the gateway's own logic (a test's scripted answer). */
  script: ((request: ReceivedRequest) => DoubleAnswer) | undefined;
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  private readonly server: Server;

  constructor() {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.on('connection', (socket) => {
      if (this.down || !LOOPBACK.has(socket.remoteAddress ?? '')) socket.destroy();
    });
    this.server.listen(0);
    this.server.unref();
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('test double did not bind a port');
    this.origin = `http://127.0.0.1:${address.port}`;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    // A connection kept alive from before `down` was set is cut here.
    if (this.down) {
      request.socket.destroy();
      return;
    }
    const received: ReceivedRequest = {
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      headers: request.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    this.requests.push({ method: received.method, path: received.path, body: received.body });
    let answer: DoubleAnswer;
    try {
      answer = this.script ? this.script(received) : this.answer(received);
    } catch (error) {
      answer = { status: 500, body: `test double failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body ?? '');
  }

  protected abstract answer(request: ReceivedRequest): DoubleAnswer;

  /** Requests whose path contains `part`. */
  requestsTo(part: string) {
    return this.requests.filter((request) => request.path.includes(part));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

type WechatTradeState = 'NOTPAY' | 'SUCCESS' | 'CLOSED';

/** The fields of `Authorization: WECHATPAY2-SHA256-RSA2048 k="v",…`. */
function authorizationFields(header: string | undefined): Record<string, string> {
  return Object.fromEntries([...(header ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1] ?? '', match[2] ?? '']));
}

/** WeChat Pay API v3 (Native): 下单, 关闭订单, 查询订单, and the payer's side. */
export class FakeWechatPay extends LocalGatewayDouble {
  /** The merchant's API key pair (apiclient_key.pem): the gateway signs with its private half, the double checks with the public one. */
  readonly merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
  /** The platform's key (微信支付公钥): signs answers and notifications. */
  readonly platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
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
      baseUrl: this.origin,
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

  /** The signed, encrypted notification of the trade's current state, as WeChat Pay posts it (支付成功通知). */
  notification(rechargeId: string): NotificationRequest {
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
    const { headers } = this.signedAnswer(200, body, { timestamp: Math.floor(this.now().getTime() / 1000) });
    return {
      headers: Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
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

  /**
   * An answer signed the way WeChat Pay signs its answers (`Wechatpay-*` headers over timestamp, nonce
   * and body). The timestamp is the real clock's by default: SDKs refuse answers more than 5 minutes off theirs.
   */
  signedAnswer(
    status: number,
    body: string,
    options: { signer?: KeyObject; serial?: string; timestamp?: number } = {},
  ): DoubleAnswer & { headers: Record<string, string> } {
    const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    const nonce = randomBytes(16).toString('hex');
    return {
      status,
      body,
      headers: {
        'Content-Type': 'application/json',
        'Wechatpay-Timestamp': timestamp,
        'Wechatpay-Nonce': nonce,
        'Wechatpay-Signature': rsaSign(`${timestamp}\n${nonce}\n${body}\n`, options.signer ?? this.platform.privateKey),
        'Wechatpay-Serial': options.serial ?? this.options.platformSerialNo,
        'Wechatpay-Signature-Type': 'WECHATPAY2-SHA256-RSA2048',
      },
    };
  }

  private error(status: number, code: string, message: string): DoubleAnswer {
    return this.signedAnswer(status, JSON.stringify({ code, message }));
  }

  protected answer(request: ReceivedRequest): DoubleAnswer {
    const { method, body } = request;
    const authorization = request.headers.authorization ?? '';
    const fields = authorizationFields(authorization);
    const message = `${method}\n${request.path}\n${fields.timestamp ?? ''}\n${fields.nonce_str ?? ''}\n${body}\n`;
    if (
      !authorization.startsWith('WECHATPAY2-SHA256-RSA2048 ') ||
      fields.mchid !== this.options.mchId ||
      fields.serial_no !== this.options.serialNo ||
      !rsaVerify(message, fields.signature ?? '', this.merchant.publicKey)
    ) {
      return this.error(401, 'SIGN_ERROR', '签名错误');
    }
    const url = new URL(request.path, this.origin);
    const path = url.pathname;
    if (method === 'POST' && path === '/v3/pay/transactions/native') {
      const order = JSON.parse(body) as { out_trade_no: string; amount: { total: number } };
      this.trades.set(order.out_trade_no, { amountFen: order.amount.total, state: 'NOTPAY', transactionId: `42000${randomBytes(10).toString('hex')}` });
      return this.signedAnswer(200, JSON.stringify({ code_url: `weixin://wxpay/bizpayurl?pr=${order.out_trade_no}` }));
    }
    const close = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(path);
    if (method === 'POST' && close) {
      if ((JSON.parse(body) as { mchid?: string }).mchid !== this.options.mchId) return this.error(400, 'PARAM_ERROR', '商户号不正确');
      const trade = this.trades.get(decodeURIComponent(close[1] ?? ''));
      if (!trade) return this.error(404, 'ORDER_NOT_EXIST', '订单不存在');
      if (trade.state === 'SUCCESS') return this.error(400, 'ORDERPAID', '订单已支付');
      trade.state = 'CLOSED';
      return this.signedAnswer(204, '');
    }
    const query = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(path);
    if (method === 'GET' && query) {
      if (url.searchParams.get('mchid') !== this.options.mchId) return this.error(400, 'PARAM_ERROR', '商户号不正确');
      const rechargeId = decodeURIComponent(query[1] ?? '');
      if (!this.trades.has(rechargeId)) return this.error(404, 'ORDER_NOT_EXIST', '订单不存在');
      return this.signedAnswer(200, JSON.stringify(this.transaction(rechargeId)));
    }
    return this.error(404, 'NOT_FOUND', '接口不存在');
  }
}

type AlipayTradeStatus = 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';

/** Alipay's RSA2 content: parameters sorted by key, `k=v` joined with `&`, without the excluded keys and (unless kept) empty values. */
export function alipaySignContent(params: Record<string, string>, options: { exclude: readonly string[]; keepEmpty: boolean }): string {
  return Object.keys(params)
    .filter((key) => !options.exclude.includes(key) && (options.keepEmpty || params[key] !== ''))
    .sort()
    .map((key) => `${key}=${params[key] ?? ''}`)
    .join('&');
}

/** An asynchronous notification (异步通知) as Alipay posts it: form-encoded, RSA2 over every parameter but sign and sign_type. */
export function alipayNotificationBody(params: Record<string, string>, signer: KeyObject, tamper: Record<string, string> = {}): string {
  const sign = rsaSign(alipaySignContent(params, { exclude: ['sign', 'sign_type'], keepEmpty: true }), signer);
  return new URLSearchParams({ ...params, ...tamper, sign, sign_type: 'RSA2' }).toString();
}

/** Alipay OpenAPI (当面付): precreate, close, query, and the payer's side (scan, pay). */
export class FakeAlipay extends LocalGatewayDouble {
  /** The application's key pair: the gateway signs with its private half, the double checks with the public one. */
  readonly app = generateKeyPairSync('rsa', { modulusLength: 2048 });
  /** Alipay's own key (支付宝公钥): signs answers and notifications. */
  readonly alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
  /** Codes handed out: a trade exists at Alipay only once the payer scans one. */
  private readonly precreated = new Map<string, number>();
  private readonly trades = new Map<string, { amountFen: number; status: AlipayTradeStatus; tradeNo: string }>();
  readonly options: AlipayOptions;

  constructor(now: () => Date) {
    super();
    this.options = {
      appId: '2021000000000001',
      privateKeyPem: pem(this.app.privateKey, 'pkcs8'),
      alipayPublicKeyPem: pem(this.alipay.publicKey, 'spki'),
      gateway: `${this.origin}/gateway.do`,
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
    return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, rawBody: alipayNotificationBody(params, this.alipay.privateKey) };
  }

  /** `{"<method>_response":<node>,"sign":"…"}` with the signature over exactly the node's text, as Alipay lays out its answers. */
  signedReply(method: string, nodeText: string, signer: KeyObject = this.alipay.privateKey): DoubleAnswer {
    return {
      status: 200,
      headers: { 'Content-Type': 'text/html;charset=utf-8' },
      body: `{"${method.replace(/\./g, '_')}_response":${nodeText},"sign":"${rsaSign(nodeText, signer)}"}`,
    };
  }

  private reply(method: string, node: Record<string, string>): DoubleAnswer {
    return this.signedReply(method, JSON.stringify(node));
  }

  private failed(method: string, subCode: string, subMsg: string): DoubleAnswer {
    return this.reply(method, { code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg });
  }

  protected answer(request: ReceivedRequest): DoubleAnswer {
    const url = new URL(request.path, this.origin);
    const params: Record<string, string> = Object.fromEntries([...url.searchParams, ...new URLSearchParams(request.body)]);
    const { sign = '', ...unsigned } = params;
    if (params.app_id !== this.options.appId || !rsaVerify(alipaySignContent(unsigned, { exclude: ['sign'], keepEmpty: false }), sign, this.app.publicKey)) {
      return {
        status: 200,
        body: JSON.stringify({ error_response: { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: '验签出错' } }),
      };
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
    return { status: 200, body: JSON.stringify({ error_response: { code: '40004', msg: 'Business Failed', sub_code: 'isv.invalid-method', sub_msg: '不存在的方法名' } }) };
  }
}
