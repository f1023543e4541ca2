/**
 * 实名认证: the identity rules the console checks as the user types and the server enforces, in one
 * implementation — mainland resident ID numbers (GB 11643-1999), unified social credit codes
 * (GB 32100-2015), real names, and the private uploads (licence, student card) that go with them.
 * Every refusal has its own Chinese message, so a person knows exactly what to fix.
 */

/** What the checks answer: the normalised value, or the message of the first rule it breaks. */
export type IdentityCheck = { ok: true; value: string } | { ok: false; message: string };

/** The oldest age an ID number may claim. */
export const ID_MAX_AGE_YEARS = 120;

// ── Messages ──────────────────────────────────────────────────────────────────
export const IDENTITY_MESSAGES = {
  idNumberRequired: '请输入身份证号',
  idNumberFormat: '身份证号应为18位：前17位为数字，最后一位为数字或X',
  idNumberRegion: '身份证号前两位地区码不正确，请检查后重新输入',
  idNumberBirthDate: '身份证号中的出生日期不存在，请检查后重新输入',
  idNumberFuture: '身份证号中的出生日期晚于今天，请检查后重新输入',
  idNumberAge: `身份证号中的出生日期不合理（年龄超过${ID_MAX_AGE_YEARS}岁），请检查后重新输入`,
  idNumberChecksum: '身份证号校验位不正确，请检查后重新输入',
  realNameRequired: '请输入真实姓名',
  realNameFormat: '真实姓名应为2-30个汉字或字母，少数民族姓名可含间隔号“·”',
  creditCodeRequired: '请输入统一社会信用代码',
  creditCodeFormat: '统一社会信用代码应为18位数字或大写字母（不含 I、O、S、V、Z）',
  creditCodeChecksum: '统一社会信用代码校验位不正确，请检查后重新输入',
} as const;

// ── Normalisation ─────────────────────────────────────────────────────────────
/** Full-width ASCII (０-９, Ａ-Ｚ, ａ-ｚ) as half-width: what Chinese input methods produce. */
function halfWidth(value: string): string {
  return value.replace(/[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]/g, (char) => String.fromCharCode(char.charCodeAt(0) - 0xfee0));
}

/** A code as people paste it (spaces, dashes, full-width, lower case) in its canonical form. */
export function normalizeCode(value: string): string {
  return halfWidth(value).replace(/[\s\u3000-]/g, '').toUpperCase();
}

// ── Resident ID numbers (居民身份证号码, GB 11643-1999) ───────────────────────────
/**
 * First two digits: the province-level division of GB/T 2260 (31 mainland provinces), plus 71 台湾
 * and 81 / 82 / 83, the codes of the residence permits of 香港 / 澳门 / 台湾 residents, which follow
 * the same 18-character rule.
 */
export const ID_REGION_CODES: Readonly<Record<string, string>> = {
  '11': '北京',
  '12': '天津',
  '13': '河北',
  '14': '山西',
  '15': '内蒙古',
  '21': '辽宁',
  '22': '吉林',
  '23': '黑龙江',
  '31': '上海',
  '32': '江苏',
  '33': '浙江',
  '34': '安徽',
  '35': '福建',
  '36': '江西',
  '37': '山东',
  '41': '河南',
  '42': '湖北',
  '43': '湖南',
  '44': '广东',
  '45': '广西',
  '46': '海南',
  '50': '重庆',
  '51': '四川',
  '52': '贵州',
  '53': '云南',
  '54': '西藏',
  '61': '陕西',
  '62': '甘肃',
  '63': '青海',
  '64': '宁夏',
  '65': '新疆',
  '71': '台湾',
  '81': '香港',
  '82': '澳门',
  '83': '台湾',
};

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
const ID_CHECK_CHARACTERS = '10X98765432';

/** The check character (0-9 or X) of the first 17 digits, MOD 11-2. */
export function idNumberCheckCharacter(first17: string): string {
  let sum = 0;
  for (let index = 0; index < 17; index += 1) sum += Number(first17[index]) * (ID_WEIGHTS[index] ?? 0);
  return ID_CHECK_CHARACTERS[sum % 11] ?? '';
}

