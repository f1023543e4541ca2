import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { maskTelephone } from '@slg/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Divider, Popover, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { signOut } from '../session/session';
import { displayName, useUserStore } from '../stores/user';
import { LAYOUT_TEXTS } from './texts';

const T = LAYOUT_TEXTS.dashboard;

/** Header account entry: nickname, masked phone, account type and 退出登录. */
export function UserMenu() {
  const user = useUserStore((state) => state.userInfo);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const name = displayName(user);

  async function logout() {
    setLeaving(true);
    await signOut();
    queryClient.clear();
    setLeaving(false);
    setOpen(false);
    navigate('/login', { replace: true });
  }

  const content = (
    <div className="slg-user-panel">
      <div className="slg-user-panel-head">
        <Avatar size={40} icon={<UserOutlined />} />
        <div>
          <Typography.Text strong>{name}</Typography.Text>
          <div>
            {user?.kind === 'main' && user.info.telephone ? (
              <Typography.Text type="secondary">{maskTelephone(user.info.telephone)}</Typography.Text>
            ) : user?.kind === 'sub' ? (
              <Typography.Text type="secondary">{user.info.username}</Typography.Text>
            ) : null}
          </div>
        </div>
        <Tag color={user?.kind === 'sub' ? 'purple' : 'blue'}>{user?.kind === 'sub' ? T.subAccount : T.mainAccount}</Tag>
      </div>
      <Divider className="slg-user-panel-divider" />
      <Button block icon={<LogoutOutlined />} loading={leaving} onClick={() => void logout()}>
        {T.logout}
      </Button>
    </div>
  );

  return (
    <Popover content={content} trigger="click" placement="bottomRight" open={open} onOpenChange={setOpen}>
      <Button type="text" className="slg-user-trigger" aria-label={T.userMenu} aria-haspopup="dialog" aria-expanded={open}>
        <Avatar size="small" icon={<UserOutlined />} />
        <span className="slg-user-name">{name}</span>
      </Button>
    </Popover>
  );
}
