import {
  normalizeTelephone,
  PASSWORD_MESSAGE,
  PASSWORD_PATTERN,
  SMS_CODE_MESSAGE,
  SMS_CODE_PATTERN,
  TELEPHONE_MESSAGE,
  TELEPHONE_PATTERN,
} from '@slg/shared';
import { FORM_TEXTS } from './texts';
import type { FieldRule } from './useForm';

/** Field rules of the account forms, built from the shared validation patterns and messages. */
export const telephoneRules: FieldRule<object>[] = [
  { required: true, message: FORM_TEXTS.telephone.required },
  {
    // What people paste (`+86 138-0013-8001`, full-width digits) is judged as the number it stands for.
    validate: (value) =>
      typeof value !== 'string' || value === '' || TELEPHONE_PATTERN.test(normalizeTelephone(value)) ? null : TELEPHONE_MESSAGE,
  },
];

/**
 * The field's value as typed, or the 11 digits once it reads as a whole number: pasting
 * `138 0013 8001` becomes `13800138001` at once, while a number being typed is left alone.
 */
export function normalizeTelephoneInput(value: string): string {
  const normalized = normalizeTelephone(value);
  return TELEPHONE_PATTERN.test(normalized) ? normalized : value;
}

export const smsCodeRules: FieldRule<object>[] = [
  { required: true, message: FORM_TEXTS.code.required },
  { pattern: SMS_CODE_PATTERN, message: SMS_CODE_MESSAGE },
];

/** For a new password; sign-in only requires one. */
export function newPasswordRules(required: string = FORM_TEXTS.password.required): FieldRule<object>[] {
  return [
    { required: true, message: required },
    { pattern: PASSWORD_PATTERN, message: PASSWORD_MESSAGE },
  ];
}

/** The confirmation must equal the `password` field. */
export const confirmPasswordRules: FieldRule<{ password: string }>[] = [
  { required: true, message: FORM_TEXTS.confirmPassword.required },
  { validate: (value, values) => (!value || values.password === value ? null : FORM_TEXTS.confirmPassword.mismatch) },
];
