import { z } from 'zod';
import {
  checkCreditCode,
  checkIdNumber,
  checkRealName,
  ENTERPRISE_NAME_MAX,
  ENTERPRISE_NAME_MIN,
  SCHOOL_NAME_MAX,
  SCHOOL_NAME_MIN,
  STUDENT_NO_MESSAGE,
  STUDENT_NO_PATTERN,
  type IdentityCheck,
} from '@slg/shared';
import { text } from '../../http/fields.js';
import { VERIFICATION_TEXTS as T } from './texts.js';

/** A text field judged by one of the shared identity checks: its message on failure, its normalised value on success. */
function checked(label: string, check: (value: string) => IdentityCheck) {
  return text(label)
    .max(200, `${label}过长`)
    .transform((value, context) => {
      const result = check(value);
      if (!result.ok) {
        context.addIssue({ code: 'custom', message: result.message });
        return z.NEVER;
      }
      return result.value;
    });
}

const uploadIdField = (label: string) =>
  z
    .number({ error: T.fields.uploadId(label) })
    .int(T.fields.uploadId(label))
    .positive(T.fields.uploadId(label))
    .max(Number.MAX_SAFE_INTEGER, T.fields.uploadId(label));

const length = (label: string, min: number, max: number, message: string) =>
  text(label)
    .transform((value) => value.trim().replace(/\s+/g, ' '))
    .pipe(z.string().min(min, message).max(max, message));

/** The bodies of the three submissions; `now` decides "today" for birth dates (the app's clock). */
export function verificationBodies(now: () => Date) {
  const realName = checked('真实姓名', checkRealName);
  return {
    person: z.object({
      realName,
      idNumber: checked('身份证号', (value) => checkIdNumber(value, now())),
    }),
    enterprise: z.object({
      enterpriseName: length(T.fields.enterpriseName, ENTERPRISE_NAME_MIN, ENTERPRISE_NAME_MAX, T.fields.enterpriseNameLength),
      creditCode: checked('统一社会信用代码', checkCreditCode),
      legalPerson: checked(T.fields.legalPerson, (value) => (value.trim() === '' ? { ok: true, value: '' } : checkRealName(value)))
        .optional()
        .describe('法定代表人姓名（选填，空文本视为未填）'),
      licenceUploadId: uploadIdField('营业执照').describe('POST /api/v1/user/upload/private（purpose=LICENCE）返回的 id'),
    }),
    student: z.object({
      realName,
      school: length(T.fields.school, SCHOOL_NAME_MIN, SCHOOL_NAME_MAX, T.fields.schoolLength),
      studentNo: text(T.fields.studentNo)
        .transform((value) => value.trim())
        .pipe(z.string().regex(STUDENT_NO_PATTERN, STUDENT_NO_MESSAGE)),
      cardUploadId: uploadIdField('学生证照片').describe('POST /api/v1/user/upload/private（purpose=STUDENT_CARD）返回的 id'),
    }),
  };
}
