import { ListEmpty } from '../shared/ListEmpty';
import { InfoCircleOutlined } from '@ant-design/icons';
import { INVOICE_STATUSES, INVOICE_TYPES, INVOICING_METHODS, isDictValue, labelOf } from '@slg/shared';
import { Button, Card, Skeleton, Space, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useInvoiceableQuery, useInvoicesQuery, type InvoiceDto } from '../../../api/invoices';
import { DateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { CellText } from '../../../components/CellText';
import { Money } from '../../../components/Money';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { StatusTag } from '../../../components/StatusTag';
import '../costCenter.css';
import { DataTable } from '../shared/DataTable';
import { DictSelect, FilterBar } from '../shared/Filters';
import { COST_PATHS } from '../shared/paths';
import { COST_TEXTS } from '../shared/texts';
import { PAGE_SIZE, useListState } from '../shared/useListState';
import { CancelInvoiceButton, DownloadInvoiceButton } from './InvoiceActions';
import { InvoiceDetail } from './InvoiceDetail';
import { INVOICE_TEXTS } from './texts';
import { withAntd } from '../../../theme/AntdScope';

const T = INVOICE_TEXTS;
const FILTER_KEYS = ['status'] as const;

function InvoiceableSummary() {
  const query = useInvoiceableQuery();
  let content;
  if (query.isPending) content = <Skeleton active title={false} paragraph={{ rows: 2 }} />;
  else if (query.isError) content = <QueryError title={T.summary.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  else {
    const items = [
      { key: 'available', label: T.summary.available, fen: query.data.available },
      { key: 'cashTotal', label: T.summary.cashTotal, fen: query.data.cashTotal },
      { key: 'invoicedTotal', label: T.summary.invoicedTotal, fen: query.data.invoicedTotal },
    ];
    content = (
      <>
        <div className="slg-cost-summary">
          {items.map((item) => (
            <div key={item.key} className="slg-cost-summary-item">
              <Typography.Text type="secondary">{item.label}</Typography.Text>
              <span className="slg-cost-stat-value">
                <Money fen={item.fen} />
              </span>
            </div>
          ))}
        </div>
        <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0' }}>
          {T.summary.note}
        </Typography.Paragraph>
      </>
    );
  }
  return (
    <Card title={T.summary.title} className="slg-cost-card">
      {content}
    </Card>
  );
}

const COLUMNS: TableColumnsType<InvoiceDto> = [
  { title: T.columns.createdAt, dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
  { title: T.columns.type, dataIndex: 'type', render: (value: InvoiceDto['type']) => labelOf(INVOICE_TYPES, value) },
  { title: T.columns.method, dataIndex: 'method', render: (value: InvoiceDto['method']) => labelOf(INVOICING_METHODS, value) },
  { title: T.columns.title, dataIndex: 'title', render: (text: string) => <CellText>{text}</CellText> },
  { title: T.columns.amount, dataIndex: 'amount', align: 'right', render: (fen: number) => <Money fen={fen} strong /> },
  {
    title: T.columns.status,
    dataIndex: 'status',
    render: (value: InvoiceDto['status'], row) => (
      <Space size={4}>
        <StatusTag dict={INVOICE_STATUSES} value={value} />
        {value === 'REJECTED' && row.rejectReason ? (
          <Tooltip title={T.rejectReason(row.rejectReason)}>
            <InfoCircleOutlined aria-label={T.rejectReasonLabel} tabIndex={0} />
          </Tooltip>
        ) : null}
      </Space>
    ),
  },
  {
    title: T.columns.invoiceNo,
    dataIndex: 'invoiceNo',
    render: (value: string | null) => (value ? <span className="slg-cost-mono">{value}</span> : COST_TEXTS.empty),
  },
];

/** 发票管理: invoiceable summary, applications with their status, detail, cancel and download. */
function InvoicePage() {
  const navigate = useNavigate();
  const list = useListState(FILTER_KEYS);
  const statusValue = isDictValue(INVOICE_STATUSES, list.filters.status) ? list.filters.status : undefined;
  const query = useInvoicesQuery({ page: list.page, pageSize: PAGE_SIZE, status: statusValue });
  const [detail, setDetail] = useState<{ invoice: InvoiceDto; open: boolean } | null>(null);

  const columns: TableColumnsType<InvoiceDto> = [
    ...COLUMNS,
    {
      title: T.columns.actions,
      key: 'actions',
      render: (_value, row) => (
        <Space size={4}>
          <Button type="link" size="small" onClick={() => setDetail({ invoice: row, open: true })}>
            {T.detail}
          </Button>
          <CancelInvoiceButton invoice={row} size="small" />
          <DownloadInvoiceButton invoice={row} size="small" />
        </Space>
      ),
    },
  ];

  return (
    <div className="slg-page">
      <PageHeader
        title={T.title}
        description={T.description}
        extra={
          <>
            <Button type="primary" onClick={() => void navigate(COST_PATHS.makePriceInvoice)}>
              {T.byRecharge}
            </Button>
            <Button onClick={() => void navigate(COST_PATHS.makeBillInvoice)}>{T.byBill}</Button>
            <Button onClick={() => void navigate(COST_PATHS.invoiceInfo)}>{T.profile}</Button>
          </>
        }
      />
      <InvoiceableSummary />
      <Card className="slg-cost-card">
        <FilterBar onReset={list.reset}>
          <DictSelect label={T.filters.status} dict={INVOICE_STATUSES} value={statusValue} onChange={(value) => list.setFilters({ status: value })} />
        </FilterBar>
        <DataTable<InvoiceDto>
          rowKey="id"
          columns={columns}
          query={query}
          page={list.page}
          onPageChange={list.setPage}
          errorTitle={T.loadFailed}
          empty={
            <ListEmpty
              filtered={Boolean(statusValue)}
              text={T.empty}
              filteredText={T.emptyFiltered}
              action={
                <LinkButton to={COST_PATHS.makePriceInvoice} type="primary">
                  {T.apply}
                </LinkButton>
              }
            />
          }
        />
      </Card>
      <InvoiceDetail
        invoice={detail?.invoice ?? null}
        open={Boolean(detail?.open)}
        listUpdatedAt={query.dataUpdatedAt}
        onClose={() => setDetail((current) => (current ? { ...current, open: false } : null))}
      />
    </div>
  );
}

export default withAntd(InvoicePage);
