import { hmacHex, randomToken, safeEqualHex } from '../../lib/crypto.js';
import type {
  CloseOutcome,
  CreatedPayment,
  CreatePaymentInput,
  GatewayAcknowledgement,
  NotificationRequest,
  PaymentGateway,
  VerifiedNotification,
} from './provider.js';
import { PaymentGatewayError, PaymentNotifyError } from './provider.js';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

export interface SandboxNotification {
  rechargeId: string;
  amountFen: number;
  tradeNo: string;
  status: 'SUCCESS' | 'CLOSED';
  nonce: string;
}

/** The sandbox's own record of a trade the payer acted on: paid (with its trade number) or closed. */
type SandboxTrade = { state: 'PAID'; amountFen: number; tradeNo: string } | { state: 'CLOSED' };

/**
 * The development gateway: a payment page inside the app, and notifications signed with HMAC-SHA256
 * that travel through the same notify endpoint and checks as the real gateways'. Like a real gateway it
 * keeps its own state of each trade (in memory: it serves one development process), so a closed trade
 * cannot be paid and a paid one cannot be closed; each change is one synchronous step, hence atomic.
 */
export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox';
  private readonly trades = new Map<string, SandboxTrade>();

  constructor(
    private readonly secret: string,
    private readonly publicUrl: string,
  ) {}

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    const payUrl = `${this.publicUrl}/sandbox-pay/${encodeURIComponent(input.rechargeId)}`;
    return { payUrl, qrCode: payUrl };
  }

  /** The payer confirms: the trade is paid unless it was closed. Null when closed; a repeat returns the same trade. */
  pay(rechargeId: string, amountFen: number): { tradeNo: string } | null {
    const trade = this.trades.get(rechargeId);
    if (trade?.state === 'CLOSED') return null;
    if (trade?.state === 'PAID') return trade;
    const paid = { state: 'PAID' as const, amountFen, tradeNo: `SANDBOX${randomToken(9)}` };
    this.trades.set(rechargeId, paid);
    return paid;
  }

  /** Whether the payer can still pay the trade here (the platform's own record may say more). */
  isClosed(rechargeId: string): boolean {
    return this.trades.get(rechargeId)?.state === 'CLOSED';
  }

  async closePayment(rechargeId: string): Promise<CloseOutcome> {
    if (this.trades.get(rechargeId)?.state === 'PAID') return 'PAID';
    this.trades.set(rechargeId, { state: 'CLOSED' });
    return 'CLOSED';
  }

  async queryPayment(rechargeId: string): Promise<VerifiedNotification> {
    const trade = this.trades.get(rechargeId);
    if (trade?.state !== 'PAID') throw new PaymentGatewayError(`沙箱支付查单失败: 订单 ${rechargeId} 未支付`);
    return { rechargeId, amountFen: trade.amountFen, providerTradeNo: trade.tradeNo, succeeded: true, closed: false };
  }

  sign(rawBody: string): string {
    return hmacHex(this.secret, rawBody);
  }

  /** The notification the sandbox "bank" sends after the payer confirms (or cancels). */
  notificationFor(
    rechargeId: string,
    amountFen: number,
    status: SandboxNotification['status'],
    tradeNo = `SANDBOX${randomToken(9)}`,
  ): { body: string; signature: string } {
    const notification: SandboxNotification = { rechargeId, amountFen, tradeNo, status, nonce: randomToken(12) };
    const body = JSON.stringify(notification);
    return { body, signature: this.sign(body) };
  }

  async verifyNotification(request: NotificationRequest): Promise<VerifiedNotification> {
    const header = request.headers[SANDBOX_SIGNATURE_HEADER];
    const signature = Array.isArray(header) ? header[0] : header;
    if (!signature || !/^[0-9a-f]{64}$/.test(signature) || !safeEqualHex(signature, this.sign(request.rawBody))) {
      throw new PaymentNotifyError('沙箱支付通知签名无效');
    }
    let parsed: Partial<SandboxNotification>;
    try {
      parsed = JSON.parse(request.rawBody) as Partial<SandboxNotification>;
    } catch {
      throw new PaymentNotifyError('沙箱支付通知格式不正确');
    }
    if (parsed === null || typeof parsed !== 'object') throw new PaymentNotifyError('沙箱支付通知格式不正确');
    if (typeof parsed.rechargeId !== 'string' || !Number.isSafeInteger(parsed.amountFen) || typeof parsed.tradeNo !== 'string') {
      throw new PaymentNotifyError('沙箱支付通知缺少字段');
    }
    return {
      rechargeId: parsed.rechargeId,
      amountFen: parsed.amountFen as number,
      providerTradeNo: parsed.tradeNo,
      succeeded: parsed.status === 'SUCCESS',
      closed: parsed.status === 'CLOSED',
    };
  }

  acknowledge(ok: boolean): GatewayAcknowledgement {
    return ok
      ? { status: 200, contentType: 'application/json', body: '{"code":"SUCCESS"}' }
      : { status: 400, contentType: 'application/json', body: '{"code":"FAIL"}' };
  }
}
