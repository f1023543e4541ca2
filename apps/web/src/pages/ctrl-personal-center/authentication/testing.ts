/** Test data of the 实名认证 pages (imported by *.test.tsx only). */
import type { EnterpriseVerification, PersonVerification, StudentVerification, VerificationStatusDto } from '../../../api/verification';

export const NOTHING: VerificationStatusDto = { verified: false, required: false, person: null, enterprise: null, student: null };

export const PERSON_PENDING: PersonVerification = {
  id: 11,
  kind: 'PERSON',
  status: 'PENDING',
  reason: null,
  createdAt: '2026-06-01T02:00:00Z',
  decidedAt: null,
  realName: '*三',
  idNumber: '1101**********002X',
};

export const ENTERPRISE_APPROVED: EnterpriseVerification = {
  id: 12,
  kind: 'ENTERPRISE',
  status: 'APPROVED',
  reason: null,
  createdAt: '2026-05-20T02:00:00Z',
  decidedAt: '2026-05-21T02:00:00Z',
  enterpriseName: '福州测试科技有限公司',
  creditCode: '91350100M000100Y43',
  legalPerson: '*五',
  licence: { id: 5, purpose: 'LICENCE', fileName: '营业执照.pdf', contentType: 'application/pdf', size: 2048 },
};

export const STUDENT_REJECTED: StudentVerification = {
  id: 13,
  kind: 'STUDENT',
  status: 'REJECTED',
  reason: '学生证照片不清晰',
  createdAt: '2026-05-30T02:00:00Z',
  decidedAt: '2026-05-31T02:00:00Z',
  realName: '*七',
  school: '北京大学',
  studentNo: '******3456',
  card: { id: 6, purpose: 'STUDENT_CARD', fileName: 'card.png', contentType: 'image/png', size: 4096 },
};
