/** Texts shared by the cost-centre pages (filters, tables, states). Page texts live beside each page. */
export const COST_TEXTS = {
  all: '全部',
  filters: '筛选条件',
  timeRange: '时间范围',
  startDate: '开始日期',
  endDate: '结束日期',
  reset: '重置',
  total: (total: number) => `共 ${total} 条`,
  refreshFailed: '刷新失败，显示的是上次加载的数据',
  empty: '-',
  ledgerTypes: { TRANSFER: '转账', GIFT: '赠送' },
} as const;
