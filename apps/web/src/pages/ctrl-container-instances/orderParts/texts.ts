/** What 确认订单 and 确认克隆订单 (and the price on the pages before them) say alike. */
export const ORDER_TEXTS = {
  figures: {
    unitPrice: 'GPU 单价',
    gpuNum: 'GPU 数量',
    gpuOption: (count: number) => `${count} 卡`,
    hourly: '每小时费用',
    hourlyValue: (yuan: string) => `${yuan}/时`,
    perGpuHour: (yuan: string) => `${yuan}/卡·时`,
    perGpuPeriod: (yuan: string, unit: string) => `${yuan}/卡·${unit === '个月' ? '月' : unit}`,
    duration: '时长',
    original: '原价',
    voucher: '代金券抵扣',
    payable: '应付金额',
    expiresAt: '到期时间',
    balance: '当前余额',
  },
  balance: {
    cover: (hours: number, yuan: string) => `余额需至少覆盖${hours}小时费用：${yuan}`,
    shortTitle: '余额不足',
    shortHourly: (needed: string, balance: string) => `创建按量实例需要余额至少可支付 1 小时费用（${needed}），当前余额 ${balance}。`,
    shortPackage: (needed: string, balance: string) => `需支付 ${needed}，当前余额 ${balance}。`,
    recharge: '去充值',
  },
  pay: {
    title: '费用',
    retry: '重试',
    change: '返回修改',
  },
  billing: {
    title: '计费',
    rule: '计费方式',
    duration: '时长',
    voucher: '代金券',
    voucherNone: '不使用',
    voucherUnknown: (id: number) => `代金券 #${id}`,
    autoRenew: '到期自动续费',
    yes: '是',
    no: '否',
  },
  refusal: {
    chooseHost: '重新选择主机',
    change: '返回修改',
    recharge: '去充值',
  },
  link: {
    again: '重新选择',
  },
  verification: {
    title: '请先完成实名认证',
    body: '平台要求完成实名认证（个人、企业或学生认证任一通过即可）后才能创建实例，认证通过后回到此页即可创建。',
    action: '去认证',
  },
} as const;
