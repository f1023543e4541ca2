/**
 * What the invoice calls answer (docs/api-billing.md, 发票): the server's response schemas, and the types
 * the console reads them with (`import type` only). Amounts are integer fen.
 */
import { z } from 'zod';
import { INVOICE_STATUSES, INVOICE_TYPES, INVOICING_METHODS, valuesOf } from '../dictionaries.js';

/** 个人 or 企业: an enterprise title needs a tax number. */
export const INVOICE_TITLE_TYPES = ['PERSONAL', 'ENTERPRISE'] as const;

/** The invoice information (开票信息); optional fields are null when not given (blanks become null). */
export const invoiceProfileSchema = z.object({
  titleType: z.enum(INVOICE_TITLE_TYPES),
  title: z.string(),
  /** Required for ENTERPRISE titles; 15–20 upper-case letters or digits. */
  taxNo: z.string().nullable(),
  bankName: z.string().nullable(),
  bankAccount: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string(),
});
export type InvoiceProfile = z.infer<typeof invoiceProfileSchema>;
export type InvoiceTitleType = InvoiceProfile['titleType'];

export const invoiceItemSchema = z.object({
  rechargeId: z.string().nullable(),
  month: z.string().nullable().describe('yyyy-mm'),
  amount: z.number().int(),
});
export type InvoiceItem = z.infer<typeof invoiceItemSchema>;

export const invoiceViewSchema = z.object({
  id: z.number().int(),
  type: z.enum(valuesOf(INVOICE_TYPES)),
  method: z.enum(valuesOf(INVOICING_METHODS)),
  status: z.enum(valuesOf(INVOICE_STATUSES)),
  statusCode: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable().describe('1 开票中，2 已开票，3 已驳回，已取消为 null'),
  amount: z.number().int().describe('开票金额（分）'),
  title: z.string(),
  titleType: z.enum(INVOICE_TITLE_TYPES),
  profile: invoiceProfileSchema.describe('申请时的开票信息快照'),
  items: z.array(invoiceItemSchema),
  invoiceNo: z.string().nullable(),
  hasPdf: z.boolean(),
  rejectReason: z.string().nullable(),
  remark: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type InvoiceView = z.infer<typeof invoiceViewSchema>;

/** `GET /invoice/invoiceable`: what can be invoiced, by recharge (按充值) and by month (按账单). */
export const invoiceableSchema = z.object({
  recharges: z.array(
    z.object({
      rechargeId: z.string(),
      channel: z.string(),
      amount: z.number().int(),
      invoiced: z.number().int(),
      invoiceable: z.number().int(),
      paidAt: z.string().nullable(),
    }),
  ),
  months: z.array(
    z.object({
      /** `yyyy-mm`. */
      month: z.string(),
      consumption: z.number().int().describe('余额支付的消费（分，已扣除退款）'),
      giftPaid: z.number().int().describe('其中由赠送余额支付、不可开票的部分（分）'),
      voucherPaid: z.number().int().describe('代金券抵扣（分，不经过余额，不可开票）'),
      /** Held by applications under review and issued invoices. */
      invoiced: z.number().int(),
      /** What can be requested now: cash paid, minus what applications hold, within `available`. */
      invoiceable: z.number().int(),
    }),
  ),
  cashTotal: z.number().int().describe('累计现金充值（分）'),
  invoicedTotal: z.number().int().describe('开票中与已开票的合计（分）'),
  available: z.number().int().describe('还可开票的总额（分）= cashTotal − invoicedTotal'),
});
export type Invoiceable = z.infer<typeof invoiceableSchema>;
export type InvoiceableRecharge = Invoiceable['recharges'][number];
export type InvoiceableMonth = Invoiceable['months'][number];
