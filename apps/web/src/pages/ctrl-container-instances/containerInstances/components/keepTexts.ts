export const KEEP_TEXTS = {
  menuOn: '开启保留实例',
  menuOff: '关闭保留实例',
  onTitle: '开启保留实例',
  offTitle: '关闭保留实例',
  onBody: (days: number, daily: string, system: number, data: number) =>
    `按量计费实例关机满${days}天会被自动释放、数据删除。开启后不再自动释放：关机满${days}天起，每天从余额扣除 ${daily}（系统盘 ${system} GB + 数据盘 ${data} GB）保留实例；余额不足时停止保留并释放。开机后不再收取保留费用。`,
  offBody: (days: number, until: string | null) =>
    `关闭后，实例关机满${days}天${until ? `（已付费保留至 ${until}，之后）` : ''}将被自动释放，系统盘和数据盘的数据将被删除且无法恢复。`,
  onConfirm: '开启保留',
  offConfirm: '关闭保留',
  cancel: '再想想',
  onDone: '已开启保留实例',
  offDone: '已关闭保留实例',
} as const;
