import { loginWithPassword } from '../../api/auth';
import { AuthForm } from '../../components/AuthForm';
import { TelephoneField } from '../../components/TelephoneField';
import { telephoneRules } from '../../forms/rules';
import { FORM_TEXTS } from '../../forms/texts';
import { textFieldProps, useForm } from '../../forms/useForm';
import { useSubmit } from '../../hooks/useSubmit';
import { signIn } from '../../session/session';
import { Field, PasswordInput } from '../../ui/fields';
import { LOGIN_TEXTS } from './texts';

interface PasswordLoginValues {
  telephone: string;
  password: string;
}

/** Field of each sign-in failure code. */
const SERVER_FIELDS = { 40020: 'password', 40022: 'telephone', 42903: 'password' } as const;
const T = FORM_TEXTS.loginPassword;

export function PasswordLoginForm({ onSuccess }: { onSuccess: () => void }) {
  const form = useForm<PasswordLoginValues>({
    name: 'password-login',
    initialValues: { telephone: '', password: '' },
    rules: { telephone: telephoneRules, password: [{ required: true, message: T.required }] },
  });
  const { submitting, onFinish } = useSubmit(form, SERVER_FIELDS, async (values: PasswordLoginValues) => {
    signIn(await loginWithPassword({ telephone: values.telephone, password: values.password }));
    onSuccess();
  });
  const password = textFieldProps(form, 'password');

  return (
    <AuthForm form={form} onFinish={onFinish} submitting={submitting} submitText={LOGIN_TEXTS.submit}>
      <TelephoneField form={form} autoComplete="username" />
      <Field id={password.id} label={T.label} error={form.errors.password}>
        <PasswordInput {...password} size="large" placeholder={T.placeholder} autoComplete="current-password" />
      </Field>
    </AuthForm>
  );
}
