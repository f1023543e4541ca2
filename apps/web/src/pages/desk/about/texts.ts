import { SUPPORT_EMAIL } from '../links';

/** All Chinese text of 关于我们 (`/about`). */
export const ABOUT_TEXTS = {
  title: '关于我们',
  subtitle: '算力港是一个开放的 GPU 云算力平台，让每一张 GPU 都能被高效、透明地使用。',
  whoWeAre: {
    title: '我们是谁',
    paragraphs: [
      '算力港是一套开放的 GPU 云算力平台。任何拥有 GPU 服务器的运营方，都可以用它把自己的显卡接入平台，以容器实例的形式对外出租：定价、地域、主机与镜像由运营方自行配置，计费、结算、发票与子账号管理由平台统一完成。',
      '对使用者而言，算力港就是一朵随开随用的 GPU 云：注册账号、充值、选择显卡，几分钟后即可通过 SSH 开始训练与推理；按秒计费，不用时关机即可停止 GPU 计费。',
      '我们相信算力应当像水电一样易得：价格公开透明，账目清晰可查，数据归属于用户自己。',
    ],
  },
  values: {
    title: '我们的原则',
    items: [
      {
        key: 'open',
        title: '开放',
        description: '价格、地域、主机与镜像由运营方自行配置，自主定价、自主运营。',
      },
      {
        key: 'transparent',
        title: '透明',
        description: '所有价格在下单前展示；每一笔扣费都有账单明细，余额变动可逐笔追溯。',
      },
      {
        key: 'secure',
        title: '安全',
        description: '实例之间相互隔离，账号与子账号权限分级管理，您的数据只属于您。',
      },
      {
        key: 'reliable',
        title: '可靠',
        description: '实例状态以数据库为准并持续与集群对账，操作中断后也能完成或回滚，不丢账、不丢单。',
      },
    ],
  },
  offerings: {
    title: '我们提供什么',
    items: [
      { key: 'instances', title: 'GPU 容器实例', description: '按量计费或包日 / 包周 / 包月，支持开关机、克隆、升降配、扩缩数据盘与无卡模式。' },
      { key: 'access', title: 'SSH 与自定义服务', description: 'SSH 密钥或密码登录，实例里的服务可开放 HTTP / TCP 端口对外访问。' },
      { key: 'images', title: '镜像与数据', description: '公共深度学习镜像与私有镜像（保存、分享、复用），实例之间直接拷贝数据。' },
      { key: 'monitoring', title: '监控与提醒', description: '实例 GPU、CPU、内存与磁盘监控，余额不足、到期与释放提醒，GPU 到货通知。' },
      { key: 'cost', title: '费用中心', description: '在线充值、订单与账单明细、代金券，支持开具普通发票与专用发票。' },
      { key: 'team', title: '团队协作', description: '主账号可创建子账号，按资源类型分配权限，并可共享或划拨余额。' },
    ],
  },
  contact: {
    title: '联系我们',
    description: '使用中遇到任何问题，或希望将自己的 GPU 接入平台，欢迎与我们联系。',
    emailLabel: '客服邮箱',
    email: SUPPORT_EMAIL,
    hoursLabel: '服务时间',
    hours: '工作日 9:00–18:00（法定节假日除外）',
    responseLabel: '响应时效',
    response: '工作时间内收到的邮件，我们会在 1 个工作日内回复',
    tipsLabel: '来信建议',
    tips: '请附上注册手机号（可隐藏中间四位）、实例 ID 及问题截图，便于我们快速定位。',
  },
} as const;
