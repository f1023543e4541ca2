import type { VerificationKind } from '@slg/shared';

const BASE = '/ctrl-personal-center/personal-center';

/** The 实名认证 pages of 个人中心. */
export const VERIFY_PATHS = {
  overview: `${BASE}/authentication`,
  person: `${BASE}/person-page`,
  enterprise: `${BASE}/enter-page`,
  student: `${BASE}/edu-page`,
  school: `${BASE}/school-page`,
} as const;

/** Where each kind is submitted. */
export const FORM_PATH_OF: Record<VerificationKind, string> = {
  PERSON: VERIFY_PATHS.person,
  ENTERPRISE: VERIFY_PATHS.enterprise,
  STUDENT: VERIFY_PATHS.student,
};
