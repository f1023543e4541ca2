import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from '../../api/toast';
import { forgetPassword, resetSubAccountPassword } from '../../api/user';
import { AuthForm } from '../../components/AuthForm';
import { AuthShell } from '../../components/AuthShell';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { SmsCodeField } from '../../components/SmsCodeField';
import { TelephoneField } from '../../components/TelephoneField';
import { confirmPasswordRules, newPasswordRules, smsCodeRules, telephoneRules } from '../../forms/rules';
import { FORM_TEXTS } from '../../forms/texts';
import { textFieldProps, useForm } from '../../forms/useForm';
import { useFormSmsCode } from '../../hooks/useFormSmsCode';
import { useSubmit } from '../../hooks/useSubmit';
import { Field, TextInput } from '../../ui/fields';
import { RESET_PASSWORD_TEXTS } from './texts';

interface ResetValues {
  /** Only for a sub-account (`?account=sub`). */
  username: string;
  telephone: string;
  code: string;
  password: string;
  confirm: string;
}

const SEND_FIELDS = { 40000: 'telephone', 40022: 'telephone', 42901: 'telephone', 42902: 'telephone' } as const;
const SUBMIT_FIELDS = { 40010: 'code', 40011: 'code', 40022: 'telephone' } as const;
/** 用户名与绑定的手机号不匹配 is a validation error (40000) about the name. */
const SUB_SUBMIT_FIELDS = { ...SUBMIT_FIELDS, 40000: 'username' } as const;

/**
 * Forgotten password: phone, SMS code of type `reset`, new password → /login. With `?account=sub` it
 * is a sub-account's: its user name and the phone it bound → /sub-account-login.
 */
export default function ResetPasswordPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const forSubAccount = searchParams.get('account') === 'sub';
  const texts = forSubAccount ? { ...RESET_PASSWORD_TEXTS, ...RESET_PASSWORD_TEXTS.sub } : RESET_PASSWORD_TEXTS;
  const loginPath = forSubAccount ? '/sub-account-login' : '/login';
  const form = useForm<ResetValues>({
    name: 'reset-password',
    initialValues: { username: '', telephone: '', code: '', password: '', confirm: '' },
    rules: {
      username: forSubAccount ? [{ required: true, message: RESET_PASSWORD_TEXTS.sub.username.required }] : [],
      telephone: telephoneRules,
      code: smsCodeRules,
      password: newPasswordRules(FORM_TEXTS.newPassword.required),
      confirm: confirmPasswordRules,
    },
    dependencies: { password: ['confirm'] },
  });
  const sms = useFormSmsCode(form, 'reset', SEND_FIELDS);
  const { submitting, onFinish } = useSubmit(form, forSubAccount ? SUB_SUBMIT_FIELDS : SUBMIT_FIELDS, async (values: ResetValues) => {
    const body = { telephone: values.telephone, code: values.code, password: values.password };
    if (forSubAccount) await resetSubAccountPassword({ ...body, username: values.username.trim() });
    else await forgetPassword(body);
    toast.success(texts.success);
    navigate(loginPath, { replace: true });
  });
  const username = textFieldProps(form, 'username');

  return (
    <AuthShell title={texts.title} subtitle={texts.subtitle}>
      <AuthForm form={form} onFinish={onFinish} submitting={submitting} submitText={RESET_PASSWORD_TEXTS.submit}>
        {forSubAccount ? (
          <Field id={username.id} label={RESET_PASSWORD_TEXTS.sub.username.label} error={form.errors.username}>
            <TextInput {...username} size="large" placeholder={RESET_PASSWORD_TEXTS.sub.username.placeholder} autoComplete="username" autoCapitalize="none" spellCheck={false} />
          </Field>
        ) : null}
        <TelephoneField form={form} autoComplete={forSubAccount ? 'tel-national' : 'username'} />
        <SmsCodeField form={form} sms={sms} />
        <NewPasswordFields form={form} labels="newPassword" />
      </AuthForm>
      <div className="slg-auth-links slg-auth-links--center">
        <span>
          {RESET_PASSWORD_TEXTS.remembered}
          <Link to={loginPath}>{texts.backToLogin}</Link>
        </span>
        {forSubAccount ? <span>{RESET_PASSWORD_TEXTS.sub.noPhoneHint}</span> : null}
      </div>
    </AuthShell>
  );
}
