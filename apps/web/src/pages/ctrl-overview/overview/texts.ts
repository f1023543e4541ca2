export const OVERVIEW_TEXTS = {
  greeting(hour: number): string {
    if (hour < 5) return '夜深了';
    if (hour < 11) return '早上好';
    if (hour < 13) return '中午好';
    if (hour < 18) return '下午好';
    return '晚上好';
  },
  welcome: '欢迎使用算力港 GPU 算力云，开启你的训练与推理。',
  account: {
    title: '账号信息',
    name: '用户名',
    nickname: '昵称',
    telephone: '手机号',
    type: '账户类型',
    createdAt: '注册时间',
    main: '主账号',
    sub: '子账号',
    empty: '—',
    loadFailed: '账号信息加载失败',
  },
  balance: {
    title: '账户余额',
    unit: '可用余额（元）',
    loadFailed: '余额加载失败',
    retry: '重试',
    recharge: '去充值',
  },
  instances: {
    title: '容器实例',
    running: '运行中',
    off: '已关机',
    other: '其他',
    cost: '运行中费用',
    perHour: (price: string) => `${price}/时`,
    list: '查看实例',
    empty: '还没有实例，去算力市场挑一台 GPU 主机吧。',
    market: '去算力市场',
    loadFailed: '实例数量加载失败',
    retry: '重试',
  },
  elastic: {
    title: '弹性部署',
    running: '运行中的部署',
    containers: '运行中的容器',
    cost: '运行中费用',
    perHour: (price: string) => `${price}/时`,
    list: '查看部署',
    empty: '还没有运行中的弹性部署：选好镜像和 GPU，平台自动调度容器，按秒计费。',
    create: '创建弹性部署',
    loadFailed: '弹性部署数据加载失败',
    retry: '重试',
  },
  quickLinks: { title: '快捷入口' },
  help: { title: '帮助与协议', about: '关于我们', serviceTerms: '服务条款', privacyTerms: '隐私政策' },
} as const;
