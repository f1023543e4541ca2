import { PlusOutlined } from '@ant-design/icons';
import { isDictValue, TIME_PACK_STATUSES } from '@slg/shared';
import { Button, Card, Empty, Progress, Select, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTimePacksQuery, type TimePackView } from '../../../api/elastic';
import { DateTime } from '../../../components/DateTime';
import { Money } from '../../../components/Money';
import { PageHeader } from '../../../components/PageHeader';
import { StatusTag } from '../../../components/StatusTag';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { withAntd } from '../../../theme/AntdScope';
import { PAGE_SIZE, useListState } from '../../ctrl-cost-center/shared/useListState';
import { FactCard } from '../components/FactCard';
import { ElasticListBody } from '../components/ElasticListBody';
import '../elastic.css';
import { gpuHours } from '../rules';
import { BuyTimePackDialog, RefundTimePackDialog } from './TimePackDialogs';
import { TIME_PACK_TEXTS } from './texts';

const T = TIME_PACK_TEXTS;
const FILTER_KEYS = ['status'] as const;
const STATUS_OPTIONS = TIME_PACK_STATUSES.map((item) => ({ value: item.value, label: item.label }));

function Hours({ pack }: { pack: TimePackView }) {
  const percent = pack.totalSeconds > 0 ? Math.floor((pack.balanceSeconds / pack.totalSeconds) * 100) : 0;
  return (
    <div className="slg-elastic-cell slg-elastic-hours">
      <span className="slg-elastic-nowrap">{T.hours(gpuHours(pack.balanceSeconds), gpuHours(pack.totalSeconds))}</span>
      <Progress percent={percent} size="small" showInfo={false} status={pack.status === 'IN_USE' ? 'active' : 'normal'} aria-label={T.leftPercent(percent)} />
    </div>
  );
}

function RefundButton({ pack, onRefund, block = false }: { pack: TimePackView; onRefund: (pack: TimePackView) => void; block?: boolean }) {
  if (pack.status !== 'IN_USE') return null;
  return (
    <Button type={block ? 'default' : 'link'} danger className="slg-elastic-action" aria-label={T.refund.label(pack.gpuModelName)} onClick={() => onRefund(pack)}>
      {T.refund.action}
    </Button>
  );
}

/** 时长包: my packs with what is left, how they are drawn down, 购买 and 退款. */
function TimePacksPage() {
  const phone = useIsPhone();
  const list = useListState(FILTER_KEYS);
  const status = isDictValue(TIME_PACK_STATUSES, list.filters.status) ? list.filters.status : undefined;
  const query = useTimePacksQuery({ page: list.page, pageSize: PAGE_SIZE, status });
  const [buying, setBuying] = useState(false);
  const [refunding, setRefunding] = useState<TimePackView | null>(null);

  const columns: TableColumnsType<TimePackView> = [
    { title: T.columns.gpu, key: 'gpu', render: (_value, row) => <span className="slg-elastic-nowrap">{row.gpuModelName}</span> },
    { title: T.columns.hours, key: 'hours', render: (_value, row) => <Hours pack={row} /> },
    { title: T.columns.status, key: 'status', render: (_value, row) => <StatusTag dict={TIME_PACK_STATUSES} value={row.status} /> },
    { title: T.columns.expiresAt, key: 'expiresAt', render: (_value, row) => <DateTime value={row.expiresAt} /> },
    { title: T.columns.paid, key: 'paid', render: (_value, row) => <Money fen={row.paidFen} /> },
    { title: T.columns.refunded, key: 'refunded', render: (_value, row) => <Money fen={row.refundedFen} /> },
    { title: T.columns.createdAt, key: 'createdAt', render: (_value, row) => <DateTime value={row.createdAt} /> },
    { title: T.columns.actions, key: 'actions', render: (_value, row) => <RefundButton pack={row} onRefund={setRefunding} /> },
  ];

  const buyButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setBuying(true)}>
      {T.buy}
    </Button>
  );
  const empty = (
    <Empty description={status ? T.emptyFiltered : T.empty}>
      {status ? null : (
        <>
          <Typography.Paragraph type="secondary">{T.emptyHint}</Typography.Paragraph>
          {buyButton}
        </>
      )}
    </Empty>
  );

  const packCard = (pack: TimePackView) => (
    <FactCard
      label={pack.gpuModelName}
      head={
        <>
          <strong>{pack.gpuModelName}</strong>
          <StatusTag dict={TIME_PACK_STATUSES} value={pack.status} />
        </>
      }
      facts={[
        { label: T.columns.hours, value: <Hours pack={pack} /> },
        { label: T.columns.expiresAt, value: <DateTime value={pack.expiresAt} /> },
        { label: T.columns.paid, value: <Money fen={pack.paidFen} /> },
        { label: T.columns.refunded, value: <Money fen={pack.refundedFen} /> },
        { label: T.columns.createdAt, value: <DateTime value={pack.createdAt} /> },
      ]}
      actions={<RefundButton pack={pack} onRefund={setRefunding} block />}
    />
  );

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} extra={buyButton} />
      <div className="slg-elastic-stack-lg">
        <Card size="small" title={T.how.title}>
          <ul className="slg-elastic-how">
            {T.how.lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </Card>
        <Card className="slg-elastic-list-card">
          <div className="slg-elastic-filters" role="search" aria-label={T.filters.label}>
            <Select
              aria-label={T.filters.status}
              placeholder={`${T.filters.status}：${T.filters.all}`}
              allowClear
              value={status}
              onChange={(value: string | undefined) => list.setFilters({ status: value })}
              options={STATUS_OPTIONS}
              className="slg-elastic-filter-status"
              popupMatchSelectWidth={false}
            />
          </div>
          <ElasticListBody
            query={query}
            phone={phone}
            columns={columns}
            rowKey={(pack) => pack.id}
            card={packCard}
            empty={empty}
            texts={T}
            page={list.page}
            onPage={list.setPage}
          />
        </Card>
      </div>
      <BuyTimePackDialog open={buying} onClose={() => setBuying(false)} />
      <RefundTimePackDialog pack={refunding} onClose={() => setRefunding(null)} />
    </div>
  );
}

export default withAntd(TimePacksPage);
