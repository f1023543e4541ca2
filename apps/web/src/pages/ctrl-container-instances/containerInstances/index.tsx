import { PlusOutlined } from '@ant-design/icons';
import { filterOptionsOf, INSTANCE_STATUSES, isDictValue } from '@slg/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Checkbox, Empty, Input, Pagination, Select, Skeleton, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { isTransitional, useInstancesQuery, type InstanceView } from '../../../api/compute';
import { queryKeys } from '../../../api/queryKeys';
import { DateTime, formatDateTime } from '../../../components/DateTime';
import { FileStorageTag } from '../../../components/FileStorageTag';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError, StaleDataAlert } from '../../../components/QueryError';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { withAntd } from '../../../theme/AntdScope';
import { PAGE_SIZE, useListState } from '../../ctrl-cost-center/shared/useListState';
import '../instances.css';
import { COMPUTE_PATHS, renewPath } from '../paths';
import { InstanceAccess } from './components/InstanceAccess';
import { InstanceActions } from './components/InstanceActions';
import { BillingSummary, ScheduledPowerOff } from './components/InstanceBilling';
import { InstanceName } from './components/InstanceName';
import { InstanceStatus } from './components/InstanceStatus';
import { canDo, isRunning, packageOf } from './instanceRules';
import { INSTANCE_LIST_TEXTS } from './texts';

const T = INSTANCE_LIST_TEXTS;
const FILTER_KEYS = ['status', 'name'] as const;
const STATUS_OPTIONS = filterOptionsOf(INSTANCE_STATUSES).map((item) => ({ value: item.value, label: item.label }));

/** The configuration the instance runs with, or (while off) starts with; the mode of a last no-GPU run apart. */
function Spec({ instance }: { instance: InstanceView }) {
  return (
    <div className="slg-instance-cell slg-instance-spec">
      <span>
        {instance.zoneName} · {T.spec.gpu(instance.gpuModelName, instance.gpuNum)}
        {instance.gpuMode === 'nogpu' ? <Typography.Text type="secondary">（{T.spec.noGpu}）</Typography.Text> : null}
      </span>
      <Typography.Text type="secondary" className="slg-instance-note">
        {T.spec.resources(instance.cpuCores, instance.memoryGb, instance.dataDiskGb)}
      </Typography.Text>
      <FileStorageTag state={instance.fileStorage} texts={T.fileStorage} />
      <Typography.Text type="secondary" className="slg-instance-note">
        {instance.imageName}
      </Typography.Text>
      {instance.lastRunMode === 'nogpu' ? (
        <Typography.Text type="secondary" className="slg-instance-note">
          {T.spec.lastRunNoGpu}
        </Typography.Text>
      ) : null}
    </div>
  );
}

/** Whether an instance can be chosen for 批量续费: a package that can be renewed now. */
function renewable(instance: InstanceView): boolean {
  return packageOf(instance) !== null && canDo(instance, 'renew');
}

/** The status, and a scheduled power-off with 取消 under it (on a card that has its own row). */
function StatusCell({ instance, withSchedule = true }: { instance: InstanceView; withSchedule?: boolean }) {
  return (
    <div className="slg-instance-cell">
      <InstanceStatus instance={instance} />
      {withSchedule ? <ScheduledPowerOff instance={instance} /> : null}
    </div>
  );
}

const COLUMNS: TableColumnsType<InstanceView> = [
  {
    title: T.columns.instance,
    key: 'instance',
    render: (_value, row) => (
      <div className="slg-instance-cell">
        <InstanceName instance={row} />
        <Typography.Text type="secondary" className="slg-instance-note">
          {T.createdAt(formatDateTime(row.createdAt))}
        </Typography.Text>
      </div>
    ),
  },
  { title: T.columns.status, key: 'status', render: (_value, row) => <StatusCell instance={row} /> },
  {
    title: T.columns.specBilling,
    key: 'spec',
    render: (_value, row) => (
      <div className="slg-instance-cell">
        <Spec instance={row} />
        <BillingSummary instance={row} inline />
      </div>
    ),
  },
  { title: T.columns.access, key: 'access', render: (_value, row) => <InstanceAccess instance={row} /> },
  { title: T.columns.actions, key: 'actions', fixed: 'right', render: (_value, row) => <InstanceActions instance={row} /> },
];

