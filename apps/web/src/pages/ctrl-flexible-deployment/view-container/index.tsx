import { ELASTIC_TYPES, labelOf, PROTOCOLS } from '@slg/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, Pagination, Result, Skeleton, Table, Tabs, Timeline, Typography, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../../api/client';
import {
  elasticKeys,
  isActiveDeployment,
  useElasticDetailQuery,
  useElasticEventsQuery,
  useElasticInstancesQuery,
  type ElasticContainerView,
  type ElasticDeploymentView,
} from '../../../api/elastic';
import { DateTime } from '../../../components/DateTime';
import { FileStorageTag } from '../../../components/FileStorageTag';
import { LinkButton } from '../../../components/LinkButton';
import { Money } from '../../../components/Money';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError, StaleDataAlert } from '../../../components/QueryError';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { withAntd } from '../../../theme/AntdScope';
import { PAGE_SIZE } from '../../ctrl-cost-center/shared/useListState';
import { DeploymentActions } from '../components/DeploymentActions';
import { ContainerCounts, ContainerStatus, DeploymentStatus, LockMark } from '../components/DeploymentStatus';
import { FactCard } from '../components/FactCard';
import { FilterSummary } from '../components/FilterSummary';
import '../elastic.css';
import { ELASTIC_PATHS } from '../paths';
import { formatDuration } from '../rules';
import { ELASTIC_TEXTS } from '../texts';
import { ContainerAccess, LogsDrawer, ReleaseButton } from './ContainerParts';
import { VIEW_CONTAINER_TEXTS } from './texts';

const T = VIEW_CONTAINER_TEXTS;
const E = ELASTIC_TEXTS;
const C = T.containers.columns;
/** Events shown before 显示更多 (the server keeps the newest 100). */
const EVENTS_SHOWN = 10;

function BackToList() {
  return <LinkButton to={ELASTIC_PATHS.list}>{T.back}</LinkButton>;
}

/** What the deployment is: status, sizes, image, command, environment, ports, filters and cost. */
function Summary({ deployment, phone, onDeleted }: { deployment: ElasticDeploymentView; phone: boolean; onDeleted: () => void }) {
  const envNames = Object.keys(deployment.env);
  const items = [
    { key: 'status', label: T.summary.status, children: <DeploymentStatus deployment={deployment} /> },
    { key: 'type', label: T.summary.type, children: labelOf(ELASTIC_TYPES, deployment.type) },
    { key: 'containers', label: T.summary.containers, children: <ContainerCounts deployment={deployment} /> },
    { key: 'gpu', label: T.summary.gpu, children: E.gpuCount(deployment.gpuNum) },
    { key: 'cost', label: T.summary.cost, children: <span className="slg-elastic-money">{E.perHour(deployment.costPerHourFen)}</span> },
    { key: 'image', label: T.summary.image, children: deployment.imageName },
    {
      key: 'cmd',
      label: T.summary.cmd,
      span: 'filled' as const,
      children: deployment.cmd ? (
        <Typography.Text code className="slg-elastic-mono slg-elastic-cmd">
          {deployment.cmd}
        </Typography.Text>
      ) : (
        <Typography.Text type="secondary">{T.summary.noCmd}</Typography.Text>
      ),
    },
    {
      key: 'env',
      label: T.summary.env,
      children: envNames.length ? <span className="slg-elastic-mono slg-elastic-wrap">{envNames.join(E.filterSummary.separator)}</span> : T.summary.noEnv,
    },
    {
      key: 'ports',
      label: T.summary.ports,
      children: deployment.ports.length
        ? deployment.ports.map((port) => T.summary.port(port.port, PROTOCOLS.find((item) => item.value === port.protocol)?.name ?? String(port.protocol))).join(E.filterSummary.separator)
        : T.summary.noPorts,
    },
    { key: 'filters', label: T.summary.filters, children: <FilterSummary filter={deployment} /> },
    { key: 'createdAt', label: T.summary.createdAt, children: <DateTime value={deployment.createdAt} /> },
    ...(deployment.finishedAt ? [{ key: 'finishedAt', label: T.summary.finishedAt, children: <DateTime value={deployment.finishedAt} /> }] : []),
    { key: 'uid', label: T.summary.uid, children: <Typography.Text copyable={{ tooltips: [E.copy, E.copied] }} className="slg-elastic-mono slg-elastic-wrap">{deployment.deploymentUid}</Typography.Text> },
  ];
  return (
    <Card title={T.summary.title} extra={<LockMark deployment={deployment} />}>
      <Descriptions size="small" column={phone ? 1 : { xs: 1, sm: 1, md: 2, lg: 2, xl: 3, xxl: 3 }} items={items} />
      <div className="slg-elastic-summary-actions">
        <DeploymentActions deployment={deployment} block withView={false} onDeleted={onDeleted} />
      </div>
    </Card>
  );
}

