import { Alert, Card, Empty, Typography, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import { useReleasedContainersQuery, type ElasticContainerView } from '../../../api/elastic';
import { DateTime } from '../../../components/DateTime';
import { Money } from '../../../components/Money';
import { PageHeader } from '../../../components/PageHeader';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { withAntd } from '../../../theme/AntdScope';
import { PAGE_SIZE, useListState } from '../../ctrl-cost-center/shared/useListState';
import { FactCard, type Fact } from '../components/FactCard';
import { ElasticListBody } from '../components/ElasticListBody';
import '../elastic.css';
import { viewContainerPath } from '../paths';
import { formatDuration } from '../rules';
import { ELASTIC_TEXTS } from '../texts';
import { RELEASED_TEXTS } from './texts';

const T = RELEASED_TEXTS;
const E = ELASTIC_TEXTS;
const NO_FILTERS = [] as const;

function DeploymentLink({ container }: { container: ElasticContainerView }) {
  return (
    <Link to={viewContainerPath(container.deploymentUid)} className="slg-elastic-name-link">
      {container.deploymentName}
    </Link>
  );
}

const runTime = (container: ElasticContainerView) => (container.startedAt ? formatDuration(container.runSeconds) : T.notStarted);
const packTime = (container: ElasticContainerView) => (container.packSeconds > 0 ? formatDuration(container.packSeconds) : E.empty);
const exitCode = (container: ElasticContainerView) => (container.exitCode === null ? E.empty : String(container.exitCode));

/** Why it ended, with the exit code of its command under it. */
function EndReason({ container }: { container: ElasticContainerView }) {
  return (
    <div className="slg-elastic-cell">
      <span className="slg-elastic-reason">{container.endReason ?? E.empty}</span>
      {container.exitCode !== null ? (
        <Typography.Text type="secondary" className="slg-elastic-note">
          {T.exitCode(container.exitCode)}
        </Typography.Text>
      ) : null}
    </div>
  );
}

const COLUMNS: TableColumnsType<ElasticContainerView> = [
  { title: T.columns.deployment, key: 'deployment', render: (_value, row) => <DeploymentLink container={row} /> },
  { title: T.columns.instance, key: 'instance', render: (_value, row) => <span className="slg-elastic-mono slg-elastic-nowrap">{row.instanceId}</span> },
  { title: T.columns.gpu, key: 'gpu', render: (_value, row) => <span className="slg-elastic-nowrap">{T.gpu(row.gpuModelName, row.gpuNum)}</span> },
  { title: T.columns.zone, key: 'zone', render: (_value, row) => <span className="slg-elastic-nowrap">{row.zoneName}</span> },
  { title: T.columns.startedAt, key: 'startedAt', render: (_value, row) => <DateTime value={row.startedAt} /> },
  { title: T.columns.endedAt, key: 'endedAt', render: (_value, row) => <DateTime value={row.endedAt} /> },
  { title: T.columns.runTime, key: 'runTime', render: (_value, row) => <span className="slg-elastic-nowrap">{runTime(row)}</span> },
  { title: T.columns.cost, key: 'cost', render: (_value, row) => <Money fen={row.chargedFen} /> },
  { title: T.columns.pack, key: 'pack', render: (_value, row) => <span className="slg-elastic-nowrap">{packTime(row)}</span> },
  { title: T.columns.endReason, key: 'endReason', render: (_value, row) => <EndReason container={row} /> },
];

function ReleasedCard({ container }: { container: ElasticContainerView }) {
  const facts: Fact[] = [
    { label: T.columns.instance, value: <span className="slg-elastic-mono">{container.instanceId}</span> },
    { label: T.columns.gpu, value: `${T.gpu(container.gpuModelName, container.gpuNum)} · ${container.zoneName}` },
    { label: T.columns.startedAt, value: <DateTime value={container.startedAt} /> },
    { label: T.columns.endedAt, value: <DateTime value={container.endedAt} /> },
    { label: T.columns.runTime, value: runTime(container) },
    { label: T.columns.cost, value: <Money fen={container.chargedFen} /> },
    { label: T.columns.pack, value: packTime(container) },
    { label: T.columns.endReason, value: container.endReason ?? E.empty },
    { label: T.columns.exitCode, value: exitCode(container) },
  ];
  return <FactCard label={container.instanceId} head={<DeploymentLink container={container} />} facts={facts} />;
}

/** 已释放实例: every ended container of the caller's deployments in the last 30 days. */
function ReleasedInstancesPage() {
  const phone = useIsPhone();
  const list = useListState(NO_FILTERS);
  const query = useReleasedContainersQuery(list.page, PAGE_SIZE);
  const empty = <Empty description={T.empty} />;

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} />
      <Card className="slg-elastic-list-card">
        <Alert type="info" showIcon className="slg-elastic-alert" title={T.retention} />
        <ElasticListBody
          query={query}
          phone={phone}
          columns={COLUMNS}
          rowKey={(container) => container.instanceId}
          card={(container) => <ReleasedCard container={container} />}
          empty={empty}
          texts={T}
          page={list.page}
          onPage={list.setPage}
        />
      </Card>
    </div>
  );
}

export default withAntd(ReleasedInstancesPage);
