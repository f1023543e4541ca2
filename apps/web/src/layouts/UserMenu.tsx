import { maskTelephone } from '@slg/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { LOGIN_PATH, SUB_ACCOUNT_LOGIN_PATH } from '../router/guards';
import { signOut } from '../session/session';
import { displayName, useUserStore } from '../stores/user';
import { Button, ButtonLink } from '../ui/Button';
import { Tag } from '../ui/feedback';
import { LogoutOutlined } from '../ui/icons/LogoutOutlined';
import { SettingOutlined } from '../ui/icons/SettingOutlined';
import { UserOutlined } from '../ui/icons/UserOutlined';
import { PopoverButton } from '../ui/Popover';
import { LAYOUT_TEXTS } from './texts';

const T = LAYOUT_TEXTS.dashboard;
const ACCOUNT_SETTINGS_PATH = '/ctrl-personal-center/personal-center/account-settings';

function Avatar({ size }: { size: 'small' | 'large' }) {
  return (
    <span className={`slg-avatar slg-avatar-${size}`} aria-hidden="true">
      <UserOutlined />
    </span>
  );
}

/** Header account entry: nickname, masked phone, account type and 退出登录. */
export function UserMenu() {
  const user = useUserStore((state) => state.userInfo);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const name = displayName(user);

  async function logout(close: () => void) {
    const signInPath = user?.kind === 'sub' ? SUB_ACCOUNT_LOGIN_PATH : LOGIN_PATH;
    setLeaving(true);
    await signOut();
    queryClient.clear();
    setLeaving(false);
    close();
    navigate(signInPath, { replace: true });
  }

  return (
    <PopoverButton
      variant="text"
      className="slg-user-trigger"
      aria-label={T.userMenu}
      panelLabel={T.userMenu}
      content={(close) => (
        <div className="slg-user-panel">
          <div className="slg-user-panel-head">
            <Avatar size="large" />
            <div>
              <strong className="slg-user-panel-name">{name}</strong>
              <div className="slg-muted">
                {user?.kind === 'main' && user.info.telephone ? maskTelephone(user.info.telephone) : user?.kind === 'sub' ? user.info.username : null}
              </div>
            </div>
            <Tag color={user?.kind === 'sub' ? 'purple' : 'blue'}>{user?.kind === 'sub' ? T.subAccount : T.mainAccount}</Tag>
          </div>
          <hr className="slg-divider" />
          <ButtonLink to={ACCOUNT_SETTINGS_PATH} variant="text" block icon={<SettingOutlined />} className="slg-user-panel-link" onClick={close}>
            {T.accountSettings}
          </ButtonLink>
          <Button block icon={<LogoutOutlined />} loading={leaving} onClick={() => void logout(close)}>
            {T.logout}
          </Button>
        </div>
      )}
    >
      <Avatar size="small" />
      <span className="slg-user-name">{name}</span>
    </PopoverButton>
  );
}
