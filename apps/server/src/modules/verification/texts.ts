import { VERIFICATION_KIND_LABELS, type VerificationKind, type VerificationStatus } from '@slg/shared';

/** 实名认证: the server's messages. */
export const VERIFICATION_TEXTS = {
  mainAccountOnly: '实名认证只能由主账号提交，子账号不能进行此操作',
  alreadyLive: (kind: VerificationKind, status: VerificationStatus) =>
    status === 'APPROVED' ? `您已通过${VERIFICATION_KIND_LABELS[kind]}，无需重复提交` : `您的${VERIFICATION_KIND_LABELS[kind]}正在审核中，请等待审核结果`,
  personOrEnterprise: (live: VerificationKind) =>
    live === 'ENTERPRISE'
      ? '该账号已提交企业认证：一个账号只能是个人账号或企业账号，不能同时进行个人认证'
      : '该账号已提交个人认证：一个账号只能是个人账号或企业账号，不能同时进行企业认证',
  studentOnEnterprise: '企业账号不能进行学生认证；学生认证请使用个人账号',
  enterpriseOnStudent: '该账号已提交学生认证：学生认证属于个人账号，不能同时进行企业认证',
  subjectInUse: {
    PERSON: '该身份证号已被其他账号认证或正在审核，每个身份证号只能认证一个账号',
    ENTERPRISE: '该统一社会信用代码已被其他账号认证或正在审核，每个企业只能认证一个账号',
    STUDENT: '该学校的这个学号已被其他账号认证或正在审核',
  } satisfies Record<VerificationKind, string>,
  uploadMissing: {
    LICENCE: '请上传营业执照',
    STUDENT_CARD: '请上传学生证照片',
  },
  uploadNotFound: '上传的文件不存在或不属于当前账号，请重新上传',
  uploadWrongPurpose: {
    LICENCE: '所选文件不是营业执照，请在营业执照处重新上传',
    STUDENT_CARD: '所选文件不是学生证，请在学生证处重新上传',
  },
  notFound: '认证申请不存在',
  alreadyDecided: (status: VerificationStatus) => `该认证申请已${status === 'APPROVED' ? '通过' : '驳回'}，不能重复审核`,
  fields: {
    enterpriseName: '企业名称',
    enterpriseNameLength: '企业名称应为2-100个字符',
    legalPerson: '法定代表人',
    school: '学校名称',
    schoolLength: '学校名称应为2-64个字符',
    studentNo: '学号',
    reason: '驳回原因',
    reasonRequired: '请输入驳回原因',
    reasonLength: '驳回原因不能超过200个字符',
    uploadId: (label: string) => `请上传${label}`,
  },
  decidedTitle: {
    approved: (label: string) => `${label}已通过`,
    rejected: (label: string) => `${label}未通过`,
  },
  decidedBody: {
    approved: '您的实名认证已审核通过。',
    rejected: (reason: string) => `驳回原因：${reason}。请按原因修改后在 个人中心 › 实名认证 重新提交。`,
  },
} as const;
