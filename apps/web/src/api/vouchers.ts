/** Vouchers and redemption codes (docs/api-billing.md, 代金券 / 兑换码). Amounts are integer fen. */
import { SUCCESS_CODE, SUCCESS_RSPCODE, type OrderTypeValue, type Page } from '@slg/shared';
import type { RedeemResult as RedeemResultDto, VoucherStatus as VoucherStatusValue, VoucherView as VoucherDto } from '@slg/shared/views/billing';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { billingKeys, type PageQuery } from './billing';
import { request, type ResponseEnvelope } from './client';

export type { RedeemResult as RedeemResultDto, VoucherStatus as VoucherStatusValue, VoucherView as VoucherDto } from '@slg/shared/views/billing';

export interface VoucherListQuery extends PageQuery {
  status?: VoucherStatusValue;
}

/** What redeeming a code ends in: the client resolves redeem calls with the whole envelope. */
export type RedeemOutcome = { ok: true; result: RedeemResultDto } | { ok: false; code: number; message: string };

export function fetchVouchers(query: VoucherListQuery): Promise<Page<VoucherDto>> {
  return request<Page<VoucherDto>>({ url: '/voucher', params: { ...query } });
}

/** Vouchers usable for an UNPAID order, best first. */
export function fetchOrderVouchers(orderNo: string): Promise<VoucherDto[]> {
  return request<VoucherDto[]>({ url: `/order/${encodeURIComponent(orderNo)}/vouchers` });
}

/** Reads the envelope of `POST /voucher/redeem`: success when rspcode is 0 or code is 200. */
export function redeemOutcome(envelope: ResponseEnvelope<RedeemResultDto | null>, fallbackMessage: string): RedeemOutcome {
  const success = envelope.rspcode === SUCCESS_RSPCODE || envelope.code === SUCCESS_CODE;
  if (success && envelope.result) return { ok: true, result: envelope.result };
  return {
    ok: false,
    code: envelope.rspcode ?? envelope.code ?? 0,
    message: envelope.rspmsg || envelope.message || fallbackMessage,
  };
}

export async function redeemCode(code: string, fallbackMessage: string): Promise<RedeemOutcome> {
  const envelope = await request<ResponseEnvelope<RedeemResultDto | null>>({ method: 'POST', url: '/voucher/redeem', data: { code } });
  return redeemOutcome(envelope, fallbackMessage);
}

export function useVouchersQuery(query: VoucherListQuery) {
  return useQuery({ queryKey: billingKeys.voucherList(query), queryFn: () => fetchVouchers(query), placeholderData: keepPreviousData });
}

export function useOrderVouchersQuery(orderNo: string, enabled: boolean) {
  return useQuery({ queryKey: billingKeys.orderVouchers(orderNo), queryFn: () => fetchOrderVouchers(orderNo), enabled });
}

/** Whether an unused voucher can pay an order of this type and amount now (as the server decides when paying). */
export function voucherFits(voucher: VoucherDto, orderType: OrderTypeValue, amountFen: number, now = Date.now()): boolean {
  return (
    voucher.status === 'UNUSED' &&
    Date.parse(voucher.validFrom) <= now &&
    Date.parse(voucher.validTo) > now &&
    amountFen > 0 &&
    amountFen >= voucher.minOrderAmount &&
    (voucher.scope.length === 0 || voucher.scope.includes(orderType))
  );
}

/** The caller's unused vouchers (the first 100: more than anyone holds at once), for choosing one at payment. */
export function useUnusedVouchersQuery(enabled = true) {
  const query: VoucherListQuery = { page: 1, pageSize: 100, status: 'UNUSED' };
  return useQuery({ queryKey: billingKeys.voucherList(query), queryFn: () => fetchVouchers(query), enabled });
}
