import { FORM_TEXTS } from '../forms/texts';
import { textFieldProps, type FormApi } from '../forms/useForm';
import { Field, PasswordInput } from '../ui/fields';

/** 密码 / 确认密码 when the account gets its first password, 新密码 / 确认新密码 when it replaces one. */
const VARIANTS = {
  password: { password: FORM_TEXTS.password, confirm: FORM_TEXTS.confirmPassword },
  newPassword: { password: FORM_TEXTS.newPassword, confirm: FORM_TEXTS.confirmNewPassword },
} as const;

/**
 * The `password` and `confirm` fields of a password being set (their rules: forms/rules.ts
 * `newPasswordRules` and `confirmPasswordRules`, with `confirm` depending on `password`).
 */
export function NewPasswordFields<Values extends { password: string; confirm: string }>({ form, labels, size = 'large' }: { form: FormApi<Values>; labels: keyof typeof VARIANTS; size?: 'middle' | 'large' }) {
  const { password, confirm } = VARIANTS[labels];
  const passwordProps = textFieldProps(form, 'password');
  const confirmProps = textFieldProps(form, 'confirm');
  return (
    <>
      <Field id={passwordProps.id} label={password.label} error={form.errors.password}>
        <PasswordInput {...passwordProps} size={size} placeholder={password.placeholder} autoComplete="new-password" />
      </Field>
      <Field id={confirmProps.id} label={confirm.label} error={form.errors.confirm}>
        <PasswordInput {...confirmProps} size={size} placeholder={confirm.placeholder} autoComplete="new-password" />
      </Field>
    </>
  );
}
