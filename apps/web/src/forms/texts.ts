/** Field labels and messages shared by the account forms. */
export const FORM_TEXTS = {
  telephone: { label: '手机号', placeholder: '请输入11位手机号', required: '请输入手机号', prefix: '+86' },
  code: { label: '验证码', placeholder: '请输入6位验证码', required: '请输入验证码' },
  password: { label: '密码', placeholder: '8-20位，包含字母和数字', required: '请输入密码' },
  loginPassword: { label: '密码', placeholder: '请输入登录密码', required: '请输入密码' },
  newPassword: { label: '新密码', placeholder: '8-20位，包含字母和数字', required: '请输入新密码' },
  confirmPassword: {
    label: '确认密码',
    placeholder: '请再次输入密码',
    required: '请再次输入密码',
    mismatch: '两次输入的密码不一致',
  },
  confirmNewPassword: { label: '确认新密码', placeholder: '请再次输入新密码' },
} as const;
