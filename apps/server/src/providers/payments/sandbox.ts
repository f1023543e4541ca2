import { hmacHex, randomToken, safeEqualHex } from '../../lib/crypto.js';
import type {
  CreatedPayment,
  CreatePaymentInput,
  GatewayAcknowledgement,
  NotificationRequest,
  PaymentGateway,
  VerifiedNotification,
} from './provider.js';
import { PaymentNotifyError } from './provider.js';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

export interface SandboxNotification {
  rechargeId: string;
  amountFen: number;
  tradeNo: string;
  status: 'SUCCESS' | 'CLOSED';
  nonce: string;
}

/**
 * The development gateway: a payment page inside the app, and notifications signed with HMAC-SHA256
 * that travel through the same notify endpoint and checks as the real gateways'.
 */
export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox';

  constructor(
    private readonly secret: string,
    private readonly publicUrl: string,
  ) {}

  async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
    const payUrl = `${this.publicUrl}/sandbox-pay/${encodeURIComponent(input.rechargeId)}`;
    return { payUrl, qrCode: payUrl };
  }

  sign(rawBody: string): string {
    return hmacHex(this.secret, rawBody);
  }

  /** The notification the sandbox "bank" sends after the payer confirms. */
  notificationFor(rechargeId: string, amountFen: number, status: SandboxNotification['status']): { body: string; signature: string } {
    const notification: SandboxNotification = { rechargeId, amountFen, tradeNo: `SANDBOX${randomToken(9)}`, status, nonce: randomToken(12) };
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
