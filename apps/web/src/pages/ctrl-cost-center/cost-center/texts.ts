export const COST_OVERVIEW_TEXTS = {
  title: '费用中心',
  description: '余额、充值、订单、账单与发票一站管理。',
  balance: {
    title: '账户余额',
    unit: '可用余额',
    recharge: '去充值',
    records: '充值记录',
    loadFailed: '余额加载失败',
  },
  links: { title: '常用功能', redeem: '兑换码' },
  latest: {
    title: '最近收支',
    all: '查看全部',
    empty: '暂无收支记录',
    emptyAction: '去充值',
    loadFailed: '最近收支加载失败',
    createdAt: '时间',
    type: '类型',
    amount: '收入/支出',
    balanceAfter: '余额',
    description: '说明',
  },
} as const;
