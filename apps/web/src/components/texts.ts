/** Texts of the shared components (the colour mode's are in colorModeButton.tsx, the spinner's in ui/texts.ts). */
export const COMPONENT_TEXTS = {
  sms: {
    send: '获取验证码',
    sending: '发送中',
    /** The server's wait, as a person reads it: seconds up to a minute, then minutes, then hours. */
    resend: (seconds: number) =>
      seconds <= 60
        ? `${seconds}秒后重新获取`
        : seconds <= 3600
          ? `${Math.ceil(seconds / 60)}分钟后重新获取`
          : `${Math.ceil(seconds / 3600)}小时后重新获取`,
    sent: '验证码已发送，请注意查收',
  },
  humanCheck: {
    title: '安全验证',
    intro: '为防止验证码被滥用，请先完成人机验证，完成后将自动发送验证码。',
    loading: '正在加载人机验证…',
    loadFailed: '人机验证加载失败，请检查网络后重试',
    failed: '人机验证未通过，请重新验证',
    retry: '重新加载',
    cancel: '取消',
  },
  retry: '重试',
  loadFailed: '加载失败',
} as const;

export const AUTH_SHELL_TEXTS = {
  slogan: 'GPU 算力，即开即用',
  points: ['按量计费精确到秒，关机不收 GPU 费用', '预装主流深度学习框架与镜像', '子账号分权限、分余额，团队用卡更省心'],
} as const;
