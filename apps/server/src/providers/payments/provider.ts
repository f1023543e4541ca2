/** Payment gateways (WeChat Pay, Alipay, the sandbox) behind one interface. */
export type GatewayName = 'sandbox' | 'wechatpay' | 'alipay';

export interface CreatePaymentInput {
  /** Our id of the recharge; the gateway's out_trade_no. */
  rechargeId: string;
  amountFen: number;
  /** Shown to the payer, e.g. 算力港账户充值. */
  description: string;
  /** Absolute URL the gateway posts its notification to. */
  notifyUrl: string;
  expiresAt: Date;
}

export interface CreatedPayment {
  /** A page the payer can open (sandbox gateway, Alipay cashier). */
  payUrl: string | null;
  /** Content of the QR code the payer scans (WeChat `code_url`, Alipay `qr_code`). */
  qrCode: string | null;
}

export interface VerifiedNotification {
  rechargeId: string;
  amountFen: number;
  providerTradeNo: string;
  /** The gateway says the payment succeeded. */
  succeeded: boolean;
  /** The gateway closed the trade without payment (as opposed to still waiting for the payer). */
  closed: boolean;
}

export interface NotificationRequest {
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received: signatures are over these bytes. */
  rawBody: string;
}

export interface GatewayAcknowledgement {
  status: number;
  contentType: string;
  body: string;
}

/**
 * What closing a trade at the gateway found: CLOSED (closed now, already closed, or never opened: the
 * payer cannot pay it any more) or PAID (the payer paid first: the trade stays and must be credited).
 */
export type CloseOutcome = 'CLOSED' | 'PAID';

export interface PaymentGateway {
  readonly name: GatewayName;
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /** Closes the unpaid trade so the payer can no longer pay it; throws PaymentGatewayError when the gateway cannot say. */
  closePayment(rechargeId: string): Promise<CloseOutcome>;
  /** Asks the gateway for the trade's state; the answer is checked like a notification. Throws PaymentGatewayError. */
  queryPayment(rechargeId: string): Promise<VerifiedNotification>;
  /** Checks the signature (and decrypts where the gateway encrypts); throws PaymentNotifyError when forged. */
  verifyNotification(request: NotificationRequest): Promise<VerifiedNotification>;
  /** The answer the gateway expects, so it stops retrying (ok) or retries later (not ok). */
  acknowledge(ok: boolean): GatewayAcknowledgement;
}

export class PaymentNotifyError extends Error {}
export class PaymentGatewayError extends Error {}

/** What the HTTP gateways (WeChat Pay, Alipay) take besides their credentials; tests pass their own clock. */
export interface GatewayRuntimeOptions {
  now?: () => Date;
}
