import { ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import {
  elasticKeys,
  ELASTIC_LOG_LINES,
  invalidateAfterElasticChange,
  releaseElasticContainer,
  useElasticLogsQuery,
  useElasticPasswordQuery,
  type ElasticContainerView,
  type ElasticDeploymentView,
} from '../../../api/elastic';
import { toast } from '../../../api/toast';
import { ConfirmAction } from '../../../components/ConfirmDialog';
import { QueryError } from '../../../components/QueryError';
import { ELASTIC_TEXTS } from '../texts';
import { VIEW_CONTAINER_TEXTS } from './texts';

const T = VIEW_CONTAINER_TEXTS;
const E = ELASTIC_TEXTS;

/** The SSH command (copyable once the container runs) and its root password behind 查看密码. */
export function ContainerAccess({ container }: { container: ElasticContainerView }) {
  const [shown, setShown] = useState(false);
  const queryClient = useQueryClient();
  const password = useElasticPasswordQuery(container.instanceId, shown);
  const value = shown ? (password.data?.password ?? null) : null;
  if (!container.sshCommand) return <Typography.Text type="secondary">{T.containers.sshPending}</Typography.Text>;
  return (
    <div className="slg-elastic-access">
      <Typography.Text copyable={{ text: container.sshCommand, tooltips: [E.copy, E.copied] }} className="slg-elastic-mono slg-elastic-ssh">
        {container.sshCommand}
      </Typography.Text>
      {container.ports.map((port) => (
        <div key={port.port} className="slg-elastic-access-line">
          <span className="slg-elastic-note">{T.containers.port(port.port)}</span>
          <Typography.Text copyable={{ text: port.address, tooltips: [E.copy, E.copied] }} className="slg-elastic-mono slg-elastic-ssh">
            {port.address}
          </Typography.Text>
        </div>
      ))}
      <div className="slg-elastic-access-line">
        {value !== null ? (
          <>
            <span className="slg-elastic-note">{T.password.label}</span>
            <Typography.Text code copyable={{ text: value, tooltips: [E.copy, E.copied] }} className="slg-elastic-mono">
              {value}
            </Typography.Text>
            <Button
              type="link"
              size="small"
              onClick={() => {
                setShown(false);
                queryClient.removeQueries({ queryKey: elasticKeys.password(container.instanceId), exact: true });
              }}
            >
              {T.password.hide}
            </Button>
          </>
        ) : (
          <Button
            size="small"
            loading={shown && password.isFetching}
            aria-label={T.password.revealLabel(container.instanceId)}
            onClick={() => (password.isError ? void password.refetch() : setShown(true))}
          >
            {T.password.reveal}
          </Button>
        )}
      </div>
    </div>
  );
}

/** 日志: the tail of the container's output in a drawer, with 刷新. */
export function LogsDrawer({ instanceId, onClose }: { instanceId: string | null; onClose: () => void }) {
  const logs = useElasticLogsQuery(instanceId);
  let body;
  if (logs.isPending) body = <Skeleton active paragraph={{ rows: 8 }} />;
  else if (logs.isError) body = <QueryError title={T.logs.loadFailed} error={logs.error} onRetry={() => void logs.refetch()} />;
  else if (!logs.data.text) body = <Typography.Text type="secondary">{T.logs.empty}</Typography.Text>;
  else body = <pre className="slg-elastic-logs">{logs.data.text}</pre>;
  return (
    <Drawer
      open={instanceId !== null}
      onClose={onClose}
      title={instanceId ? T.logs.title(instanceId) : undefined}
      size={720}
      className="slg-elastic-logs-drawer"
      closable={{ 'aria-label': T.logs.close }}
      extra={
        <Button icon={<ReloadOutlined />} loading={logs.isFetching} disabled={instanceId === null} onClick={() => void logs.refetch()}>
          {T.logs.refresh}
        </Button>
      }
      destroyOnHidden
    >
      <div className="slg-elastic-stack">
        <Typography.Text type="secondary">{T.logs.intro(ELASTIC_LOG_LINES)}</Typography.Text>
        {body}
      </div>
    </Drawer>
  );
}

/** 释放: asks first, saying what the deployment does about it. */
export function ReleaseButton({ container, deployment, block = false }: { container: ElasticContainerView; deployment: ElasticDeploymentView; block?: boolean }) {
  const queryClient = useQueryClient();
  const next = deployment.type === 'REPLICA_SET' ? T.release.replicaSet(deployment.replicaNum) : deployment.type === 'JOB' ? T.release.job : T.release.container;
  return (
    <ConfirmAction
      danger
      texts={{ title: T.release.title(container.instanceId), confirm: T.release.confirm, cancel: T.release.cancel }}
      onConfirm={async () => {
        await releaseElasticContainer(container.instanceId);
        toast.success(T.release.done);
        await invalidateAfterElasticChange(queryClient);
      }}
      trigger={(open) => (
        <Button type={block ? 'default' : 'link'} danger className="slg-elastic-action" aria-label={T.release.label(container.instanceId)} onClick={open}>
          {T.release.action}
        </Button>
      )}
    >
      <Typography.Paragraph>{T.release.body}</Typography.Paragraph>
      <Typography.Paragraph>{next}</Typography.Paragraph>
    </ConfirmAction>
  );
}
