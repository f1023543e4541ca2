export const INCOME_DETAILS_TEXTS = {
  title: '收支明细',
  description: '账户余额的每一笔收入与支出，余额为该笔发生后的账户余额。',
  filters: { incomeType: '收支类型', type: '交易类型' },
  columns: {
    createdAt: '时间',
    type: '类型',
    amount: '收入/支出',
    balanceAfter: '余额',
    description: '说明',
    related: '关联订单',
  },
  rechargeRef: (id: string) => `充值 ${id}`,
  empty: '暂无收支记录',
  emptyFiltered: '没有符合条件的收支记录',
  emptyAction: '去充值',
  loadFailed: '收支明细加载失败',
} as const;
