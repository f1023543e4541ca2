import { ListEmpty } from '../shared/ListEmpty';
import { isDictValue, labelOf, ORDER_BILLING_TYPES, ORDER_STATUSES, ORDER_TYPES } from '@slg/shared';
import { Card, Input, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useOrdersQuery, type OrderSummaryDto } from '../../../api/billing';
import { DateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { CellText } from '../../../components/CellText';
import { Money } from '../../../components/Money';
import { PageHeader } from '../../../components/PageHeader';
import { StatusTag } from '../../../components/StatusTag';
import { findRoute } from '../../../router/routes';
import '../costCenter.css';
import { DataTable } from '../shared/DataTable';
import { DayRangeFilter, DictSelect, FilterBar } from '../shared/Filters';
import { COST_PATHS, orderDetailPath } from '../shared/paths';
import { daysToQuery } from '../shared/timeRange';
import { PAGE_SIZE, useListState } from '../shared/useListState';
import { parseOrderNoSearch } from './orderNoSearch';
import { ORDER_TEXTS } from './texts';
import { withAntd } from '../../../theme/AntdScope';

const T = ORDER_TEXTS;
const FILTER_KEYS = ['status', 'type', 'orderNo', 'from', 'to'] as const;
const MARKET_PATH = '/computility-market';
const ORDER_NO_HINT_ID = 'order-no-search-hint';

/** Pay-as-you-go: no price up front, charged by the minute as it is used. */
function isUsage(order: OrderSummaryDto): boolean {
  return order.billingType === 'USAGE';
}

const COLUMNS: TableColumnsType<OrderSummaryDto> = [
  {
    title: T.columns.orderNo,
    dataIndex: 'orderNo',
    render: (orderNo: string) => (
      <Link to={orderDetailPath(orderNo)} className="slg-cost-mono" onClick={(event) => event.stopPropagation()}>
        {orderNo}
      </Link>
    ),
  },
  { title: T.columns.type, dataIndex: 'type', render: (value: OrderSummaryDto['type']) => labelOf(ORDER_TYPES, value) },
  { title: T.columns.status, dataIndex: 'status', render: (value: OrderSummaryDto['status']) => <StatusTag dict={ORDER_STATUSES} value={value} /> },
  {
    title: T.columns.billingType,
    dataIndex: 'billingType',
    render: (value: OrderSummaryDto['billingType']) => labelOf(ORDER_BILLING_TYPES, value),
  },
  { title: T.columns.title, dataIndex: 'title', render: (text: string) => <CellText>{text}</CellText> },
  {
    title: T.columns.originalAmount,
    dataIndex: 'originalAmount',
    align: 'right',
    render: (fen: number, row) => (isUsage(row) ? <Typography.Text type="secondary">{T.usage.original}</Typography.Text> : <Money fen={fen} />),
  },
  {
    title: T.columns.paidAmount,
    dataIndex: 'paidAmount',
    align: 'right',
    render: (fen: number, row) =>
      isUsage(row) ? (
        <span className="slg-cost-stacked">
          <Money fen={row.meteredAmount} strong />
          <Typography.Text type="secondary" className="slg-cost-note">
            {T.usage.chargedNote}
          </Typography.Text>
        </span>
      ) : (
        <Money fen={fen} strong />
      ),
  },
  { title: T.columns.createdAt, dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
  {
    title: T.columns.actions,
    key: 'actions',
    render: (_value, row) => (
      <Link to={orderDetailPath(row.orderNo)} onClick={(event) => event.stopPropagation()}>
        {row.status === 'UNPAID' ? T.actions.pay : T.actions.detail}
      </Link>
    ),
  },
];

/** 我的订单: filters by status, type, order number prefix and time; a row opens its detail. */
function OrdersPage() {
  const navigate = useNavigate();
  const list = useListState(FILTER_KEYS);
  const { status, type, orderNo, from, to } = list.filters;
  const statusValue = isDictValue(ORDER_STATUSES, status) ? status : undefined;
  const typeValue = isDictValue(ORDER_TYPES, type) ? type : undefined;
  const [search, setSearch] = useState(orderNo ?? '');
  // A malformed number (typed, or in the URL) is never sent: the list stays and the box says why.
  const fromUrl = parseOrderNoSearch(orderNo ?? '');
  const [malformed, setMalformed] = useState(!fromUrl.ok);
  const orderNoValue = fromUrl.ok ? fromUrl.value || undefined : undefined;
  const query = useOrdersQuery({
    page: list.page,
    pageSize: PAGE_SIZE,
    status: statusValue,
    type: typeValue,
    orderNo: orderNoValue,
    ...daysToQuery(from, to),
  });
  const filtered = Boolean(statusValue || typeValue || orderNoValue || from);

  function searchOrderNo(typed: string) {
    const parsed = parseOrderNoSearch(typed);
    setMalformed(!parsed.ok);
    if (parsed.ok) list.setFilters({ orderNo: parsed.value });
  }
  const marketBuilt = Boolean(findRoute(MARKET_PATH)?.page);

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} />
      <Card>
        <FilterBar
          onReset={() => {
            setSearch('');
            setMalformed(false);
            list.reset();
          }}
        >
          <DictSelect label={T.filters.status} dict={ORDER_STATUSES} value={statusValue} onChange={(value) => list.setFilters({ status: value })} />
          <DictSelect label={T.filters.type} dict={ORDER_TYPES} value={typeValue} width={200} onChange={(value) => list.setFilters({ type: value })} />
          <div className="slg-filter-field">
            <Input.Search
              aria-label={T.filters.orderNo}
              aria-invalid={malformed}
              aria-describedby={malformed ? ORDER_NO_HINT_ID : undefined}
              status={malformed ? 'error' : undefined}
              placeholder={T.filters.orderNoPlaceholder}
              allowClear
              inputMode="numeric"
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                if (malformed) setMalformed(false);
              }}
              onSearch={searchOrderNo}
              style={{ width: 240 }}
            />
            {malformed ? (
              <Typography.Text type="danger" id={ORDER_NO_HINT_ID} role="alert" className="slg-filter-hint">
                {T.filters.orderNoHint}
              </Typography.Text>
            ) : null}
          </div>
          <DayRangeFilter from={from} to={to} onChange={(days) => list.setFilters(days)} />
        </FilterBar>
        <DataTable<OrderSummaryDto>
          rowKey="orderNo"
          columns={COLUMNS}
          query={query}
          page={list.page}
          onPageChange={list.setPage}
          errorTitle={T.loadFailed}
          rowClassName={() => 'slg-cost-row-clickable'}
          onRow={(row) => ({ onClick: () => void navigate(orderDetailPath(row.orderNo)) })}
          empty={
            <ListEmpty
              filtered={filtered}
              text={T.empty}
              filteredText={T.emptyFiltered}
              action={
                marketBuilt ? (
                  <LinkButton to={MARKET_PATH} type="primary">
                    {T.emptyAction}
                  </LinkButton>
                ) : (
                  <LinkButton to={COST_PATHS.recharge}>{T.emptyRecharge}</LinkButton>
                )
              }
            />
          }
        />
      </Card>
    </div>
  );
}

export default withAntd(OrdersPage);
