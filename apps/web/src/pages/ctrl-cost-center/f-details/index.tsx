import { ListEmpty } from '../shared/ListEmpty';
import { DownloadOutlined } from '@ant-design/icons';
import { isDictValue, labelOf, ORDER_BILLING_TYPES, ORDER_TYPES, PLACED_ORDER_TYPES } from '@slg/shared';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import { exportBills, useBillsQuery, type BillDto, type BillFilters } from '../../../api/billing';
import { saveDownload } from '../../../api/download';
import { toast } from '../../../api/toast';
import { DateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { CellText } from '../../../components/CellText';
import { Money } from '../../../components/Money';
import { PageHeader } from '../../../components/PageHeader';
import '../costCenter.css';
import { DataTable } from '../shared/DataTable';
import { DayRangeFilter, DictSelect, FilterBar } from '../shared/Filters';
import { COST_PATHS, orderDetailPath } from '../shared/paths';
import { COST_TEXTS } from '../shared/texts';
import { daysToQuery } from '../shared/timeRange';
import { PAGE_SIZE, useListState } from '../shared/useListState';
import { BILL_TEXTS } from './texts';
import { withAntd } from '../../../theme/AntdScope';

const T = BILL_TEXTS;
const FILTER_KEYS = ['orderType', 'from', 'to'] as const;

const COLUMNS: TableColumnsType<BillDto> = [
  { title: T.columns.createdAt, dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
  {
    title: T.columns.orderNo,
    dataIndex: 'orderNo',
    render: (orderNo: string | null) =>
      orderNo ? (
        <Link to={orderDetailPath(orderNo)} className="slg-cost-mono">
          {orderNo}
        </Link>
      ) : (
        COST_TEXTS.empty
      ),
  },
  { title: T.columns.orderType, dataIndex: 'orderType', render: (value: BillDto['orderType']) => labelOf(ORDER_TYPES, value) },
  { title: T.columns.billingType, dataIndex: 'billingType', render: (value: BillDto['billingType']) => labelOf(ORDER_BILLING_TYPES, value) },
  { title: T.columns.title, dataIndex: 'title', render: (text: string) => <CellText>{text}</CellText> },
  { title: T.columns.amount, dataIndex: 'amount', align: 'right', render: (fen: number) => <Money fen={fen} strong /> },
  { title: T.columns.cashAmount, dataIndex: 'cashAmount', align: 'right', render: (fen: number) => <Money fen={fen} /> },
  { title: T.columns.voucherAmount, dataIndex: 'voucherAmount', align: 'right', render: (fen: number) => <Money fen={fen} /> },
];

/** 账单明细: charges and refunds, filtered by order type and time; exported as CSV with the same filters. */
function BillsPage() {
  const list = useListState(FILTER_KEYS);
  const { orderType, from, to } = list.filters;
  const orderTypeValue = isDictValue(ORDER_TYPES, orderType) ? orderType : undefined;
  const filters: BillFilters = { orderType: orderTypeValue, ...daysToQuery(from, to) };
  const query = useBillsQuery({ page: list.page, pageSize: PAGE_SIZE, ...filters });
  const filtered = Boolean(orderTypeValue || from);

  const exporter = useMutation({
    mutationFn: () => exportBills(filters),
    onSuccess: (download) => {
      saveDownload(download, T.exportFileName);
      toast.success(T.exported);
    },
  });

  return (
    <div className="slg-page">
      <PageHeader
        title={T.title}
        description={T.description}
        extra={
          <Button icon={<DownloadOutlined aria-hidden />} loading={exporter.isPending} onClick={() => exporter.mutate()}>
            {T.export}
          </Button>
        }
      />
      <Card>
        <FilterBar onReset={list.reset}>
          <DictSelect label={T.filters.orderType} dict={PLACED_ORDER_TYPES} value={orderTypeValue} width={200} onChange={(value) => list.setFilters({ orderType: value })} />
          <DayRangeFilter from={from} to={to} onChange={(days) => list.setFilters(days)} />
        </FilterBar>
        <DataTable<BillDto>
          rowKey="id"
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
              action={<LinkButton to={COST_PATHS.orders}>{T.emptyAction}</LinkButton>}
            />
          }
        />
      </Card>
    </div>
  );
}

export default withAntd(BillsPage);
