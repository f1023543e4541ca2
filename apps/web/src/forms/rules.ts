import {
  normalizeTelephone,
  PASSWORD_MESSAGE,
  PASSWORD_PATTERN,
  SMS_CODE_MESSAGE,
  SMS_CODE_PATTERN,
  TELEPHONE_MESSAGE,
  TELEPHONE_PATTERN,
} from '@slg/shared';
import type { FormRule } from 'antd';
import { FORM_TEXTS } from './texts';

/** antd form rules built from the shared validation patterns and messages. */
export const telephoneRules: FormRule[] = [
  { required: true, message: FORM_TEXTS.telephone.required },
  {
    // What people paste (`+86 138-0013-8001`, full-width digits) is judged as the number it stands for.
    validator: (_rule, value: unknown) =>
      typeof value !== 'string' || value === '' || TELEPHONE_PATTERN.test(normalizeTelephone(value))
        ? Promise.resolve()
        : Promise.reject(new Error(TELEPHONE_MESSAGE)),
  },
];

/**
 * The field's value as typed, or the 11 digits once it reads as a whole number: pasting
 * `138 0013 8001` becomes `13800138001` at once, while a number being typed is left alone.
 */
export function normalizeTelephoneInput(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const normalized = normalizeTelephone(value);
  return TELEPHONE_PATTERN.test(normalized) ? normalized : value;
}

export const smsCodeRules: FormRule[] = [
  { required: true, message: FORM_TEXTS.code.required },
  { pattern: SMS_CODE_PATTERN, message: SMS_CODE_MESSAGE },
];

/** For a new password; sign-in only requires one. */
export function newPasswordRules(required: string = FORM_TEXTS.password.required): FormRule[] {
  return [
    { required: true, message: required },
    { pattern: PASSWORD_PATTERN, message: PASSWORD_MESSAGE },
  ];
}

/** The confirmation must equal the field `passwordField`. */
export function confirmPasswordRules(passwordField: string): FormRule[] {
  return [
    { required: true, message: FORM_TEXTS.confirmPassword.required },
    ({ getFieldValue }) => ({
      validator(_rule, value: unknown) {
        if (!value || getFieldValue(passwordField) === value) return Promise.resolve();
        return Promise.reject(new Error(FORM_TEXTS.confirmPassword.mismatch));
      },
    }),
  ];
}
