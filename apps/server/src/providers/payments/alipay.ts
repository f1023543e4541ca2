import { createPrivateKey, createPublicKey, createSign, createVerify, type KeyObject } from 'node:crypto';
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
import { PaymentGatewayError, PaymentNotifyError, postToGateway } from './provider.js';

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
/** Common parameters the official SDKs send in the query string; the business parameters (biz_content) go in the form body. */
const QUERY_PARAMS = ['app_id', 'method', 'format', 'charset', 'sign_type', 'sign', 'timestamp', 'version', 'notify_url'];

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

/** 'yyyy-MM-dd HH:mm:ss' in China time (UTC+8), the format of the `timestamp` parameter. */
export function formatAlipayTime(date: Date): string {
  return new Date(date.getTime() + 8 * 3600 * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The content RSA2 signs: parameters sorted by key, `k=v` joined with `&`, without the excluded keys
 * (`sign` for requests; `sign` and `sign_type` for notifications) and, unless told otherwise, without empty values.
 */
export function alipaySignContent(
  params: Record<string, string | undefined>,
  options: { exclude?: readonly string[]; skipEmpty?: boolean } = {},
): string {
  const exclude = options.exclude ?? ['sign'];
  const skipEmpty = options.skipEmpty ?? true;
  return Object.keys(params)
    .filter((key) => !exclude.includes(key))
    .filter((key) => !skipEmpty || (params[key] !== undefined && params[key] !== ''))
    .sort()
    .map((key) => `${key}=${params[key] ?? ''}`)
    .join('&');
}

/** base64(SHA256withRSA) of the content with the application private key. */
export function alipaySign(content: string, privateKey: KeyObject | string): string {
  return createSign('RSA-SHA256').update(content, 'utf8').sign(privateKey, 'base64');
}

export function alipayVerify(content: string, signature: string, publicKey: KeyObject | string): boolean {
  try {
    return createVerify('RSA-SHA256').update(content, 'utf8').verify(publicKey, signature, 'base64');
  } catch {
    return false;
  }
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

/** End index (exclusive) of the JSON string starting at `start` (a quote). */
function scanString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === '"') return i + 1;
    else i += 1;
  }
  throw new SyntaxError('unterminated string');
}

/** End index (exclusive) of the JSON value starting at `start`. */
function scanValue(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return scanString(text, start);
  if (first === '{' || first === '[') {
    let depth = 0;
    let i = start;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i = scanString(text, i);
        continue;
      }
      if (c === '{' || c === '[') depth += 1;
      else if (c === '}' || c === ']') {
        depth -= 1;
        if (depth === 0) return i + 1;
      }
      i += 1;
    }
    throw new SyntaxError('unterminated value');
  }
  let i = start;
  while (i < text.length && !/[,}\]\s]/.test(text[i] ?? '')) i += 1;
  return i;
}

/**
 * The exact text of a top-level member's value in a JSON object, as received: Alipay signs
 * the response node's text, so it must not be re-serialised. Null when the member is absent or the text is not an object.
 */
