/** Invoices (docs/api-billing.md, 发票). Amounts are integer fen. */
import type { InvoiceStatusValue, InvoiceTypeValue, InvoicingMethodValue, Page, PaymentChannelValue } from '@slg/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { billingKeys, type PageQuery } from './billing';
import { request, type DownloadResult } from './client';

export type InvoiceTitleType = 'PERSONAL' | 'ENTERPRISE';

/** Optional fields are null when not given (the server turns blanks into null). */
export interface InvoiceProfileDto {
  titleType: InvoiceTitleType;
  title: string;
  /** Required for ENTERPRISE titles; 15–20 upper-case letters or digits. */
  taxNo: string | null;
  bankName: string | null;
  bankAccount: string | null;
  address: string | null;
  phone: string | null;
  email: string;
}

/** The smallest invoice the server accepts: ¥1.00. */
export const INVOICE_MIN_FEN = 100;

export interface InvoiceableRechargeDto {
  rechargeId: string;
  channel: PaymentChannelValue;
  amount: number;
  invoiced: number;
  invoiceable: number;
  paidAt: string | null;
}

export interface InvoiceableMonthDto {
  /** `yyyy-mm`. */
  month: string;
  /** What the wallets paid for orders in the month (refunds deducted). */
  consumption: number;
  /** The part of `consumption` paid by gift balance: not invoiceable. */
  giftPaid: number;
  /** What vouchers took off the month's orders (never through the wallet): not invoiceable. */
  voucherPaid: number;
  /** Held by applications under review and issued invoices. */
  invoiced: number;
  /** What can be requested now: cash paid, minus what applications hold, within `available`. */
  invoiceable: number;
}

export interface InvoiceableDto {
  recharges: InvoiceableRechargeDto[];
  months: InvoiceableMonthDto[];
  /** Cash recharged, in total. */
  cashTotal: number;
  /** Held by applications under review (审核中) and issued invoices (已开票) together. */
  invoicedTotal: number;
  /** What can still be requested: cashTotal − invoicedTotal. */
  available: number;
}

export interface InvoiceItemDto {
  rechargeId: string | null;
  month: string | null;
  amount: number;
}

export interface InvoiceDto {
  id: number | string;
  type: InvoiceTypeValue;
  method: InvoicingMethodValue;
  status: InvoiceStatusValue;
  statusCode: 1 | 2 | 3 | null;
  amount: number;
  title: string;
  titleType: InvoiceTitleType;
  /** The invoice information as it was when the application was filed. */
  profile: InvoiceProfileDto;
  items: InvoiceItemDto[];
  invoiceNo: string | null;
  hasPdf: boolean;
  rejectReason: string | null;
  remark: string | null;
  createdAt: string;
  decidedAt: string | null;
}

export interface InvoiceListQuery extends PageQuery {
  status?: InvoiceStatusValue;
}

export interface CreateInvoiceBody {
  method: InvoicingMethodValue;
  type: InvoiceTypeValue;
  rechargeIds?: string[];
  months?: string[];
  remark?: string;
}

export function fetchInvoiceProfile(): Promise<InvoiceProfileDto | null> {
  return request<InvoiceProfileDto | null>({ url: '/invoice/info' });
}

export function saveInvoiceProfile(profile: InvoiceProfileDto): Promise<InvoiceProfileDto> {
  return request<InvoiceProfileDto>({ method: 'PUT', url: '/invoice/info', data: profile });
}

export function fetchInvoiceable(): Promise<InvoiceableDto> {
  return request<InvoiceableDto>({ url: '/invoice/invoiceable' });
}

export function createInvoice(body: CreateInvoiceBody): Promise<InvoiceDto> {
  return request<InvoiceDto>({ method: 'POST', url: '/invoice', data: body });
}

export function fetchInvoices(query: InvoiceListQuery): Promise<Page<InvoiceDto>> {
  return request<Page<InvoiceDto>>({ url: '/invoice', params: { ...query } });
}

export function fetchInvoice(id: InvoiceDto['id']): Promise<InvoiceDto> {
  return request<InvoiceDto>({ url: `/invoice/${encodeURIComponent(String(id))}` });
}

export function cancelInvoice(id: InvoiceDto['id']): Promise<InvoiceDto> {
  return request<InvoiceDto>({ method: 'POST', url: `/invoice/${encodeURIComponent(String(id))}/cancel` });
}

export function downloadInvoicePdf(id: InvoiceDto['id']): Promise<DownloadResult> {
  return request<DownloadResult>({ url: `/invoice/${encodeURIComponent(String(id))}/pdf` });
}

/**
 * Why a special (专用) invoice is not possible with this profile, or null when it is: it needs an
 * enterprise title with tax number, bank, account, address and phone.
 */
export function specialInvoiceBlocker(
  profile: InvoiceProfileDto | null,
  texts: { noProfile: string; notEnterprise: string; incomplete: (fields: string[]) => string },
  fieldLabels: Record<'taxNo' | 'bankName' | 'bankAccount' | 'address' | 'phone', string>,
): string | null {
  if (!profile) return texts.noProfile;
  if (profile.titleType !== 'ENTERPRISE') return texts.notEnterprise;
  const missing = (Object.keys(fieldLabels) as (keyof typeof fieldLabels)[])
    .filter((field) => !profile[field]?.trim())
    .map((field) => fieldLabels[field]);
  return missing.length ? texts.incomplete(missing) : null;
}

export function useInvoiceProfileQuery() {
  return useQuery({ queryKey: billingKeys.invoiceProfile, queryFn: fetchInvoiceProfile });
}

export function useInvoiceableQuery() {
  return useQuery({ queryKey: billingKeys.invoiceable, queryFn: fetchInvoiceable });
}

/** The query key of one invoice; under `billingKeys.invoices`, so invoice invalidations reach it. */
export function invoiceKey(id: InvoiceDto['id'] | null) {
  return [...billingKeys.invoices, 'one', id === null ? null : String(id)] as const;
}

/**
 * One invoice (GET /invoice/:id), starting from the list's copy of it (`listUpdatedAt`: when the list
 * was loaded), so the detail opens at once and follows a cancel or an issue on the next load.
 */
export function useInvoiceQuery(invoice: InvoiceDto | null, listUpdatedAt?: number) {
  return useQuery({
    queryKey: invoiceKey(invoice?.id ?? null),
    queryFn: () => fetchInvoice(invoice?.id ?? 0),
    enabled: invoice !== null,
    initialData: invoice ?? undefined,
    initialDataUpdatedAt: listUpdatedAt,
  });
}

export function useInvoicesQuery(query: InvoiceListQuery) {
  return useQuery({ queryKey: billingKeys.invoiceList(query), queryFn: () => fetchInvoices(query), placeholderData: keepPreviousData });
}
