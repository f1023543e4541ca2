export const SIGNUP_TEXTS = {
  title: '注册账号',
  subtitle: '注册即可使用算力港 GPU 云服务',
  submit: '注册',
  success: '注册成功',
  haveAccount: '已有账号？',
  login: '立即登录',
  inviteCode: (code: string) => `邀请码：${code}`,
  agreement: {
    prefix: '我已阅读并同意',
    service: '《服务条款》',
    and: '和',
    privacy: '《隐私政策》',
    required: '请阅读并同意服务条款和隐私政策',
  },
  terms: {
    service: '服务条款',
    privacy: '隐私政策',
    agree: '我已阅读并同意',
    loadFailed: '协议内容加载失败，请稍后重试',
  },
  verify: {
    title: '短信验证',
    intro: '验证码将发送至以下手机号，请确认号码无误：',
    noPhone: '请先在注册表单中填写正确的手机号',
    confirm: '确认',
    cancel: '取消',
  },
} as const;