function HostCell({ container }: { container: ElasticContainerView }) {
  return (
    <div className="slg-elastic-cell">
      <span>{T.containers.gpu(container.gpuModelName, container.gpuNum)}</span>
      <Typography.Text type="secondary" className="slg-elastic-note">
        {container.zoneName} · {container.hostName}
      </Typography.Text>
      <FileStorageTag state={container.fileStorage} texts={T.containers.fileStorage} />
    </div>
  );
}

function ChargedCell({ container }: { container: ElasticContainerView }) {
  return (
    <div className="slg-elastic-cell">
      <Money fen={container.chargedFen} />
      {container.packSeconds > 0 ? (
        <Typography.Text type="secondary" className="slg-elastic-note">
          {T.containers.pack(formatDuration(container.packSeconds))}
        </Typography.Text>
      ) : null}
    </div>
  );
}

function EndCell({ container }: { container: ElasticContainerView }) {
  return (
    <div className="slg-elastic-cell">
      <span className="slg-elastic-wrap">{container.endReason ?? E.empty}</span>
      {container.exitCode !== null ? (
        <Typography.Text type="secondary" className="slg-elastic-note">
          {T.containers.exitCode(container.exitCode)}
        </Typography.Text>
      ) : null}
    </div>
  );
}

function runTime(container: ElasticContainerView): string {
  return container.startedAt ? formatDuration(container.runSeconds) : T.containers.notStarted;
}

interface ContainerListProps {
  deployment: ElasticDeploymentView;
  released: boolean;
  phone: boolean;
  onLogs: (instanceId: string) => void;
}

