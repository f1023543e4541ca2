export const MAKE_PRICE_INVOICE_TEXTS = {
  title: '按充值开票',
  description: '按到账的充值记录开票。可开票金额 = 充值金额 − 已申请开票（审核中与已开票）；赠送金额与代金券不可开票。',
  tableTitle: '选择充值记录',
  empty: '暂无可开票的充值记录',
  emptyAction: '去充值',
  columns: {
    rechargeId: '充值单号',
    channel: '方式',
    amount: '充值金额',
    invoiced: '已申请开票',
    invoicedHint: '审核中与已开票的申请占用的金额',
    invoiceable: '可开票金额',
    paidAt: '到账时间',
  },
} as const;
