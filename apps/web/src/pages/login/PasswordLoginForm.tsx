import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { loginWithPassword } from '../../api/auth';
import { telephoneRules } from '../../forms/rules';
import { applyServerError } from '../../forms/serverErrors';
import { FORM_TEXTS } from '../../forms/texts';
import { signIn } from '../../session/session';
import { LOGIN_TEXTS } from './texts';

interface PasswordLoginValues {
  telephone: string;
  password: string;
}

/** Field of each sign-in failure code. */
const SERVER_FIELDS = { 40020: 'password', 40022: 'telephone', 42903: 'password' } as const;

export function PasswordLoginForm({ onSuccess }: { onSuccess: () => void }) {
  const [form] = Form.useForm<PasswordLoginValues>();
  const [submitting, setSubmitting] = useState(false);

  async function onFinish(values: PasswordLoginValues) {
    setSubmitting(true);
    try {
      signIn(await loginWithPassword({ telephone: values.telephone, password: values.password }));
      onSuccess();
    } catch (error) {
      applyServerError(form, error, SERVER_FIELDS);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Form form={form} name="password-login" layout="vertical" requiredMark={false} onFinish={onFinish} size="large">
      <Form.Item name="telephone" label={FORM_TEXTS.telephone.label} rules={telephoneRules}>
        <Input prefix={FORM_TEXTS.telephone.prefix} placeholder={FORM_TEXTS.telephone.placeholder} maxLength={11} inputMode="tel" autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" label={FORM_TEXTS.loginPassword.label} rules={[{ required: true, message: FORM_TEXTS.loginPassword.required }]}>
        <Input.Password placeholder={FORM_TEXTS.loginPassword.placeholder} autoComplete="current-password" />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {LOGIN_TEXTS.submit}
        </Button>
      </Form.Item>
    </Form>
  );
}
