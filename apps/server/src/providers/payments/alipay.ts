import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as AlipaySdkModule from 'alipay-sdk';
import type { AlipaySdk, AlipaySdkConfig } from 'alipay-sdk';
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

export interface AlipayOptions extends GatewayRuntimeOptions {
  appId: string;
  /** Application private key (RSA2), PEM or the bare base64 the Alipay key tool prints (PKCS#8 or PKCS#1). */
  privateKeyPem: string;
  /** Alipay public key (支付宝公钥, not the application public key), PEM or bare base64. */
  alipayPublicKeyPem: string;
  /** Default https://openapi.alipay.com/gateway.do (sandbox: https://openapi-sandbox.dl.alipaydev.com/gateway.do). */
  gateway?: string;
  /** When set, notifications must carry this seller_id (the merchant's 2088… PID). */
  sellerId?: string;
}

export const ALIPAY_GATEWAY = 'https://openapi.alipay.com/gateway.do';
export const ALIPAY_PRECREATE_METHOD = 'alipay.trade.precreate';
export const ALIPAY_CLOSE_METHOD = 'alipay.trade.close';
export const ALIPAY_QUERY_METHOD = 'alipay.trade.query';
/** Close refusals meaning the trade is no longer waiting for payment (paid, or closed already). */
const ALIPAY_NOT_WAITING = ['ACQ.TRADE_STATUS_ERROR', 'ACQ.REASON_TRADE_STATUS_INVALID', 'ACQ.REASON_ILLEGAL_STATUS'];

