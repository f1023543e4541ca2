import { ArrowLeftOutlined } from '@ant-design/icons';
import { formatYuan, TIME_PACKAGE_KEYS, USAGE_CHARGING_RULE_ID } from '@slg/shared';
import { Card, Descriptions, Skeleton, Table, Typography, type TableColumnsType } from 'antd';
import { useMarketOverviewQuery, usePlatformFeesQuery, type MarketOverview } from '../../../api/compute';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { withAntd } from '../../../theme/AntdScope';
import { COMPUTE_PATHS } from '../paths';
import { PRICE_DETAIL_TEXTS } from './texts';
import './priceDetail.css';

const T = PRICE_DETAIL_TEXTS;
const RULES = [
  { key: 'usage', id: USAGE_CHARGING_RULE_ID },
  { key: 'day', id: TIME_PACKAGE_KEYS.day },
  { key: 'week', id: TIME_PACKAGE_KEYS.week },
  { key: 'month', id: TIME_PACKAGE_KEYS.month },
] as const;
type RuleKey = (typeof RULES)[number]['key'];

interface ModelRow {
  gpuModelId: string;
  gpuModelName: string;
  gpuMemoryGb: number;
  gpuFree: number;
  gpuTotal: number;
  prices: Partial<Record<RuleKey, { fen: number; unit: string }>>;
}

/** One row per GPU model with its lowest price under each charging rule. */
function modelRows(overviews: (MarketOverview | undefined)[]): ModelRow[] {
  const rows = new Map<string, ModelRow>();
  RULES.forEach((rule, index) => {
    const overview = overviews[index];
    for (const model of overview?.gpuModels ?? []) {
      const row = rows.get(model.gpuModelId) ?? {
        gpuModelId: model.gpuModelId,
        gpuModelName: model.gpuModelName,
        gpuMemoryGb: model.gpuMemoryGb,
        gpuFree: model.gpuFree,
        gpuTotal: model.gpuTotal,
        prices: {},
      };
      if (model.hostCount > 0) row.prices[rule.key] = { fen: model.minPricePerGpuFen, unit: overview?.unit ?? '' };
      rows.set(model.gpuModelId, row);
    }
  });
  return [...rows.values()];
}

/** `/ctrl-container-instances/priceDetail`: every GPU model's lowest price per charging rule, the other fees and the billing rules. */
function PriceDetailPage() {
  const overviews = [useMarketOverviewQuery(RULES[0].id), useMarketOverviewQuery(RULES[1].id), useMarketOverviewQuery(RULES[2].id), useMarketOverviewQuery(RULES[3].id)];
  const fees = usePlatformFeesQuery();
  const failed = overviews.find((query) => query.isError && !query.data);
  const loading = overviews.some((query) => query.isLoading);
  const rows = modelRows(overviews.map((query) => query.data));
  const price = (rule: RuleKey) => (_: unknown, row: ModelRow) => {
    const found = row.prices[rule];
    return found ? <span className="slg-price-cell">{T.perUnit(formatYuan(found.fen), found.unit)}</span> : <Typography.Text type="secondary">{T.none}</Typography.Text>;
  };
  const columns: TableColumnsType<ModelRow> = [
    {
      title: T.columns.model,
      dataIndex: 'gpuModelName',
      fixed: 'left',
      width: 150,
      render: (name: string, row) => (
        <>
          <strong>{name}</strong>
          <br />
          <Typography.Text type="secondary">{T.memory(row.gpuMemoryGb)}</Typography.Text>
        </>
      ),
    },
    { title: T.columns.usage, key: 'usage', render: price('usage') },
    { title: T.columns.day, key: 'day', render: price('day') },
    { title: T.columns.week, key: 'week', render: price('week') },
    { title: T.columns.month, key: 'month', render: price('month') },
    { title: T.columns.free, key: 'free', render: (_, row) => `${row.gpuFree} / ${row.gpuTotal}` },
    {
      title: T.columns.action,
      key: 'action',
      render: (_, row) => (
        <LinkButton type="link" size="small" to={`${COMPUTE_PATHS.market}?${new URLSearchParams({ gpuModelId: row.gpuModelId }).toString()}`}>
          {T.rent}
        </LinkButton>
      ),
    },
  ];
  const back = (
    <LinkButton to={COMPUTE_PATHS.list} icon={<ArrowLeftOutlined />} type="text">
      {T.back}
    </LinkButton>
  );
  const fee = fees.data;
  return (
    <div className="slg-price-detail">
      <PageHeader title={T.title} description={T.description} back={back} />
      <Card title={T.gpuTitle}>
        {failed ? <QueryError title={T.loadFailed} error={failed.error} onRetry={() => overviews.forEach((query) => void query.refetch())} /> : null}
        <Table<ModelRow> rowKey="gpuModelId" size="middle" columns={columns} dataSource={rows} loading={loading} pagination={false} scroll={{ x: 860 }} />
      </Card>
      <Card title={T.feesTitle}>
        {fees.isError && !fee ? <QueryError title={T.loadFailed} error={fees.error} onRetry={() => void fees.refetch()} /> : null}
        {fee ? (
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={T.fees.noGpu}>{T.fees.noGpuValue(formatYuan(fee.noGpuPricePerHourFen))}</Descriptions.Item>
            <Descriptions.Item label={T.fees.dataDisk}>{T.fees.dataDiskValue(fee.freeDataDiskGb, formatYuan(fee.diskPriceFenPerGbDay))}</Descriptions.Item>
            <Descriptions.Item label={T.fees.systemDisk}>{T.fees.systemDiskValue(fee.systemDiskGb)}</Descriptions.Item>
            <Descriptions.Item label={T.fees.keep}>{T.fees.keepValue(fee.autoReleaseDays, formatYuan(fee.diskPriceFenPerGbDay))}</Descriptions.Item>
            <Descriptions.Item label={T.fees.images}>{T.fees.imagesValue(fee.privateImageQuotaGb)}</Descriptions.Item>
            <Descriptions.Item label={T.fees.ports}>{T.fees.portsValue}</Descriptions.Item>
          </Descriptions>
        ) : fees.isLoading ? (
          <Skeleton active />
        ) : null}
      </Card>
      <Card title={T.rulesTitle}>
        <ul className="slg-price-rules">
          {T.rules.map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

export default withAntd(PriceDetailPage);
