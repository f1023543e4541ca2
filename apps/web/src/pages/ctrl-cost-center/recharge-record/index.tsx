import { InfoCircleOutlined } from '@ant-design/icons';
import { formatYuan, isDictValue, labelOf, PAYMENT_CHANNELS, PAYMENT_STATUSES, type PaymentChannelValue } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Modal, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useEffect, useRef, useState } from 'react';
import {
  billingKeys,
  cancelRecharge,
  invalidateMoneyQueries,
  submitBankReference,
  usePaymentChannelsQuery,
  useRechargesQuery,
  type RechargeDto,
  type RechargeListQuery,
} from '../../../api/billing';
import { isApiError } from '../../../api/client';
import { toast } from '../../../api/toast';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { Money } from '../../../components/Money';
import { PageHeader } from '../../../components/PageHeader';
import '../costCenter.css';
import { RechargeModal } from '../recharge/RechargeModal';
import { useRechargeFlow } from '../recharge/useRechargeFlow';
import { DataTable } from '../shared/DataTable';
import { DayRangeFilter, DictSelect, FilterBar } from '../shared/Filters';
import { ListEmpty } from '../shared/ListEmpty';
import { COST_PATHS } from '../shared/paths';
import { daysToQuery } from '../shared/timeRange';
import { PAGE_SIZE, useListState } from '../shared/useListState';
import { displayStateOf, isPayableQr, pendingIds, pendingKinds, recordPollInterval, settledIds, type RechargeDisplayState } from './live';
import { RECHARGE_RECORD_TEXTS } from './texts';
import { withAntd } from '../../../theme/AntdScope';

const T = RECHARGE_RECORD_TEXTS;
const FILTER_KEYS = ['status', 'channel', 'from', 'to'] as const;

const STATE_COLORS: Record<RechargeDisplayState, string> = {
  AWAITING_PAYMENT: 'processing',
  AWAITING_CONFIRMATION: 'warning',
  SUCCESS: 'success',
  FAILED: 'error',
  CANCELED: 'default',
};

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

/** 取消: names the effect, then closes the trade at the gateway. A recharge paid meanwhile is credited instead. */
function CancelDialog({ recharge, onClose }: { recharge: RechargeDto | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: (rechargeId: string) => cancelRecharge(rechargeId),
    onSuccess: () => {
      toast.success(T.cancelDialog.done);
      void queryClient.invalidateQueries({ queryKey: billingKeys.recharges });
    },
    onError: (error) => {
      // 409: it was paid after all (credited now) — good news, and the balance moved.
      if (isApiError(error) && error.status === 409) {
        toast.info(error.message);
        void invalidateMoneyQueries(queryClient);
      } else {
        toast.error(error.message);
      }
    },
    onSettled: onClose,
  });
  return (
    <ConfirmDialog
      open={recharge !== null}
      texts={{ title: T.cancelDialog.title, confirm: T.cancelDialog.confirm, cancel: T.cancelDialog.cancel }}
      loading={cancel.isPending}
      okButtonProps={{ danger: true }}
      onConfirm={() => {
        if (recharge) cancel.mutate(recharge.rechargeId);
      }}
      onCancel={onClose}
    >
      {recharge ? (
        <Space orientation="vertical" size={8}>
          <Typography.Text>{T.cancelDialog.body(formatYuan(recharge.amount), recharge.rechargeId)}</Typography.Text>
          <Typography.Text type="warning">{T.cancelDialog.warning}</Typography.Text>
        </Space>
      ) : null}
    </ConfirmDialog>
  );
}

