export const MAKE_BILL_INVOICE_TEXTS = {
  title: '按账单开票',
  description: '按月度消费账单开票，开票金额为所选月份现金消费中尚未开票的部分。',
  tableTitle: '选择账单月份',
  empty: '暂无可开票的月度账单',
  emptyAction: '查看账单明细',
  columns: {
    month: '账单月份',
    consumption: '消费金额',
    invoiced: '已开票',
    invoiceable: '可开票金额',
  },
} as const;
