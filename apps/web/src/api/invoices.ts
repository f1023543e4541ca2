/** Invoices (docs/api-billing.md, 发票). Amounts are integer fen. */
import type { InvoiceStatusValue, InvoiceTypeValue, InvoicingMethodValue, Page } from '@slg/shared';
import type { Invoiceable as InvoiceableDto, InvoiceProfile as InvoiceProfileDto, InvoiceView as InvoiceDto } from '@slg/shared/views/invoices';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { billingKeys, type PageQuery } from './billing';
import { request, type DownloadResult } from './client';

// The answers' types are inferred from the server's schemas (packages/shared/src/views/invoices).
export type {
  Invoiceable as InvoiceableDto,
  InvoiceableMonth as InvoiceableMonthDto,
  InvoiceableRecharge as InvoiceableRechargeDto,
  InvoiceItem as InvoiceItemDto,
  InvoiceProfile as InvoiceProfileDto,
  InvoiceTitleType,
  InvoiceView as InvoiceDto,
} from '@slg/shared/views/invoices';

/** The smallest invoice the server accepts: ¥1.00. */
export const INVOICE_MIN_FEN = 100;

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
