import {
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
  { pattern: TELEPHONE_PATTERN, message: TELEPHONE_MESSAGE },
];

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
