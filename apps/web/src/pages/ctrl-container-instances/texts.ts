/** Texts shared by the instance pages (创建实例 and 实例列表). */
export const VOUCHER_SELECT_TEXTS = {
  loading: '正在加载代金券…',
  none: '暂无可用于该订单的代金券',
  placeholder: (count: number) => `${count} 张可用，选择一张抵扣`,
  option: (name: string, amount: string) => `${name}（抵扣 ${amount}）`,
} as const;
