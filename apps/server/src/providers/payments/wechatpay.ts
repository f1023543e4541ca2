import {
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  createSign,
  createVerify,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import type {
  CloseOutcome,
  CreatedPayment,
  CreatePaymentInput,
  GatewayAcknowledgement,
  GatewayRuntimeOptions,
  NotificationRequest,
  PaymentGateway,
  VerifiedNotification,
} from './provider.js';
import { callGateway, PaymentGatewayError, PaymentNotifyError } from './provider.js';

export interface WechatPayOptions extends GatewayRuntimeOptions {
  /** 公众号/小程序/开放平台 AppID bound to the merchant. */
  appId: string;
  /** 商户号. */
  mchId: string;
  /** Serial number of the merchant API certificate (商户API证书序列号). */
  serialNo: string;
  /** Merchant API private key (apiclient_key.pem). */
  privateKeyPem: string;
  /** APIv3 key, 32 bytes: decrypts notification resources. */
  apiV3Key: string;
  /** WeChat Pay platform public key (pub_key.pem) or platform certificate PEM: verifies notifications and responses. */
  platformPublicKeyPem: string;
  /** Public key ID (PUB_KEY_ID_…) or platform certificate serial; when set, `Wechatpay-Serial` must equal it. */
  platformSerialNo?: string;
  /** Default https://api.mch.weixin.qq.com. */
  baseUrl?: string;
}

export const WECHATPAY_BASE_URL = 'https://api.mch.weixin.qq.com';
export const WECHATPAY_NATIVE_PATH = '/v3/pay/transactions/native';
/** Notifications whose timestamp is further than this from our clock are refused (replay protection). */
export const WECHATPAY_MAX_CLOCK_SKEW_SECONDS = 5 * 60;

export interface WechatPaySignInput {
  /** HTTP method, upper case. */
  method: string;
  /** Absolute URL or the canonical URL (path and query, e.g. `/v3/pay/transactions/native`). */
  url: string;
  /** Unix seconds. */
  timestamp: number | string;
  nonce: string;
  /** The request body exactly as sent ('' for GET). */
  body: string;
}

/** Path and query the way API v3 signs them. */
export function wechatPayCanonicalUrl(url: string): string {
  if (url.startsWith('/')) return url;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** The message a merchant request signature covers: method, canonical URL, timestamp, nonce and body, each followed by \n. */
export function wechatPaySignMessage(input: WechatPaySignInput): string {
  return `${input.method.toUpperCase()}\n${wechatPayCanonicalUrl(input.url)}\n${input.timestamp}\n${input.nonce}\n${input.body}\n`;
}

/** base64(SHA256-with-RSA) of the request message with the merchant private key. */
export function wechatPaySignature(input: WechatPaySignInput, privateKey: KeyObject | string): string {
  return createSign('RSA-SHA256').update(wechatPaySignMessage(input)).sign(privateKey, 'base64');
}

/** The `Authorization` header of an API v3 request. */
export function buildAuthorization(
  input: WechatPaySignInput & { mchId: string; serialNo: string; privateKey: KeyObject | string },
): string {
  const signature = wechatPaySignature(input, input.privateKey);
  return (
    `WECHATPAY2-SHA256-RSA2048 mchid="${input.mchId}",nonce_str="${input.nonce}",` +
    `timestamp="${input.timestamp}",serial_no="${input.serialNo}",signature="${signature}"`
  );
}

/** The message WeChat Pay signs on responses and notifications. */
export function wechatPayResponseMessage(timestamp: string, nonce: string, body: string): string {
  return `${timestamp}\n${nonce}\n${body}\n`;
}

/** Checks a `Wechatpay-Signature` (response or notification) with the platform public key. */
export function verifyWechatPaySignature(
  input: { timestamp: string; nonce: string; body: string; signature: string },
  platformPublicKey: KeyObject | string,
): boolean {
  try {
    return createVerify('RSA-SHA256')
      .update(wechatPayResponseMessage(input.timestamp, input.nonce, input.body))
      .verify(platformPublicKey, input.signature, 'base64');
  } catch {
    return false;
  }
}

export interface WechatPayEncryptedResource {
  algorithm?: string;
  ciphertext: string;
  nonce: string;
  associated_data?: string;
  original_type?: string;
}

/** AEAD_AES_256_GCM decryption of a notification `resource`: the last 16 bytes of the ciphertext are the tag. Throws on any failure. */
export function decryptWechatPayResource(resource: WechatPayEncryptedResource, apiV3Key: string): string {
  const key = Buffer.from(apiV3Key, 'utf8');
  if (key.length !== 32) throw new Error('APIv3 key must be 32 bytes');
  const data = Buffer.from(resource.ciphertext, 'base64');
  if (data.length <= 16) throw new Error('ciphertext too short');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(resource.nonce, 'utf8'), { authTagLength: 16 });
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
}

/** RFC 3339 in China time, e.g. 2024-01-01T12:00:00+08:00 (the format of `time_expire`). */
export function formatWechatPayTime(date: Date): string {
  const china = new Date(date.getTime() + 8 * 3600 * 1000).toISOString();
  return `${china.slice(0, 19)}+08:00`;
}

function header(headers: NotificationRequest['headers'], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The answer's JSON object, or {} when it is not one (an empty 204, an HTML error page). */
function recordOf(text: string): Record<string, unknown> {
  const parsed = parseJson(text);
  return isRecord(parsed) ? parsed : {};
}

/** `CODE message` of an API v3 error answer, or the HTTP status when it has no code. */
function errorOf(response: Response, result: Record<string, unknown>): string {
  const code = typeof result.code === 'string' ? result.code : `HTTP ${response.status}`;
  const message = typeof result.message === 'string' ? result.message : '';
  return `${code} ${message}`.trim();
}

export const wechatPayClosePath = (rechargeId: string) => `/v3/pay/transactions/out-trade-no/${encodeURIComponent(rechargeId)}/close`;
export const wechatPayQueryPath = (rechargeId: string, mchId: string) =>
  `/v3/pay/transactions/out-trade-no/${encodeURIComponent(rechargeId)}?mchid=${encodeURIComponent(mchId)}`;

const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** WeChat Pay API v3, Native payment (扫码支付). */
export class WechatPayGateway implements PaymentGateway {
  readonly name = 'wechatpay';
  private readonly privateKey: KeyObject;
  private readonly platformKey: KeyObject;

  constructor(private readonly options: WechatPayOptions) {
    if (Buffer.byteLength(options.apiV3Key, 'utf8') !== 32) throw new Error('微信支付 APIv3 密钥必须是 32 字节');
    this.privateKey = createPrivateKey(options.privateKeyPem);
    this.platformKey = createPublicKey(options.platformPublicKeyPem);
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private get baseUrl(): string {
    return (this.options.baseUrl ?? WECHATPAY_BASE_URL).replace(/\/+$/, '');
  }

  /** Sends an API v3 request signed with the merchant key (`body` is '' for GET). */
  private send(method: 'GET' | 'POST', path: string, body: string, failure: string): Promise<{ response: Response; text: string }> {
    const url = `${this.baseUrl}${path}`;
    const timestamp = Math.floor(this.now().getTime() / 1000);
    const nonce = randomBytes(16).toString('hex').toUpperCase();
    const authorization = buildAuthorization({
      method,
      url,
      timestamp,
      nonce,
      body,
      mchId: this.options.mchId,
      serialNo: this.options.serialNo,
      privateKey: this.privateKey,
    });
    const headers: Record<string, string> = { Authorization: authorization, Accept: 'application/json', 'User-Agent': 'suanligang-server' };
    if (method === 'GET') return callGateway(this.options, url, { method, headers }, failure);
    return callGateway(this.options, url, { method, headers: { ...headers, 'Content-Type': 'application/json' }, body }, failure);
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    if (!Number.isSafeInteger(input.amountFen) || input.amountFen <= 0) {
      throw new PaymentGatewayError(`微信支付下单金额无效: ${input.amountFen}`);
    }
    const body = JSON.stringify({
      appid: this.options.appId,
      mchid: this.options.mchId,
      description: input.description,
      out_trade_no: input.rechargeId,
      time_expire: formatWechatPayTime(input.expiresAt),
      notify_url: input.notifyUrl,
      amount: { total: input.amountFen, currency: 'CNY' },
    });
    const { response, text } = await this.send('POST', WECHATPAY_NATIVE_PATH, body, '微信支付下单请求失败');
    const result = recordOf(text);
    if (!response.ok) throw new PaymentGatewayError(`微信支付下单失败: ${errorOf(response, result)}`);
    this.assertSignedResponse(response.headers, text);
    if (!nonEmptyString(result.code_url)) throw new PaymentGatewayError('微信支付下单应答缺少 code_url');
    return { payUrl: null, qrCode: result.code_url };
  }

  /**
   * 关闭订单: 204 means closed (a repeat answers 204 too). ORDERPAID means the payer paid first; a trade
   * already closed or never created cannot be paid either. Anything else (USER_PAYING, SYSTEM_ERROR, …) is
   * not an answer we can act on.
   */
  async closePayment(rechargeId: string): Promise<CloseOutcome> {
    const body = JSON.stringify({ mchid: this.options.mchId });
    const { response, text } = await this.send('POST', wechatPayClosePath(rechargeId), body, '微信支付关单请求失败');
    if (response.status === 204) {
      this.assertSignedResponse(response.headers, text);
      return 'CLOSED';
    }
    const result = recordOf(text);
    const code = typeof result.code === 'string' ? result.code : '';
    if (code === 'ORDERPAID') return 'PAID';
    if (['ORDER_CLOSED', 'ORDERCLOSED', 'ORDER_NOT_EXIST', 'ORDERNOTEXIST'].includes(code)) return 'CLOSED';
    throw new PaymentGatewayError(`微信支付关单失败: ${errorOf(response, result)}`);
  }

  /** 商户订单号查询订单: the transaction, checked like a notification's. */
  async queryPayment(rechargeId: string): Promise<VerifiedNotification> {
    const { response, text } = await this.send('GET', wechatPayQueryPath(rechargeId, this.options.mchId), '', '微信支付查单请求失败');
    const result = recordOf(text);
    if (!response.ok) throw new PaymentGatewayError(`微信支付查单失败: ${errorOf(response, result)}`);
    this.assertSignedResponse(response.headers, text);
    const facts = this.transactionFacts(result, (message) => new PaymentGatewayError(message));
    if (facts.rechargeId !== rechargeId) throw new PaymentGatewayError('微信支付查单应答的商户订单号不匹配');
    return facts;
  }

  /** Successful API v3 responses are signed by the platform like notifications; a response failing the check is not trusted. */
  private assertSignedResponse(headers: Headers, body: string): void {
    const timestamp = headers.get('wechatpay-timestamp');
    const nonce = headers.get('wechatpay-nonce');
    const signature = headers.get('wechatpay-signature');
    const serial = headers.get('wechatpay-serial');
    if (!timestamp || !nonce || !signature) throw new PaymentGatewayError('微信支付应答缺少签名');
    if (this.options.platformSerialNo && serial !== this.options.platformSerialNo) {
      throw new PaymentGatewayError('微信支付应答的平台证书序列号不匹配');
    }
    if (!verifyWechatPaySignature({ timestamp, nonce, body, signature }, this.platformKey)) {
      throw new PaymentGatewayError('微信支付应答签名验证失败');
    }
  }

  async verifyNotification(request: NotificationRequest): Promise<VerifiedNotification> {
    const timestamp = header(request.headers, 'wechatpay-timestamp');
    const nonce = header(request.headers, 'wechatpay-nonce');
    const signature = header(request.headers, 'wechatpay-signature');
    const serial = header(request.headers, 'wechatpay-serial');
    if (!timestamp || !nonce || !signature || !serial) throw new PaymentNotifyError('微信支付通知缺少签名头');
    if (this.options.platformSerialNo && serial !== this.options.platformSerialNo) {
      throw new PaymentNotifyError('微信支付通知的平台证书序列号不匹配');
    }
    if (!verifyWechatPaySignature({ timestamp, nonce, body: request.rawBody, signature }, this.platformKey)) {
      throw new PaymentNotifyError('微信支付通知签名验证失败');
    }
    if (!/^\d{1,12}$/.test(timestamp)) throw new PaymentNotifyError('微信支付通知时间戳无效');
    const skew = Math.abs(Math.floor(this.now().getTime() / 1000) - Number(timestamp));
    if (skew > WECHATPAY_MAX_CLOCK_SKEW_SECONDS) throw new PaymentNotifyError('微信支付通知时间戳已过期');

    const notification = parseJson(request.rawBody);
    const resource = isRecord(notification) ? notification.resource : undefined;
    if (!isRecord(resource) || !nonEmptyString(resource.ciphertext) || !nonEmptyString(resource.nonce)) {
      throw new PaymentNotifyError('微信支付通知格式错误');
    }
    if (resource.algorithm !== 'AEAD_AES_256_GCM') throw new PaymentNotifyError('微信支付通知加密算法不受支持');
    if (resource.original_type !== undefined && resource.original_type !== 'transaction') {
      throw new PaymentNotifyError('微信支付通知不是支付结果通知');
    }
    let plaintext: string;
    try {
      plaintext = decryptWechatPayResource(
        {
          ciphertext: resource.ciphertext,
          nonce: resource.nonce,
          associated_data: typeof resource.associated_data === 'string' ? resource.associated_data : '',
        },
        this.options.apiV3Key,
      );
    } catch {
      throw new PaymentNotifyError('微信支付通知解密失败');
    }

    return this.transactionFacts(parseJson(plaintext), (message) => new PaymentNotifyError(message));
  }

  /** The payment facts of a transaction (notification resource or query answer), after checking it is ours. */
  private transactionFacts(transaction: unknown, fail: (message: string) => Error): VerifiedNotification {
    if (!isRecord(transaction)) throw fail('微信支付交易内容格式错误');
    if (transaction.mchid !== this.options.mchId) throw fail('微信支付交易的商户号不匹配');
    if (transaction.appid !== this.options.appId) throw fail('微信支付交易的 AppID 不匹配');
    if (!nonEmptyString(transaction.out_trade_no)) throw fail('微信支付交易缺少商户订单号');
    const amount = transaction.amount;
    if (!isRecord(amount) || !Number.isSafeInteger(amount.total) || (amount.total as number) <= 0) {
      throw fail('微信支付交易金额无效');
    }
    if (amount.currency !== 'CNY') throw fail('微信支付交易币种不是人民币');
    if (!nonEmptyString(transaction.trade_state)) throw fail('微信支付交易缺少交易状态');
    const succeeded = transaction.trade_state === 'SUCCESS';
    const transactionId = nonEmptyString(transaction.transaction_id) ? transaction.transaction_id : '';
    if (succeeded && !transactionId) throw fail('微信支付交易缺少微信支付订单号');
    return {
      rechargeId: transaction.out_trade_no,
      amountFen: amount.total as number,
      providerTradeNo: transactionId,
      succeeded,
      closed: ['CLOSED', 'REVOKED', 'PAYERROR'].includes(String(transaction.trade_state)),
    };
  }

  acknowledge(ok: boolean): GatewayAcknowledgement {
    return ok
      ? { status: 200, contentType: 'application/json', body: JSON.stringify({ code: 'SUCCESS', message: '成功' }) }
      : // WeChat Pay retries on any 4XX or 5XX; 400 keeps 5XX for our own bugs.
        { status: 400, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message: '失败' }) };
  }
}
