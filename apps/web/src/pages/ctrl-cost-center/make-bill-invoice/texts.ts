export const MAKE_BILL_INVOICE_TEXTS = {
  title: '按账单开票',
  description: '按月度账单开票。可开票金额 = 余额支付 − 赠送金额支付 − 已申请开票；代金券抵扣不经过余额，也不可开票。',
  tableTitle: '选择账单月份',
  empty: '暂无可开票的月度账单',
  emptyAction: '查看账单明细',
  columns: {
    month: '账单月份',
    consumption: '余额支付',
    giftPaid: '其中赠送金额支付',
    giftPaidHint: '由赠送余额支付的消费，不可开票',
    voucherPaid: '代金券抵扣',
    voucherPaidHint: '代金券抵扣的金额不经过余额，不可开票',
    invoiced: '已申请开票',
    invoicedHint: '审核中与已开票的申请占用的金额',
    invoiceable: '可开票金额',
  },
} as const;
