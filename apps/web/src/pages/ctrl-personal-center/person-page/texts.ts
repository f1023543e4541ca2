/** 个人认证: the form's texts (shared parts in authentication/texts.ts). */
export const PERSON_PAGE_TEXTS = {
  title: '个人认证',
  description: '使用中国大陆居民身份证完成个人实名认证',
  realName: { label: '真实姓名', placeholder: '与身份证上的姓名一致', extra: '少数民族姓名中的间隔号请输入“·”' },
  idNumber: { label: '身份证号', placeholder: '18位居民身份证号，末位可为 X', extra: '港澳台居民居住证号码同样适用' },
} as const;
