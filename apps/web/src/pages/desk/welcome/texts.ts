/** All Chinese text of the 欢迎 page (`/welcome`), where registration lands. */
export const WELCOME_TEXTS = {
  /** Only right after a registration. */
  registeredTitle: '注册成功，欢迎加入算力港！',
  title: '欢迎来到算力港',
  subtitle: '只需三步，即可在云端 GPU 上开始训练与推理。',
  stepsTitle: '快速上手',
  steps: [
    {
      key: 'recharge',
      title: '充值',
      description: '在控制台「费用中心」为账户充值。按量计费的实例在创建或开机时，余额需至少覆盖 1 小时费用。',
    },
    {
      key: 'create',
      title: '选择 GPU 创建实例',
      description: '按需选择地域、GPU 型号与数量，挑选预置的深度学习镜像，选择按量计费或包日 / 包周 / 包月后创建实例。',
    },
    {
      key: 'connect',
      title: '通过 SSH 连接',
      description: '实例运行后，在实例列表中复制 SSH 登录指令和密码，从本地终端、VS Code 等工具连接。',
    },
  ],
  stepLabel: (index: number) => `第 ${index} 步`,
  tipsTitle: '小贴士',
  tips: [
    '按量计费按秒计量，不用时请及时关机以停止 GPU 计费。',
    '实例连续关机满 15 天会被自动释放，重要数据请及时备份或保存为私有镜像。',
    '团队使用时，可在个人中心创建子账号并分配权限。',
  ],
  console: '进入控制台',
  register: '立即注册',
  home: '返回首页',
} as const;