function StateCell({ recharge }: { recharge: RechargeDto }) {
  const state = displayStateOf(recharge);
  const reason = state === 'FAILED' ? recharge.failureReason : null;
  return (
    <Space orientation="vertical" size={2}>
      <Space size={4}>
        <Tag color={STATE_COLORS[state]}>{T.states[state]}</Tag>
        {reason ? (
          <Tooltip title={reason}>
            <InfoCircleOutlined aria-label={reason} />
          </Tooltip>
        ) : null}
      </Space>
      {recharge.channel === 'BANK' && recharge.bankReference ? (
        <Typography.Text type="secondary" className="slg-cost-mono">
          {T.referenceLabel}：{recharge.bankReference}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

/**
 * Refreshes the balance and the money lists once a recharge this page showed as pending has settled
 * (paid in another tab, confirmed by the operator), so that the header balance follows without a reload.
 */
function useSettledRecharges(list: readonly RechargeDto[] | undefined, listKey: string) {
  const queryClient = useQueryClient();
  const seen = useRef<{ key: string; pending: Set<string> } | null>(null);
  useEffect(() => {
    if (!list) return;
    const previous = seen.current;
    seen.current = { key: listKey, pending: pendingIds(list) };
    if (previous?.key === listKey && settledIds(previous.pending, list).length > 0) void invalidateMoneyQueries(queryClient);
  }, [list, listKey, queryClient]);
}

/** 充值记录: the caller's recharges, live while one is pending; 去支付 shows the QR code again, 取消 closes it. */
function RechargeRecordPage() {
  const list = useListState(FILTER_KEYS);
  const { status, channel, from, to } = list.filters;
  const channels = usePaymentChannelsQuery();
  const offered: readonly PaymentChannelValue[] | undefined = channels.data?.channels.filter((value) => isDictValue(PAYMENT_CHANNELS, value));
  const statusValue = isDictValue(PAYMENT_STATUSES, status) ? status : undefined;
  // Until the offered channels are known any channel of the dictionary filters; then only an offered one.
  const channelValue = isDictValue(PAYMENT_CHANNELS, channel) && (offered === undefined || offered.includes(channel)) ? channel : undefined;
  const listQuery: RechargeListQuery = { page: list.page, pageSize: PAGE_SIZE, status: statusValue, channel: channelValue, ...daysToQuery(from, to) };
  const query = useRechargesQuery(listQuery, recordPollInterval);
  useSettledRecharges(query.isPlaceholderData ? undefined : query.data?.list, JSON.stringify(listQuery));
  const flow = useRechargeFlow();
  const [referenceFor, setReferenceFor] = useState<RechargeDto | null>(null);
  const [cancelFor, setCancelFor] = useState<RechargeDto | null>(null);
  const filtered = Boolean(statusValue || channelValue || from);

  const kinds = pendingKinds(offered ?? []);
  const pendingLabel = kinds.bank && !kinds.qr ? T.pendingFilter.bank : kinds.bank ? T.pendingFilter.both : T.pendingFilter.qr;
  const statusOptions = PAYMENT_STATUSES.map((item) => (item.value === 'CREATED' ? { ...item, label: pendingLabel } : item));
  const channelOptions = PAYMENT_CHANNELS.filter((item) => offered?.includes(item.value));

  const columns: TableColumnsType<RechargeDto> = [
    { title: T.columns.rechargeId, dataIndex: 'rechargeId', render: (id: string) => <span className="slg-cost-mono">{id}</span> },
    { title: T.columns.amount, dataIndex: 'amount', align: 'right', render: (fen: number) => <Money fen={fen} /> },
    { title: T.columns.channel, dataIndex: 'channel', render: (value: RechargeDto['channel']) => labelOf(PAYMENT_CHANNELS, value) },
    { title: T.columns.status, dataIndex: 'status', render: (_value, row) => <StateCell recharge={row} /> },
    { title: T.columns.createdAt, dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
    { title: T.columns.paidAt, dataIndex: 'paidAt', render: (value: string | null) => <DateTime value={value} /> },
    {
      title: T.columns.actions,
      key: 'actions',
      render: (_value, row) => {
        if (row.status !== 'CREATED') return null;
        if (row.channel === 'BANK') {
          return row.bankReference ? null : (
            <Button type="link" size="small" onClick={() => setReferenceFor(row)}>
              {T.actions.reference}
            </Button>
          );
        }
        if (!isPayableQr(row)) return null;
        return (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => flow.resume(row)}>
              {T.actions.pay}
            </Button>
            <Button type="link" size="small" danger onClick={() => setCancelFor(row)}>
              {T.actions.cancel}
            </Button>
          </Space>
        );
      },
    },
  ];

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} extra={<LinkButton to={COST_PATHS.recharge} type="primary">{T.recharge}</LinkButton>} />
      <Card>
        <FilterBar onReset={list.reset}>
          <DictSelect label={T.filters.status} dict={statusOptions} value={statusValue} onChange={(value) => list.setFilters({ status: value })} />
          {channelOptions.length > 0 ? (
            <DictSelect label={T.filters.channel} dict={channelOptions} value={channelValue} onChange={(value) => list.setFilters({ channel: value })} />
          ) : null}
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
            <ListEmpty
              filtered={filtered}
              text={T.empty}
              filteredText={T.emptyFiltered}
              action={<LinkButton to={COST_PATHS.recharge} type="primary">{T.recharge}</LinkButton>}
            />
          }
        />
      </Card>
      <ReferenceModal recharge={referenceFor} onClose={() => setReferenceFor(null)} />
      <CancelDialog recharge={cancelFor} onClose={() => setCancelFor(null)} />
      <RechargeModal
        step={flow.step}
        bankAccount={channels.data?.bankAccount ?? null}
        pollFailing={flow.pollFailing}
        referencePending={flow.referencePending}
        onSubmitReference={flow.submitReference}
        onClose={flow.close}
        showRecordsLink={false}
      />
    </div>
  );
}

export default withAntd(RechargeRecordPage);
