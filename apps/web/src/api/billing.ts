/**
 * The money API of docs/api-billing.md: recharge, ledger, bills and orders. Every amount is integer
 * fen (format with `formatYuan`), every time an ISO 8601 string. Vouchers live in `vouchers.ts`,
 * invoices in `invoices.ts`; all of them share `billingKeys`.
 */
import type {
  IncomeTypeValue,
  OrderStatusValue,
  OrderTypeValue,
  Page,
  PaymentChannelValue,
  PaymentStatusValue,
  TransactionTypeValue,
} from '@slg/shared';
import type {
  Bill as BillDto,
  LedgerEntry as LedgerEntryDto,
  OrderDetail as OrderDetailDto,
  OrderSummary as OrderSummaryDto,
  PaymentChannels as PaymentChannelsDto,
  RechargeView as RechargeDto,
} from '@slg/shared/views/billing';
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { request, type DownloadResult } from './client';
import { idempotencyHeaders } from './idempotency';
import { queryKeys } from './queryKeys';

// The answers' types are inferred from the server's schemas (packages/shared/src/views/billing).
export type {
  BankAccount as BankAccountDto,
  Bill as BillDto,
  LedgerEntry as LedgerEntryDto,
  OrderDetail as OrderDetailDto,
  OrderItem as OrderItemDto,
  OrderSummary as OrderSummaryDto,
  OrderTransaction as OrderTransactionDto,
  PaymentChannels as PaymentChannelsDto,
  RechargeView as RechargeDto,
} from '@slg/shared/views/billing';

// ---------------------------------------------------------------------------------------------
// Shared shapes and keys
// ---------------------------------------------------------------------------------------------

/** `page` from 1; `startTime` inclusive, `endTime` exclusive (ISO). */
export interface PageQuery {
  page: number;
  pageSize: number;
}

export interface TimeRangeQuery {
  startTime?: string;
  endTime?: string;
}

/** Query keys of the cost centre; invalidating `billingKeys.all` refreshes every money list. */
export const billingKeys = {
  all: ['billing'] as const,
  channels: ['billing', 'channels'] as const,
  recharges: ['billing', 'recharges'] as const,
  rechargeList: (query: RechargeListQuery) => ['billing', 'recharges', 'list', query] as const,
  recharge: (rechargeId: string) => ['billing', 'recharges', 'one', rechargeId] as const,
  ledger: ['billing', 'ledger'] as const,
  ledgerList: (query: LedgerQuery) => ['billing', 'ledger', query] as const,
  bills: ['billing', 'bills'] as const,
  billList: (query: BillQuery) => ['billing', 'bills', query] as const,
  orders: ['billing', 'orders'] as const,
  orderList: (query: OrderListQuery) => ['billing', 'orders', 'list', query] as const,
  order: (orderNo: string) => ['billing', 'orders', 'one', orderNo] as const,
  orderVouchers: (orderNo: string) => ['billing', 'orders', 'vouchers', orderNo] as const,
  vouchers: ['billing', 'vouchers'] as const,
  voucherList: (query: object) => ['billing', 'vouchers', query] as const,
  invoices: ['billing', 'invoices'] as const,
  invoiceList: (query: object) => ['billing', 'invoices', 'list', query] as const,
  invoiceProfile: ['billing', 'invoices', 'profile'] as const,
  invoiceable: ['billing', 'invoices', 'invoiceable'] as const,
} as const;

/** After money moved: the header balance and every cost-centre list load again. */
export async function invalidateMoneyQueries(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.balance }),
    queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Recharge
// ---------------------------------------------------------------------------------------------

export interface RechargeListQuery extends PageQuery, TimeRangeQuery {
  status?: PaymentStatusValue;
  channel?: PaymentChannelValue;
}

/** Silent: the pages that need the channels show a failure where the channels would be. */
export function fetchPaymentChannels(): Promise<PaymentChannelsDto> {
  return request<PaymentChannelsDto>({ url: '/payment/channels', silent: true });
}

/** Creates a recharge; `idempotencyKey` is new for every submit (a retry of the same submit reuses it). */
export function createRecharge(body: { amount: number; channel: PaymentChannelValue }, idempotencyKey: string): Promise<RechargeDto> {
  return request<RechargeDto>({ method: 'POST', url: '/payment/recharge', data: body, headers: idempotencyHeaders(idempotencyKey) });
}

/** Polled while the payment is open; silent so that a flaky poll does not toast every 2 s. */
export function fetchRecharge(rechargeId: string): Promise<RechargeDto> {
  return request<RechargeDto>({ url: `/payment/recharge/${encodeURIComponent(rechargeId)}`, silent: true });
}

/** Silent: the list shows its own load error, and a poll that fails must not toast every few seconds. */
export function fetchRecharges(query: RechargeListQuery): Promise<Page<RechargeDto>> {
  return request<Page<RechargeDto>>({ url: '/payment/recharge', params: { ...query }, silent: true });
}

