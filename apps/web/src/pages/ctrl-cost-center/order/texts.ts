export const ORDER_TEXTS = {
  title: '我的订单',
  description: '实例、存储、时长包等产品的订单；待支付订单可在详情中支付或取消。',
  filters: {
    status: '订单状态',
    type: '订单类型',
    orderNo: '订单号',
    orderNoPlaceholder: '按订单号搜索',
    orderNoHint: '订单号为20位数字，可只输入前几位',
  },
  columns: {
    orderNo: '订单号',
    type: '订单类型',
    status: '状态',
    billingType: '计费方式',
    title: '订单内容',
    originalAmount: '原价',
    paidAmount: '实付金额',
    createdAt: '创建时间',
    actions: '操作',
  },
  actions: { detail: '详情', pay: '去支付' },
  /** A pay-as-you-go order has no price up front: what its use has cost so far, settled each minute. */
  usage: {
    original: '按量',
    chargedNote: '按量累计已扣',
  },
  empty: '暂无订单',
  emptyFiltered: '没有符合条件的订单',
  emptyAction: '去算力市场看看',
  emptyRecharge: '先去充值',
  loadFailed: '订单加载失败',
} as const;
