/** Paths of the cost centre (spec §2), in one place for links between its pages. */
export const COST_CENTER_PATH = '/ctrl-cost-center/cost-center';

export const COST_PATHS = {
  home: COST_CENTER_PATH,
  recharge: `${COST_CENTER_PATH}/recharge`,
  rechargeRecord: `${COST_CENTER_PATH}/recharge-record`,
  incomeDetails: `${COST_CENTER_PATH}/income-details`,
  bills: `${COST_CENTER_PATH}/f-details`,
  orders: `${COST_CENTER_PATH}/order`,
  voucher: `${COST_CENTER_PATH}/voucher`,
  invoice: `${COST_CENTER_PATH}/invoice`,
  invoiceInfo: `${COST_CENTER_PATH}/invoice-info`,
  makePriceInvoice: `${COST_CENTER_PATH}/make-price-invoice`,
  makeBillInvoice: `${COST_CENTER_PATH}/make-bill-invoice`,
  exchange: '/exchange',
} as const;

export function orderDetailPath(orderNo: string): string {
  return `${COST_CENTER_PATH}/order-detail?orderNo=${encodeURIComponent(orderNo)}`;
}
