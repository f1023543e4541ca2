/** Texts shared by the billing pages of one or more instances (续费, 转按量计费, 转包年包月). */
export const BILLING_PAGE_TEXTS = {
  back: '返回实例列表',
  invalidId: '链接中的实例ID不正确',
  invalidIdHint: '请从实例列表重新进入。',
  missing: '实例不存在或已释放',
  loadFailed: '实例加载失败',
  instance: '实例',
  status: '状态',
  host: '主机',
  gpus: 'GPU',
  billing: '计费方式',
  usage: (price: string) => `按量计费（${price}/时）`,
  expiresAt: '到期时间',
  autoRenew: '自动续费',
  autoRenewOn: '已开启',
  autoRenewOff: '未开启',
  busy: (state: string) => `实例当前「${state}」，此时不能变更计费方式；请等它运行中或已关机后再来。`,
} as const;
