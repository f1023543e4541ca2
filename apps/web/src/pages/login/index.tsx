import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from '../../api/toast';
import { AuthShell } from '../../components/AuthShell';
import { PageLoading } from '../../components/PageLoading';
import { postLoginTarget } from '../../router/guards';
import { CONSOLE_HOME_PATH } from '../../router/routes';
import { signIn } from '../../session/session';
import { LoginTabs } from './LoginTabs';
import { PasswordLoginForm } from './PasswordLoginForm';
import { LOGIN_TEXTS } from './texts';
import { useWechatLoginReturn, WechatLoginButton, WechatLoginPending } from './WechatLogin';

// The SMS sign-in (code button, countdown, human check) loads when its tab is chosen, and the
// set-password dialog only after a first SMS sign-in: neither is needed to show the page.
const loadSmsLoginForm = () => import('./SmsLoginForm');
const SmsLoginForm = lazy(() => loadSmsLoginForm().then((module) => ({ default: module.SmsLoginForm })));
const SetPasswordModal = lazy(() => import('./SetPasswordModal').then((module) => ({ default: module.SetPasswordModal })));
// Binding a phone to a WeChat seen for the first time: only after such a return from WeChat.
const WechatLoginBindPhone = lazy(() => import('./WechatLoginBindPhone').then((module) => ({ default: module.WechatLoginBindPhone })));

type LoginTab = 'password' | 'sms';

export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [tab, setTab] = useState<LoginTab>('password');
  const [askPassword, setAskPassword] = useState(false);

  function finish() {
    setAskPassword(false);
    navigate(postLoginTarget(location.search, CONSOLE_HOME_PATH), { replace: true });
  }

  function onSignedIn() {
    toast.success(LOGIN_TEXTS.success);
    finish();
  }

  function onSmsSignedIn(firstLogin: boolean) {
    if (firstLogin) setAskPassword(true);
    else onSignedIn();
  }

  const [wechat, leaveWechat] = useWechatLoginReturn((pair) => {
    signIn(pair);
    onSignedIn();
  });

  if (wechat.kind === 'ticket') {
    return (
      <AuthShell title={LOGIN_TEXTS.wechatFlow.bindTitle}>
        <Suspense fallback={<PageLoading />}>
          <WechatLoginBindPhone
            ticket={wechat.ticket}
            onSuccess={(result) => {
              signIn(result);
              onSmsSignedIn(result.other === true);
            }}
            onBack={leaveWechat}
          />
        </Suspense>
        {askPassword ? (
          <Suspense fallback={null}>
            <SetPasswordModal open onDone={finish} />
          </Suspense>
        ) : null}
      </AuthShell>
    );
  }

  return (
    <AuthShell title={LOGIN_TEXTS.title} subtitle={LOGIN_TEXTS.subtitle}>
      {wechat.kind === 'pending' ? (
        <WechatLoginPending />
      ) : (
        <LoginTabs<LoginTab>
          active={tab}
          onChange={setTab}
          onIntent={(key) => {
            if (key === 'sms') void loadSmsLoginForm();
          }}
          tabs={[
            { key: 'password', label: LOGIN_TEXTS.tabs.password, panel: <PasswordLoginForm onSuccess={onSignedIn} /> },
            {
              key: 'sms',
              label: LOGIN_TEXTS.tabs.sms,
              panel: (
                <Suspense fallback={<PageLoading />}>
                  <SmsLoginForm onSuccess={onSmsSignedIn} />
                </Suspense>
              ),
            },
          ]}
        />
      )}
      <div className="slg-auth-links">
        <span>
          {LOGIN_TEXTS.noAccount}
          <Link to={{ pathname: '/signup', search: location.search }}>{LOGIN_TEXTS.signup}</Link>
        </span>
        <Link to={{ pathname: '/sub-account-login', search: location.search }}>{LOGIN_TEXTS.subAccount}</Link>
        <Link to="/reset-password">{LOGIN_TEXTS.forgot}</Link>
      </div>
      <p className="slg-auth-divider">{LOGIN_TEXTS.otherMethods}</p>
      <div className="slg-oauth">
        <WechatLoginButton />
      </div>
      {askPassword ? (
        <Suspense fallback={null}>
          <SetPasswordModal open onDone={finish} />
        </Suspense>
      ) : null}
    </AuthShell>
  );
}
