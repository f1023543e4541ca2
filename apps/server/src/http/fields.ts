import { z } from 'zod';
import {
  AMOUNT_MAX_FEN,
  COUNTRY_CODE,
  formatYuan,
  PASSWORD_MESSAGE,
  PASSWORD_PATTERN,
  SMS_CODE_MESSAGE,
  SMS_CODE_PATTERN,
  SMS_CODE_TYPES,
  TELEPHONE_MESSAGE,
  TELEPHONE_PATTERN,
} from '@slg/shared';

/** A string field whose missing / wrong-type errors name the field in Chinese. */
export function text(label: string) {
  return z.string({
    error: (issue) => (issue.input === undefined || issue.input === null ? `请输入${label}` : `${label}必须是文本`),
  });
}

export const telephoneField = text('手机号').trim().regex(TELEPHONE_PATTERN, TELEPHONE_MESSAGE);
export const passwordField = text('密码').regex(PASSWORD_PATTERN, PASSWORD_MESSAGE);
export const smsCodeField = text('验证码').trim().regex(SMS_CODE_PATTERN, SMS_CODE_MESSAGE);
export const smsTypeField = z.enum(SMS_CODE_TYPES, { error: '验证码类型必须是 register、login、reset 或 bind 之一' });
export const countryCodeField = z.coerce
  .number({ error: '国家代码必须是数字' })
  .refine((value) => value === COUNTRY_CODE, '目前仅支持中国大陆手机号（国家代码 86）')
  .default(COUNTRY_CODE);

/**
 * An amount of money in integer fen. Refuses strings, fractions, zero, negatives and huge numbers with
 * a Chinese message that names the field and the limits in yuan.
 */
export function amountField(label: string, limits: { min?: number; max?: number } = {}) {
  const min = limits.min ?? 1;
  const max = limits.max ?? AMOUNT_MAX_FEN;
  return z
    .number({
      error: (issue) => (issue.input === undefined || issue.input === null ? `请输入${label}` : `${label}必须是数字（单位：分）`),
    })
    .refine(Number.isFinite, `${label}必须是有限的数字`)
    .refine(Number.isInteger, `${label}必须是整数（单位：分）`)
    .refine((value) => value >= min, `${label}不能低于${formatYuan(min)}`)
    .refine((value) => value <= max, `${label}不能超过${formatYuan(max)}`);
}
