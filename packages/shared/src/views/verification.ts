/**
 * What 实名认证 answers (the account's verification status, the three submissions, the private uploads
 * that go with them): the server's response schemas, and the types the console reads them with
 * (`import type` only). ID numbers come back masked; the full number never returns.
 */
import { z } from 'zod';
import { PRIVATE_UPLOAD_PURPOSES, VERIFICATION_STATUSES } from '../identity.js';

/** An uploaded file (营业执照, 学生证) as a verification names it. */
export const uploadBriefSchema = z.object({
  id: z.number().int(),
  purpose: z.enum(PRIVATE_UPLOAD_PURPOSES),
  fileName: z.string(),
  contentType: z.string(),
  /** Bytes. */
  size: z.number().int(),
});
export type UploadBrief = z.infer<typeof uploadBriefSchema>;

/** `POST /user/upload/private`: the file the owner just uploaded. */
export const uploadViewSchema = z.object({
  id: z.number().int(),
  fileName: z.string(),
  contentType: z.string().describe('按文件内容识别：image/jpeg、image/png 或 application/pdf'),
  size: z.number().int().describe('字节数'),
  purpose: z.enum(PRIVATE_UPLOAD_PURPOSES),
  createdAt: z.string(),
});
export type UploadView = z.infer<typeof uploadViewSchema>;

/** The fields every request has: its review. */
export const decisionFields = {
  id: z.number().int(),
  status: z.enum(VERIFICATION_STATUSES).describe('PENDING 审核中、APPROVED 已认证、REJECTED 未通过'),
  /** Why it was rejected (shown to the user). */
  reason: z.string().nullable().describe('未通过的原因'),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
};

export const personViewSchema = z.object({
  ...decisionFields,
  kind: z.literal('PERSON'),
  realName: z.string().describe('脱敏：只显示最后一个字'),
  idNumber: z.string().describe('脱敏：前4位与后4位，如 1101**********123X'),
});
export const enterpriseViewSchema = z.object({
  ...decisionFields,
  kind: z.literal('ENTERPRISE'),
  enterpriseName: z.string(),
  creditCode: z.string().describe('统一社会信用代码（营业执照上公开的信息，不脱敏）'),
  legalPerson: z.string().nullable().describe('脱敏'),
  licence: uploadBriefSchema.nullable(),
});
export const studentViewSchema = z.object({
  ...decisionFields,
  kind: z.literal('STUDENT'),
  realName: z.string().describe('脱敏'),
  school: z.string(),
  studentNo: z.string().describe('脱敏：只显示后4位'),
  card: uploadBriefSchema.nullable(),
});

/** `GET /verification/status`: the latest request of each kind. */
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
