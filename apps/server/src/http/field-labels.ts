/** Chinese names of request fields, so that a validation error names the field the user knows. */
export const FIELD_LABELS: Record<string, string> = {
  telephone: '手机号',
  password: '密码',
  oldPassword: '原密码',
  code: '验证码',
  countryCode: '国家代码',
  type: '验证码类型',
  inviteCode: '邀请码',
  refreshToken: '刷新令牌',
  nickName: '昵称',
  page: '页码',
  pageSize: '每页条数',
  username: '用户名',
};

export function labelOf(path: string): string {
  const segments = path.split('/').filter(Boolean);
  const last = segments.at(-1);
  if (!last) return '请求内容';
  return FIELD_LABELS[last] ?? last;
}
