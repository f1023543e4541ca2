import { z } from 'zod';
import {
  AMOUNT_MAX_FEN,
  COUNTRY_CODE,
  formatYuan,
  normalizeTelephone,
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

/** A mainland mobile number, accepted as people paste it (`+86 138-0013-8001`, full-width digits) and stored as 11 digits. */
export const telephoneField = text('手机号').overwrite(normalizeTelephone).regex(TELEPHONE_PATTERN, TELEPHONE_MESSAGE);
export const passwordField = text('密码').regex(PASSWORD_PATTERN, PASSWORD_MESSAGE);
export const smsCodeField = text('验证码').trim().regex(SMS_CODE_PATTERN, SMS_CODE_MESSAGE);
export const smsTypeField = z.enum(SMS_CODE_TYPES, { error: `验证码类型必须是 ${SMS_CODE_TYPES.join('、')} 之一` });
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

/** Dates a filter may name (China time): the platform's records all fall well inside, and PostgreSQL and JS agree on every instant here. */
export const EARLIEST_DATE = '2000-01-01T00:00:00+08:00';
export const LATEST_DATE = '2100-01-01T00:00:00+08:00';

/**
 * An ISO 8601 instant with its offset (e.g. `2026-06-01T00:00:00+08:00`), between 2000 and 2100.
 * Year 0000, impossible days and far-future years are refused here, before they reach the database.
 */
export function dateTimeField(label: string) {
  const earliest = Date.parse(EARLIEST_DATE);
  const latest = Date.parse(LATEST_DATE);
  return z.iso
    .datetime({
      offset: true,
      // A malformed value gets one message, not the range's too.
      abort: true,
      error: (issue) =>
        issue.code === 'invalid_type' ? `${label}必须是文本` : `${label}格式不正确，应为带时区的时间，如 2026-06-01T00:00:00+08:00`,
    })
    .refine((value) => {
      const instant = Date.parse(value);
      return Number.isFinite(instant) && instant >= earliest && instant < latest;
    }, `${label}须在2000年至2099年之间`);
}

/** Optional time range of a list filter (`startTime` inclusive, `endTime` exclusive). */
export const timeRangeQuery = z
  .object({
    startTime: dateTimeField('开始时间').optional(),
    endTime: dateTimeField('结束时间').optional(),
  })
  .refine((range) => !range.startTime || !range.endTime || Date.parse(range.startTime) < Date.parse(range.endTime), {
    message: '开始时间必须早于结束时间',
    path: ['endTime'],
  });
