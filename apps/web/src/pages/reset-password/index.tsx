import { Link, useNavigate } from 'react-router';
import { toast } from '../../api/toast';
import { forgetPassword } from '../../api/user';
import { AuthForm } from '../../components/AuthForm';
import { AuthShell } from '../../components/AuthShell';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { SmsCodeField } from '../../components/SmsCodeField';
import { TelephoneField } from '../../components/TelephoneField';
import { confirmPasswordRules, newPasswordRules, smsCodeRules, telephoneRules } from '../../forms/rules';
import { FORM_TEXTS } from '../../forms/texts';
import { useForm } from '../../forms/useForm';
import { useFormSmsCode } from '../../hooks/useFormSmsCode';
import { useSubmit } from '../../hooks/useSubmit';
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
  const form = useForm<ResetValues>({
    name: 'reset-password',
    initialValues: { telephone: '', code: '', password: '', confirm: '' },
    rules: {
      telephone: telephoneRules,
      code: smsCodeRules,
      password: newPasswordRules(FORM_TEXTS.newPassword.required),
      confirm: confirmPasswordRules,
    },
    dependencies: { password: ['confirm'] },
  });
  const sms = useFormSmsCode(form, 'reset', SEND_FIELDS);
  const { submitting, onFinish } = useSubmit(form, SUBMIT_FIELDS, async (values: ResetValues) => {
    await forgetPassword({ telephone: values.telephone, code: values.code, password: values.password });
    toast.success(RESET_PASSWORD_TEXTS.success);
    navigate('/login', { replace: true });
  });

  return (
    <AuthShell title={RESET_PASSWORD_TEXTS.title} subtitle={RESET_PASSWORD_TEXTS.subtitle}>
      <AuthForm form={form} onFinish={onFinish} submitting={submitting} submitText={RESET_PASSWORD_TEXTS.submit}>
        <TelephoneField form={form} autoComplete="username" />
        <SmsCodeField form={form} sms={sms} />
        <NewPasswordFields form={form} labels="newPassword" />
      </AuthForm>
      <div className="slg-auth-links slg-auth-links--center">
        <span>
          {RESET_PASSWORD_TEXTS.remembered}
          <Link to="/login">{RESET_PASSWORD_TEXTS.backToLogin}</Link>
        </span>
      </div>
    </AuthShell>
  );
}
