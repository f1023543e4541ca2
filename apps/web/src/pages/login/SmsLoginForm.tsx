import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { loginWithSmsCode } from '../../api/auth';
import { SmsCodeInput } from '../../components/SmsCodeInput';
import { smsCodeRules, telephoneRules } from '../../forms/rules';
import { applyServerError } from '../../forms/serverErrors';
import { FORM_TEXTS } from '../../forms/texts';
import { useSmsCode } from '../../hooks/useSmsCode';
import { signIn } from '../../session/session';
import { LOGIN_TEXTS } from './texts';

interface SmsLoginValues {
  telephone: string;
  code: string;
}

const SEND_FIELDS = { 40000: 'telephone', 42901: 'telephone', 42902: 'telephone' } as const;
const LOGIN_FIELDS = { 40010: 'code', 40011: 'code' } as const;

/** SMS sign-in; `onSuccess(first)` with `first` true when the account was just created. */
export function SmsLoginForm({ onSuccess }: { onSuccess: (firstLogin: boolean) => void }) {
  const [form] = Form.useForm<SmsLoginValues>();
  const [submitting, setSubmitting] = useState(false);
  const sms = useSmsCode('login');

  async function sendCode() {
    try {
      const { telephone } = await form.validateFields(['telephone']);
      await sms.send(telephone);
    } catch (error) {
      applyServerError(form, error, SEND_FIELDS);
    }
  }

  async function onFinish(values: SmsLoginValues) {
    setSubmitting(true);
    try {
      const result = await loginWithSmsCode({ telephone: values.telephone, code: values.code });
      signIn(result);
      onSuccess(result.other === true);
    } catch (error) {
      applyServerError(form, error, LOGIN_FIELDS);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Form form={form} name="sms-login" layout="vertical" requiredMark={false} onFinish={onFinish} size="large">
      <Form.Item name="telephone" label={FORM_TEXTS.telephone.label} rules={telephoneRules}>
        <Input prefix={FORM_TEXTS.telephone.prefix} placeholder={FORM_TEXTS.telephone.placeholder} maxLength={11} inputMode="tel" autoComplete="tel-national" />
      </Form.Item>
      <Form.Item name="code" label={FORM_TEXTS.code.label} rules={smsCodeRules}>
        <SmsCodeInput remaining={sms.remaining} sending={sms.sending} onSend={() => void sendCode()} />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {LOGIN_TEXTS.submit}
        </Button>
      </Form.Item>
    </Form>
  );
}
