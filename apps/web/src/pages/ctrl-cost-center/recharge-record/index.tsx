import { InfoCircleOutlined } from '@ant-design/icons';
import { isDictValue, labelOf, PAYMENT_CHANNELS, PAYMENT_STATUSES } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Form, Input, Modal, Space, Tooltip, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { billingKeys, submitBankReference, useRechargesQuery, type RechargeDto } from '../../../api/billing';
import { toast } from '../../../api/toast';
import { DateTime } from '../../../components/DateTime';
import { Money } from '../../../components/Money';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { StatusTag } from '../../../components/StatusTag';
import '../costCenter.css';
import { DataTable } from '../shared/DataTable';
import { DayRangeFilter, DictSelect, FilterBar } from '../shared/Filters';
import { COST_PATHS } from '../shared/paths';
import { daysToQuery } from '../shared/timeRange';
import { PAGE_SIZE, useListState } from '../shared/useListState';
import { RECHARGE_RECORD_TEXTS } from './texts';

const T = RECHARGE_RECORD_TEXTS;
const FILTER_KEYS = ['status', 'channel', 'from', 'to'] as const;

function ReferenceModal({ recharge, onClose }: { recharge: RechargeDto | null; onClose: () => void }) {
  const [form] = Form.useForm<{ reference: string }>();
  const queryClient = useQueryClient();
  const submit = useMutation({
    mutationFn: (reference: string) => submitBankReference(recharge?.rechargeId ?? '', reference),
    onSuccess: () => {
      toast.success(T.referenceModal.success);
      void queryClient.invalidateQueries({ queryKey: billingKeys.recharges });
      onClose();
    },
  });
  return (
    <Modal
      open={recharge !== null}
      title={T.referenceModal.title}
      okText={T.referenceModal.submit}
      cancelText={T.referenceModal.cancel}
      confirmLoading={submit.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => submit.mutate(values.reference.trim())}>
        <Form.Item
          name="reference"
          label={T.referenceModal.label}
          rules={[
            { required: true, whitespace: true, message: T.referenceModal.required },
            {
              validator: (_rule, value: string | undefined) => {
                const length = value?.trim().length ?? 0;
                return length === 0 || (length >= 4 && length <= 64) ? Promise.resolve() : Promise.reject(new Error(T.referenceModal.length));
              },
            },
          ]}
        >
          <Input placeholder={T.referenceModal.placeholder} maxLength={64} autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 充值记录: the caller's recharges, filtered by status, channel and time. */
export default function RechargeRecordPage() {
  const list = useListState(FILTER_KEYS);
  const { status, channel, from, to } = list.filters;
  const statusValue = isDictValue(PAYMENT_STATUSES, status) ? status : undefined;
  const channelValue = isDictValue(PAYMENT_CHANNELS, channel) ? channel : undefined;
  const query = useRechargesQuery({
    page: list.page,
    pageSize: PAGE_SIZE,
    status: statusValue,
    channel: channelValue,
    ...daysToQuery(from, to),
  });
  const [referenceFor, setReferenceFor] = useState<RechargeDto | null>(null);
  const filtered = Boolean(statusValue || channelValue || from);

  const columns: TableColumnsType<RechargeDto> = [
    { title: T.columns.rechargeId, dataIndex: 'rechargeId', render: (id: string) => <span className="slg-cost-mono">{id}</span> },
    { title: T.columns.amount, dataIndex: 'amount', align: 'right', render: (fen: number) => <Money fen={fen} /> },
    { title: T.columns.channel, dataIndex: 'channel', render: (value: RechargeDto['channel']) => labelOf(PAYMENT_CHANNELS, value) },
    {
      title: T.columns.status,
      dataIndex: 'status',
      render: (value: RechargeDto['status'], row) => (
        <Space size={4}>
          <StatusTag dict={PAYMENT_STATUSES} value={value} />
          {row.failureReason ? (
            <Tooltip title={row.failureReason}>
              <InfoCircleOutlined aria-label={row.failureReason} />
            </Tooltip>
          ) : null}
        </Space>
      ),
    },
    { title: T.columns.createdAt, dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
    { title: T.columns.paidAt, dataIndex: 'paidAt', render: (value: string | null) => <DateTime value={value} /> },
    {
      title: T.columns.actions,
      key: 'actions',
      render: (_value, row) => {
        if (row.status !== 'CREATED') return null;
        if (row.channel === 'BANK') {
          return row.bankReference ? (
            <Tooltip title={T.actions.referenceSubmitted(row.bankReference)}>
              <span className="slg-cost-mono">{row.bankReference}</span>
            </Tooltip>
          ) : (
            <Button type="link" size="small" onClick={() => setReferenceFor(row)}>
              {T.actions.reference}
            </Button>
          );
        }
        return row.payUrl ? (
          <a href={row.payUrl} target="_blank" rel="noopener noreferrer">
            {T.actions.pay}
          </a>
        ) : null;
      },
    },
  ];

  return (
    <div className="slg-page">
      <PageHeader
        title={T.title}
        description={T.description}
        extra={
          <LinkButton to={COST_PATHS.recharge} type="primary">{T.recharge}</LinkButton>
        }
      />
      <Card>
        <FilterBar onReset={list.reset}>
          <DictSelect label={T.filters.status} dict={PAYMENT_STATUSES} value={statusValue} onChange={(value) => list.setFilters({ status: value })} />
          <DictSelect label={T.filters.channel} dict={PAYMENT_CHANNELS} value={channelValue} onChange={(value) => list.setFilters({ channel: value })} />
          <DayRangeFilter from={from} to={to} onChange={(days) => list.setFilters(days)} />
        </FilterBar>
        <DataTable<RechargeDto>
          rowKey="rechargeId"
          columns={columns}
          query={query}
          page={list.page}
          onPageChange={list.setPage}
          errorTitle={T.loadFailed}
          empty={
            <Empty description={filtered ? T.emptyFiltered : T.empty}>
              <LinkButton to={COST_PATHS.recharge} type="primary">{T.recharge}</LinkButton>
            </Empty>
          }
        />
      </Card>
      <ReferenceModal recharge={referenceFor} onClose={() => setReferenceFor(null)} />
    </div>
  );
}
