/** Field rules shared by the console forms and the server schemas. */
export const TELEPHONE_PATTERN = /^1[3-9]\d{9}$/;
export const TELEPHONE_MESSAGE = '请输入正确的11位手机号';

/** 8–20 characters with at least one letter and one digit. */
export const PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d)[\x21-\x7e]{8,20}$/;
export const PASSWORD_MESSAGE = '密码需为8-20位，且同时包含字母和数字';

export const SMS_CODE_PATTERN = /^\d{6}$/;
export const SMS_CODE_MESSAGE = '请输入6位数字验证码';

export const NICKNAME_MAX_LENGTH = 20;
export const NICKNAME_MESSAGE = '昵称为1-20个字符';

/** `change_phone_old` goes to the account's own phone, `change_phone_new` to the phone it moves to (varchar(16)). */
export const SMS_CODE_TYPES = ['register', 'login', 'reset', 'bind', 'change_phone_old', 'change_phone_new'] as const;
export type SmsCodeType = (typeof SMS_CODE_TYPES)[number];

/** How long the proof that the old phone received its code stays usable for the change (seconds). */
export const PHONE_CHANGE_TICKET_TTL_SECONDS = 600;
/** The phone change's refusals, shared so the console can send the person back to the right step. */
export const PHONE_CHANGE_EXPIRED_MESSAGE = '原手机号验证已失效，请重新验证原手机号';
export const PHONE_SAME_MESSAGE = '新手机号不能与原手机号相同';
export const PHONE_TAKEN_MESSAGE = '该手机号已被其他账号使用';

export function maskTelephone(telephone: string): string {
  return telephone.length === 11 ? `${telephone.slice(0, 3)}****${telephone.slice(7)}` : telephone;
}