export function extractAlipayResponseNode(text: string, key: string): string | null {
  const skipSpace = (i: number) => {
    while (i < text.length && /\s/.test(text[i] ?? '')) i += 1;
    return i;
  };
  try {
    let i = skipSpace(0);
    if (text[i] !== '{') return null;
    i = skipSpace(i + 1);
    while (i < text.length && text[i] !== '}') {
      if (text[i] !== '"') return null;
      const keyEnd = scanString(text, i);
      const name = JSON.parse(text.slice(i, keyEnd)) as string;
      i = skipSpace(keyEnd);
      if (text[i] !== ':') return null;
      i = skipSpace(i + 1);
      const valueEnd = scanValue(text, i);
      if (name === key) return text.slice(i, valueEnd);
      i = skipSpace(valueEnd);
      if (text[i] === ',') i = skipSpace(i + 1);
    }
    return null;
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A method's response node, whether Alipay signed it, and what a failure says. */
interface AlipayAnswer {
  node: Record<string, unknown>;
  signed: boolean;
  /** HTTP 2xx and code 10000. */
  succeeded: boolean;
  subCode: string | undefined;
  /** `<failure>失败: <sub_code or code> <sub_msg or msg>`. */
  error: string;
}

/** Alipay OpenAPI, 当面付 QR code (alipay.trade.precreate), RSA2 with the Alipay public key (公钥模式). */
export class AlipayGateway implements PaymentGateway {
  readonly name = 'alipay';
  private readonly privateKey: KeyObject;
  private readonly alipayKey: KeyObject;

  constructor(private readonly options: AlipayOptions) {
    this.privateKey = loadAlipayPrivateKey(options.privateKeyPem);
    this.alipayKey = loadAlipayPublicKey(options.alipayPublicKeyPem);
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Common parameters for `method`, its biz_content and the RSA2 signature over all of them. */
  private signedParams(method: string, bizContent: string, now: Date, extra: Record<string, string> = {}): Record<string, string> {
    const params: Record<string, string> = {
      app_id: this.options.appId,
      method,
      format: 'JSON',
      charset: 'utf-8',
      sign_type: 'RSA2',
      timestamp: formatAlipayTime(now),
      version: '1.0',
      ...extra,
      biz_content: bizContent,
    };
    return { ...params, sign: alipaySign(alipaySignContent(params), this.privateKey) };
  }

  /** The signed request parameters of alipay.trade.precreate (common parameters, biz_content and sign). */
  buildRequestParams(input: CreatePaymentInput, now: Date): Record<string, string> {
    if (!Number.isSafeInteger(input.amountFen) || input.amountFen <= 0) {
      throw new PaymentGatewayError(`支付宝下单金额无效: ${input.amountFen}`);
    }
    // timeout_express (1m–15d, whole minutes) is the relative expiry alipay.trade.precreate documents; round down so
    // Alipay closes the trade no later than our own expiry.
    const minutes = Math.min(15 * 24 * 60, Math.max(1, Math.floor((input.expiresAt.getTime() - now.getTime()) / 60_000)));
    const bizContent = JSON.stringify({
      out_trade_no: input.rechargeId,
      total_amount: fenToYuan(input.amountFen),
      subject: input.description,
      timeout_express: `${minutes}m`,
    });
    return this.signedParams(ALIPAY_PRECREATE_METHOD, bizContent, now, { notify_url: input.notifyUrl });
  }

  /**
   * Posts signed parameters to the gateway and returns the method's response node. A signature, when
   * present, must verify; whether an unsigned node may be trusted is the caller's call (the SDKs accept
   * unsigned failures only).
   */
  private async invoke(params: Record<string, string>, failure: string): Promise<AlipayAnswer> {
    const query = new URLSearchParams();
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) (QUERY_PARAMS.includes(key) ? query : form).append(key, value);
    const url = `${this.options.gateway ?? ALIPAY_GATEWAY}?${query.toString()}`;
    const { response, text } = await postToGateway(
      this.options,
      url,
      { headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=utf-8', Accept: 'application/json' }, body: form.toString() },
      `${failure}请求失败`,
    );

    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      throw new PaymentGatewayError(`${failure}失败: HTTP ${response.status}，应答不是 JSON`);
    }
    const responseKey = `${params.method?.replace(/\./g, '_') ?? ''}_response`;
    const nodeKey = isRecord(parsed) && isRecord(parsed[responseKey]) ? responseKey : 'error_response';
    const node = isRecord(parsed) ? parsed[nodeKey] : undefined;
    if (!isRecord(parsed) || !isRecord(node)) throw new PaymentGatewayError(`${failure}失败: HTTP ${response.status}，应答格式错误`);

    const sign = str(parsed.sign);
    if (sign !== undefined) {
      const nodeText = extractAlipayResponseNode(text, nodeKey);
      if (nodeText === null || !alipayVerify(nodeText, sign, this.alipayKey)) {
        throw new PaymentGatewayError('支付宝应答签名验证失败');
      }
    }
    const succeeded = response.ok && node.code === '10000';
    const code = str(node.sub_code) ?? str(node.code) ?? `HTTP ${response.status}`;
    const message = str(node.sub_msg) ?? str(node.msg) ?? '';
    return { node, signed: sign !== undefined, succeeded, subCode: str(node.sub_code), error: `${failure}失败: ${code} ${message}`.trim() };
  }

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    const answer = await this.invoke(this.buildRequestParams(input, this.now()), '支付宝下单');
    if (!answer.succeeded) throw new PaymentGatewayError(answer.error);
    // Error responses may come unsigned, but a QR code is only trusted with Alipay's signature.
    if (!answer.signed) throw new PaymentGatewayError('支付宝应答缺少签名');
    const qrCode = str(answer.node.qr_code);
    if (qrCode === undefined) throw new PaymentGatewayError('支付宝下单应答缺少 qr_code');
    return { payUrl: null, qrCode };
  }

  /**
   * alipay.trade.close. A precreated trade exists at Alipay only once the payer scanned the code, so
   * ACQ.TRADE_NOT_EXIST means nobody scanned it yet (the code stays payable until timeout_express; a
   * payment after that still reaches us as a notification). A trade no longer waiting for payment is
   * either paid or closed: alipay.trade.query tells which.
   */
  async closePayment(rechargeId: string): Promise<CloseOutcome> {
    const bizContent = JSON.stringify({ out_trade_no: rechargeId });
    const answer = await this.invoke(this.signedParams(ALIPAY_CLOSE_METHOD, bizContent, this.now()), '支付宝关单');
    if (answer.succeeded) {
      if (!answer.signed) throw new PaymentGatewayError('支付宝应答缺少签名');
      return 'CLOSED';
    }
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
    const bizContent = JSON.stringify({ out_trade_no: rechargeId });
    const answer = await this.invoke(this.signedParams(ALIPAY_QUERY_METHOD, bizContent, this.now()), '支付宝查单');
    if (!answer.succeeded) throw new PaymentGatewayError(answer.error);
    if (!answer.signed) throw new PaymentGatewayError('支付宝应答缺少签名');
    const { node } = answer;
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
    return {
      rechargeId,
      amountFen,
      providerTradeNo: tradeNo,
      succeeded: tradeStatus === 'TRADE_SUCCESS' || tradeStatus === 'TRADE_FINISHED',
      closed: tradeStatus === 'TRADE_CLOSED',
    };
  }

  async verifyNotification(request: NotificationRequest): Promise<VerifiedNotification> {
    const params = Object.create(null) as Record<string, string>;
    for (const [key, value] of new URLSearchParams(request.rawBody)) {
      if (Object.hasOwn(params, key)) throw new PaymentNotifyError(`支付宝通知参数重复: ${key}`);
      params[key] = value;
    }
    const sign = str(params.sign);
    if (sign === undefined) throw new PaymentNotifyError('支付宝通知缺少签名');
    if (params.sign_type !== undefined && params.sign_type !== 'RSA2') throw new PaymentNotifyError('支付宝通知签名类型不是 RSA2');
    const exclude = ['sign', 'sign_type'];
    // Alipay's verification guide signs every remaining parameter; the SDKs' request-side rule drops empty values, so accept either.
    const verified =
      alipayVerify(alipaySignContent(params, { exclude, skipEmpty: false }), sign, this.alipayKey) ||
      (Object.values(params).includes('') &&
        alipayVerify(alipaySignContent(params, { exclude, skipEmpty: true }), sign, this.alipayKey));
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
    return {
      rechargeId,
      amountFen,
      providerTradeNo: tradeNo,
      succeeded: tradeStatus === 'TRADE_SUCCESS' || tradeStatus === 'TRADE_FINISHED',
      closed: tradeStatus === 'TRADE_CLOSED',
    };
  }

  acknowledge(ok: boolean): GatewayAcknowledgement {
    return { status: 200, contentType: 'text/plain', body: ok ? 'success' : 'failure' };
  }
}
