import { PlusOutlined } from '@ant-design/icons';
import { MAX_SSH_KEYS, sshKeyTypeLabel } from '@slg/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Skeleton, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { deleteSshKey, sshKeyKeys, useSshKeysQuery, type SshKeyView } from '../../../api/sshKeys';
import { toast } from '../../../api/toast';
import { ConfirmAction } from '../../../components/ConfirmDialog';
import { DateTime } from '../../../components/DateTime';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError, StaleDataAlert } from '../../../components/QueryError';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { withAntd } from '../../../theme/AntdScope';
import { AddSshKeyDialog } from './components/AddSshKeyDialog';
import './sshSet.css';
import { SSH_SET_TEXTS } from './texts';

const T = SSH_SET_TEXTS;

/** 如何获取公钥: generate with ssh-keygen, where the .pub file is, keep the private key. */
function Guide() {
  return (
    <Card size="small" title={T.guide.title} className="slg-ssh-guide">
      <ol className="slg-ssh-steps">
        {T.guide.steps.map((step) => (
          <li key={step.text}>
            <Typography.Text>{step.text}</Typography.Text>
            {step.code ? (
              <Typography.Paragraph copyable={{ text: step.code }} className="slg-ssh-code">
                <code>{step.code}</code>
              </Typography.Paragraph>
            ) : null}
          </li>
        ))}
      </ol>
    </Card>
  );
}

function KeyName({ sshKey }: { sshKey: SshKeyView }) {
  return (
    <div className="slg-ssh-name">
      <Typography.Text strong>{sshKey.keyName}</Typography.Text>
      {sshKey.comment ? (
        <Typography.Text type="secondary" className="slg-ssh-note">
          {sshKey.comment}
        </Typography.Text>
      ) : null}
    </div>
  );
}

function Fingerprint({ sshKey }: { sshKey: SshKeyView }) {
  return (
    <Typography.Text copyable={{ text: sshKey.fingerprint }} className="slg-ssh-fingerprint">
      {sshKey.fingerprint}
    </Typography.Text>
  );
}

const typeOf = (sshKey: SshKeyView) => T.type(sshKeyTypeLabel(sshKey.keyType), sshKey.bits);

/** 删除, after a confirmation that says what it does and does not do. */
function RemoveKey({ sshKey, block = false }: { sshKey: SshKeyView; block?: boolean }) {
  const queryClient = useQueryClient();
  return (
    <ConfirmAction
      danger
      texts={{ title: T.remove.title(sshKey.keyName), confirm: T.remove.confirm, cancel: T.remove.cancel }}
      onConfirm={async () => {
        await deleteSshKey(sshKey.keyName);
        toast.success(T.remove.done);
        await queryClient.invalidateQueries({ queryKey: sshKeyKeys.all });
      }}
      trigger={(open) => (
        <Button danger type={block ? 'default' : 'link'} block={block} aria-label={T.remove.label(sshKey.keyName)} onClick={open} className={block ? undefined : 'slg-ssh-remove'}>
          {T.remove.action}
        </Button>
      )}
    >
      <Typography.Paragraph>{T.remove.body}</Typography.Paragraph>
    </ConfirmAction>
  );
}

const COLUMNS: TableColumnsType<SshKeyView> = [
  { title: T.columns.name, key: 'name', render: (_value, row) => <KeyName sshKey={row} /> },
  { title: T.columns.type, key: 'type', render: (_value, row) => <span className="slg-ssh-type">{typeOf(row)}</span> },
  { title: T.columns.fingerprint, key: 'fingerprint', render: (_value, row) => <Fingerprint sshKey={row} /> },
  { title: T.columns.createdAt, key: 'createdAt', render: (_value, row) => <DateTime value={row.createdAt} /> },
  { title: T.columns.actions, key: 'actions', render: (_value, row) => <RemoveKey sshKey={row} /> },
];

/** A key as a card (phone width). */
function KeyCard({ sshKey }: { sshKey: SshKeyView }) {
  const facts: { label: string; value: ReactNode }[] = [
    { label: T.columns.type, value: typeOf(sshKey) },
    { label: T.columns.fingerprint, value: <Fingerprint sshKey={sshKey} /> },
    { label: T.columns.createdAt, value: <DateTime value={sshKey.createdAt} /> },
  ];
  return (
    <article className="slg-ssh-card" aria-label={sshKey.keyName}>
      <KeyName sshKey={sshKey} />
      <dl className="slg-ssh-facts">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
      <RemoveKey sshKey={sshKey} block />
    </article>
  );
}

/** SSH公钥: the keys new instances get, how to make one, add and delete. */
function SshSetPage() {
  const phone = useIsPhone();
  const query = useSshKeysQuery();
  const [adding, setAdding] = useState(false);
  const data = query.data;
  const full = (data?.total ?? 0) >= MAX_SSH_KEYS;

  const addButton = (
    <Tooltip title={full ? T.full : undefined}>
      <Button type="primary" icon={<PlusOutlined />} disabled={!data || full} onClick={() => setAdding(true)}>
        {T.add}
      </Button>
    </Tooltip>
  );

  const empty = (
    <Empty description={T.empty}>
      <Typography.Paragraph type="secondary">{T.emptyHint}</Typography.Paragraph>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
        {T.add}
      </Button>
    </Empty>
  );

  let content: ReactNode;
  if (query.isError && !data) {
    content = <QueryError variant="page" title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  } else if (query.isPending) {
    content = <Skeleton active paragraph={{ rows: 4 }} />;
  } else if (!data || data.list.length === 0) {
    content = empty;
  } else if (phone) {
    content = (
      <div className="slg-ssh-cards">
        {data.list.map((sshKey) => (
          <KeyCard key={sshKey.keyName} sshKey={sshKey} />
        ))}
      </div>
    );
  } else {
    content = <Table<SshKeyView> rowKey="keyName" size="middle" columns={COLUMNS} dataSource={data.list} pagination={false} scroll={{ x: 'max-content' }} />;
  }

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} extra={addButton} />
      <div className="slg-ssh-layout">
        <Card
          className="slg-ssh-list-card"
          title={T.listLabel}
          extra={data ? <Typography.Text type="secondary">{T.count(data.total)}</Typography.Text> : null}
        >
          {query.isError && data ? (
            <StaleDataAlert className="slg-ssh-alert" title={T.refreshFailed} error={query.error} onRetry={() => void query.refetch()} />
          ) : null}
          {full ? <Alert type="info" showIcon className="slg-ssh-alert" title={T.full} /> : null}
          {content}
        </Card>
        <Guide />
      </div>
      {adding ? <AddSshKeyDialog onClose={() => setAdding(false)} /> : null}
    </div>
  );
}

export default withAntd(SshSetPage);
