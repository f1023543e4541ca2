import { z } from 'zod';
import { INVOICE_TITLE_TYPES, invoiceViewSchema, type Invoiceable, type InvoiceProfile, type InvoiceView } from '@slg/shared/views/invoices';
import { text } from '../../http/fields.js';
import { pageQuery } from '../../http/pagination.js';
import type { invoiceItems, invoiceProfiles, invoices } from '../../db/schema/index.js';

export const TITLE_TYPES = INVOICE_TITLE_TYPES;
export const INVOICE_TYPES = ['ORDINARY', 'SPECIAL'] as const;
export const INVOICE_METHODS = ['RECHARGE', 'BILL'] as const;
export const INVOICE_STATUSES = ['PENDING', 'SUCCESS', 'REJECTED', 'CANCELED'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** Invoices whose items hold their amount out of the pool; REJECTED and CANCELED give it back. */
export const CLAIMING_STATUSES: InvoiceStatus[] = ['PENDING', 'SUCCESS'];

/** The smallest invoice a request may produce: ¥1.00. */
export const INVOICE_MIN_FEN = 100;

export const TAX_NO_PATTERN = /^[0-9A-Z]{15,20}$/;
export const BILL_MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

const STATUS_CODES: Record<InvoiceStatus, 1 | 2 | 3 | null> = { PENDING: 1, SUCCESS: 2, REJECTED: 3, CANCELED: null };

/** An optional text field: missing, null and blank all mean "not given" (null). */
function optionalText(label: string, max: number) {
  return z
    .string({ error: `${label}必须是文本` })
    .trim()
    .max(max, `${label}不能超过${max}个字符`)
    .nullish()
    .transform((value) => (value ? value : null));
}

export const invoiceProfileInput = z
  .object({
    titleType: z.enum(TITLE_TYPES, { error: '抬头类型必须是 PERSONAL（个人）或 ENTERPRISE（企业）' }),
    title: text('发票抬头').trim().min(1, '请输入发票抬头').max(100, '发票抬头不能超过100个字符'),
    taxNo: optionalText('税号', 20)
      .transform((value) => value?.toUpperCase() ?? null)
      .refine((value) => value === null || TAX_NO_PATTERN.test(value), '税号应为15-20位大写字母或数字'),
    bankName: optionalText('开户银行', 100),
    bankAccount: optionalText('银行账号', 40).refine(
      (value) => value === null || /^[\d -]{4,40}$/.test(value),
      '银行账号只能包含数字、空格或短横线',
    ),
    address: optionalText('注册地址', 200),
    phone: optionalText('注册电话', 32).refine(
      (value) => value === null || /^[\d ()+-]{5,32}$/.test(value),
      '注册电话格式不正确',
    ),
    email: text('接收邮箱')
      .trim()
      .min(1, '请输入接收邮箱')
      .max(100, '接收邮箱不能超过100个字符')
      .pipe(z.email('接收邮箱格式不正确')),
  })
  .superRefine((profile, ctx) => {
    if (profile.titleType === 'ENTERPRISE' && !profile.taxNo) {
      ctx.addIssue({ code: 'custom', path: ['taxNo'], message: '企业抬头必须填写税号' });
    }
  });
export type InvoiceProfileInput = z.infer<typeof invoiceProfileInput>;

// The answers' schemas live in packages/shared (views/invoices), where the console reads their types.
export type { Invoiceable, InvoiceProfile, InvoiceView };

export function toProfileView(row: Pick<typeof invoiceProfiles.$inferSelect, keyof InvoiceProfile>): InvoiceProfile {
  return {
    titleType: row.titleType === 'ENTERPRISE' ? 'ENTERPRISE' : 'PERSONAL',
    title: row.title,
    taxNo: row.taxNo,
    bankName: row.bankName,
    bankAccount: row.bankAccount,
    address: row.address,
    phone: row.phone,
    email: row.email,
  };
}

/** The profile as snapshotted into an invoice (jsonb of strings and nulls). */
export function profileOfSnapshot(snapshot: Record<string, string | null>): InvoiceProfile {
  return toProfileView({
    titleType: snapshot.titleType ?? 'PERSONAL',
    title: snapshot.title ?? '',
    taxNo: snapshot.taxNo ?? null,
    bankName: snapshot.bankName ?? null,
    bankAccount: snapshot.bankAccount ?? null,
    address: snapshot.address ?? null,
    phone: snapshot.phone ?? null,
    email: snapshot.email ?? '',
  });
}

/** SPECIAL (增值税专用发票) needs an enterprise title with every bank and registration field. */
export function specialReady(profile: InvoiceProfile): boolean {
  return (
    profile.titleType === 'ENTERPRISE' &&
    Boolean(profile.taxNo && profile.bankName && profile.bankAccount && profile.address && profile.phone)
  );
}

export const invoiceRequestInput = z.object({
  method: z.enum(INVOICE_METHODS, { error: '开票方式必须是 RECHARGE（按充值）或 BILL（按账单）' }),
  type: z.enum(INVOICE_TYPES, { error: '发票类型必须是 ORDINARY（普通发票）或 SPECIAL（专用发票）' }),
  rechargeIds: z
    .array(text('充值单号').trim().min(1, '充值单号不能为空').max(32, '充值单号不正确'), { error: '充值单号列表必须是数组' })
    .max(200, '一次最多选择200笔充值')
    .optional(),
  months: z
    .array(text('账单月份').regex(BILL_MONTH_PATTERN, '账单月份格式应为 yyyy-mm'), { error: '账单月份列表必须是数组' })
    .max(120, '一次最多选择120个月份')
    .optional(),
  remark: z.string({ error: '备注必须是文本' }).trim().max(200, '备注不能超过200个字符').nullish(),
});
export type InvoiceRequestInput = z.infer<typeof invoiceRequestInput>;

export const invoiceIdParams = z.object({
  id: z.coerce.number({ error: '发票编号必须是数字' }).int('发票编号必须是整数').positive('发票编号必须是正整数'),
});

export const invoiceStatusQuery = pageQuery.extend({
  status: z.enum(INVOICE_STATUSES, { error: '发票状态必须是 PENDING、SUCCESS、REJECTED 或 CANCELED' }).optional(),
});

export const adminInvoiceViewSchema = invoiceViewSchema.extend({
  ownerTelephone: z.string().nullable(),
});
export type AdminInvoiceView = z.infer<typeof adminInvoiceViewSchema>;

type InvoiceRow = typeof invoices.$inferSelect;
type InvoiceItemRow = typeof invoiceItems.$inferSelect;

function asStatus(value: string): InvoiceStatus {
  return (INVOICE_STATUSES as readonly string[]).includes(value) ? (value as InvoiceStatus) : 'PENDING';
}

export function toInvoiceView(row: InvoiceRow, items: InvoiceItemRow[]): InvoiceView {
  const status = asStatus(row.status);
  const profile = profileOfSnapshot(row.profile);
  return {
    id: row.id,
    type: row.type === 'SPECIAL' ? 'SPECIAL' : 'ORDINARY',
    method: row.method === 'BILL' ? 'BILL' : 'RECHARGE',
    status,
    statusCode: STATUS_CODES[status],
    amount: row.amountFen,
    title: profile.title,
    titleType: profile.titleType,
    profile,
    items: items.map((item) => ({ rechargeId: item.rechargeId, month: item.billMonth, amount: item.amountFen })),
    invoiceNo: row.invoiceNo,
    hasPdf: row.pdfPath !== null,
    rejectReason: row.rejectReason,
    remark: row.remark,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

/** yyyy-mm of a moment in China time (UTC+8), the month a bill belongs to. */
export function chinaMonthOf(moment: Date): string {
  return new Date(moment.getTime() + 8 * 3600 * 1000).toISOString().slice(0, 7);
}
