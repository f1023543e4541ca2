import { WechatOutlined } from '@ant-design/icons';
import { Divider, Tabs, Tooltip } from 'antd';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from '../../api/toast';
import { AuthShell } from '../../components/AuthShell';
import { postLoginTarget } from '../../router/guards';
import { CONSOLE_HOME_PATH } from '../../router/routes';
import { PasswordLoginForm } from './PasswordLoginForm';
import { SetPasswordModal } from './SetPasswordModal';
import { SmsLoginForm } from './SmsLoginForm';
import { LOGIN_TEXTS } from './texts';

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

  return (
    <AuthShell title={LOGIN_TEXTS.title} subtitle={LOGIN_TEXTS.subtitle}>
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key === 'sms' ? 'sms' : 'password')}
        destroyOnHidden
        items={[
          { key: 'password', label: LOGIN_TEXTS.tabs.password, children: <PasswordLoginForm onSuccess={onSignedIn} /> },
          { key: 'sms', label: LOGIN_TEXTS.tabs.sms, children: <SmsLoginForm onSuccess={onSmsSignedIn} /> },
        ]}
      />
      <div className="slg-auth-links">
        <span>
          {LOGIN_TEXTS.noAccount}
          <Link to={{ pathname: '/signup', search: location.search }}>{LOGIN_TEXTS.signup}</Link>
        </span>
        <Link to="/reset-password">{LOGIN_TEXTS.forgot}</Link>
      </div>
      <Divider plain className="slg-auth-divider">
        {LOGIN_TEXTS.otherMethods}
      </Divider>
      <div className="slg-oauth">
        {/* Not a button: the entry is shown but not offered until WeChat sign-in opens. */}
        <Tooltip title={LOGIN_TEXTS.wechatClosed} trigger={['hover', 'focus']}>
          <span className="slg-oauth-item" aria-disabled="true" tabIndex={0}>
            <WechatOutlined className="slg-oauth-icon" />
            {LOGIN_TEXTS.wechat}
          </span>
        </Tooltip>
      </div>
      <SetPasswordModal open={askPassword} onDone={finish} />
    </AuthShell>
  );
}
