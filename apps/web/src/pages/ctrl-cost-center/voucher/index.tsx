import { GiftOutlined } from '@ant-design/icons';
import { formatYuan, labelOf, ORDER_TYPES } from '@slg/shared';
import { Card, Empty, Pagination, Skeleton, Spin, Tabs, Typography } from 'antd';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { useVouchersQuery, type VoucherDto, type VoucherStatusValue } from '../../../api/vouchers';
import { formatDateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import '../costCenter.css';
import { COST_PATHS, orderDetailPath } from '../shared/paths';
import { PAGE_SIZE, useListState } from '../shared/useListState';
import { VOUCHER_TEXTS } from './texts';
import { withAntd } from '../../../theme/AntdScope';

const T = VOUCHER_TEXTS;
const TABS: readonly VoucherStatusValue[] = ['UNUSED', 'USED', 'EXPIRED'];
const FILTER_KEYS = ['status'] as const;

function isVoucherStatus(value: string | undefined): value is VoucherStatusValue {
  return TABS.some((tab) => tab === value);
}

const formatDay = (value: string) => dayjs(value).format('YYYY-MM-DD');

export function VoucherCard({ voucher }: { voucher: VoucherDto }) {
  const scope = voucher.scope.length ? T.scope(voucher.scope.map((type) => labelOf(ORDER_TYPES, type)).join('、')) : T.scopeAll;
  const threshold = voucher.minOrderAmount > 0 ? T.threshold(formatYuan(voucher.minOrderAmount)) : T.noThreshold;
  return (
    <article className={voucher.status === 'UNUSED' ? 'slg-voucher-card' : 'slg-voucher-card slg-voucher-card--inactive'} aria-label={voucher.name}>
      <div className="slg-voucher-amount">
        <span className="slg-voucher-amount-value">{formatYuan(voucher.amount)}</span>
        <span>{threshold}</span>
      </div>
      <div className="slg-voucher-body">
        <span className="slg-voucher-name" title={voucher.name}>
          {voucher.name}
        </span>
        <Typography.Text type="secondary">{scope}</Typography.Text>
        <Typography.Text type="secondary">{T.validity(formatDay(voucher.validFrom), formatDay(voucher.validTo))}</Typography.Text>
        {voucher.status === 'USED' && voucher.usedAt ? <Typography.Text type="secondary">{T.usedAt(formatDateTime(voucher.usedAt))}</Typography.Text> : null}
        {voucher.usedOrderNo ? (
          <Typography.Text type="secondary">
            {T.usedOrder}
            <Link to={orderDetailPath(voucher.usedOrderNo)} className="slg-cost-mono">
              {voucher.usedOrderNo}
            </Link>
          </Typography.Text>
        ) : null}
      </div>
    </article>
  );
}

function VoucherList({ status, page, onPageChange }: { status: VoucherStatusValue; page: number; onPageChange: (page: number) => void }) {
  const query = useVouchersQuery({ page, pageSize: PAGE_SIZE, status });
  if (query.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (query.isError && !query.data) {
    return <QueryError variant="page" title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  }
  const { list, total } = query.data;
  if (list.length === 0 && page === 1) {
    return (
      <Empty description={T.empty[status]}>
        {status === 'UNUSED' ? (
          <LinkButton to={COST_PATHS.exchange} type="primary">
            {T.emptyAction}
          </LinkButton>
        ) : null}
      </Empty>
    );
  }
  return (
    <Spin spinning={query.isFetching}>
      <div className="slg-voucher-grid" role="list" aria-label={T.listLabel(T.tabs[status])}>
        {list.map((voucher) => (
          <div role="listitem" key={voucher.id}>
            <VoucherCard voucher={voucher} />
          </div>
        ))}
      </div>
      <div className="slg-voucher-pagination">
        <Pagination current={page} pageSize={PAGE_SIZE} total={total} showSizeChanger={false} showTotal={T.total} onChange={onPageChange} />
      </div>
    </Spin>
  );
}

/** 代金券: tabs 未使用 / 已使用 / 已过期, and the way to redeem a code. */
function VoucherPage() {
  const list = useListState(FILTER_KEYS);
  const status: VoucherStatusValue = isVoucherStatus(list.filters.status) ? list.filters.status : 'UNUSED';

  return (
    <div className="slg-page">
      <PageHeader
        title={T.title}
        description={T.description}
        extra={
          <LinkButton to={COST_PATHS.exchange} type="primary" icon={<GiftOutlined aria-hidden />}>
            {T.redeem}
          </LinkButton>
        }
      />
      <Card>
        <Tabs
          activeKey={status}
          onChange={(key) => list.setFilters({ status: key === 'UNUSED' ? undefined : key })}
          items={TABS.map((tab) => ({
            key: tab,
            label: T.tabs[tab],
            children: tab === status ? <VoucherList status={tab} page={list.page} onPageChange={list.setPage} /> : null,
          }))}
        />
      </Card>
    </div>
  );
}

export default withAntd(VoucherPage);
