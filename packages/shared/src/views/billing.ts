/**
 * What the money calls answer (docs/api-billing.md: recharge, ledger, bills, orders, vouchers): the
 * server's response schemas, and the types the console reads them with (`import type` only). Every
 * amount is integer fen, every time an ISO 8601 string.
 */
import { z } from 'zod';
import { PAYMENT_CHANNELS, PAYMENT_STATUSES, valuesOf } from '../dictionaries.js';

/** A recharge (充值) and how to pay it. */
export const rechargeViewSchema = z.object({
  rechargeId: z.string(),
  amount: z.number().int(),
  channel: z.enum(valuesOf(PAYMENT_CHANNELS)),
  status: z.enum(valuesOf(PAYMENT_STATUSES)),
  payUrl: z.string().nullable(),
  qrCode: z.string().nullable(),
  bankReference: z.string().nullable(),
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
export type RechargeView = z.infer<typeof rechargeViewSchema>;

/** `GET /payment/channels`: the channels on offer, and the account a bank transfer goes to. */
export const paymentChannelsSchema = z.object({
  channels: z.array(z.enum(valuesOf(PAYMENT_CHANNELS))),
  bankAccount: z.object({ bankName: z.string(), accountName: z.string(), accountNo: z.string() }).nullable(),
});
export type PaymentChannels = z.infer<typeof paymentChannelsSchema>;
export type BankAccount = NonNullable<PaymentChannels['bankAccount']>;

/** `GET /ledger/entries` (收支明细): one movement of the wallet. */
export const ledgerEntrySchema = z.object({
  id: z.number(),
  transactionId: z.number(),
  type: z.string(),
  channel: z.string(),
  incomeType: z.enum(['INCOME', 'EXPENSE']),
  /** Signed: positive for income, negative for expense. */
  amount: z.number().int(),
  balanceAfter: z.number().int(),
  description: z.string(),
  orderNo: z.string().nullable(),
  rechargeId: z.string().nullable(),
  createdAt: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

/** `GET /bills` (账单明细): a charge or a refund, with its balance and voucher parts. */
export const billSchema = z.object({
  id: z.number(),
  orderNo: z.string().nullable(),
  orderType: z.string().nullable(),
  billingType: z.string().nullable(),
  title: z.string(),
  /** Charged (refunds negative). */
  amount: z.number().int(),
  cashAmount: z.number().int(),
  voucherAmount: z.number().int(),
  createdAt: z.string(),
});
export type Bill = z.infer<typeof billSchema>;

export const orderSummarySchema = z.object({
  orderNo: z.string(),
  type: z.string(),
  status: z.string(),
  billingType: z.string(),
  title: z.string(),
  originalAmount: z.number().int(),
  discount: z.number().int(),
  paidAmount: z.number().int(),
  refundedAmount: z.number().int(),
  meteredAmount: z.number().int(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

export const orderDetailSchema = orderSummarySchema.extend({
  items: z.array(
    z.object({ name: z.string(), spec: z.string(), quantity: z.number(), unit: z.string(), unitPrice: z.number().int(), amount: z.number().int() }),
  ),
  voucher: z.object({ id: z.number(), name: z.string(), amount: z.number().int() }).nullable(),
  /** The order's money movements; `amount` signed, the wallet's side. */
  transactions: z.array(
    z.object({ id: z.number(), type: z.string(), channel: z.string(), amount: z.number().int(), description: z.string(), createdAt: z.string() }),
  ),
  canceledAt: z.string().nullable(),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;
export type OrderItem = OrderDetail['items'][number];
export type OrderTransaction = OrderDetail['transactions'][number];

/** A voucher (代金券) of the account. */
export const voucherViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  amount: z.number().int(),
  /** 满 X 可用; 0 means no threshold. */
  minOrderAmount: z.number().int(),
  /** Order types it applies to; empty: every prepaid order. */
  scope: z.array(z.string()),
  validFrom: z.string(),
  validTo: z.string(),
  status: z.enum(['UNUSED', 'USED', 'EXPIRED']),
  usedAt: z.string().nullable(),
  usedOrderNo: z.string().nullable(),
});
export type VoucherView = z.infer<typeof voucherViewSchema>;
export type VoucherStatus = VoucherView['status'];

/** `POST /voucher/redeem`: a code gives a voucher or gift balance. */
export const redeemResultSchema = z.object({
  kind: z.enum(['VOUCHER', 'BALANCE']),
  amount: z.number().int().describe('代金券面额或赠送余额（分）'),
  voucher: voucherViewSchema.nullable(),
});
export type RedeemResult = z.infer<typeof redeemResultSchema>;
