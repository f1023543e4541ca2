/** 学校认证: the landing of student verification, and where institutions go instead. */
export const SCHOOL_PAGE_TEXTS = {
  title: '学校认证',
  description: '在校学生的身份认证；学校、实验室等机构请使用企业认证',
  student: {
    title: '我是在校学生',
    intro: '学生认证以学生证确认您的在校身份，通过后账号即为已实名；学生认证可以与个人认证同时拥有，但不能与企业认证同时存在。',
    stepsTitle: '认证步骤',
    steps: ['填写真实姓名、学校全称和学号', '上传学生证信息页照片，或学信网学籍在线验证报告 PDF', '提交后由平台人工审核，结果显示在实名认证页'],
    start: '开始学生认证',
    again: '重新提交学生认证',
    status: '当前状态',
  },
  institution: {
    title: '我代表学校或实验室',
    intro: '学校、学院、实验室、科研院所属于机构，请以单位身份完成企业认证：填写单位名称和统一社会信用代码（事业单位法人证书上，以 12 开头），上传法人证书即可。',
    tip: '机构账号可以创建子账号，分给老师和学生使用，并分别设置权限。',
    start: '进行机构（企业）认证',
  },
  loadFailed: '认证状态加载失败',
} as const;
