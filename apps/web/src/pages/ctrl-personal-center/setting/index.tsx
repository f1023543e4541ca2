import { KeyOutlined, PlusOutlined, RightOutlined } from '@ant-design/icons';
import { ApiTokenStatus, MAX_API_TOKENS } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Skeleton, Space, Switch, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { apiTokenKeys, deleteApiToken, setApiTokenStatus, useApiTokensQuery, type ApiTokenView } from '../../../api/apiTokens';
import { toast } from '../../../api/toast';
import { ConfirmAction, ConfirmDialog } from '../../../components/ConfirmDialog';
import { DateTime } from '../../../components/DateTime';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError, StaleDataAlert } from '../../../components/QueryError';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { withAntd } from '../../../theme/AntdScope';
import { CreateTokenDialog } from './components/CreateTokenDialog';
import { RenameTokenDialog } from './components/RenameTokenDialog';
import { ReminderSettings } from './components/ReminderSettings';
import { UsageExample } from './components/UsageExample';
import './setting.css';
import { SETTING_TEXTS } from './texts';

const T = SETTING_TEXTS.tokens;

/** The status switch: enabling is immediate, disabling asks first (scripts stop at once). */
function StatusSwitch({ token }: { token: ApiTokenView }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const change = useMutation({
    mutationFn: (status: ApiTokenStatus) => setApiTokenStatus(token.id, status),
    onSuccess: (updated) => {
      toast.success(updated.status === ApiTokenStatus.ENABLED ? T.enableDone : T.disable.done);
      setConfirming(false);
      return queryClient.invalidateQueries({ queryKey: apiTokenKeys.all });
    },
  });
  const enabled = token.status === ApiTokenStatus.ENABLED;
  return (
    <>
      <Space size={8} className="slg-token-status">
        <Switch
          size="small"
          checked={enabled}
          loading={change.isPending}
          aria-label={T.statusLabel(token.name)}
          onChange={(checked) => (checked ? change.mutate(ApiTokenStatus.ENABLED) : setConfirming(true))}
        />
        <Tag color={enabled ? 'success' : 'default'}>{enabled ? T.enabled : T.disabled}</Tag>
      </Space>
      <ConfirmDialog
        open={confirming}
        danger
        texts={{ title: T.disable.title(token.name), confirm: T.disable.confirm, cancel: T.disable.cancel }}
        loading={change.isPending}
        onConfirm={() => change.mutate(ApiTokenStatus.DISABLED)}
        onCancel={() => setConfirming(false)}
      >
        <Typography.Paragraph>{T.disable.body}</Typography.Paragraph>
      </ConfirmDialog>
    </>
  );
}

function RemoveToken({ token, block = false }: { token: ApiTokenView; block?: boolean }) {
  const queryClient = useQueryClient();
  return (
    <ConfirmAction
      danger
      texts={{ title: T.remove.title(token.name), confirm: T.remove.confirm, cancel: T.remove.cancel }}
      onConfirm={async () => {
        await deleteApiToken(token.id);
        toast.success(T.remove.done);
        await queryClient.invalidateQueries({ queryKey: apiTokenKeys.all });
      }}
      trigger={(open) => (
        <Button danger type={block ? 'default' : 'link'} block={block} aria-label={T.remove.label(token.name)} onClick={open} className={block ? undefined : 'slg-token-link'}>
          {T.remove.action}
        </Button>
      )}
    >
      <Typography.Paragraph>{T.remove.body}</Typography.Paragraph>
    </ConfirmAction>
  );
}

function RenameButton({ token, onRename, block = false }: { token: ApiTokenView; onRename: (token: ApiTokenView) => void; block?: boolean }) {
  return (
    <Button type={block ? 'default' : 'link'} block={block} aria-label={T.rename.label(token.name)} onClick={() => onRename(token)} className={block ? undefined : 'slg-token-link'}>
      {T.rename.action}
    </Button>
  );
}

const Prefix = ({ token }: { token: ApiTokenView }) => <code className="slg-token-prefix">{`${token.prefix}…`}</code>;
const LastUsed = ({ token }: { token: ApiTokenView }) =>
  token.lastUsedAt ? <DateTime value={token.lastUsedAt} /> : <Typography.Text type="secondary">{T.neverUsed}</Typography.Text>;

