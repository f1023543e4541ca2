import { PlusOutlined } from '@ant-design/icons';
import { ELASTIC_DEPLOYMENT_STATUSES, ELASTIC_TYPES, isDictValue, labelOf } from '@slg/shared';
import { Button, Card, Empty, Input, Select, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { isActiveDeployment, useElasticListQuery, type ElasticDeploymentView } from '../../../api/elastic';
import { DateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { withAntd } from '../../../theme/AntdScope';
import { PAGE_SIZE, useListState } from '../../ctrl-cost-center/shared/useListState';
import { DeploymentActions } from '../components/DeploymentActions';
import { ContainerCounts, DeploymentStatus, LockMark } from '../components/DeploymentStatus';
import { FactCard } from '../components/FactCard';
import { ElasticListBody } from '../components/ElasticListBody';
import '../elastic.css';
import { ELASTIC_PATHS, viewContainerPath } from '../paths';
import { ELASTIC_TEXTS } from '../texts';
import { DEPLOYMENT_LIST_TEXTS } from './texts';

const T = DEPLOYMENT_LIST_TEXTS;
const E = ELASTIC_TEXTS;
const FILTER_KEYS = ['status', 'name'] as const;
const STATUS_OPTIONS = ELASTIC_DEPLOYMENT_STATUSES.map((item) => ({ value: item.value, label: item.label }));

function DeploymentName({ deployment }: { deployment: ElasticDeploymentView }) {
  return (
    <span className="slg-elastic-name">
      <Link to={viewContainerPath(deployment.deploymentUid)} className="slg-elastic-name-link">
        {deployment.name}
      </Link>
      <LockMark deployment={deployment} />
    </span>
  );
}

/** What the deployment costs per hour now; nothing once it no longer runs. */
function Cost({ deployment }: { deployment: ElasticDeploymentView }) {
  if (!isActiveDeployment(deployment) && deployment.costPerHourFen === 0) return <Typography.Text type="secondary">{T.stoppedCost}</Typography.Text>;
  return <span className="slg-elastic-money">{E.perHour(deployment.costPerHourFen)}</span>;
}

const COLUMNS: TableColumnsType<ElasticDeploymentView> = [
  { title: T.columns.name, key: 'name', render: (_value, row) => <DeploymentName deployment={row} /> },
  { title: T.columns.type, key: 'type', render: (_value, row) => <span className="slg-elastic-nowrap">{labelOf(ELASTIC_TYPES, row.type)}</span> },
  { title: T.columns.status, key: 'status', render: (_value, row) => <DeploymentStatus deployment={row} /> },
  { title: T.columns.containers, key: 'containers', render: (_value, row) => <ContainerCounts deployment={row} /> },
  { title: T.columns.gpu, key: 'gpu', render: (_value, row) => <span className="slg-elastic-nowrap">{E.gpuCount(row.gpuNum)}</span> },
  { title: T.columns.cost, key: 'cost', render: (_value, row) => <Cost deployment={row} /> },
  { title: T.columns.createdAt, key: 'createdAt', render: (_value, row) => <DateTime value={row.createdAt} /> },
  { title: T.columns.actions, key: 'actions', render: (_value, row) => <DeploymentActions deployment={row} /> },
];

function DeploymentCard({ deployment }: { deployment: ElasticDeploymentView }) {
  return (
    <FactCard
      label={deployment.name}
      head={
        <>
          <DeploymentName deployment={deployment} />
          <DeploymentStatus deployment={deployment} />
        </>
      }
      facts={[
        { label: T.columns.type, value: labelOf(ELASTIC_TYPES, deployment.type) },
        { label: T.columns.containers, value: <ContainerCounts deployment={deployment} /> },
        { label: T.columns.gpu, value: E.gpuCount(deployment.gpuNum) },
        { label: T.columns.cost, value: <Cost deployment={deployment} /> },
        { label: T.columns.createdAt, value: <DateTime value={deployment.createdAt} /> },
      ]}
      actions={<DeploymentActions deployment={deployment} block />}
    />
  );
}

/** 部署列表: the caller's deployments, live while one runs or stops; actions by state and lock. */
function DeploymentListPage() {
  const phone = useIsPhone();
  const list = useListState(FILTER_KEYS);
  const statusValue = isDictValue(ELASTIC_DEPLOYMENT_STATUSES, list.filters.status) ? list.filters.status : undefined;
  const nameValue = list.filters.name?.trim() || undefined;
  const [search, setSearch] = useState(nameValue ?? '');
  const query = useElasticListQuery({ page: list.page, pageSize: PAGE_SIZE, status: statusValue, name: nameValue });
  const filtered = Boolean(statusValue || nameValue);

  const createButton = (
    <LinkButton type="primary" icon={<PlusOutlined />} to={ELASTIC_PATHS.create}>
      {T.create}
    </LinkButton>
  );
  const empty = (
    <Empty description={filtered ? T.emptyFiltered : T.empty}>
      {filtered ? null : (
        <>
          <Typography.Paragraph type="secondary">{T.emptyHint}</Typography.Paragraph>
          {createButton}
        </>
      )}
    </Empty>
  );

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} extra={createButton} />
      <Card className="slg-elastic-list-card">
        <div className="slg-elastic-filters" role="search" aria-label={T.filters.label}>
          <Select
            aria-label={T.filters.status}
            placeholder={`${T.filters.status}：${T.filters.all}`}
            allowClear
            value={statusValue}
            onChange={(value: string | undefined) => list.setFilters({ status: value })}
            options={STATUS_OPTIONS}
            className="slg-elastic-filter-status"
            popupMatchSelectWidth={false}
          />
          <Input.Search
            aria-label={T.filters.name}
            placeholder={T.filters.namePlaceholder}
            allowClear
            value={search}
            maxLength={64}
            onChange={(event) => setSearch(event.target.value)}
            onSearch={(value) => list.setFilters({ name: value.trim() })}
            className="slg-elastic-filter-name"
          />
          <Button
            onClick={() => {
              setSearch('');
              list.reset();
            }}
          >
            {T.filters.reset}
          </Button>
        </div>
        <ElasticListBody
          query={query}
          phone={phone}
          columns={COLUMNS}
          rowKey={(deployment) => deployment.id}
          card={(deployment) => <DeploymentCard deployment={deployment} />}
          empty={empty}
          texts={T}
          page={list.page}
          onPage={list.setPage}
        />
      </Card>
    </div>
  );
}

export default withAntd(DeploymentListPage);
