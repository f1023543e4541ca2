import { AccountType } from '@slg/shared';
import { Link, useLocation, useNavigate } from 'react-router';
import { loginSubAccount } from '../../api/auth';
import { toast } from '../../api/toast';
import { AuthForm } from '../../components/AuthForm';
import { AuthShell } from '../../components/AuthShell';
import type { ServerErrorFields } from '../../forms/serverErrors';
import { textFieldProps, useForm } from '../../forms/useForm';
import { useSubmit } from '../../hooks/useSubmit';
import { clearSession, loadCurrentUser, sessionSnapshot, signIn } from '../../session/session';
import { evaluateAccess, postLoginTarget } from '../../router/guards';
import { resolveRoute, SUB_ACCOUNT_HOME_PATH } from '../../router/routes';
import { Field, PasswordInput, TextInput } from '../../ui/fields';
import { SUB_ACCOUNT_LOGIN_TEXTS } from './texts';

/** Where a sub-account lands when no (allowed) `redirect` is given: its own account page (spec §2). */
const SUB_ACCOUNT_LOGIN_PATH = '/sub-account-login';

const T = SUB_ACCOUNT_LOGIN_TEXTS;

interface SubAccountLoginValues {
  username: string;
  password: string;
}

/** 用户名或密码错误 (40020) and the lockout after too many wrong passwords (42903, with its wait) go on 密码. */
const SERVER_FIELDS: ServerErrorFields<keyof SubAccountLoginValues> = { 40020: 'password', 42903: 'password' };

/**
 * The `redirect` query when the signed-in sub-account may open it, else its landing page: going to a
 * page it may not open would only show 403.
 */
export function subAccountTarget(search: string): string {
  const wanted = postLoginTarget(search, SUB_ACCOUNT_HOME_PATH);
  const url = new URL(wanted, 'http://localhost');
  if (url.pathname.toLowerCase().replace(/\/+$/, '') === SUB_ACCOUNT_LOGIN_PATH) return SUB_ACCOUNT_HOME_PATH;
  const decision = evaluateAccess(resolveRoute(url.pathname).meta, sessionSnapshot(), { pathname: url.pathname, search: url.search });
  return decision.type === 'allow' ? wanted : SUB_ACCOUNT_HOME_PATH;
}

/** 子账号登录: username and password; the session is stored as a sub-account (accountType 2). */
export default function SubAccountLoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const form = useForm<SubAccountLoginValues>({
    name: 'sub-account-login',
    initialValues: { username: '', password: '' },
    rules: {
      username: [{ required: true, message: T.username.required }],
      password: [{ required: true, message: T.password.required }],
    },
  });
  const { submitting, onFinish } = useSubmit(form, SERVER_FIELDS, async (values: SubAccountLoginValues) => {
    signIn(await loginSubAccount({ username: values.username.trim(), password: values.password }), AccountType.SUB);
    try {
      // The permissions decide whether the redirect may be followed.
      await loadCurrentUser();
    } catch (error) {
      clearSession();
      throw error;
    }
    toast.success(T.success);
    navigate(subAccountTarget(location.search), { replace: true });
  });
  const username = textFieldProps(form, 'username');
  const password = textFieldProps(form, 'password');

  return (
    <AuthShell title={T.title} subtitle={T.subtitle}>
      <AuthForm form={form} onFinish={onFinish} submitting={submitting} submitText={T.submit}>
        <Field id={username.id} label={T.username.label} error={form.errors.username}>
          <TextInput {...username} size="large" placeholder={T.username.placeholder} autoComplete="username" autoCapitalize="none" spellCheck={false} />
        </Field>
        <Field id={password.id} label={T.password.label} error={form.errors.password}>
          <PasswordInput {...password} size="large" placeholder={T.password.placeholder} autoComplete="current-password" />
        </Field>
      </AuthForm>
      <div className="slg-auth-links">
        <span>
          {T.mainAccountHint}
          <Link to={{ pathname: '/login', search: location.search }}>{T.mainAccount}</Link>
        </span>
        <Link to={{ pathname: '/reset-password', search: '?account=sub' }}>{T.forgot}</Link>
      </div>
    </AuthShell>
  );
}
