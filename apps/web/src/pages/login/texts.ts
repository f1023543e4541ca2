export const LOGIN_TEXTS = {
  title: '欢迎登录',
  subtitle: '登录算力港，管理你的 GPU 实例与账户',
  tabs: { password: '密码登录', sms: '验证码登录' },
  submit: '登录',
  otherMethods: '其他登录方式',
  wechat: '微信登录',
  wechatClosed: '微信登录暂未开放，请使用手机号登录',
  /** WeChat sign-in (WechatLogin.tsx, WechatLoginBindPhone.tsx). */
  wechatFlow: {
    going: '正在前往微信…',
    pending: '正在通过微信登录…',
    cancelled: '已取消微信授权',
    expired: '授权已过期，请重新扫码',
    failed: '微信登录失败，请重试',
    bindTitle: '绑定手机号',
    bindIntro: (nickname: string) =>
      `微信「${nickname}」还没有绑定账号。验证手机号后即可登录：已注册的手机号会绑定到原账号，未注册的手机号将自动注册新账号。`,
    bindSubmit: '绑定并登录',
    back: '返回其他登录方式',
  },
  noAccount: '还没有账号？',
  signup: '注册',
  forgot: '忘记密码',
  subAccount: '子账号登录',
  success: '登录成功',
  setPassword: {
    title: '设置登录密码',
    intro: '这是你第一次使用验证码登录，账号已自动创建。设置密码后即可使用“手机号 + 密码”登录。',
    confirm: '确认',
    skip: '跳过',
    success: '密码设置成功',
  },
} as const;
