/** 企业认证: the form's texts (shared parts in authentication/texts.ts). */
export const ENTER_PAGE_TEXTS = {
  title: '企业认证',
  description: '企业、学校、科研院所等机构凭统一社会信用代码完成认证',
  institutions: '学校、实验室所属的事业单位同样在此认证：统一社会信用代码见事业单位法人证书（以 12 开头），上传该证书即可。',
  enterpriseName: { label: '单位名称', placeholder: '与营业执照或法人证书上的名称一致', required: '请输入单位名称', length: '企业名称应为2-100个字符' },
  creditCode: { label: '统一社会信用代码', placeholder: '18位，如 91350100M000100Y43' },
  legalPerson: { label: '法定代表人（选填）', placeholder: '与证照上的法定代表人一致' },
  licence: { label: '营业执照', extra: '营业执照或事业单位法人证书的照片、扫描件', required: '请上传营业执照' },
} as const;
