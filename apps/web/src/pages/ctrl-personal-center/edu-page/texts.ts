/** 学生认证: the form's texts (shared parts in authentication/texts.ts). */
export const EDU_PAGE_TEXTS = {
  title: '学生认证',
  description: '在校学生凭学生证完成认证',
  realName: { label: '真实姓名', placeholder: '与学生证上的姓名一致' },
  school: { label: '学校名称', placeholder: '学校全称，如 北京大学', required: '请输入学校名称', length: '学校名称应为2-64个字符' },
  studentNo: { label: '学号', placeholder: '学生证上的学号' },
  card: { label: '学生证照片', extra: '学生证信息页（含照片、姓名、学校、学号）；也可上传学信网学籍在线验证报告 PDF', required: '请上传学生证照片' },
} as const;
