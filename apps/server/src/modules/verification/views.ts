import { z } from 'zod';
import {
  maskIdNumber,
  maskName,
  maskTail,
  PRIVATE_UPLOAD_PURPOSES,
  VERIFICATION_KINDS,
  VERIFICATION_STATUSES,
  type VerificationKind,
  type VerificationStatus,
} from '@slg/shared';
import type { privateUploads, verifications } from '../../db/schema/index.js';

export type VerificationRow = typeof verifications.$inferSelect;
type UploadRow = typeof privateUploads.$inferSelect;

/** The submitted fields, as `details` stores them per kind. */
export interface PersonDetails {
  realName: string;
  idNumber: string;
}
export interface EnterpriseDetails {
  enterpriseName: string;
  creditCode: string;
  legalPerson?: string;
}
export interface StudentDetails {
  realName: string;
  school: string;
  studentNo: string;
}

const uploadBrief = z.object({
  id: z.number().int(),
  purpose: z.enum(PRIVATE_UPLOAD_PURPOSES),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});
export type UploadBrief = z.infer<typeof uploadBrief>;

const decision = {
  id: z.number().int(),
  status: z.enum(VERIFICATION_STATUSES).describe('PENDING 审核中、APPROVED 已认证、REJECTED 未通过'),
  reason: z.string().nullable().describe('未通过的原因'),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
};

export const personViewSchema = z.object({
  ...decision,
  kind: z.literal('PERSON'),
  realName: z.string().describe('脱敏：只显示最后一个字'),
  idNumber: z.string().describe('脱敏：前4位与后4位，如 1101**********123X'),
});
export const enterpriseViewSchema = z.object({
  ...decision,
  kind: z.literal('ENTERPRISE'),
  enterpriseName: z.string(),
  creditCode: z.string().describe('统一社会信用代码（营业执照上公开的信息，不脱敏）'),
  legalPerson: z.string().nullable().describe('脱敏'),
  licence: uploadBrief.nullable(),
});
export const studentViewSchema = z.object({
  ...decision,
  kind: z.literal('STUDENT'),
  realName: z.string().describe('脱敏'),
  school: z.string(),
  studentNo: z.string().describe('脱敏：只显示后4位'),
  card: uploadBrief.nullable(),
});

export const verificationStatusSchema = z.object({
  verified: z.boolean().describe('主账号是否有已通过的认证（个人、企业或学生）'),
  required: z.boolean().describe('创建实例是否需要先通过实名认证（REQUIRE_VERIFICATION）'),
  person: personViewSchema.nullable().describe('最近一次个人认证'),
  enterprise: enterpriseViewSchema.nullable().describe('最近一次企业认证'),
  student: studentViewSchema.nullable().describe('最近一次学生认证'),
});

export type PersonView = z.infer<typeof personViewSchema>;
export type EnterpriseView = z.infer<typeof enterpriseViewSchema>;
export type StudentView = z.infer<typeof studentViewSchema>;
export type VerificationView = PersonView | EnterpriseView | StudentView;
export type VerificationStatusView = z.infer<typeof verificationStatusSchema>;

export const adminVerificationSchema = z.object({
  ...decision,
  kind: z.enum(VERIFICATION_KINDS),
  account: z.object({ id: z.number().int(), telephone: z.string().nullable(), nickName: z.string() }),
  details: z.record(z.string(), z.string()).describe('提交的完整信息（审核用，不脱敏）'),
  upload: uploadBrief.nullable().describe('营业执照或学生证：GET /api/v1/admin/uploads/{id} 查看'),
  reviewerId: z.number().int().nullable(),
});
export type AdminVerificationView = z.infer<typeof adminVerificationSchema>;

export function uploadBriefOf(row: UploadRow | null | undefined): UploadBrief | null {
  if (!row) return null;
  return {
    id: row.id,
    purpose: row.purpose as UploadBrief['purpose'],
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.sizeBytes,
  };
}

function decisionOf(row: VerificationRow) {
  return {
    id: row.id,
    status: row.status as VerificationStatus,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

const field = (details: Record<string, string>, name: string): string => details[name] ?? '';

/** What the account (and its sub-accounts) see of a request: ID numbers and names masked, never the full number. */
export function userViewOf(row: VerificationRow, upload: UploadRow | null | undefined): VerificationView {
  const d = row.details;
  const kind = row.kind as VerificationKind;
  if (kind === 'PERSON') {
    return { ...decisionOf(row), kind, realName: maskName(field(d, 'realName')), idNumber: maskIdNumber(field(d, 'idNumber')) };
  }
  if (kind === 'ENTERPRISE') {
    const legalPerson = field(d, 'legalPerson');
    return {
      ...decisionOf(row),
      kind,
      enterpriseName: field(d, 'enterpriseName'),
      creditCode: field(d, 'creditCode'),
      legalPerson: legalPerson ? maskName(legalPerson) : null,
      licence: uploadBriefOf(upload),
    };
  }
  return {
    ...decisionOf(row),
    kind,
    realName: maskName(field(d, 'realName')),
    school: field(d, 'school'),
    studentNo: maskTail(field(d, 'studentNo')),
    card: uploadBriefOf(upload),
  };
}

export function adminViewOf(
  row: VerificationRow,
  account: { id: number; telephone: string | null; nickName: string },
  upload: UploadRow | null | undefined,
): AdminVerificationView {
  return {
    ...decisionOf(row),
    kind: row.kind as VerificationKind,
    account,
    details: row.details,
    upload: uploadBriefOf(upload),
    reviewerId: row.reviewerId,
  };
}
