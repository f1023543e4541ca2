import { z } from 'zod';
import { maskIdNumber, maskName, maskTail, VERIFICATION_KINDS, type VerificationKind, type VerificationStatus } from '@slg/shared';
import {
  decisionFields,
  uploadBriefSchema,
  type EnterpriseView,
  type PersonView,
  type StudentView,
  type UploadBrief,
  type VerificationStatusView,
  type VerificationView,
} from '@slg/shared/views/verification';
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

// The answers' schemas live in packages/shared (views/verification), where the console reads their types.
export type { EnterpriseView, PersonView, StudentView, UploadBrief, VerificationStatusView, VerificationView };

export const adminVerificationSchema = z.object({
  ...decisionFields,
  kind: z.enum(VERIFICATION_KINDS),
  account: z.object({ id: z.number().int(), telephone: z.string().nullable(), nickName: z.string() }),
  details: z.record(z.string(), z.string()).describe('提交的完整信息（审核用，不脱敏）'),
  upload: uploadBriefSchema.nullable().describe('营业执照或学生证：GET /api/v1/admin/uploads/{id} 查看'),
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
