import { RELEASED_CONTAINER_DAYS } from '@slg/shared';

export const RELEASED_TEXTS = {
  title: '已释放实例',
  description: '弹性部署中已结束的容器：运行了多久、花了多少、为什么结束。',
  retention: `已结束的容器记录保留 ${RELEASED_CONTAINER_DAYS} 天，之后不再显示。`,
  columns: {
    deployment: '部署',
    instance: '容器 ID',
    gpu: 'GPU 型号',
    zone: '地区',
    startedAt: '开始运行',
    endedAt: '结束时间',
    runTime: '运行时长',
    cost: '费用',
    pack: '时长包抵扣',
    endReason: '结束原因',
    exitCode: '退出码',
  },
  gpu: (model: string, count: number) => `${model} × ${count}`,
  exitCode: (code: number) => `退出码 ${code}`,
  notStarted: '未运行',
  total: (total: number) => `共 ${total} 个`,
  loadFailed: '已释放实例加载失败',
  refreshFailed: '刷新失败，显示的是上次加载的数据',
  empty: `最近 ${RELEASED_CONTAINER_DAYS} 天没有已释放的容器`,
} as const;
