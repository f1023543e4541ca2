import { KeyOutlined, LockOutlined, MobileOutlined, UserOutlined, WechatOutlined } from '@ant-design/icons';
import { AccountType } from '@slg/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Card, Skeleton, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { fetchUserInfo, type UserInfoDto } from '../../../api/user';
import { DateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { loadCurrentUser } from '../../../session/session';
import { withAntd } from '../../../theme/AntdScope';
import { ChangePhoneDialog } from './ChangePhoneDialog';
import { NicknameEditor } from './NicknameEditor';
import { PasswordDialog } from './PasswordDialog';
import { WechatBinding } from './WechatBinding';
import './accountSettings.css';
import { ACCOUNT_SETTINGS_TEXTS } from './texts';

const T = ACCOUNT_SETTINGS_TEXTS;

export const ACCOUNT_SETTINGS_QUERY_KEY = ['account-settings', 'userinfo'] as const;
export const SSH_KEYS_PATH = '/ctrl-container-instances/sshSet';

type OpenDialog = 'phone' | 'password' | null;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="slg-account-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A setting as a row: icon, what it is and its state, and the action on the right (below on a phone). */
function SettingRow({ icon, title, state, hint, action }: { icon: ReactNode; title: string; state: ReactNode; hint: string; action: ReactNode }) {
  return (
    <div className="slg-account-row">
      <span className="slg-account-row-icon" aria-hidden="true">
        {icon}
      </span>
      <div className="slg-account-row-text">
        <div className="slg-account-row-title">
          <Typography.Text strong>{title}</Typography.Text>
          {state}
        </div>
        <Typography.Text type="secondary" className="slg-account-row-hint">
          {hint}
        </Typography.Text>
      </div>
      <div className="slg-account-row-action">{action}</div>
    </div>
  );
}

function BasicInfo({ user, onSaved }: { user: UserInfoDto; onSaved: () => Promise<unknown> }) {
  const isSub = user.accountType === AccountType.SUB;
  return (
    <Card title={T.basic.title} className="slg-account-card">
      <div className="slg-account-basic">
        <Avatar size={64} icon={<UserOutlined />} className="slg-account-avatar" />
        <dl className="slg-account-facts">
          <Fact label={T.basic.nickName}>
            <NicknameEditor nickName={user.nickName} onSaved={onSaved} />
          </Fact>
          <Fact label={T.basic.accountType}>
            <Tag color={isSub ? 'purple' : 'blue'}>{isSub ? T.basic.subAccount : T.basic.mainAccount}</Tag>
          </Fact>
          {isSub ? <Fact label={T.basic.userName}>{user.userName}</Fact> : null}
          <Fact label={T.basic.createdAt}>
            <DateTime value={user.createdAt} />
          </Fact>
          <Fact label={T.basic.userId}>
            <Typography.Text copyable={{ text: String(user.userId) }}>{String(user.userId)}</Typography.Text>
          </Fact>
        </dl>
      </div>
    </Card>
  );
}

/** 账号设置: nickname, the bound phone and its change, the login password, and where SSH keys live. */
function AccountSettingsPage() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ACCOUNT_SETTINGS_QUERY_KEY, queryFn: fetchUserInfo });
  const [dialog, setDialog] = useState<OpenDialog>(null);

  /** The page and the header (user menu) both show the new values. */
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: ACCOUNT_SETTINGS_QUERY_KEY }), loadCurrentUser().catch(() => undefined)]);

  const user = query.data;
  let content: ReactNode;
  if (query.isError && !user) {
    content = <QueryError variant="page" title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  } else if (!user) {
    content = (
      <Card className="slg-account-card">
        <Skeleton active avatar paragraph={{ rows: 6 }} />
      </Card>
    );
  } else {
    const isSub = user.accountType === AccountType.SUB;
    content = (
      <div className="slg-account-layout">
        <BasicInfo user={user} onSaved={refresh} />
        <Card title={T.security.title} className="slg-account-card">
          <SettingRow
            icon={<MobileOutlined />}
            title={T.phone.title}
            state={user.telephone ? <Typography.Text>{user.telephone}</Typography.Text> : <Tag>{T.phone.none}</Tag>}
            hint={isSub ? T.phone.subAccount : T.phone.hint}
            action={
              isSub || !user.telephone ? null : (
                <Button onClick={() => setDialog('phone')}>{T.phone.change}</Button>
              )
            }
          />
          <SettingRow
            icon={<LockOutlined />}
            title={T.password.title}
            state={<Tag color={user.hasPassword ? 'green' : 'orange'}>{user.hasPassword ? T.password.set : T.password.notSet}</Tag>}
            hint={user.hasPassword ? T.password.changeHint : T.password.setHint}
            action={
              <Button type={user.hasPassword ? 'default' : 'primary'} onClick={() => setDialog('password')}>
                {user.hasPassword ? T.password.change : T.password.create}
              </Button>
            }
          />
          {isSub ? null : <WechatBinding>{(row) => <SettingRow icon={<WechatOutlined />} title={T.wechat.title} {...row} />}</WechatBinding>}
          <SettingRow
            icon={<KeyOutlined />}
            title={T.security.sshKeys}
            state={null}
            hint={T.security.sshKeysHint}
            action={
              <LinkButton to={SSH_KEYS_PATH} aria-label={`${T.security.manage}${T.security.sshKeys}`}>
                {T.security.manage}
              </LinkButton>
            }
          />
        </Card>
      </div>
    );
  }

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} />
      {content}
      {dialog === 'phone' && user ? <ChangePhoneDialog maskedTelephone={user.telephone} onClose={() => setDialog(null)} onChanged={() => void refresh()} /> : null}
      {dialog === 'password' && user ? (
        <PasswordDialog hasPassword={user.hasPassword} onClose={() => setDialog(null)} onChanged={() => void refresh()} />
      ) : null}
    </div>
  );
}

export default withAntd(AccountSettingsPage);
