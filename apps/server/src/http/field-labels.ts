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
  amount: '金额',
  channel: '充值方式',
  reference: '转账凭证号',
  voucherId: '代金券',
  orderNo: '订单号',
  rechargeId: '充值单号',
  rechargeIds: '充值记录',
  months: '账单月份',
  status: '状态',
  method: '开票方式',
  title: '发票抬头',
  titleType: '抬头类型',
  taxNo: '税号',
  email: '接收邮箱',
  invoiceNo: '发票号码',
  reason: '原因',
  telephones: '手机号列表',
  count: '数量',
  startTime: '开始时间',
  endTime: '结束时间',
};

export function labelOf(path: string): string {
  const segments = path.split('/').filter(Boolean);
  const last = segments.at(-1);
  if (!last) return '请求内容';
  return FIELD_LABELS[last] ?? last;
}
