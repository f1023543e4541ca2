/** 证件材料上传: the server's messages. */
export const UPLOAD_TEXTS = {
  multipartOnly: '请以 multipart/form-data 上传：用途（purpose）与文件（file）',
  fileMissing: '文件已不存在，请重新上传',
  notFound: '文件不存在',
  noFile: '请选择要上传的文件',
  oneFile: '一次只能上传一个文件',
  purpose: '请选择文件用途：LICENCE（营业执照）、STUDENT_CARD（学生证）或 ID_CARD（身份证照片）',
  dailyLimit: (limit: number) => `24小时内最多上传${limit}个证件文件，请稍后再试`,
  mainAccountOnly: '子账号不能上传认证材料，请使用主账号操作',
} as const;