/**
 * Cancels a pending QR recharge (the gateway closes the trade first). Silent: a 409 may be good news
 * (该订单已支付, the money was credited instead), so the caller words the outcome.
 */
export function cancelRecharge(rechargeId: string): Promise<RechargeDto> {
  return request<RechargeDto>({ method: 'POST', url: `/payment/recharge/${encodeURIComponent(rechargeId)}/cancel`, silent: true });
}

export function submitBankReference(rechargeId: string, reference: string): Promise<RechargeDto> {
  return request<RechargeDto>({
    method: 'POST',
    url: `/payment/recharge/${encodeURIComponent(rechargeId)}/bank-reference`,
    data: { reference },
  });
}

export function usePaymentChannelsQuery() {
  return useQuery({ queryKey: billingKeys.channels, queryFn: fetchPaymentChannels, staleTime: 5 * 60_000 });
}

/**
 * 充值记录's query. With `pollInterval` the list keeps itself current: it refetches at the interval the
 * latest page asks for (false: no polling), also while the tab is in the background (the payer pays in
 * another tab or on a phone), and at once when the tab gets the focus back.
 */
export function useRechargesQuery(query: RechargeListQuery, pollInterval?: (page: Page<RechargeDto> | undefined) => number | false) {
  return useQuery({
    queryKey: billingKeys.rechargeList(query),
    queryFn: () => fetchRecharges(query),
    placeholderData: keepPreviousData,
    refetchInterval: pollInterval ? (current) => pollInterval(current.state.data) : false,
    refetchIntervalInBackground: pollInterval !== undefined,
    ...(pollInterval ? { refetchOnWindowFocus: 'always' as const } : {}),
  });
}

// ---------------------------------------------------------------------------------------------
// Ledger and bills
// ---------------------------------------------------------------------------------------------

/** Ledger transaction types: the spec dictionary plus the server's sub-account transfers and gifts. */
export type LedgerTypeValue = TransactionTypeValue | 'TRANSFER' | 'GIFT';

export interface LedgerQuery extends PageQuery, TimeRangeQuery {
  incomeType?: IncomeTypeValue;
  type?: LedgerTypeValue;
}

export interface BillFilters extends TimeRangeQuery {
  orderType?: OrderTypeValue;
}

export interface BillQuery extends PageQuery, BillFilters {}

export function fetchLedgerEntries(query: LedgerQuery): Promise<Page<LedgerEntryDto>> {
  return request<Page<LedgerEntryDto>>({ url: '/ledger/entries', params: { ...query } });
}

export function fetchBills(query: BillQuery): Promise<Page<BillDto>> {
  return request<Page<BillDto>>({ url: '/bills', params: { ...query } });
}

/** `text/csv` download with the list's filters. */
export function exportBills(filters: BillFilters): Promise<DownloadResult> {
  return request<DownloadResult>({ url: '/bills/export', params: { ...filters } });
}

export function useLedgerQuery(query: LedgerQuery) {
  return useQuery({ queryKey: billingKeys.ledgerList(query), queryFn: () => fetchLedgerEntries(query), placeholderData: keepPreviousData });
}

export function useBillsQuery(query: BillQuery) {
  return useQuery({ queryKey: billingKeys.billList(query), queryFn: () => fetchBills(query), placeholderData: keepPreviousData });
}

// ---------------------------------------------------------------------------------------------
// Orders
// ---------------------------------------------------------------------------------------------

export interface OrderListQuery extends PageQuery, TimeRangeQuery {
  status?: OrderStatusValue;
  type?: OrderTypeValue;
  /** Prefix search. */
  orderNo?: string;
}

export function fetchOrders(query: OrderListQuery): Promise<Page<OrderSummaryDto>> {
  return request<Page<OrderSummaryDto>>({ url: '/order', params: { ...query } });
}

export function fetchOrder(orderNo: string): Promise<OrderDetailDto> {
  return request<OrderDetailDto>({ url: `/order/${encodeURIComponent(orderNo)}` });
}

/** `voucherId: null` pays without a voucher; omitted lets the server pick the best one. */
export function payOrder(orderNo: string, voucherId: number | null, idempotencyKey: string): Promise<OrderDetailDto> {
  return request<OrderDetailDto>({
    method: 'POST',
    url: `/order/${encodeURIComponent(orderNo)}/pay`,
    data: { voucherId },
    headers: idempotencyHeaders(idempotencyKey),
  });
}

export function cancelOrder(orderNo: string): Promise<OrderDetailDto> {
  return request<OrderDetailDto>({ method: 'POST', url: `/order/${encodeURIComponent(orderNo)}/cancel` });
}

export function useOrdersQuery(query: OrderListQuery) {
  return useQuery({ queryKey: billingKeys.orderList(query), queryFn: () => fetchOrders(query), placeholderData: keepPreviousData });
}

export function useOrderQuery(orderNo: string | null) {
  return useQuery({
    queryKey: billingKeys.order(orderNo ?? ''),
    queryFn: () => fetchOrder(orderNo ?? ''),
    enabled: Boolean(orderNo),
  });
}
