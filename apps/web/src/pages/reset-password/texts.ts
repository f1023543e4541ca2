export const RESET_PASSWORD_TEXTS = {
  title: '重置密码',
  subtitle: '通过手机验证码设置新的登录密码',
  submit: '确认',
  success: '密码已重置，请使用新密码登录',
  backToLogin: '返回登录',
  remembered: '想起密码了？',
  sub: {
    title: '子账号找回密码',
    subtitle: '通过子账号绑定的手机号验证后设置新密码',
    username: { label: '用户名', placeholder: '请输入子账号用户名', required: '请输入用户名' },
    noPhoneHint: '未绑定手机号的子账号请联系主账号重置密码',
    success: '密码已重置，请使用新密码登录子账号',
    backToLogin: '返回子账号登录',
  },
} as const;
