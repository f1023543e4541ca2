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

export const SMS_CODE_TYPES = ['register', 'login', 'reset', 'bind'] as const;
export type SmsCodeType = (typeof SMS_CODE_TYPES)[number];

export function maskTelephone(telephone: string): string {
  return telephone.length === 11 ? `${telephone.slice(0, 3)}****${telephone.slice(7)}` : telephone;
}
