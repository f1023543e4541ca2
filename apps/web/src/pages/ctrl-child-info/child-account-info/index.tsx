import { UserOutlined } from '@ant-design/icons';
import {
  AccountType,
  AUTHORITY_TYPE_LABELS,
  OFFERED_AUTHORITY_TYPES,
  PERMISSION_LEVEL_LABELS,
  type AuthorityType,
  type PermissionLevel,
} from '@slg/shared';
import { useQuery } from '@tanstack/react-query';
import { Avatar, Card, Result, Skeleton, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { fetchBalance } from '../../../api/account';
import { queryKeys } from '../../../api/queryKeys';
import { fetchSubUserMe, type SubUserInfoDto } from '../../../api/user';
import { LinkButton } from '../../../components/LinkButton';
import { Money } from '../../../components/Money';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { useUserStore } from '../../../stores/user';
import { withAntd } from '../../../theme/AntdScope';
import { PasswordCard } from './PasswordCard';
import { PhoneCard } from './PhoneCard';
import './childAccountInfo.css';
import { AUTHORITY_SCOPES, CHILD_ACCOUNT_INFO_TEXTS, LEVEL_MEANINGS } from './texts';

const T = CHILD_ACCOUNT_INFO_TEXTS;

export const SUB_ACCOUNT_ME_QUERY_KEY = ['sub-account', 'me'] as const;
const ACCOUNT_SETTINGS_PATH = '/ctrl-personal-center/personal-center/account-settings';
/** The balance moves while instances run. */
const BALANCE_REFRESH_MS = 30_000;

const LEVEL_COLORS: Record<PermissionLevel, string> = { ALL: 'green', SELF: 'blue', NONE: 'default' };

/** The level of a type; `null` for a granted type whose level the server did not name (or named one the console does not know). */
function levelOf(info: SubUserInfoDto, type: AuthorityType): PermissionLevel | null {
  const level = info.permissionLevels[type];
  // `/subuser/me` names levels as strings: one of ours, or one this console does not know (null).
  if (level !== undefined) return Object.hasOwn(PERMISSION_LEVEL_LABELS, level) ? (level as PermissionLevel) : null;
  return info.permissions.includes(type) ? null : 'NONE';
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="slg-child-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function BasicCard({ info }: { info: SubUserInfoDto }) {
  return (
    <Card title={T.basic.title} className="slg-child-card slg-child-area-basic">
      <div className="slg-child-basic">
        <Avatar size={56} icon={<UserOutlined />} className="slg-child-avatar" />
        <dl className="slg-child-facts">
          <Fact label={T.basic.username}>
            <Typography.Text copyable={{ text: info.username }}>{info.username}</Typography.Text>
          </Fact>
          <Fact label={T.basic.nickname}>{info.nickname || <Typography.Text type="secondary">{T.basic.noNickname}</Typography.Text>}</Fact>
          <Fact label={T.basic.accountType}>
            <Tag color="purple">{T.basic.subAccount}</Tag>
          </Fact>
          <Fact label={T.basic.mainAccountId}>{String(info.mainAccountId)}</Fact>
        </dl>
      </div>
    </Card>
  );
}

/** What the sub-account can spend: the main wallet when it shares it (and its own, if any is left), else its own. */
function BalanceCard({ info }: { info: SubUserInfoDto }) {
  const shared = info.sharedMainBalance;
  // The session's spendable balance is what 总览 and the header show; it moves while instances run.
  const balance = useQuery({ queryKey: queryKeys.balance, queryFn: fetchBalance, refetchInterval: BALANCE_REFRESH_MS });
  let amount: ReactNode;
  if (balance.isError && !balance.data) {
    amount = <QueryError title={T.balance.loadFailed} error={balance.error} onRetry={() => void balance.refetch()} />;
  } else if (!balance.data) {
    amount = <Skeleton.Input active size="small" />;
  } else {
    amount = (
      <span className="slg-child-balance-value">
        <Money fen={balance.data.totalBalance} />
      </span>
    );
  }
  return (
    <Card title={T.balance.title} className="slg-child-card slg-child-area-balance">
      <dl className="slg-child-facts">
        <Fact label={T.balance.mode}>
          <Tag color={shared ? 'gold' : 'cyan'}>{shared ? T.balance.shared : T.balance.own}</Tag>
        </Fact>
        <Fact label={shared ? T.balance.sharedAmount : T.balance.ownAmount}>{amount}</Fact>
        {shared && info.subAccountBalance ? (
          <Fact label={T.balance.subAmount}>
            <Money fen={info.subAccountBalance} />
          </Fact>
        ) : null}
      </dl>
      <Typography.Paragraph type="secondary" className="slg-child-balance-hint">
        {shared ? T.balance.sharedHint : T.balance.ownHint}
      </Typography.Paragraph>
    </Card>
  );
}

function PermissionsCard({ info }: { info: SubUserInfoDto }) {
  return (
    <Card title={T.permissions.title} className="slg-child-card slg-child-area-permissions">
      <Typography.Paragraph type="secondary">{T.permissions.hint}</Typography.Paragraph>
      <ul className="slg-child-permissions" aria-label={T.permissions.title}>
        {OFFERED_AUTHORITY_TYPES.map((type) => {
          const level = levelOf(info, type);
          return (
            <li key={type} className="slg-child-permission" data-authority={type}>
              <div className="slg-child-permission-head">
                <Typography.Text strong>{AUTHORITY_TYPE_LABELS[type]}</Typography.Text>
                <Tag color={level ? LEVEL_COLORS[level] : 'green'}>{level ? PERMISSION_LEVEL_LABELS[level] : T.permissions.granted}</Tag>
              </div>
              <Typography.Text type="secondary" className="slg-child-permission-text">
                {AUTHORITY_SCOPES[type]}
                {level ? `；${LEVEL_MEANINGS[level]}` : ''}
              </Typography.Text>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

/** Opened by a main account: its own details live in 账号设置. */
function MainAccountNotice() {
  return (
    <Result
      status="info"
      title={T.mainAccount.title}
      subTitle={T.mainAccount.body}
      extra={
        <LinkButton type="primary" to={ACCOUNT_SETTINGS_PATH}>
          {T.mainAccount.action}
        </LinkButton>
      }
    />
  );
}

function SubAccountInfo() {
  const query = useQuery({ queryKey: SUB_ACCOUNT_ME_QUERY_KEY, queryFn: fetchSubUserMe });
  const info = query.data;
  if (query.isError && !info) {
    return <QueryError variant="page" title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (!info) {
    return (
      <div className="slg-child-layout" aria-busy="true">
        <Card className="slg-child-card">
          <Skeleton active avatar paragraph={{ rows: 3 }} />
        </Card>
        <Card className="slg-child-card">
          <Skeleton active paragraph={{ rows: 6 }} />
        </Card>
      </div>
    );
  }
  return (
    <div className="slg-child-layout">
      <BasicCard info={info} />
      <BalanceCard info={info} />
      <PermissionsCard info={info} />
      <PhoneCard maskedTelephone={info.telephone} queryKey={SUB_ACCOUNT_ME_QUERY_KEY} />
      <PasswordCard />
    </div>
  );
}

/** 账号信息 of a sub-account (spec §2 /ctrl-child-info/child-account-info): its landing after sign-in. */
function ChildAccountInfoPage() {
  const accountType = useUserStore((state) => state.accountType);
  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} />
      {accountType === AccountType.SUB ? <SubAccountInfo /> : <MainAccountNotice />}
    </div>
  );
}

export default withAntd(ChildAccountInfoPage);
