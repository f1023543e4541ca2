import { Form, Input } from 'antd';
import { confirmPasswordRules, newPasswordRules } from '../forms/rules';
import { FORM_TEXTS } from '../forms/texts';

/** 密码 / 确认密码 when the account gets its first password, 新密码 / 确认新密码 when it replaces one. */
const VARIANTS = {
  password: {
    password: FORM_TEXTS.password,
    confirm: FORM_TEXTS.confirmPassword,
    rules: newPasswordRules(),
  },
  newPassword: {
    password: FORM_TEXTS.newPassword,
    confirm: FORM_TEXTS.confirmNewPassword,
    rules: newPasswordRules(FORM_TEXTS.newPassword.required),
  },
} as const;

const CONFIRM_RULES = confirmPasswordRules('password');

/** The `password` and `confirm` fields of a password being set. */
export function NewPasswordFormItems({ labels }: { labels: keyof typeof VARIANTS }) {
  const { password, confirm, rules } = VARIANTS[labels];
  return (
    <>
      <Form.Item name="password" label={password.label} rules={rules}>
        <Input.Password placeholder={password.placeholder} autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="confirm" label={confirm.label} dependencies={['password']} rules={CONFIRM_RULES}>
        <Input.Password placeholder={confirm.placeholder} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
