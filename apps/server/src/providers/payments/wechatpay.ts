import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as WechatpayPlugin from 'wechatpay-axios-plugin';
import type { Wechatpay } from 'wechatpay-axios-plugin';
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
import { PaymentGatewayError, PaymentNotifyError } from './provider.js';

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
  /** Public key ID (PUB_KEY_ID_…) or platform certificate serial: answers and notifications must carry it in `Wechatpay-Serial`. */
  platformSerialNo: string;
  /** Default https://api.mch.weixin.qq.com. */
  baseUrl?: string;
}

export const WECHATPAY_BASE_URL = 'https://api.mch.weixin.qq.com';
/** Notifications whose timestamp is further than this from our clock are refused (replay protection). */
export const WECHATPAY_MAX_CLOCK_SKEW_SECONDS = 5 * 60;

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

const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** What the SDK (axios) rejects with: an answer outside 2xx, an answer failing its signature check, or no answer at all. */
interface SdkFailure {
  code?: string;
  message: string;
  response?: { status: number; data: unknown };
}

const isSdkFailure = (error: unknown): error is SdkFailure => error instanceof Error && (error as { isAxiosError?: unknown }).isAxiosError === true;

/** The SDK's codes for a 2xx answer whose signature it could not accept. */
const SIGNATURE_FAILURES: Record<string, string> = {
  EV3_RES_HEADERS_INCOMPLATE: '微信支付应答缺少签名',
  EV3_RES_HEADER_PLATFORM_SERIAL: '微信支付应答的平台证书序列号不匹配',
  EV3_RES_HEADER_SIGNATURE_DIGEST: '微信支付应答签名验证失败',
  EV3_RES_HEADER_TIMESTAMP_OFFSET: '微信支付应答时间戳与本机时间相差超过 5 分钟',
};

interface GatewayAnswer {
  ok: boolean;
  status: number;
  /** The answer's JSON object, or {} when it is not one (an empty 204, an HTML error page). */
  result: Record<string, unknown>;
}

/** `<failure>失败: CODE message` of a refusal, or the HTTP status when it has no code. */
function refusal(failure: string, answer: GatewayAnswer): PaymentGatewayError {
  const code = typeof answer.result.code === 'string' ? answer.result.code : `HTTP ${answer.status}`;
  const message = typeof answer.result.message === 'string' ? answer.result.message : '';
  return new PaymentGatewayError(`${failure}失败: ${code} ${message}`.trim());
}

/** The SDK, loaded when the first WeChat Pay gateway is built (a process on the sandbox never pays its start-up time). */
let loadedPlugin: typeof WechatpayPlugin | undefined;
const wechatpayPlugin = () => (loadedPlugin ??= createRequire(import.meta.url)('wechatpay-axios-plugin') as typeof WechatpayPlugin);

/** A trade a close call found no longer payable without a payment. */
const CLOSED_CODES = ['ORDER_CLOSED', 'ORDERCLOSED', 'ORDER_NOT_EXIST', 'ORDERNOTEXIST'];

/**
 * WeChat Pay API v3, Native payment (扫码支付), through `wechatpay-axios-plugin`: it signs every request
 * with the merchant key and verifies every 2xx answer against the platform key named by its
 * `Wechatpay-Serial`. Notifications are checked with the same library's RSA and AES-GCM primitives.
 */
export class WechatPayGateway implements PaymentGateway {
  readonly name = 'wechatpay';
  private readonly client: Wechatpay;
  private readonly platformKey: KeyObject;
  private readonly apiV3Key: Buffer;

