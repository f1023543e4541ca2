import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { LOGIN_PATH, SUB_ACCOUNT_LOGIN_PATH } from '../router/guards';
import { signOut } from '../session/session';
import { displayName, useUserStore } from '../stores/user';
import { Button, ButtonLink } from '../ui/Button';
import { Tag } from '../ui/feedback';
import { LogoutOutlined } from '../ui/icons/LogoutOutlined';
import { SettingOutlined } from '../ui/icons/SettingOutlined';
import { Avatar } from './Avatar';
import { LAYOUT_TEXTS } from './texts';

const T = LAYOUT_TEXTS.dashboard;
const ACCOUNT_SETTINGS_PATH = '/ctrl-personal-center/personal-center/account-settings';

/**
 * The account menu's panel: nickname, masked phone or sub-account name (`subtitle`), account type,
 * 账号设置 and 退出登录. Loaded when the menu first opens (UserMenu), so it takes the focus itself once
 * it is there.
 */
export function UserMenuPanel({ subtitle, close }: { subtitle: string | null; close: () => void }) {
  const user = useUserStore((state) => state.userInfo);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    panel.current?.querySelector<HTMLElement>('button, a[href]')?.focus();
  }, []);

  async function logout() {
    const signInPath = user?.kind === 'sub' ? SUB_ACCOUNT_LOGIN_PATH : LOGIN_PATH;
    setLeaving(true);
    await signOut();
    queryClient.clear();
    setLeaving(false);
    close();
    navigate(signInPath, { replace: true });
  }

  return (
    <div className="slg-user-panel" ref={panel}>
      <div className="slg-user-panel-head">
        <Avatar size="large" />
        <div>
          <strong className="slg-user-panel-name">{displayName(user)}</strong>
          <div className="slg-muted">{subtitle}</div>
        </div>
        <Tag color={user?.kind === 'sub' ? 'purple' : 'blue'}>{user?.kind === 'sub' ? T.subAccount : T.mainAccount}</Tag>
      </div>
      <hr className="slg-divider" />
      <ButtonLink to={ACCOUNT_SETTINGS_PATH} variant="text" block icon={<SettingOutlined />} className="slg-user-panel-link" onClick={close}>
        {T.accountSettings}
      </ButtonLink>
      <Button block icon={<LogoutOutlined />} loading={leaving} onClick={() => void logout()}>
        {T.logout}
      </Button>
    </div>
  );
}