/** One tab: live containers (SSH, password, 日志, 释放) or ended ones (end reason, exit code). */
function ContainerList({ deployment, released, phone, onLogs }: ContainerListProps) {
  const [page, setPage] = useState(1);
  const live = !released;
  const query = useElasticInstancesQuery(deployment.deploymentUid, { page, pageSize: PAGE_SIZE, released }, isActiveDeployment(deployment));
  const data = query.data;
  const actions = (container: ElasticContainerView, block = false) => (
    <div className={block ? 'slg-elastic-actions-block' : 'slg-elastic-actions'}>
      <Button type={block ? 'default' : 'link'} className="slg-elastic-action" aria-label={T.logs.label(container.instanceId)} onClick={() => onLogs(container.instanceId)}>
        {T.logs.action}
      </Button>
      {live ? <ReleaseButton container={container} deployment={deployment} block={block} /> : null}
    </div>
  );
  const columns: TableColumnsType<ElasticContainerView> = [
    { title: C.instance, key: 'instance', render: (_value, row) => <span className="slg-elastic-mono slg-elastic-nowrap">{row.instanceId}</span> },
    { title: C.status, key: 'status', render: (_value, row) => <ContainerStatus container={row} /> },
    { title: C.host, key: 'host', render: (_value, row) => <HostCell container={row} /> },
    { title: C.startedAt, key: 'startedAt', render: (_value, row) => <DateTime value={row.startedAt} /> },
    ...(released ? [{ title: C.endedAt, key: 'endedAt', render: (_value: unknown, row: ElasticContainerView) => <DateTime value={row.endedAt} /> }] : []),
    { title: C.runTime, key: 'runTime', render: (_value, row) => <span className="slg-elastic-nowrap">{runTime(row)}</span> },
    { title: C.charged, key: 'charged', render: (_value, row) => <ChargedCell container={row} /> },
    ...(live
      ? [{ title: C.ssh, key: 'ssh', render: (_value: unknown, row: ElasticContainerView) => <ContainerAccess container={row} /> }]
      : [{ title: C.endReason, key: 'end', render: (_value: unknown, row: ElasticContainerView) => <EndCell container={row} /> }]),
    { title: C.actions, key: 'actions', render: (_value, row) => actions(row) },
  ];
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={released ? T.containers.emptyEnded : T.containers.empty} />;

  let content: ReactNode;
  if (query.isError && !data) content = <QueryError title={T.containers.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  else if (phone) {
    content = query.isPending ? (
      <Skeleton active paragraph={{ rows: 4 }} />
    ) : data && data.list.length > 0 ? (
      <div className="slg-elastic-cards">
        {data.list.map((container) => (
          <FactCard
            key={container.instanceId}
            label={container.instanceId}
            head={
              <>
                <span className="slg-elastic-mono">{container.instanceId}</span>
                <ContainerStatus container={container} />
              </>
            }
            facts={[
              { label: C.host, value: <HostCell container={container} /> },
              { label: C.startedAt, value: <DateTime value={container.startedAt} /> },
              ...(released ? [{ label: C.endedAt, value: <DateTime value={container.endedAt} /> }] : []),
              { label: C.runTime, value: runTime(container) },
              { label: C.charged, value: <ChargedCell container={container} /> },
              live ? { label: C.ssh, value: <ContainerAccess container={container} /> } : { label: C.endReason, value: <EndCell container={container} /> },
            ]}
            actions={actions(container, true)}
          />
        ))}
      </div>
    ) : (
      empty
    );
  } else {
    content = (
      <Table<ElasticContainerView>
        rowKey="instanceId"
        size="middle"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={query.isFetching && query.isPlaceholderData}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: query.isPending ? <Skeleton active title={false} paragraph={{ rows: 3 }} /> : empty }}
      />
    );
  }
  return (
    <div className="slg-elastic-stack">
      {query.isError && data ? <StaleDataAlert title={T.refreshFailed} error={query.error} onRetry={() => void query.refetch()} /> : null}
      {content}
      {data && data.total > PAGE_SIZE ? (
        <Pagination
          className="slg-elastic-pagination"
          current={page}
          pageSize={PAGE_SIZE}
          total={data.total}
          showSizeChanger={false}
          showTotal={T.containers.total}
          size={phone ? 'small' : undefined}
          onChange={setPage}
        />
      ) : null}
    </div>
  );
}

/** 事件: what happened, newest first. */
function Events({ deployment }: { deployment: ElasticDeploymentView }) {
  const events = useElasticEventsQuery(deployment.deploymentUid, isActiveDeployment(deployment));
  const [all, setAll] = useState(false);
  let body: ReactNode;
  if (events.isPending) body = <Skeleton active title={false} paragraph={{ rows: 4 }} />;
  else if (events.isError && !events.data) body = <QueryError title={T.events.loadFailed} error={events.error} onRetry={() => void events.refetch()} />;
  else if (events.data.length === 0) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.events.empty} />;
  else {
    body = (
      <Timeline
        className="slg-elastic-events"
        items={(all ? events.data : events.data.slice(0, EVENTS_SHOWN)).map((event, index) => ({
          key: `${event.createdAt}-${index}`,
          color: /FAIL|ERROR/.test(event.type) ? 'red' : /WAIT/.test(event.type) ? 'orange' : /STOP|FINISH|END|RELEASE/.test(event.type) ? 'gray' : 'blue',
          content: (
            <div className="slg-elastic-cell">
              <span className="slg-elastic-wrap">{event.detail}</span>
              <Typography.Text type="secondary" className="slg-elastic-note">
                <DateTime value={event.createdAt} />
              </Typography.Text>
            </div>
          ),
        }))}
      />
    );
  }
  const more = !all && events.data && events.data.length > EVENTS_SHOWN;
  return (
    <Card title={T.events.title} className="slg-elastic-events-card" extra={events.data?.length ? <Typography.Text type="secondary">{T.events.count(events.data.length)}</Typography.Text> : null}>
      {body}
      {more ? (
        <Button type="link" onClick={() => setAll(true)} className="slg-elastic-more">
          {T.events.more(events.data.length - EVENTS_SHOWN)}
        </Button>
      ) : null}
    </Card>
  );
}