interface Selection {
  selected: ReadonlySet<string>;
  toggle: (instanceId: string, on: boolean) => void;
}

/** An instance as a card (phone width); a package that can be renewed has a box to choose it for 批量续费. */
function InstanceCard({ instance, selection }: { instance: InstanceView; selection: Selection }) {
  const facts: { label: string; value: ReactNode }[] = [
    { label: T.columns.spec, value: <Spec instance={instance} /> },
    { label: T.columns.billing, value: <BillingSummary instance={instance} /> },
    ...(instance.scheduledPowerOffAt ? [{ label: T.menu.shutdown, value: <ScheduledPowerOff instance={instance} bare /> }] : []),
    { label: T.columns.access, value: <InstanceAccess instance={instance} /> },
    { label: T.columns.createdAt, value: <DateTime value={instance.createdAt} /> },
  ];
  return (
    <article className="slg-instance-card" aria-label={instance.name}>
      <div className="slg-instance-card-head">
        {renewable(instance) ? (
          <Checkbox
            aria-label={T.plan.select(instance.name)}
            className="slg-plan-card-check"
            checked={selection.selected.has(instance.instanceId)}
            onChange={(event) => selection.toggle(instance.instanceId, event.target.checked)}
          />
        ) : null}
        <InstanceName instance={instance} />
        <StatusCell instance={instance} withSchedule={false} />
      </div>
      <dl className="slg-instance-facts">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
      <InstanceActions instance={instance} block />
    </article>
  );
}

/**
 * Keeps the header balance following the instances: once an instance this page showed as changing
 * has settled (created, powered off, released) the balance and the market load again, and while one
 * runs (metered every minute) the balance loads again with every refresh of the list.
 */
function useBalanceFollowsInstances(list: readonly InstanceView[] | undefined, updatedAt: number) {
  const queryClient = useQueryClient();
  const busy = useRef<Set<string>>(new Set());
  useEffect(() => {
    if (!list) return;
    const previous = busy.current;
    const now = new Set(list.filter(isTransitional).map((instance) => instance.instanceId));
    busy.current = now;
    const settled = [...previous].some((id) => !now.has(id));
    if (settled) void queryClient.invalidateQueries({ queryKey: queryKeys.market });
    if (settled || list.some(isRunning)) void queryClient.invalidateQueries({ queryKey: queryKeys.balance });
    // `updatedAt`: a refresh that changed nothing keeps the same list, and the balance still moved.
  }, [list, updatedAt, queryClient]);
}

