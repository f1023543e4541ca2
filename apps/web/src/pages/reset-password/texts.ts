export const RESET_PASSWORD_TEXTS = {
  title: '重置密码',
  subtitle: '通过手机验证码设置新的登录密码',
  submit: '确认',
  success: '密码已重置，请使用新密码登录',
  backToLogin: '返回登录',
  remembered: '想起密码了？',
} as const;