  constructor(private readonly options: WechatPayOptions) {
    this.apiV3Key = Buffer.from(options.apiV3Key, 'utf8');
    if (this.apiV3Key.length !== 32) throw new Error('微信支付 APIv3 密钥必须是 32 字节');
    if (!options.platformSerialNo) throw new Error('微信支付需要平台公钥 ID 或平台证书序列号（WECHATPAY_PLATFORM_SERIAL_NO）');
    // Keys are parsed here (a bad one fails at start, and the SDK's loader, which also reads `file://` paths, gets plain PEM).
    this.platformKey = createPublicKey(options.platformPublicKeyPem);
    this.client = new (wechatpayPlugin().Wechatpay)({
      mchid: options.mchId,
      serial: options.serialNo,
      privateKey: createPrivateKey(options.privateKeyPem).export({ format: 'pem', type: 'pkcs8' }) as string,
      certs: { [options.platformSerialNo]: this.platformKey },
      baseURL: options.baseUrl ?? WECHATPAY_BASE_URL,
      timeout: 10_000,
    });
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /**
   * Runs an SDK request. A 2xx answer has passed the SDK's signature check (`ok`); an answer outside 2xx
   * is the gateway's refusal, for the caller to read (the SDK checks no signature on those). Any other
   * failure — no answer, or a 2xx answer whose signature fails — is a PaymentGatewayError.
   */
  private async send(request: () => Promise<{ status: number; data: unknown }>, failure: string): Promise<GatewayAnswer> {
    try {
      const { status, data } = await request();
      return { ok: true, status, result: isRecord(data) ? data : {} };
    } catch (error) {
      if (!isSdkFailure(error)) throw new PaymentGatewayError(`${failure}失败: ${error instanceof Error ? error.message : String(error)}`);
      const signatureProblem = error.code === undefined ? undefined : SIGNATURE_FAILURES[error.code];
      if (signatureProblem) throw new PaymentGatewayError(signatureProblem);
      if (!error.response) throw new PaymentGatewayError(`${failure}请求失败: ${error.message}`);
      return { ok: false, status: error.response.status, result: isRecord(error.response.data) ? error.response.data : {} };
    }
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    if (!Number.isSafeInteger(input.amountFen) || input.amountFen <= 0) {
      throw new PaymentGatewayError(`微信支付下单金额无效: ${input.amountFen}`);
    }
    const order = {
      appid: this.options.appId,
      mchid: this.options.mchId,
      description: input.description,
      out_trade_no: input.rechargeId,
      time_expire: formatWechatPayTime(input.expiresAt),
      notify_url: input.notifyUrl,
      amount: { total: input.amountFen, currency: 'CNY' },
    };
    const answer = await this.send(() => this.client.chain('v3/pay/transactions/native').post<unknown>(order), '微信支付下单');
    if (!answer.ok) throw refusal('微信支付下单', answer);
    if (!nonEmptyString(answer.result.code_url)) throw new PaymentGatewayError('微信支付下单应答缺少 code_url');
    return { payUrl: null, qrCode: answer.result.code_url };
  }

  /**
   * 关闭订单: 204 means closed (a repeat answers 204 too). ORDERPAID means the payer paid first; a trade
   * already closed or never created cannot be paid either. Anything else (USER_PAYING, SYSTEM_ERROR, …) is
   * not an answer we can act on.
   */
  async closePayment(rechargeId: string): Promise<CloseOutcome> {
    const answer = await this.send(
      () =>
        this.client.chain('v3/pay/transactions/out-trade-no/{out_trade_no}/close').post<unknown>(
          { mchid: this.options.mchId },
          { out_trade_no: encodeURIComponent(rechargeId) },
        ),
      '微信支付关单',
    );
    if (answer.ok && answer.status === 204) return 'CLOSED';
    if (!answer.ok && answer.result.code === 'ORDERPAID') return 'PAID';
    if (!answer.ok && typeof answer.result.code === 'string' && CLOSED_CODES.includes(answer.result.code)) return 'CLOSED';
    throw refusal('微信支付关单', answer);
  }

  /** 商户订单号查询订单: the transaction, checked like a notification's. */
  async queryPayment(rechargeId: string): Promise<VerifiedNotification> {
    const answer = await this.send(
      () =>
        this.client.chain('v3/pay/transactions/out-trade-no/{out_trade_no}').get<unknown>({
          params: { mchid: this.options.mchId },
          out_trade_no: encodeURIComponent(rechargeId),
        }),
      '微信支付查单',
    );
    if (!answer.ok) throw refusal('微信支付查单', answer);
    const facts = this.transactionFacts(answer.result, (message) => new PaymentGatewayError(message));
    if (facts.rechargeId !== rechargeId) throw new PaymentGatewayError('微信支付查单应答的商户订单号不匹配');
    return facts;
  }

  async verifyNotification(request: NotificationRequest): Promise<VerifiedNotification> {
    const timestamp = header(request.headers, 'wechatpay-timestamp');
    const nonce = header(request.headers, 'wechatpay-nonce');
    const signature = header(request.headers, 'wechatpay-signature');
    const serial = header(request.headers, 'wechatpay-serial');
    if (!timestamp || !nonce || !signature || !serial) throw new PaymentNotifyError('微信支付通知缺少签名头');
    if (serial !== this.options.platformSerialNo) throw new PaymentNotifyError('微信支付通知的平台证书序列号不匹配');
    let signed: boolean;
    try {
      const { Formatter, Rsa } = wechatpayPlugin();
      signed = Rsa.verify(Formatter.response(timestamp, nonce, request.rawBody), signature, this.platformKey);
    } catch {
      signed = false;
    }
    if (!signed) throw new PaymentNotifyError('微信支付通知签名验证失败');
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
      const associatedData = typeof resource.associated_data === 'string' ? resource.associated_data : '';
      plaintext = wechatpayPlugin().Aes.AesGcm.decrypt(resource.ciphertext, this.apiV3Key, resource.nonce, associatedData);
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