/** Today's date in China (UTC+8) as YYYYMMDD: birth dates are China calendar days. */
export function chinaDateKey(now: Date): string {
  return new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10).replace(/-/g, '');
}

function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Checks an 18-character resident ID number, in this order: format, region code, birth date (real,
 * not after today, at most ID_MAX_AGE_YEARS ago), check character. `now` decides "today" (China time).
 */
export function checkIdNumber(input: string, now: Date): IdentityCheck {
  const value = normalizeCode(input);
  if (value === '') return { ok: false, message: IDENTITY_MESSAGES.idNumberRequired };
  if (!/^\d{17}[\dX]$/.test(value)) return { ok: false, message: IDENTITY_MESSAGES.idNumberFormat };
  if (!ID_REGION_CODES[value.slice(0, 2)]) return { ok: false, message: IDENTITY_MESSAGES.idNumberRegion };
  const birth = value.slice(6, 14);
  const year = Number(birth.slice(0, 4));
  const month = Number(birth.slice(4, 6));
  const day = Number(birth.slice(6, 8));
  if (year < 1800 || !isRealDate(year, month, day)) return { ok: false, message: IDENTITY_MESSAGES.idNumberBirthDate };
  const today = chinaDateKey(now);
  if (birth > today) return { ok: false, message: IDENTITY_MESSAGES.idNumberFuture };
  const oldest = `${Number(today.slice(0, 4)) - ID_MAX_AGE_YEARS}${today.slice(4)}`;
  if (birth < oldest) return { ok: false, message: IDENTITY_MESSAGES.idNumberAge };
  if (idNumberCheckCharacter(value.slice(0, 17)) !== value[17]) return { ok: false, message: IDENTITY_MESSAGES.idNumberChecksum };
  return { ok: true, value };
}

/** An ID number as the user and sub-accounts see it: the first 4 and last 4 characters, e.g. 1101**********123X. */
export function maskIdNumber(value: string): string {
  if (value.length <= 8) return '*'.repeat(value.length);
  return `${value.slice(0, 4)}${'*'.repeat(value.length - 8)}${value.slice(-4)}`;
}

// ── Unified social credit codes (统一社会信用代码, GB 32100-2015) ─────────────────
/** The 31 characters of the code; their index is their value. */
export const CREDIT_CODE_CHARSET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const CREDIT_CODE_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28] as const;
const CREDIT_CODE_PATTERN = /^[0-9A-HJ-NPQRTUWXY]{18}$/;

/** The check character of the first 17 characters, MOD 31. */
export function creditCodeCheckCharacter(first17: string): string {
  let sum = 0;
  for (let index = 0; index < 17; index += 1) sum += CREDIT_CODE_CHARSET.indexOf(first17[index] ?? '') * (CREDIT_CODE_WEIGHTS[index] ?? 0);
  return CREDIT_CODE_CHARSET[(31 - (sum % 31)) % 31] ?? '';
}

/**
 * Checks an 18-character unified social credit code: its characters, then its check character. Any
 * registering authority is accepted (9 enterprises, 1 / 12… public institutions such as schools, 5
 * social organisations, …), so a school or a lab verifies with the same form as a company.
 */
export function checkCreditCode(input: string): IdentityCheck {
  const value = normalizeCode(input);
  if (value === '') return { ok: false, message: IDENTITY_MESSAGES.creditCodeRequired };
  if (!CREDIT_CODE_PATTERN.test(value)) return { ok: false, message: IDENTITY_MESSAGES.creditCodeFormat };
  if (creditCodeCheckCharacter(value.slice(0, 17)) !== value[17]) return { ok: false, message: IDENTITY_MESSAGES.creditCodeChecksum };
  return { ok: true, value };
}

// ── Real names ────────────────────────────────────────────────────────────────
export const REAL_NAME_MIN = 2;
export const REAL_NAME_MAX = 30;
/** Chinese characters (any CJK block, rare ones in names too) or Latin letters, words joined by one space or the middle dot (·). */
const REAL_NAME_PATTERN = /^[\p{Script=Han}A-Za-z]+(?:[ ·][\p{Script=Han}A-Za-z]+)*$/u;