/**
 * The containers and events poll only while the deployment is active: once it settles (stopped,
 * finished) they are read once more, so the page ends on what the deployment ended with.
 */
function useSettledRefresh(deployment: ElasticDeploymentView) {
  const queryClient = useQueryClient();
  const active = isActiveDeployment(deployment);
  const [wasActive, setWasActive] = useState(active);
  if (wasActive !== active) {
    setWasActive(active);
    if (!active) {
      void queryClient.invalidateQueries({ queryKey: [...elasticKeys.all, 'instances', deployment.deploymentUid] });
      void queryClient.invalidateQueries({ queryKey: elasticKeys.events(deployment.deploymentUid) });
    }
  }
}

function DeploymentView({ deployment, phone }: { deployment: ElasticDeploymentView; phone: boolean }) {
  const [logsOf, setLogsOf] = useState<string | null>(null);
  const navigate = useNavigate();
  useSettledRefresh(deployment);
  return (
    <div className="slg-elastic-view">
      <Summary deployment={deployment} phone={phone} onDeleted={() => void navigate(ELASTIC_PATHS.list)} />
      {deployment.waitingNum > 0 ? (
        <Alert type="warning" showIcon title={T.waiting(deployment.waitingNum)} description={deployment.waitingReason ?? undefined} />
      ) : null}
      <Card title={T.containers.title} className="slg-elastic-list-card">
        <Tabs
          items={[
            { key: 'live', label: T.containers.live, children: <ContainerList deployment={deployment} released={false} phone={phone} onLogs={setLogsOf} /> },
            { key: 'ended', label: T.containers.ended, children: <ContainerList deployment={deployment} released phone={phone} onLogs={setLogsOf} /> },
          ]}
          destroyOnHidden
        />
      </Card>
      <Events deployment={deployment} />
      <LogsDrawer instanceId={logsOf} onClose={() => setLogsOf(null)} />
    </div>
  );
}

/** 查看容器: one deployment's summary, its live and ended containers, and its events; live while it runs. */
function ViewContainerPage() {
  const [params] = useSearchParams();
  const deploymentUid = params.get('deploymentUid') ?? undefined;
  const detail = useElasticDetailQuery(deploymentUid);
  const phone = useIsPhone();
  const deployment = detail.data;

  let content: ReactNode;
  if (!deploymentUid) {
    content = (
      <Result
        status="info"
        title={T.noUid.title}
        subTitle={T.noUid.description}
        extra={
          <LinkButton type="primary" to={ELASTIC_PATHS.list}>
            {T.noUid.action}
          </LinkButton>
        }
      />
    );
  } else if (detail.isPending) {
    content = (
      <Card>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  } else if (detail.isError && !deployment) {
    content =
      isApiError(detail.error) && detail.error.status === 404 ? (
        <Result status="warning" title={T.notFound.title} subTitle={T.notFound.description} extra={<BackToList />} />
      ) : (
        <QueryError variant="page" title={T.loadFailed} error={detail.error} onRetry={() => void detail.refetch()} />
      );
  } else if (deployment) {
    content = (
      <>
        {detail.isError ? <StaleDataAlert className="slg-elastic-alert" title={T.refreshFailed} error={detail.error} onRetry={() => void detail.refetch()} /> : null}
        <DeploymentView deployment={deployment} phone={phone} />
      </>
    );
  }

  return (
    <div className="slg-page">
      <PageHeader
        title={deployment ? deployment.name : T.title}
        description={deployment ? labelOf(ELASTIC_TYPES, deployment.type) : undefined}
        extra={<BackToList />}
      />
      {content}
    </div>
  );
}

export default withAntd(ViewContainerPage);
