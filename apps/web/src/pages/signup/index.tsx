import { ErrorCodes } from '@slg/shared';
import { useState, type MouseEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { register } from '../../api/auth';
import { toast } from '../../api/toast';
import { checkPhone } from '../../api/user';
import { AuthForm } from '../../components/AuthForm';
import { AuthShell } from '../../components/AuthShell';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { SmsCodeField } from '../../components/SmsCodeField';
import { TelephoneField } from '../../components/TelephoneField';
import { confirmPasswordRules, newPasswordRules, smsCodeRules, telephoneRules } from '../../forms/rules';
import { applyServerError } from '../../forms/serverErrors';
import { useForm } from '../../forms/useForm';
import { useFormSmsCode } from '../../hooks/useFormSmsCode';
import { JUST_REGISTERED_STATE } from '../desk/welcome/registered';
import { useSubmit } from '../../hooks/useSubmit';
import { INVITE_CODE_KEY, postLoginTarget, readInviteCode } from '../../router/guards';
import { resolveRoute, type SignupDialog } from '../../router/routes';
import { signIn } from '../../session/session';
import { Checkbox } from '../../ui/Checkbox';
import { SIGNUP_TEXTS } from './texts';
import { TermsModal } from './TermsModal';
import { VerifyModal } from './VerifyModal';

interface RegisterValues {
  telephone: string;
  code: string;
  password: string;
  confirm: string;
  agreement: boolean;
}

const SIGNUP_PATH = '/signup';
/** Where a new account lands without a `redirect` query: the getting-started page. */
const AFTER_SIGNUP_PATH = '/welcome';

const SEND_FIELDS = { 40000: 'telephone', 40900: 'telephone', 42901: 'telephone', 42902: 'telephone' } as const;
const SUBMIT_FIELDS = { 40010: 'code', 40011: 'code', 40900: 'telephone' } as const;

function openedFromForm(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { fromForm?: unknown }).fromForm === true;
}

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Registration (`/signup`, `/register`). On /signup the dialogs have their own sub-paths
 * (/signup/service, /signup/privacy, /signup/verify); on /register they are local state.
 */
export default function SignupPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const form = useForm<RegisterValues>({
    name: 'register',
    initialValues: { telephone: '', code: '', password: '', confirm: '', agreement: false },
    rules: {
      telephone: telephoneRules,
      code: smsCodeRules,
      password: newPasswordRules(),
      confirm: confirmPasswordRules,
      agreement: [{ validate: (value) => (value === true ? null : SIGNUP_TEXTS.agreement.required) }],
    },
    dependencies: { password: ['confirm'] },
  });
  const telephone = form.values.telephone;
  const sms = useFormSmsCode(form, 'register', SEND_FIELDS);
  const [checking, setChecking] = useState(false);
  const [localDialog, setLocalDialog] = useState<SignupDialog | null>(null);
  const [inviteCode] = useState(() => {
    const storage = sessionStorageOrNull();
    return storage ? readInviteCode(storage) : null;
  });

  const routed = location.pathname.toLowerCase().startsWith(SIGNUP_PATH);
  const dialog = routed ? (resolveRoute(location.pathname).meta.dialog ?? null) : localDialog;

  function openDialog(next: SignupDialog) {
    if (routed) navigate({ pathname: `${SIGNUP_PATH}/${next}`, search: location.search }, { state: { fromForm: true } });
    else setLocalDialog(next);
  }

  function closeDialog() {
    if (!routed) setLocalDialog(null);
    else if (openedFromForm(location.state)) navigate(-1);
    else navigate({ pathname: SIGNUP_PATH, search: location.search }, { replace: true });
  }

  function dialogLink(kind: 'service' | 'privacy') {
    return {
      to: routed ? { pathname: `${SIGNUP_PATH}/${kind}`, search: location.search } : `/terms/${kind}-terms`,
      onClick: (event: MouseEvent) => {
        event.preventDefault();
        event.stopPropagation();
        openDialog(kind);
      },
    };
  }

  async function requestCode() {
    const values = form.validate(['telephone']);
    if (!values) return;
    try {
      setChecking(true);
      const { registered } = await checkPhone(values.telephone);
      if (registered) {
        form.setError('telephone', ErrorCodes.PHONE_REGISTERED.message);
        return;
      }
      openDialog('verify');
    } catch (error) {
      applyServerError(form, error, SEND_FIELDS);
    } finally {
      setChecking(false);
    }
  }

  /** From the verify dialog: rejects with the error for the dialog to show. */
  async function sendCode(phone: string) {
    await sms.send(phone);
    closeDialog();
  }

  const { submitting, onFinish } = useSubmit(form, SUBMIT_FIELDS, async (values: RegisterValues) => {
    const pair = await register({
      telephone: values.telephone,
      password: values.password,
      code: values.code,
      inviteCode: inviteCode ?? undefined,
    });
    signIn(pair);
    sessionStorageOrNull()?.removeItem(INVITE_CODE_KEY);
    toast.success(SIGNUP_TEXTS.success);
    navigate(postLoginTarget(location.search, AFTER_SIGNUP_PATH), { replace: true, state: JUST_REGISTERED_STATE });
  });

  const A = SIGNUP_TEXTS.agreement;

  return (
    <AuthShell title={SIGNUP_TEXTS.title} subtitle={SIGNUP_TEXTS.subtitle}>
      <AuthForm form={form} onFinish={onFinish} submitting={submitting} submitText={SIGNUP_TEXTS.submit}>
        <TelephoneField form={form} autoComplete="tel-national" />
        <SmsCodeField form={form} sms={sms} sending={checking || sms.sending} onSend={requestCode} />
        <NewPasswordFields form={form} labels="password" />
        <div className="slg-field">
          <Checkbox
            id={form.fieldId('agreement')}
            checked={form.values.agreement}
            onCheckedChange={(checked) => form.setValue('agreement', checked)}
            invalid={Boolean(form.errors.agreement)}
            describedBy={`${form.fieldId('agreement')}_help`}
          >
            {A.prefix}
            <Link {...dialogLink('service')}>{A.service}</Link>
            {A.and}
            <Link {...dialogLink('privacy')}>{A.privacy}</Link>
          </Checkbox>
          <div id={`${form.fieldId('agreement')}_help`} className="slg-field-help">
            {form.errors.agreement ? <div role="alert">{form.errors.agreement}</div> : null}
          </div>
        </div>
        {inviteCode ? <p className="slg-muted slg-invite-code">{SIGNUP_TEXTS.inviteCode(inviteCode)}</p> : null}
      </AuthForm>
      <div className="slg-auth-links slg-auth-links--center">
        <span>
          {SIGNUP_TEXTS.haveAccount}
          <Link to={{ pathname: '/login', search: location.search }}>{SIGNUP_TEXTS.login}</Link>
        </span>
      </div>
      <TermsModal
        kind={dialog === 'service' || dialog === 'privacy' ? dialog : null}
        onClose={closeDialog}
        onAgree={() => {
          form.setValue('agreement', true);
          closeDialog();
        }}
      />
      <VerifyModal open={dialog === 'verify'} telephone={telephone} sending={sms.sending} onConfirm={sendCode} onClose={closeDialog} />
    </AuthShell>
  );
}