/** Checks a real name; the value comes back trimmed, with the dot variants (•, ・, ．) as ·. */
export function checkRealName(input: string): IdentityCheck {
  const value = input
    .trim()
    .replace(/[•・．\u00b7\u2027\u30fb]/g, '·')
    .replace(/\s+/g, ' ');
  if (value === '') return { ok: false, message: IDENTITY_MESSAGES.realNameRequired };
  const length = [...value].length;
  if (length < REAL_NAME_MIN || length > REAL_NAME_MAX || !REAL_NAME_PATTERN.test(value)) return { ok: false, message: IDENTITY_MESSAGES.realNameFormat };
  return { ok: true, value };
}

/** A name as others see it: every character but the last starred, e.g. 张三 → *三. */
export function maskName(value: string): string {
  const characters = [...value];
  if (characters.length <= 1) return value;
  return `${'*'.repeat(Math.min(characters.length - 1, 3))}${characters[characters.length - 1] ?? ''}`;
}

/** A student number as others see it: its last 4 characters. */
export function maskTail(value: string, shown = 4): string {
  if (value.length <= shown) return '*'.repeat(value.length);
  return `${'*'.repeat(Math.min(value.length - shown, 6))}${value.slice(-shown)}`;
}

// ── Verification kinds and statuses ───────────────────────────────────────────
export const VERIFICATION_KINDS = ['PERSON', 'ENTERPRISE', 'STUDENT'] as const;
export type VerificationKind = (typeof VERIFICATION_KINDS)[number];
export const VERIFICATION_KIND_LABELS: Readonly<Record<VerificationKind, string>> = { PERSON: '个人认证', ENTERPRISE: '企业认证', STUDENT: '学生认证' };

export const VERIFICATION_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
/** Labels of the statuses; an account with no request of a kind is 未认证. */
export const VERIFICATION_STATUS_LABELS: Readonly<Record<VerificationStatus | 'NONE', string>> = {
  NONE: '未认证',
  PENDING: '审核中',
  APPROVED: '已认证',
  REJECTED: '未通过',
};

export const ENTERPRISE_NAME_MIN = 2;
export const ENTERPRISE_NAME_MAX = 100;
export const SCHOOL_NAME_MIN = 2;
export const SCHOOL_NAME_MAX = 64;
export const STUDENT_NO_PATTERN = /^[A-Za-z0-9-]{4,32}$/;
export const STUDENT_NO_MESSAGE = '学号应为4-32位字母、数字或短横线';
export const REJECT_REASON_MAX = 200;

// ── Private uploads (证件材料) ─────────────────────────────────────────────────
export const PRIVATE_UPLOAD_PURPOSES = ['LICENCE', 'STUDENT_CARD', 'ID_CARD'] as const;
export type PrivateUploadPurpose = (typeof PRIVATE_UPLOAD_PURPOSES)[number];
export const PRIVATE_UPLOAD_PURPOSE_LABELS: Readonly<Record<PrivateUploadPurpose, string>> = {
  LICENCE: '营业执照',
  STUDENT_CARD: '学生证',
  ID_CARD: '身份证照片',
};
/** 5 MB: a phone photo or a scanned licence fits. */
export const PRIVATE_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const PRIVATE_UPLOAD_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export type PrivateUploadType = (typeof PRIVATE_UPLOAD_TYPES)[number];
/** For `<input accept>`: the server judges the bytes, not the name. */
export const PRIVATE_UPLOAD_ACCEPT = '.jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf';
export const PRIVATE_UPLOAD_MESSAGES = {
  tooLarge: '文件不能超过5MB，请压缩后重新上传',
  empty: '文件内容为空，请重新选择',
  type: '仅支持 JPG、PNG 图片或 PDF 文件',
} as const;

/** What the bytes are, by their magic numbers: JPEG, PNG or PDF; null for anything else. */
export function detectPrivateUploadType(bytes: Uint8Array): PrivateUploadType | null {
  const starts = (magic: readonly number[]) => bytes.length >= magic.length && magic.every((byte, index) => bytes[index] === byte);
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  return null;
}