/** 实例列表: the caller's instances, live while one changes state; actions by state. */
function ContainerInstancesPage() {
  const phone = useIsPhone();
  const list = useListState(FILTER_KEYS);
  const statusValue = isDictValue(INSTANCE_STATUSES, list.filters.status) ? list.filters.status : undefined;
  const nameValue = list.filters.name?.trim() || undefined;
  const [search, setSearch] = useState(nameValue ?? '');
  const query = useInstancesQuery({ page: list.page, pageSize: PAGE_SIZE, status: statusValue, name: nameValue });
  useBalanceFollowsInstances(query.isPlaceholderData ? undefined : query.data?.list, query.dataUpdatedAt);
  const filtered = Boolean(statusValue || nameValue);
  const data = query.data;
  const navigate = useNavigate();
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(() => new Set());
  // Only what this page shows and can still be renewed counts: a row that left the page or ended its package drops out.
  const selectedRows = useMemo(() => (data?.list ?? []).filter((row) => selectedIds.has(row.instanceId) && renewable(row)), [data, selectedIds]);
  const selection: Selection = {
    selected: selectedIds,
    toggle: (instanceId, on) =>
      setSelectedIds((current) => {
        const next = new Set(current);
        if (on) next.add(instanceId);
        else next.delete(instanceId);
        return next;
      }),
  };
  const createButton = (
    <>
      <LinkButton to={COMPUTE_PATHS.prices}>{T.prices}</LinkButton>
      <LinkButton type="primary" icon={<PlusOutlined />} to={COMPUTE_PATHS.market}>
        {T.create}
      </LinkButton>
    </>
  );

  const empty = (
    <Empty description={filtered ? T.emptyFiltered : T.empty}>
      {filtered ? null : (
        <LinkButton type="primary" to={COMPUTE_PATHS.market}>
          {T.emptyAction}
        </LinkButton>
      )}
    </Empty>
  );

  let content: ReactNode;
  if (query.isError && !data) {
    content = <QueryError variant="page" title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  } else if (phone) {
    content = query.isPending ? (
      <Skeleton active paragraph={{ rows: 6 }} />
    ) : data && data.list.length > 0 ? (
      <div className="slg-instance-cards">
        {data.list.map((instance) => (
          <InstanceCard key={instance.instanceId} instance={instance} selection={selection} />
        ))}
      </div>
    ) : (
      empty
    );
  } else {
    content = (
      <Table<InstanceView>
        rowKey="instanceId"
        size="middle"
        columns={COLUMNS}
        dataSource={data?.list ?? []}
        loading={query.isFetching && query.isPlaceholderData}
        pagination={false}
        rowSelection={
          // Only a page with a package to renew has the boxes (and the column they take).
          data?.list.some(renewable)
            ? {
                selectedRowKeys: selectedRows.map((row) => row.instanceId),
                onChange: (keys) => setSelectedIds(new Set(keys.map(String))),
                getCheckboxProps: (row) => ({ disabled: !renewable(row), 'aria-label': T.plan.select(row.name) }),
                columnTitle: (checkbox) => <Tooltip title={T.menu.batchRenewHint}>{checkbox}</Tooltip>,
              }
            : undefined
        }
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: query.isPending ? <Skeleton active title={false} paragraph={{ rows: 4 }} /> : empty }}
      />
    );
  }

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} extra={createButton} />
      <Card className="slg-instance-list-card">
        <div className="slg-instance-filters" role="search" aria-label={T.filters.label}>
          <Select
            aria-label={T.filters.status}
            placeholder={`${T.filters.status}：${T.filters.all}`}
            allowClear
            value={statusValue}
            onChange={(value: string | undefined) => list.setFilters({ status: value })}
            options={STATUS_OPTIONS}
            className="slg-instance-filter-status"
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
            className="slg-instance-filter-name"
          />
          <Button
            onClick={() => {
              setSearch('');
              list.reset();
            }}
          >
            {T.filters.reset}
          </Button>
          {data?.list.some(renewable) ? (
            <Tooltip title={selectedRows.length === 0 ? T.menu.batchRenewHint : undefined}>
              <Button className="slg-plan-batch" disabled={selectedRows.length === 0} onClick={() => void navigate(renewPath(selectedRows.map((row) => row.instanceId)))}>
                {selectedRows.length > 0 ? T.menu.batchRenewCount(selectedRows.length) : T.menu.batchRenew}
              </Button>
            </Tooltip>
          ) : null}
        </div>
        {query.isError && data ? (
          <StaleDataAlert className="slg-instance-alert" title={T.refreshFailed} error={query.error} onRetry={() => void query.refetch()} />
        ) : null}
        {content}
        {data && data.total > 0 ? (
          <Pagination
            className="slg-instance-pagination"
            current={list.page}
            pageSize={PAGE_SIZE}
            total={data.total}
            showSizeChanger={false}
            showTotal={T.total}
            size={phone ? 'small' : undefined}
            onChange={list.setPage}
          />
        ) : null}
      </Card>
    </div>
  );
}

export default withAntd(ContainerInstancesPage);
