import { CHARGING_RULES, formatFen, INSTANCE_STATUSES, isDictValue } from '@slg/shared';
import { Card, Input, Segmented, Statistic, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useChargingRecords, type ChargingRecordDto, type ChargingRecordState } from '../../../api/chargingRecords';
import { DateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { Money } from '../../../components/Money';
import { PageHeader } from '../../../components/PageHeader';
import { StatusTag } from '../../../components/StatusTag';
import { permissionList, useUserStore } from '../../../stores/user';
import { withAntd } from '../../../theme/AntdScope';
import '../../ctrl-cost-center/costCenter.css';
import { DataTable } from '../../ctrl-cost-center/shared/DataTable';
import { FilterBar } from '../../ctrl-cost-center/shared/Filters';
import { ListEmpty } from '../../ctrl-cost-center/shared/ListEmpty';
import { COST_PATHS } from '../../ctrl-cost-center/shared/paths';
import { PAGE_SIZE, useListState } from '../../ctrl-cost-center/shared/useListState';
import './chargingRecord.css';
import { FileStorageRecords } from './FileStorageRecords';
import { CHARGING_RECORD_TEXTS } from './texts';

const T = CHARGING_RECORD_TEXTS;
const FILTER_KEYS = ['state', 'keyword'] as const;
const STATES: ChargingRecordState[] = ['all', 'active', 'released'];
const MARKET_PATH = '/computility-market';

const isState = (value: string | undefined): value is ChargingRecordState => STATES.includes(value as ChargingRecordState);
const ruleName = (id: number) => CHARGING_RULES.find((rule) => rule.id === id)?.showName ?? String(id);

const COLUMNS: TableColumnsType<ChargingRecordDto> = [
  {
    title: T.columns.instance,
    dataIndex: 'instanceId',
    render: (_value, record) => (
      <div className="slg-charging-instance">
        <Typography.Text strong ellipsis>
          {record.name}
        </Typography.Text>
        <Typography.Text type="secondary" className="slg-cost-mono" copyable={{ text: record.instanceId }}>
          {record.instanceId}
        </Typography.Text>
      </div>
    ),
  },
  { title: T.columns.spec, key: 'spec', render: (_value, record) => T.spec(record.gpuModelName, record.gpuNum, record.zoneName) },
  { title: T.columns.rule, dataIndex: 'chargingRuleId', render: (id: number) => ruleName(id) },
  {
    title: T.columns.status,
    dataIndex: 'status',
    render: (status: string, record) =>
      record.released ? (
        <div className="slg-charging-instance">
          <Tag>{T.released}</Tag>
          {record.releasedAt ? (
            <Typography.Text type="secondary">
              <DateTime value={record.releasedAt} />
            </Typography.Text>
          ) : null}
        </div>
      ) : (
        <StatusTag dict={INSTANCE_STATUSES} value={isDictValue(INSTANCE_STATUSES, status) ? status : null} />
      ),
  },
  { title: T.columns.usage, dataIndex: 'usageFen', align: 'right', render: (fen: number) => <Money fen={fen} /> },
  { title: T.columns.package, dataIndex: 'packageFen', align: 'right', render: (fen: number) => <Money fen={fen} /> },
  { title: T.columns.disk, dataIndex: 'diskFen', align: 'right', render: (fen: number) => <Money fen={fen} /> },
  { title: T.columns.total, dataIndex: 'totalFen', align: 'right', render: (fen: number) => <Money fen={fen} strong /> },
  { title: T.columns.createdAt, dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
];

/**
 * 计费记录: what each instance has cost, released ones included, with the totals of the filter; then,
 * for accounts allowed 文件存储, what each region's store has cost.
 */
function ChargingRecordPage() {
  const list = useListState(FILTER_KEYS);
  const state = isState(list.filters.state) ? list.filters.state : 'all';
  const keyword = list.filters.keyword?.trim() || undefined;
  const [draft, setDraft] = useState(keyword ?? '');
  const query = useChargingRecords({ page: list.page, pageSize: PAGE_SIZE, state, keyword });
  const totals = query.data?.totals;
  const filtered = state !== 'all' || Boolean(keyword);
  const showsStorage = permissionList(useUserStore((store) => store.userInfo))?.includes('FILE_STORAGE') ?? false;

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} extra={<LinkButton to={COST_PATHS.bills}>{T.billsLink}</LinkButton>} />
      <Card className="slg-charging-totals" aria-label={T.totals.total} loading={!totals && query.isPending}>
        <div className="slg-charging-totals-grid">
          <Statistic title={T.totals.total} value={totals ? formatFen(totals.totalFen) : '—'} prefix="¥" />
          <Statistic title={T.totals.usage} value={totals ? formatFen(totals.usageFen) : '—'} prefix="¥" />
          <Statistic title={T.totals.package} value={totals ? formatFen(totals.packageFen) : '—'} prefix="¥" />
          <Statistic title={T.totals.disk} value={totals ? formatFen(totals.diskFen) : '—'} prefix="¥" />
        </div>
        <Typography.Text type="secondary">{T.totals.hint}</Typography.Text>
      </Card>
      <Card>
        <FilterBar
          onReset={() => {
            setDraft('');
            list.reset();
          }}
        >
          <Segmented<ChargingRecordState>
            aria-label={T.filters.state}
            value={state}
            options={STATES.map((value) => ({ value, label: T.filters.states[value] }))}
            onChange={(value) => list.setFilters({ state: value === 'all' ? undefined : value })}
          />
          <Input.Search
            aria-label={T.filters.keyword}
            placeholder={T.filters.keyword}
            allowClear
            maxLength={64}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onSearch={(value) => list.setFilters({ keyword: value.trim() || undefined })}
            className="slg-charging-search"
          />
        </FilterBar>
        <DataTable<ChargingRecordDto>
          rowKey="instanceId"
          columns={COLUMNS}
          query={query}
          page={list.page}
          onPageChange={list.setPage}
          errorTitle={T.loadFailed}
          empty={
            <ListEmpty
              filtered={filtered}
              text={T.empty}
              filteredText={T.emptyFiltered}
              action={<LinkButton to={MARKET_PATH}>{T.emptyAction}</LinkButton>}
            />
          }
        />
      </Card>
      {showsStorage ? <FileStorageRecords /> : null}
    </div>
  );
}

export default withAntd(ChargingRecordPage);
