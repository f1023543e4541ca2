import { Form, Input } from 'antd';
import { loginWithPassword } from '../../api/auth';
import { AuthForm } from '../../components/AuthForm';
import { TelephoneFormItem } from '../../components/TelephoneFormItem';
import { FORM_TEXTS } from '../../forms/texts';
import { useSubmit } from '../../hooks/useSubmit';
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
  const { submitting, onFinish } = useSubmit(form, SERVER_FIELDS, async (values) => {
    signIn(await loginWithPassword({ telephone: values.telephone, password: values.password }));
    onSuccess();
  });
  const T = FORM_TEXTS.loginPassword;

  return (
    <AuthForm form={form} name="password-login" onFinish={onFinish} submitting={submitting} submitText={LOGIN_TEXTS.submit}>
      <TelephoneFormItem autoComplete="username" />
      <Form.Item name="password" label={T.label} rules={[{ required: true, message: T.required }]}>
        <Input.Password placeholder={T.placeholder} autoComplete="current-password" />
      </Form.Item>
    </AuthForm>
  );
}
