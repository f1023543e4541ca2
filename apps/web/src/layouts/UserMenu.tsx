import { maskTelephone } from '@slg/shared';
import { lazy, Suspense } from 'react';
import { displayName, useUserStore } from '../stores/user';
import { Spinner } from '../ui/feedback';
import { PopoverButton } from '../ui/Popover';
import { Avatar } from './Avatar';
import { LAYOUT_TEXTS } from './texts';

const T = LAYOUT_TEXTS.dashboard;

// The panel is only needed once the menu opens: fetched when the pointer or the focus reaches the
// trigger, so it is usually there by the click, and not with every console page.
const loadPanel = () => import('./UserMenuPanel');
const UserMenuPanel = lazy(() => loadPanel().then((module) => ({ default: module.UserMenuPanel })));

/** Header account entry: nickname, masked phone, account type and 退出登录. */
export function UserMenu() {
  const user = useUserStore((state) => state.userInfo);
  const subtitle = user?.kind === 'main' && user.info.telephone ? maskTelephone(user.info.telephone) : user?.kind === 'sub' ? user.info.username : null;
  return (
    <PopoverButton
      variant="text"
      className="slg-user-trigger"
      aria-label={T.userMenu}
      panelLabel={T.userMenu}
      onPointerEnter={() => void loadPanel()}
      onFocus={() => void loadPanel()}
      content={(close) => (
        <Suspense fallback={<Spinner />}>
          <UserMenuPanel subtitle={subtitle} close={close} />
        </Suspense>
      )}
    >
      <Avatar size="small" />
      <span className="slg-user-name">{displayName(user)}</span>
    </PopoverButton>
  );
}
