/** Texts of the shared components. */
export const COMPONENT_TEXTS = {
  colorMode: {
    label: '颜色模式',
    system: '跟随系统',
    light: '浅色',
    dark: '深色',
  },
  sms: {
    send: '获取验证码',
    sending: '发送中',
    resend: (seconds: number) => `${seconds}秒后重新获取`,
    sent: '验证码已发送，请注意查收',
  },
  loading: '加载中…',
  retry: '重试',
  loadFailed: '加载失败',
} as const;

export const AUTH_SHELL_TEXTS = {
  slogan: 'GPU 算力，即开即用',
  points: ['按量计费精确到秒，关机不收 GPU 费用', '预装主流深度学习框架与镜像', '弹性部署、模型市场一站式 AI 开发'],
} as const;