/** Integer fen → yuan string with exactly two decimals ('0.01', '100.00'), without floating point. */
export function fenToYuan(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new RangeError(`invalid fen amount: ${fen}`);
  const digits = String(fen).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Yuan string ('100', '100.5', '100.00') → integer fen, exactly; anything with more than 2 decimals or not a plain number throws. */
export function yuanToFen(yuan: string): number {
  const match = /^(0|[1-9]\d*)(?:\.(\d{1,2}))?$/.exec(yuan);
  if (!match) throw new RangeError(`invalid yuan amount: ${yuan}`);
  const fen = Number(`${match[1]}${(match[2] ?? '').padEnd(2, '0')}`);
  if (!Number.isSafeInteger(fen)) throw new RangeError(`invalid yuan amount: ${yuan}`);
  return fen;
}

/**
 * 'yyyy-MM-dd HH:mm:ss' in China time (UTC+8), the format of the `timestamp` parameter. The SDK would
 * write the process's local time, which on a server running in UTC is eight hours off what Alipay expects.
 */
export function formatAlipayTime(date: Date): string {
  return new Date(date.getTime() + 8 * 3600 * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

const isPem = (text: string) => text.includes('-----BEGIN');
const derOf = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'base64');

/** Accepts a PEM key or the bare base64 body Alipay's key tool produces (PKCS#8 first, then PKCS#1). */
export function loadAlipayPrivateKey(text: string): KeyObject {
  if (isPem(text)) return createPrivateKey(text);
  try {
    return createPrivateKey({ key: derOf(text), format: 'der', type: 'pkcs8' });
  } catch {
    return createPrivateKey({ key: derOf(text), format: 'der', type: 'pkcs1' });
  }
}

/** Accepts a PEM public key (or certificate) or the bare base64 body of an SPKI (or PKCS#1) public key. */
export function loadAlipayPublicKey(text: string): KeyObject {
  if (isPem(text)) return createPublicKey(text);
  try {
    return createPublicKey({ key: derOf(text), format: 'der', type: 'spki' });
  } catch {
    return createPublicKey({ key: derOf(text), format: 'der', type: 'pkcs1' });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** An answer that came without a signature: the SDK cannot verify it, so it is only read for what went wrong. */
class UnsignedAlipayAnswer extends Error {
  constructor(readonly responseText: string) {
    super('支付宝应答缺少签名');
  }
}

interface LoadedAlipaySdk {
  create(config: AlipaySdkConfig): AlipaySdk;
  isSignatureFailure(error: unknown): boolean;
}
let loadedSdk: LoadedAlipaySdk | undefined;

/**
 * The SDK, loaded when the first Alipay gateway is built (a process on the sandbox never pays its
 * start-up time). It checks an answer's signature only when one is there and fails with a TypeError on
 * a missing one, losing the answer; the subclass makes a missing signature its own outcome, so that an
 * unsigned refusal (Alipay cannot sign for an unknown app_id) still says what went wrong.
 */
function alipaySdk(): LoadedAlipaySdk {
  if (loadedSdk) return loadedSdk;
  const sdk = createRequire(import.meta.url)('alipay-sdk') as typeof AlipaySdkModule;
  class SignatureCheckingAlipaySdk extends sdk.AlipaySdk {
    override checkResponseSign(responseDataRaw: string, responseKey: string, serverSign: string | undefined, traceId: string): void {
      if (typeof serverSign !== 'string' || serverSign === '') throw new UnsignedAlipayAnswer(responseDataRaw);
      super.checkResponseSign(responseDataRaw, responseKey, serverSign, traceId);
    }
  }
  loadedSdk = {
    create: (config) => new SignatureCheckingAlipaySdk(config),
    isSignatureFailure: (error) => error instanceof sdk.AlipayRequestError && error.message.startsWith('验签失败'),
  };
  return loadedSdk;
}

/** A method's response node, whether Alipay signed it, and what a failure says. */
interface AlipayAnswer {
  node: Record<string, unknown>;
  signed: boolean;
  /** code 10000. */
  succeeded: boolean;
  subCode: string | undefined;
  /** `<failure>失败: <sub_code or code> <sub_msg or msg>`. */
  error: string;
}

/** Alipay OpenAPI, 当面付 QR code (alipay.trade.precreate), RSA2 with the Alipay public key (公钥模式), through the official `alipay-sdk`. */
export class AlipayGateway implements PaymentGateway {
  readonly name = 'alipay';
  private readonly sdk: AlipaySdk;

  constructor(private readonly options: AlipayOptions) {
    this.sdk = alipaySdk().create({
      appId: options.appId,
      privateKey: loadAlipayPrivateKey(options.privateKeyPem).export({ format: 'pem', type: 'pkcs8' }) as string,
      keyType: 'PKCS8',
      alipayPublicKey: loadAlipayPublicKey(options.alipayPublicKeyPem).export({ format: 'pem', type: 'spki' }) as string,
      gateway: options.gateway ?? ALIPAY_GATEWAY,
      signType: 'RSA2',
      camelcase: false,
      timeout: 10_000,
    });
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /**
   * Calls `method` through the SDK (which signs the request and checks the answer's signature) and
   * returns its response node. Whether an unsigned node may be trusted is the caller's call: only to
   * report a failure.
   */
  private async invoke(method: string, bizContent: Record<string, string>, failure: string, extra: Record<string, string> = {}): Promise<AlipayAnswer> {
    let node: Record<string, unknown>;
    let signed = true;
    try {
      const result: unknown = await this.sdk.exec(method, { ...extra, timestamp: formatAlipayTime(this.now()), bizContent }, { validateSign: true });
      node = isRecord(result) ? result : {};
    } catch (error) {
      if (!(error instanceof UnsignedAlipayAnswer)) {
        if (alipaySdk().isSignatureFailure(error)) throw new PaymentGatewayError('支付宝应答签名验证失败');
        throw new PaymentGatewayError(`${failure}请求失败: ${error instanceof Error ? error.message : String(error)}`);
      }
      signed = false;
      node = unsignedNode(error.responseText, method);
    }
    const code = str(node.sub_code) ?? str(node.code) ?? '应答格式错误';
    const message = str(node.sub_msg) ?? str(node.msg) ?? '';
    return { node, signed, succeeded: node.code === '10000', subCode: str(node.sub_code), error: `${failure}失败: ${code} ${message}`.trim() };
  }

  /** The answer must be signed success: anything else is a PaymentGatewayError. */
  private async trusted(method: string, bizContent: Record<string, string>, failure: string, extra?: Record<string, string>) {
    const answer = await this.invoke(method, bizContent, failure, extra);
    if (!answer.succeeded) throw new PaymentGatewayError(answer.error);
    if (!answer.signed) throw new PaymentGatewayError('支付宝应答缺少签名');
    return answer.node;
  }

  /** Checks and builds the business parameters of alipay.trade.precreate. */
  precreateContent(input: CreatePaymentInput, now: Date): Record<string, string> {
    if (!Number.isSafeInteger(input.amountFen) || input.amountFen <= 0) {
      throw new PaymentGatewayError(`支付宝下单金额无效: ${input.amountFen}`);
    }
    // timeout_express (1m–15d, whole minutes) is the relative expiry alipay.trade.precreate documents; round down so
    // Alipay closes the trade no later than our own expiry.
    const minutes = Math.min(15 * 24 * 60, Math.max(1, Math.floor((input.expiresAt.getTime() - now.getTime()) / 60_000)));
    return {
      out_trade_no: input.rechargeId,
      total_amount: fenToYuan(input.amountFen),
      subject: input.description,
      timeout_express: `${minutes}m`,
    };
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    const content = this.precreateContent(input, this.now());
    const node = await this.trusted(ALIPAY_PRECREATE_METHOD, content, '支付宝下单', { notifyUrl: input.notifyUrl });
    const qrCode = str(node.qr_code);
    if (qrCode === undefined) throw new PaymentGatewayError('支付宝下单应答缺少 qr_code');
    return { payUrl: null, qrCode };
  }

  /**
   * alipay.trade.close. A precreated trade exists at Alipay only once the payer scanned the code, so
   * ACQ.TRADE_NOT_EXIST means nobody scanned it yet (the code stays payable until timeout_express; a
   * payment after that still reaches us as a notification). A trade no longer waiting for payment is
   * either paid or closed: alipay.trade.query tells which. Only signed answers are acted on.
   */
  async closePayment(rechargeId: string): Promise<CloseOutcome> {
    const answer = await this.invoke(ALIPAY_CLOSE_METHOD, { out_trade_no: rechargeId }, '支付宝关单');
    if (!answer.signed) throw new PaymentGatewayError(answer.succeeded ? '支付宝应答缺少签名' : answer.error);
    if (answer.succeeded) return 'CLOSED';
    if (answer.subCode === 'ACQ.TRADE_NOT_EXIST') return 'CLOSED';
    if (answer.subCode !== undefined && ALIPAY_NOT_WAITING.includes(answer.subCode)) {
      const facts = await this.queryPayment(rechargeId);
      if (facts.succeeded) return 'PAID';
      if (facts.closed) return 'CLOSED';
    }
    throw new PaymentGatewayError(answer.error);
  }

  /** alipay.trade.query by out_trade_no; only a signed answer is trusted. */
  async queryPayment(rechargeId: string): Promise<VerifiedNotification> {
    const node = await this.trusted(ALIPAY_QUERY_METHOD, { out_trade_no: rechargeId }, '支付宝查单');
    const tradeNo = str(node.trade_no);
    const tradeStatus = str(node.trade_status);
    if (str(node.out_trade_no) !== rechargeId) throw new PaymentGatewayError('支付宝查单应答的商户订单号不匹配');
    if (tradeNo === undefined || tradeStatus === undefined) throw new PaymentGatewayError('支付宝查单应答缺少交易号或交易状态');
    let amountFen: number;
    try {
      amountFen = yuanToFen(str(node.total_amount) ?? '');
    } catch {
      throw new PaymentGatewayError(`支付宝查单应答金额无效: ${String(node.total_amount)}`);
    }
    return tradeFacts(rechargeId, amountFen, tradeNo, tradeStatus);
  }

  /** Whether the SDK accepts Alipay's signature of the notification parameters. */
  private notificationSigned(params: Record<string, string>): boolean {
    try {
      return this.sdk.checkNotifySignV2(params);
    } catch {
      return false;
    }
  }

  async verifyNotification(request: NotificationRequest): Promise<VerifiedNotification> {
    const params = Object.create(null) as Record<string, string>;
    for (const [key, value] of new URLSearchParams(request.rawBody)) {
      if (Object.hasOwn(params, key)) throw new PaymentNotifyError(`支付宝通知参数重复: ${key}`);
      params[key] = value;
    }
    if (str(params.sign) === undefined) throw new PaymentNotifyError('支付宝通知缺少签名');
    if (params.sign_type !== undefined && params.sign_type !== 'RSA2') throw new PaymentNotifyError('支付宝通知签名类型不是 RSA2');
    // Alipay's verification guide signs every parameter but sign and sign_type, empty ones included (the
    // SDK's check); its request-side rule drops empty values, so a notification signed that way passes too.
    const withoutEmpty = Object.fromEntries(Object.entries(params).filter(([, value]) => value !== ''));
    const verified =
      this.notificationSigned({ ...params }) || (Object.values(params).includes('') && this.notificationSigned(withoutEmpty));
    if (!verified) throw new PaymentNotifyError('支付宝通知签名验证失败');

    if (params.app_id !== this.options.appId) throw new PaymentNotifyError('支付宝通知的 app_id 不匹配');
    if (this.options.sellerId !== undefined && params.seller_id !== this.options.sellerId) {
      throw new PaymentNotifyError('支付宝通知的收款账号不匹配');
    }
    const rechargeId = str(params.out_trade_no);
    const tradeNo = str(params.trade_no);
    const tradeStatus = str(params.trade_status);
    if (rechargeId === undefined || tradeNo === undefined || tradeStatus === undefined) {
      throw new PaymentNotifyError('支付宝通知缺少订单号或交易状态');
    }
    let amountFen: number;
    try {
      amountFen = yuanToFen(params.total_amount ?? '');
    } catch {
      throw new PaymentNotifyError(`支付宝通知金额无效: ${params.total_amount ?? ''}`);
    }
    if (amountFen <= 0) throw new PaymentNotifyError('支付宝通知金额无效: 0');
    return tradeFacts(rechargeId, amountFen, tradeNo, tradeStatus);
  }

  acknowledge(ok: boolean): GatewayAcknowledgement {
    return { status: 200, contentType: 'text/plain', body: ok ? 'success' : 'failure' };
  }
}

function tradeFacts(rechargeId: string, amountFen: number, tradeNo: string, tradeStatus: string): VerifiedNotification {
  return {
    rechargeId,
    amountFen,
    providerTradeNo: tradeNo,
    succeeded: tradeStatus === 'TRADE_SUCCESS' || tradeStatus === 'TRADE_FINISHED',
    closed: tradeStatus === 'TRADE_CLOSED',
  };
}

/** The response node of an unsigned answer (`<method>_response` or `error_response`), or {} when the text has none. */
function unsignedNode(text: string, method: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    return {};
  }
  if (!isRecord(parsed)) return {};
  const node = parsed[`${method.replace(/\./g, '_')}_response`] ?? parsed.error_response;
  return isRecord(node) ? node : {};
}
