export const SUB_ACCOUNT_LOGIN_TEXTS = {
  title: '子账号登录',
  subtitle: '使用主账号为你创建的用户名和密码登录',
  username: { label: '用户名', placeholder: '请输入子账号用户名', required: '请输入用户名' },
  password: { label: '密码', placeholder: '请输入登录密码', required: '请输入密码' },
  submit: '登录',
  success: '登录成功',
  mainAccount: '主账号登录',
  mainAccountHint: '使用手机号登录？',
  forgot: '忘记密码',
} as const;
