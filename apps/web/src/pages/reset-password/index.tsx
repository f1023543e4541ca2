import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from '../../api/toast';
import { forgetPassword } from '../../api/user';
import { AuthShell } from '../../components/AuthShell';
import { SmsCodeInput } from '../../components/SmsCodeInput';
import { confirmPasswordRules, newPasswordRules, smsCodeRules, telephoneRules } from '../../forms/rules';
import { applyServerError } from '../../forms/serverErrors';
import { FORM_TEXTS } from '../../forms/texts';
import { useSmsCode } from '../../hooks/useSmsCode';
import { RESET_PASSWORD_TEXTS } from './texts';

interface ResetValues {
  telephone: string;
  code: string;
  password: string;
  confirm: string;
}

const SEND_FIELDS = { 40000: 'telephone', 40022: 'telephone', 42901: 'telephone', 42902: 'telephone' } as const;
const SUBMIT_FIELDS = { 40010: 'code', 40011: 'code', 40022: 'telephone' } as const;

/** Forgotten password: phone, SMS code of type `reset`, new password → /login. */
export default function ResetPasswordPage() {
  const navigate = useNavigate();
  const [form] = Form.useForm<ResetValues>();
  const sms = useSmsCode('reset');
  const [submitting, setSubmitting] = useState(false);

  async function sendCode() {
    try {
      const { telephone } = await form.validateFields(['telephone']);
      await sms.send(telephone);
    } catch (error) {
      applyServerError(form, error, SEND_FIELDS);
    }
  }

  async function onFinish(values: ResetValues) {
    setSubmitting(true);
    try {
      await forgetPassword({ telephone: values.telephone, code: values.code, password: values.password });
      toast.success(RESET_PASSWORD_TEXTS.success);
      navigate('/login', { replace: true });
    } catch (error) {
      applyServerError(form, error, SUBMIT_FIELDS);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthShell title={RESET_PASSWORD_TEXTS.title} subtitle={RESET_PASSWORD_TEXTS.subtitle}>
      <Form form={form} name="reset-password" layout="vertical" requiredMark={false} onFinish={onFinish} size="large">
        <Form.Item name="telephone" label={FORM_TEXTS.telephone.label} rules={telephoneRules}>
          <Input prefix={FORM_TEXTS.telephone.prefix} placeholder={FORM_TEXTS.telephone.placeholder} maxLength={11} inputMode="tel" autoComplete="username" />
        </Form.Item>
        <Form.Item name="code" label={FORM_TEXTS.code.label} rules={smsCodeRules}>
          <SmsCodeInput remaining={sms.remaining} sending={sms.sending} onSend={() => void sendCode()} />
        </Form.Item>
        <Form.Item name="password" label={FORM_TEXTS.newPassword.label} rules={newPasswordRules(FORM_TEXTS.newPassword.required)}>
          <Input.Password placeholder={FORM_TEXTS.newPassword.placeholder} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirm" label={FORM_TEXTS.confirmNewPassword.label} dependencies={['password']} rules={confirmPasswordRules('password')}>
          <Input.Password placeholder={FORM_TEXTS.confirmNewPassword.placeholder} autoComplete="new-password" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            {RESET_PASSWORD_TEXTS.submit}
          </Button>
        </Form.Item>
      </Form>
      <div className="slg-auth-links slg-auth-links--center">
        <span>
          {RESET_PASSWORD_TEXTS.remembered}
          <Link to="/login">{RESET_PASSWORD_TEXTS.backToLogin}</Link>
        </span>
      </div>
    </AuthShell>
  );
}
