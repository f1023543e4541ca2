import { INVOICE_STATUSES, INVOICE_TYPES, INVOICING_METHODS, labelOf } from '@slg/shared';
import { Descriptions, Drawer, Empty, Space, Table, Typography, type DescriptionsProps, type TableColumnsType } from 'antd';
import { useInvoiceQuery, type InvoiceDto, type InvoiceItemDto } from '../../../api/invoices';
import { formatDateTime } from '../../../components/DateTime';
import { Money } from '../../../components/Money';
import { StatusTag } from '../../../components/StatusTag';
import { COST_TEXTS } from '../shared/texts';
import { CancelInvoiceButton, DownloadInvoiceButton } from './InvoiceActions';
import { INVOICE_TEXTS } from './texts';
import { INVOICE_INFO_TEXTS } from '../invoice-info/texts';

const T = INVOICE_TEXTS.detailView;

function itemColumns(method: InvoiceDto['method']): TableColumnsType<InvoiceItemDto> {
  return [
    method === 'BILL'
      ? { title: T.itemMonth, dataIndex: 'month', render: (month: string | null) => month ?? COST_TEXTS.empty }
      : {
          title: T.itemRecharge,
          dataIndex: 'rechargeId',
          render: (id: string | null) => (id ? <span className="slg-cost-mono">{id}</span> : COST_TEXTS.empty),
        },
    { title: T.itemAmount, dataIndex: 'amount', align: 'right', render: (fen: number) => <Money fen={fen} /> },
  ];
}

const PROFILE_FIELDS = ['taxNo', 'bankName', 'bankAccount', 'address', 'phone', 'email'] as const;

/** The rest of the invoice information snapshotted at application: only the fields that were filled. */
function profileFacts(profile: InvoiceDto['profile']): NonNullable<DescriptionsProps['items']> {
  return PROFILE_FIELDS.filter((field) => profile[field]).map((field) => ({
    key: field,
    label: INVOICE_INFO_TEXTS.fields[field],
    children: profile[field],
  }));
}

/** What the invoice says: status, the title snapshotted at application, amounts, number and dates. */
function facts(invoice: InvoiceDto): NonNullable<DescriptionsProps['items']> {
  const issued = invoice.status === 'SUCCESS' ? <Money fen={invoice.amount} strong /> : T.notIssued[invoice.status];
  return [
    { key: 'status', label: T.status, children: <StatusTag dict={INVOICE_STATUSES} value={invoice.status} /> },
    ...(invoice.status === 'REJECTED' && invoice.rejectReason
      ? [{ key: 'rejectReason', label: T.rejectReason, children: <Typography.Text type="danger">{invoice.rejectReason}</Typography.Text> }]
      : []),
    { key: 'title', label: T.invoiceTitle, children: `${invoice.title}（${T.titleType[invoice.titleType]}）` },
    ...profileFacts(invoice.profile),
    { key: 'type', label: T.type, children: labelOf(INVOICE_TYPES, invoice.type) },
    { key: 'method', label: T.method, children: labelOf(INVOICING_METHODS, invoice.method) },
    { key: 'requested', label: T.requested, children: <Money fen={invoice.amount} /> },
    { key: 'issued', label: T.issued, children: issued },
    {
      key: 'invoiceNo',
      label: T.invoiceNo,
      children: invoice.invoiceNo ? (
        <Typography.Text copyable className="slg-cost-mono">
          {invoice.invoiceNo}
        </Typography.Text>
      ) : (
        COST_TEXTS.empty
      ),
    },
    { key: 'createdAt', label: T.createdAt, children: formatDateTime(invoice.createdAt) },
    ...(invoice.status !== 'PENDING' && invoice.decidedAt
      ? [{ key: 'decidedAt', label: T.decidedAt[invoice.status], children: formatDateTime(invoice.decidedAt) }]
      : []),
    ...(invoice.remark ? [{ key: 'remark', label: T.remark, children: invoice.remark }] : []),
  ];
}

/**
 * 发票详情: a drawer over 发票管理 (spec §2 has no route for it), opened by 查看详情. It starts from the
 * list's copy of the invoice and follows GET /invoice/:id, so a cancel shows at once.
 */
export function InvoiceDetail({
  invoice,
  open,
  listUpdatedAt,
  onClose,
}: {
  /** The invoice opened last (kept while the drawer closes). */
  invoice: InvoiceDto | null;
  open: boolean;
  listUpdatedAt?: number;
  onClose: () => void;
}) {
  const query = useInvoiceQuery(invoice, listUpdatedAt);
  const current = query.data ?? invoice;

  return (
    <Drawer
      open={open && invoice !== null}
      onClose={onClose}
      title={T.title}
      size={560}
      closable={{ 'aria-label': T.close }}
      className="slg-invoice-detail"
      footer={
        current && (current.status === 'PENDING' || (current.status === 'SUCCESS' && current.hasPdf)) ? (
          <Space wrap>
            <DownloadInvoiceButton invoice={current} type="primary" label={INVOICE_TEXTS.downloadPdf} />
            <CancelInvoiceButton invoice={current} type="default" />
          </Space>
        ) : null
      }
    >
      {current ? (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions size="small" column={1} bordered items={facts(current)} styles={{ label: { whiteSpace: 'nowrap' } }} />
          <Typography.Text type="secondary">{T.snapshotNote}</Typography.Text>
          <div>
            <Typography.Title level={2} className="slg-invoice-detail-heading">
              {T.items}
            </Typography.Title>
            <Table<InvoiceItemDto>
              size="small"
              rowKey={(item) => item.rechargeId ?? item.month ?? String(item.amount)}
              columns={itemColumns(current.method)}
              dataSource={current.items}
              pagination={false}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: <Empty description={T.itemsEmpty} /> }}
            />
          </div>
        </Space>
      ) : null}
    </Drawer>
  );
}
