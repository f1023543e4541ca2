import { ArrowLeftOutlined } from '@ant-design/icons';
import { ErrorCodes, formatYuan, labelOf, ORDER_BILLING_TYPES, ORDER_STATUSES, ORDER_TYPES } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, Result, Select, Skeleton, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import {
  billingKeys,
  cancelOrder,
  invalidateMoneyQueries,
  payOrder,
  useOrderQuery,
  type OrderDetailDto,
  type OrderItemDto,
  type OrderTransactionDto,
} from '../../../api/billing';
import { claimError, isApiError } from '../../../api/client';
import { newIdempotencyKey } from '../../../api/idempotency';
import { toast } from '../../../api/toast';
import { useOrderVouchersQuery, type VoucherDto } from '../../../api/vouchers';
import { ConfirmAction } from '../../../components/ConfirmDialog';
import { DateTime, formatDateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { CellText } from '../../../components/CellText';
import { Money } from '../../../components/Money';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { StatusTag } from '../../../components/StatusTag';
import '../costCenter.css';
import { channelLabel, ledgerTypeLabel } from '../shared/labels';
import { COST_PATHS } from '../shared/paths';
import { ORDER_DETAIL_TEXTS } from './texts';
import { withAntd } from '../../../theme/AntdScope';

const T = ORDER_DETAIL_TEXTS;
const NO_VOUCHER = 'none';
type VoucherChoice = number | typeof NO_VOUCHER;

const ITEM_COLUMNS: TableColumnsType<OrderItemDto> = [
  { title: T.items.name, dataIndex: 'name', render: (text: string) => <CellText maxWidth="14em">{text}</CellText> },
  { title: T.items.spec, dataIndex: 'spec', render: (text: string) => <CellText>{text}</CellText> },
  { title: T.items.quantity, key: 'quantity', align: 'right', render: (_value, row) => `${row.quantity} ${row.unit}` },
  { title: T.items.unitPrice, dataIndex: 'unitPrice', align: 'right', render: (fen: number) => <Money fen={fen} /> },
  { title: T.items.amount, dataIndex: 'amount', align: 'right', render: (fen: number) => <Money fen={fen} strong /> },
];

const TRANSACTION_COLUMNS: TableColumnsType<OrderTransactionDto> = [
  { title: T.transactions.createdAt, dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
  { title: T.transactions.type, dataIndex: 'type', render: (value: string) => ledgerTypeLabel(value) },
  { title: T.transactions.channel, dataIndex: 'channel', render: (value: string | null) => channelLabel(value) },
  { title: T.transactions.amount, dataIndex: 'amount', align: 'right', render: (fen: number) => <Money fen={fen} signed colored /> },
  { title: T.transactions.description, dataIndex: 'description', render: (text: string) => <CellText>{text}</CellText> },
];

/** What the wallet pays with a voucher of `voucherAmount` (never below zero). */
export function payableAmount(originalAmount: number, voucherAmount: number): number {
  return Math.max(0, originalAmount - Math.min(voucherAmount, originalAmount));
}

function voucherLabel(voucher: VoucherDto): string {
  const threshold = voucher.minOrderAmount > 0 ? T.pay.threshold(formatYuan(voucher.minOrderAmount)) : T.pay.noThreshold;
  return T.pay.voucherOption(voucher.name, formatYuan(voucher.amount), threshold);
}

function PayPanel({ order }: { order: OrderDetailDto }) {
  const queryClient = useQueryClient();
  const vouchers = useOrderVouchersQuery(order.orderNo, true);
  const [choice, setChoice] = useState<VoucherChoice | undefined>(undefined);
  const [insufficient, setInsufficient] = useState(false);
  const list = vouchers.data ?? [];
  // Preselect the best voucher (the server lists them best first) until the user picks.
  const selected: VoucherChoice = choice ?? list[0]?.id ?? NO_VOUCHER;
  const voucher = selected === NO_VOUCHER ? undefined : list.find((item) => item.id === selected);
  const payable = payableAmount(order.originalAmount, voucher?.amount ?? 0);

  const pay = useMutation({
    mutationFn: (key: string) => payOrder(order.orderNo, voucher?.id ?? null, key),
    onSuccess: (paid) => {
      toast.success(T.pay.paid);
      queryClient.setQueryData(billingKeys.order(order.orderNo), paid);
      void invalidateMoneyQueries(queryClient);
    },
    onError: (error) => {
      const short = isApiError(error) && error.code === ErrorCodes.INSUFFICIENT_BALANCE.code;
      // Shown in place, with 去充值: no toast besides.
      if (short) claimError(error);
      setInsufficient(short);
    },
  });
  // One Idempotency-Key per confirmation: a retry of the same confirmation cannot pay twice.
  const payKey = useRef('');

  const cancel = useMutation({
    mutationFn: () => cancelOrder(order.orderNo),
    onSuccess: (canceled) => {
      toast.success(T.pay.canceled);
      queryClient.setQueryData(billingKeys.order(order.orderNo), canceled);
      void queryClient.invalidateQueries({ queryKey: billingKeys.orders });
    },
  });

  /** Pays; a short balance closes the dialog (the page then offers 去充值), other failures keep it. */
  async function payConfirmed() {
    try {
      await pay.mutateAsync(payKey.current);
    } catch (error) {
      if (!(isApiError(error) && error.code === ErrorCodes.INSUFFICIENT_BALANCE.code)) throw error;
    }
  }

  const options = [
    ...list.map((item) => ({ value: item.id as VoucherChoice, label: voucherLabel(item) })),
    { value: NO_VOUCHER as VoucherChoice, label: T.pay.noVoucher },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Space wrap align="center">
        <Typography.Text id="order-voucher-label">{T.pay.voucherLabel}</Typography.Text>
        <Select<VoucherChoice>
          aria-labelledby="order-voucher-label"
          value={selected}
          loading={vouchers.isPending}
          onChange={(value) => setChoice(value)}
          options={options}
          style={{ minWidth: 'min(320px, 100%)' }}
          popupMatchSelectWidth={false}
        />
        {vouchers.isSuccess && list.length === 0 ? <Typography.Text type="secondary">{T.pay.noneAvailable}</Typography.Text> : null}
      </Space>
      {vouchers.isError ? <QueryError title={T.pay.vouchersFailed} error={vouchers.error} onRetry={() => void vouchers.refetch()} /> : null}
      {insufficient ? (
        <Alert
          type="warning"
          showIcon
          title={T.pay.insufficient}
          action={
            <LinkButton to={COST_PATHS.recharge} size="small" type="primary">
              {T.pay.recharge}
            </LinkButton>
          }
        />
      ) : null}
      <Space wrap align="center" size={16} style={{ justifyContent: 'flex-end', width: '100%' }}>
        <span>
          <Typography.Text type="secondary">{T.price.voucher}：</Typography.Text>
          <Money fen={-(order.originalAmount - payable)} />
        </span>
        <span>
          <Typography.Text type="secondary">{T.pay.payable}：</Typography.Text>
          <Typography.Text strong className="slg-price-total">
            {formatYuan(payable)}
          </Typography.Text>
        </span>
        <ConfirmAction
          danger
          texts={T.pay.cancelConfirm}
          onConfirm={() => cancel.mutateAsync()}
          trigger={(open) => (
            <Button danger loading={cancel.isPending} onClick={open}>
              {T.pay.cancel}
            </Button>
          )}
        >
          {T.pay.cancelConfirm.content}
        </ConfirmAction>
        <ConfirmAction
          texts={T.pay.payConfirm}
          onConfirm={payConfirmed}
          trigger={(open) => (
            <Button
              type="primary"
              size="large"
              loading={pay.isPending}
              disabled={vouchers.isPending}
              onClick={() => {
                payKey.current = newIdempotencyKey();
                open();
              }}
            >
              {T.pay.pay}
            </Button>
          )}
        >
          {T.pay.payConfirm.content(formatYuan(payable))}
        </ConfirmAction>
      </Space>
    </Space>
  );
}

/** One line of the price breakdown: its label and amount. */
function PriceRow({ label, children, total = false }: { label: ReactNode; children: ReactNode; total?: boolean }) {
  return (
    <>
      <dt>{label}</dt>
      <dd className={total ? 'slg-price-total' : undefined}>{children}</dd>
    </>
  );
}

function PriceBreakdown({ order }: { order: OrderDetailDto }) {
  const refunded =
    order.refundedAmount > 0 ? (
      <PriceRow label={T.price.refunded}>
        <Money fen={order.refundedAmount} />
      </PriceRow>
    ) : null;
  if (order.billingType === 'USAGE') {
    // Nothing is paid up front (原价 and 实付 would read ¥0.00): what its use has cost so far.
    const rate = order.items[0];
    return (
      <>
        <dl className="slg-price-breakdown">
          {rate ? (
            <PriceRow label={T.price.usageRate}>
              <Money fen={rate.unitPrice} />/{rate.unit}
            </PriceRow>
          ) : null}
          <PriceRow label={T.price.metered} total>
            <Money fen={order.meteredAmount} />
          </PriceRow>
          {refunded}
        </dl>
        <Typography.Paragraph type="secondary" className="slg-price-note">
          {T.price.usageNote}
        </Typography.Paragraph>
      </>
    );
  }
  const original = (
    <PriceRow label={T.price.original}>
      <Money fen={order.originalAmount} />
    </PriceRow>
  );
  // Nothing is paid yet: the pay panel below previews the voucher and what is due.
  if (order.status === 'UNPAID') return <dl className="slg-price-breakdown">{original}</dl>;
  return (
    <dl className="slg-price-breakdown">
      {original}
      <PriceRow label={order.voucher ? T.price.voucherNamed(order.voucher.name) : T.price.voucher}>
        <Money fen={-order.discount} />
      </PriceRow>
      <PriceRow label={T.price.paid} total>
        <Money fen={order.paidAmount} />
      </PriceRow>
      {refunded}
      {order.meteredAmount > 0 ? (
        <PriceRow label={T.price.metered}>
          <Money fen={order.meteredAmount} />
        </PriceRow>
      ) : null}
    </dl>
  );
}

function OrderView({ order }: { order: OrderDetailDto }) {
  return (
    <>
      <Card title={T.basic.title} className="slg-cost-card">
        <Descriptions
          column={{ xs: 1, md: 2, xl: 3 }}
          items={[
            {
              key: 'orderNo',
              label: T.basic.orderNo,
              children: (
                <Typography.Text copyable className="slg-cost-mono">
                  {order.orderNo}
                </Typography.Text>
              ),
            },
            { key: 'type', label: T.basic.type, children: labelOf(ORDER_TYPES, order.type) },
            { key: 'status', label: T.basic.status, children: <StatusTag dict={ORDER_STATUSES} value={order.status} /> },
            { key: 'billingType', label: T.basic.billingType, children: labelOf(ORDER_BILLING_TYPES, order.billingType) },
            { key: 'createdAt', label: T.basic.createdAt, children: formatDateTime(order.createdAt) },
            { key: 'paidAt', label: T.basic.paidAt, children: formatDateTime(order.paidAt) },
            ...(order.canceledAt ? [{ key: 'canceledAt', label: T.basic.canceledAt, children: formatDateTime(order.canceledAt) }] : []),
            { key: 'content', label: T.basic.content, children: order.title, span: 'filled' as const },
          ]}
        />
      </Card>
      <Card title={T.items.title} className="slg-cost-card">
        <Table<OrderItemDto>
          rowKey={(row) => `${row.name}-${row.spec}`}
          columns={ITEM_COLUMNS}
          dataSource={order.items}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={T.items.empty} /> }}
        />
      </Card>
      <Card title={T.price.title} className="slg-cost-card">
        <PriceBreakdown order={order} />
        {order.status === 'UNPAID' ? (
          <div style={{ marginTop: 24 }}>
            <PayPanel order={order} />
          </div>
        ) : null}
      </Card>
      <Card title={T.transactions.title} className="slg-cost-card">
        <Table<OrderTransactionDto>
          rowKey="id"
          columns={TRANSACTION_COLUMNS}
          dataSource={order.transactions}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={T.transactions.empty} /> }}
        />
      </Card>
    </>
  );
}

/** 订单详情 (`?orderNo=…`): the order, its price and transactions; an UNPAID one can be paid or canceled. */
function OrderDetailPage() {
  const [params] = useSearchParams();
  const orderNo = params.get('orderNo')?.trim() || null;
  const query = useOrderQuery(orderNo);
  const back = (
    <LinkButton to={COST_PATHS.orders} type="text" icon={<ArrowLeftOutlined aria-hidden />}>
      {T.back}
    </LinkButton>
  );

  let body;
  if (!orderNo) {
    body = <Result status="warning" title={T.missingNo} subTitle={T.missingNoSubtitle} extra={back} />;
  } else if (query.isPending) {
    body = (
      <Card>
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  } else if (query.isError) {
    body =
      isApiError(query.error) && query.error.status === 404 ? (
        <Result status="404" title={T.notFound} subTitle={T.notFoundSubtitle(orderNo)} extra={back} />
      ) : (
        <QueryError variant="page" title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />
      );
  } else {
    body = <OrderView order={query.data} />;
  }

  return (
    <div className="slg-page">
      <PageHeader title={T.title} back={back} />
      {body}
    </div>
  );
}

export default withAntd(OrderDetailPage);
