/** Texts of 实例监控. */
export const MONITORING_TEXTS = {
  title: '实例监控',
  back: '实例列表',
  description: (name: string, instanceId: string) => `${name}（${instanceId}）`,
  descriptionLoading: '正在加载实例…',
  missingId: '没有指定实例',
  missingIdSubtitle: '请从实例列表中选择要查看监控的实例。',
  notFound: '实例不存在或已释放',
  notFoundSubtitle: (instanceId: string) => `找不到实例 ${instanceId}，它可能已被释放，或不属于当前账号。`,
  instanceLoadFailed: '实例信息加载失败',
  toolbar: {
    label: '监控时间范围与刷新',
    range: '时间范围',
    autoRefresh: '自动刷新',
    autoRefreshHint: (seconds: number) => `（每 ${seconds} 秒）`,
    refresh: '刷新',
    updatedAt: (time: string) => `更新于 ${time}`,
  },
  ranges: {
    hour: '1 小时',
    sixHours: '6 小时',
    day: '24 小时',
    week: '7 天',
  },
  charts: {
    gpu: 'GPU 利用率',
    cpu: 'CPU 利用率',
    memory: '内存',
    dataDisk: '数据盘',
    systemDisk: '系统盘',
  },
  series: {
    used: '已用',
    total: '总量',
    cpu: 'CPU',
  },
  /** The latest values, beside each chart's title. */
  latest: {
    percent: (value: string) => `当前 ${value}%`,
    gpuCount: (count: number) => `${count} 卡`,
    cores: (count: number) => `${count} 核`,
    usedOf: (used: string, total: string) => `${used} / ${total} GB`,
  },
  /** Names of the chart areas for assistive technology (the canvas has no text). */
  chartLabel: (title: string, range: string) => `${title}，最近${range}`,
  empty: '实例未运行，暂无监控数据',
  emptyHint: '实例运行时每 15 秒采集一次数据；关机、创建中和无卡模式下没有对应的数据。',
  chartEmpty: '该时段暂无数据',
  chartEmptyNoGpu: '无卡模式运行中，没有 GPU 数据',
  chartFailed: '加载失败',
  loadFailed: '监控数据加载失败',
  refreshFailed: '刷新失败，显示的是上次加载的数据',
} as const;