function columnsOf(onRename: (token: ApiTokenView) => void): TableColumnsType<ApiTokenView> {
  return [
    { title: T.columns.name, key: 'name', render: (_value, row) => <Typography.Text strong className="slg-token-name">{row.name}</Typography.Text> },
    { title: T.columns.prefix, key: 'prefix', render: (_value, row) => <Prefix token={row} /> },
    { title: T.columns.status, key: 'status', render: (_value, row) => <StatusSwitch token={row} /> },
    { title: T.columns.createdAt, key: 'createdAt', render: (_value, row) => <DateTime value={row.createdAt} /> },
    { title: T.columns.lastUsedAt, key: 'lastUsedAt', render: (_value, row) => <LastUsed token={row} /> },
    {
      title: T.columns.actions,
      key: 'actions',
      render: (_value, row) => (
        <Space size={16}>
          <RenameButton token={row} onRename={onRename} />
          <RemoveToken token={row} />
        </Space>
      ),
    },
  ];
}

/** A token as a card (phone width). */
function TokenCard({ token, onRename }: { token: ApiTokenView; onRename: (token: ApiTokenView) => void }) {
  const facts: { label: string; value: ReactNode }[] = [
    { label: T.columns.prefix, value: <Prefix token={token} /> },
    { label: T.columns.status, value: <StatusSwitch token={token} /> },
    { label: T.columns.createdAt, value: <DateTime value={token.createdAt} /> },
    { label: T.columns.lastUsedAt, value: <LastUsed token={token} /> },
  ];
  return (
    <article className="slg-token-card" aria-label={token.name}>
      <Typography.Text strong className="slg-token-name">
        {token.name}
      </Typography.Text>
      <dl className="slg-token-facts">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
      <div className="slg-token-card-actions">
        <RenameButton token={token} onRename={onRename} block />
        <RemoveToken token={token} block />
      </div>
    </article>
  );
}

function ApiTokensCard() {
  const phone = useIsPhone();
  const query = useApiTokensQuery();
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<ApiTokenView | null>(null);
  const data = query.data;
  const full = (data?.total ?? 0) >= MAX_API_TOKENS;

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
    content = <Skeleton active paragraph={{ rows: 4 }} />;
  } else if (!data || data.list.length === 0) {
    content = (
      <Empty description={T.empty}>
        <Typography.Paragraph type="secondary">{T.emptyHint}</Typography.Paragraph>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {T.create}
        </Button>
      </Empty>
    );
  } else if (phone) {
    content = (
      <div className="slg-token-cards">
        {data.list.map((token) => (
          <TokenCard key={token.id} token={token} onRename={setRenaming} />
        ))}
      </div>
    );
  } else {
    content = <Table<ApiTokenView> rowKey="id" size="middle" columns={columnsOf(setRenaming)} dataSource={data.list} pagination={false} scroll={{ x: 'max-content' }} />;
  }

  return (
    <Card
      className="slg-token-list-card"
      title={
        <Space size={8}>
          <KeyOutlined />
          {T.title}
        </Space>
      }
      extra={
        <Space size={12}>
          {data && !phone ? <Typography.Text type="secondary">{T.count(data.total)}</Typography.Text> : null}
          {createButton}
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{T.intro}</Typography.Paragraph>
      {query.isError && data ? (
        <StaleDataAlert className="slg-token-alert" title={T.refreshFailed} error={query.error} onRetry={() => void query.refetch()} />
      ) : null}
      {full ? <Alert type="info" showIcon className="slg-token-alert" title={T.full} /> : null}
      {content}
      <div className="slg-token-usage">
        <Typography.Text strong>{T.usage.title}</Typography.Text>
        <Typography.Paragraph type="secondary" className="slg-token-usage-text">
          {T.usage.text}
        </Typography.Paragraph>
        <UsageExample />
      </div>
      {creating ? <CreateTokenDialog onClose={() => setCreating(false)} /> : null}
      {renaming ? <RenameTokenDialog token={renaming} onClose={() => setRenaming(null)} /> : null}
    </Card>
  );
}

/** 设置: API令牌, 提醒设置 and a way to the SSH公钥 page. */
function SettingPage() {
  return (
    <div className="slg-page">
      <PageHeader title={SETTING_TEXTS.title} description={SETTING_TEXTS.description} />
      <div className="slg-setting-layout">
        <ApiTokensCard />
        <ReminderSettings />
        <Card className="slg-setting-link-card" size="small">
          <Link to="/ctrl-container-instances/sshSet" className="slg-setting-link">
            <div>
              <Typography.Text strong>{SETTING_TEXTS.ssh.title}</Typography.Text>
              <Typography.Paragraph type="secondary" className="slg-setting-link-text">
                {SETTING_TEXTS.ssh.text}
              </Typography.Paragraph>
            </div>
            <span className="slg-setting-link-action">
              {SETTING_TEXTS.ssh.link} <RightOutlined />
            </span>
          </Link>
        </Card>
      </div>
    </div>
  );
}

export default withAntd(SettingPage);
