import { PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { AccountType, formatYuan, SUB_ACCOUNT_LIMIT } from '@slg/shared';
import { Alert, Button, Card, Empty, Pagination, Result, Skeleton, Space, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { useSubAccountsQuery, type SubAccountView, type TransferDirection } from '../../../api/subAccounts';
import { CellText } from '../../../components/CellText';
import { DateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError, StaleDataAlert } from '../../../components/QueryError';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { useUserStore } from '../../../stores/user';
import { withAntd } from '../../../theme/AntdScope';
import './childAccount.css';
import { CreateSubAccountDialog } from './CreateSubAccountDialog';
import { DeleteSubAccountDialog } from './DeleteSubAccountDialog';
import { PermissionTags } from './permissions';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import { CHILD_ACCOUNT_TEXTS } from './texts';
import { TransferDialog } from './TransferDialog';

const T = CHILD_ACCOUNT_TEXTS;
const PAGE_SIZE = 10;
export const CHILD_ACCOUNT_DETAIL_PATH = '/ctrl-personal-center/personal-center/child-account-detail';

type RowDialog = { kind: TransferDirection | 'password' | 'delete'; sub: SubAccountView };

function BalanceMode({ sub }: { sub: SubAccountView }) {
  if (sub.sharedMainBalance) {
    return (
      <span className="slg-child-balance">
        <Typography.Text>{T.sharedBalance}</Typography.Text>
        {sub.balance !== 0 ? <Typography.Text type="secondary">{T.keptBalance(formatYuan(sub.balance))}</Typography.Text> : null}
      </span>
    );
  }
  return (
    <span className="slg-child-balance">
      <Typography.Text>{T.ownBalance}</Typography.Text>
      <Typography.Text strong className="slg-money">
        {formatYuan(sub.balance)}
      </Typography.Text>
    </span>
  );
}

function RowActions({ sub, onOpen, block = false }: { sub: SubAccountView; onOpen: (dialog: RowDialog) => void; block?: boolean }) {
  const type = block ? 'default' : 'link';
  const className = block ? undefined : 'slg-child-link';
  const label = (action: string) => T.actions.label(action, sub.username);
  const transferButton = (direction: TransferDirection) => {
    const button = (
      <Button type={type} block={block} className={className} disabled={sub.sharedMainBalance} aria-label={label(T.actions[direction])} onClick={() => onOpen({ kind: direction, sub })}>
        {T.actions[direction]}
      </Button>
    );
    return sub.sharedMainBalance ? <Tooltip title={T.sharedNoTransfer}>{button}</Tooltip> : button;
  };
  return (
    <div className={block ? 'slg-child-card-actions' : 'slg-child-actions'}>
      <LinkButton type={type} block={block} className={className} to={`${CHILD_ACCOUNT_DETAIL_PATH}?id=${sub.id}`} aria-label={label(T.actions.permissions)}>
        {T.actions.permissions}
      </LinkButton>
      {transferButton('recharge')}
      {transferButton('deduct')}
      <Button type={type} block={block} className={className} aria-label={label(T.actions.resetPassword)} onClick={() => onOpen({ kind: 'password', sub })}>
        {T.actions.resetPassword}
      </Button>
      <Button type={type} block={block} danger className={className} aria-label={label(T.actions.remove)} onClick={() => onOpen({ kind: 'delete', sub })}>
        {T.actions.remove}
      </Button>
    </div>
  );
}

function columnsOf(onOpen: (dialog: RowDialog) => void): TableColumnsType<SubAccountView> {
  return [
    { title: T.columns.username, key: 'username', render: (_value, row) => <Typography.Text strong className="slg-child-name">{row.username}</Typography.Text> },
    { title: T.columns.nickname, key: 'nickname', render: (_value, row) => <CellText maxWidth="10em">{row.nickname}</CellText> },
    { title: T.columns.balance, key: 'balance', render: (_value, row) => <BalanceMode sub={row} /> },
    { title: T.columns.permissions, key: 'permissions', width: 260, render: (_value, row) => <PermissionTags permissions={row.permissions} /> },
    { title: T.columns.createdAt, key: 'createdAt', render: (_value, row) => <DateTime value={row.createdAt} /> },
    { title: T.columns.actions, key: 'actions', render: (_value, row) => <RowActions sub={row} onOpen={onOpen} /> },
  ];
}

/** A sub-account as a card (phone width). */
function SubAccountCard({ sub, onOpen }: { sub: SubAccountView; onOpen: (dialog: RowDialog) => void }) {
  const facts: { label: string; value: ReactNode }[] = [
    { label: T.columns.nickname, value: sub.nickname },
    { label: T.columns.balance, value: <BalanceMode sub={sub} /> },
    { label: T.columns.permissions, value: <PermissionTags permissions={sub.permissions} /> },
    { label: T.columns.createdAt, value: <DateTime value={sub.createdAt} /> },
  ];
  return (
    <article className="slg-child-card" aria-label={sub.username}>
      <Typography.Text strong className="slg-child-name">
        {sub.username}
      </Typography.Text>
      <dl className="slg-child-facts">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
      <RowActions sub={sub} onOpen={onOpen} block />
    </article>
  );
}

function RowDialogs({ dialog, onClose }: { dialog: RowDialog | null; onClose: () => void }) {
  if (!dialog) return null;
  switch (dialog.kind) {
    case 'recharge':
    case 'deduct':
      return <TransferDialog key={`${dialog.kind}-${dialog.sub.id}`} sub={dialog.sub} direction={dialog.kind} onClose={onClose} />;
    case 'password':
      return <ResetPasswordDialog sub={dialog.sub} onClose={onClose} />;
    case 'delete':
      return <DeleteSubAccountDialog sub={dialog.sub} onClose={onClose} />;
  }
}

function SubAccountList() {
  const phone = useIsPhone();
  const [page, setPage] = useState(1);
  const query = useSubAccountsQuery(page, PAGE_SIZE);
  const [creating, setCreating] = useState(false);
  const [dialog, setDialog] = useState<RowDialog | null>(null);
  const data = query.data;
  const total = data?.total ?? 0;
  const full = total >= SUB_ACCOUNT_LIMIT;

  // The last row of a page deleted: go back to a page that has rows.
  if (data && data.list.length === 0 && total > 0 && page > 1) setPage(Math.max(1, Math.ceil(total / PAGE_SIZE)));

  const createButton = (
    <Tooltip title={full ? T.full : undefined}>
      <Button type="primary" icon={<PlusOutlined />} disabled={!data || full} onClick={() => setCreating(true)}>
        {T.create}
      </Button>
    </Tooltip>
  );

  let content: ReactNode;
  if (query.isError && !data) {
    content = <QueryError variant="page" title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  } else if (query.isPending) {
    content = <Skeleton active paragraph={{ rows: 5 }} />;
  } else if (!data || data.list.length === 0) {
    content = (
      <Empty description={T.empty} className="slg-child-empty">
        <Typography.Paragraph type="secondary">{T.emptyHint}</Typography.Paragraph>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {T.create}
        </Button>
      </Empty>
    );
  } else if (phone) {
    content = (
      <>
        <div className="slg-child-cards">
          {data.list.map((sub) => (
            <SubAccountCard key={sub.id} sub={sub} onOpen={setDialog} />
          ))}
        </div>
        {total > PAGE_SIZE ? <Pagination simple className="slg-child-pagination" current={page} pageSize={PAGE_SIZE} total={total} onChange={setPage} /> : null}
      </>
    );
  } else {
    content = (
      <Table<SubAccountView>
        rowKey="id"
        size="middle"
        columns={columnsOf(setDialog)}
        dataSource={data.list}
        loading={query.isFetching && query.isPlaceholderData}
        scroll={{ x: 'max-content' }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total, onChange: setPage, showSizeChanger: false, showTotal: T.pagination, hideOnSinglePage: true }}
      />
    );
  }

  return (
    <Card
      className="slg-child-list-card"
      title={
        <Space size={8}>
          <TeamOutlined />
          {T.title}
        </Space>
      }
      extra={
        <Space size={12}>
          {data ? <Typography.Text type="secondary">{T.count(total)}</Typography.Text> : null}
          {createButton}
        </Space>
      }
    >
      {query.isError && data ? (
        <StaleDataAlert className="slg-child-alert" title={T.refreshFailed} error={query.error} onRetry={() => void query.refetch()} />
      ) : null}
      {full ? <Alert type="info" showIcon className="slg-child-alert" title={T.full} /> : null}
      {content}
      {creating ? <CreateSubAccountDialog onClose={() => setCreating(false)} /> : null}
      <RowDialogs dialog={dialog} onClose={() => setDialog(null)} />
    </Card>
  );
}

/** 子账号管理: the main account's sub-accounts, created, funded, reset and deleted here. */
function ChildAccountPage() {
  const isSubAccount = useUserStore((state) => state.accountType === AccountType.SUB);
  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} />
      {isSubAccount ? <Result status="403" title={T.subAccountOnly} subTitle={T.subAccountOnlyHint} /> : <SubAccountList />}
    </div>
  );
}

export default withAntd(ChildAccountPage);
