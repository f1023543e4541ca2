/** Texts shared by 按充值开票 and 按账单开票. */
export const INVOICE_APPLY_TEXTS = {
  back: '返回发票管理',
  loadFailed: '可开票数据加载失败',
  profile: {
    title: '发票抬头',
    edit: '修改发票信息',
    fill: '填写发票信息',
    missing: '请先填写发票信息（抬头与接收邮箱），再申请开票。',
    failed: '发票信息加载失败',
    personal: '个人',
    enterprise: '企业',
    taxNo: '税号',
    email: '接收邮箱',
  },
  type: {
    label: '发票类型',
    specialBlocked: {
      noProfile: '开具专用发票需先填写企业发票信息',
      notEnterprise: '专用发票仅支持企业抬头',
      incomplete: (fields: string[]) => `开具专用发票需补全：${fields.join('、')}`,
    },
    fieldLabels: { taxNo: '税号', bankName: '开户银行', bankAccount: '银行账号', address: '注册地址', phone: '注册电话' },
  },
  remark: '备注',
  remarkPlaceholder: '选填，将随申请提交给财务（最多200字）',
  selected: (count: number) => `已选 ${count} 项`,
  totalLabel: '申请金额',
  belowMin: (min: string) => `申请金额不能低于 ${min}`,
  tooMany: (max: number) => `一次最多选择 ${max} 项`,
  submit: '提交申请',
  submitted: '开票申请已提交，审核通过后将发送至接收邮箱',
  selectRow: (key: string) => `选择 ${key}`,
} as const;
