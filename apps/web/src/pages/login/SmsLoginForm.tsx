import { loginWithSmsCode } from '../../api/auth';
import { AuthForm } from '../../components/AuthForm';
import { SmsCodeField } from '../../components/SmsCodeField';
import { TelephoneField } from '../../components/TelephoneField';
import { smsCodeRules, telephoneRules } from '../../forms/rules';
import { useForm } from '../../forms/useForm';
import { useFormSmsCode } from '../../hooks/useFormSmsCode';
import { useSubmit } from '../../hooks/useSubmit';
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
  const form = useForm<SmsLoginValues>({
    name: 'sms-login',
    initialValues: { telephone: '', code: '' },
    rules: { telephone: telephoneRules, code: smsCodeRules },
  });
  const sms = useFormSmsCode(form, 'login', SEND_FIELDS);
  const { submitting, onFinish } = useSubmit(form, LOGIN_FIELDS, async (values: SmsLoginValues) => {
    const result = await loginWithSmsCode({ telephone: values.telephone, code: values.code });
    signIn(result);
    onSuccess(result.other === true);
  });

  return (
    <AuthForm form={form} onFinish={onFinish} submitting={submitting} submitText={LOGIN_TEXTS.submit}>
      <TelephoneField form={form} autoComplete="tel-national" />
      <SmsCodeField form={form} sms={sms} />
    </AuthForm>
  );
}
