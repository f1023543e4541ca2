export const EXCHANGE_TEXTS = {
  title: '兑换码兑换',
  description: '输入活动或客服发放的兑换码，兑换代金券或账户余额。',
  codeLabel: '兑换码',
  codePlaceholder: '请输入兑换码',
  codeRequired: '请输入兑换码',
  submit: '兑换',
  failed: '兑换失败，请稍后重试',
  loginTitle: '登录后即可兑换',
  loginSubtitle: '兑换的代金券或余额将发放到当前登录的账号。',
  login: '登录后兑换',
  success: {
    title: '兑换成功',
    voucher: (amount: string, name: string) => `获得代金券 ${amount}（${name}）`,
    voucherValidity: (to: string) => `有效期至 ${to}`,
    balance: (amount: string) => `余额 ${amount} 已到账`,
    viewVouchers: '查看代金券',
    viewLedger: '查看收支明细',
    again: '继续兑换',
  },
  tips: {
    title: '兑换说明',
    items: [
      '每个兑换码只能使用一次，兑换码不区分大小写。',
      '代金券可在支付预付费订单时抵扣；余额兑换后可用于所有消费。',
      '10 分钟内连续输错 5 次将暂停兑换 10 分钟。',
    ],
  },
} as const;
