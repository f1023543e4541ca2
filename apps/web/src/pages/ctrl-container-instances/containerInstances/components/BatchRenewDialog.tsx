import { formatYuan, TIME_PACKAGE_COUNTS, type PackageKey } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Form, Select, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { invalidateAfterInstanceChange, renewInstances, useRenewPrepayQuery, type InstanceView, type RenewBody } from '../../../../api/compute';
import { toast } from '../../../../api/toast';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { formatDateTime } from '../../../../components/DateTime';
import { QueryError } from '../../../../components/QueryError';
import { packageOf } from '../instanceRules';
import { INSTANCE_LIST_TEXTS } from '../texts';
import { BalanceCheck, DialogError, Figures, useAttemptKey, useDialogError } from './billingParts';

const T = INSTANCE_LIST_TEXTS;

/** The counts every chosen package sells (one count renews each by that many of its own periods). */
export function commonCounts(keys: readonly PackageKey[]): number[] {
  const [first, ...rest] = [...new Set(keys)];
  if (!first) return [];
  return TIME_PACKAGE_COUNTS[first].filter((count) => rest.every((key) => (TIME_PACKAGE_COUNTS[key] as readonly number[]).includes(count)));
}

interface BatchRenewDialogProps {
  instances: readonly InstanceView[];
  open: boolean;
  onClose: () => void;
  onRenewed: () => void;
}

/**
 * 批量续费: one count for every chosen package, each instance with its package, amount and new end
 * as the server prices them, the total, and 确认续费 naming it. No voucher (the server refuses one).
 */
export function BatchRenewDialog({ instances, open, onClose, onRenewed }: BatchRenewDialogProps) {
  const queryClient = useQueryClient();
  const keys = instances.map(packageOf).filter((key): key is PackageKey => key !== null);
  const distinct = [...new Set(keys)];
  const counts = commonCounts(keys);
  const [rentAmount, setRentAmount] = useState(counts[0] ?? 1);
  const body: RenewBody = { instanceIds: instances.map((instance) => instance.instanceId), rentAmount };
  const prepay = useRenewPrepayQuery(open && instances.length > 0 ? body : null);
  const price = prepay.isPlaceholderData ? undefined : prepay.data;
  const attempt = useAttemptKey();
  const error = useDialogError();
  const renew = useMutation({
    mutationFn: (sent: RenewBody) => renewInstances(sent, attempt.keyFor(sent)),
    onSuccess: (_result, sent) => {
      attempt.answered();
      toast.success(T.batchRenew.done(sent.instanceIds.length));
      onRenewed();
      onClose();
    },
    onError: (failure) => {
      attempt.answered(failure);
      error.show(failure);
    },
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });
  const single = distinct.length === 1 ? distinct[0] : undefined;

  let lines;
  if (prepay.isError && !prepay.data) lines = <QueryError title={T.plan.priceFailed} error={prepay.error} onRetry={() => void prepay.refetch()} />;
  else if (!price) lines = <Skeleton active title={false} paragraph={{ rows: Math.min(instances.length + 1, 6) }} />;
  else {
    lines = (
      <>
        <ul className="slg-plan-lines" aria-label={T.batchRenew.instance}>
          {price.items.map((item) => (
            <li key={item.instanceId}>
              <div className="slg-plan-line-head">
                <strong>{item.name}</strong>
                <span className="slg-plan-amount">{formatYuan(item.amount)}</span>
              </div>
              <Typography.Text type="secondary" className="slg-instance-note">
                {item.packageName} · {T.batchRenew.newEnd} {formatDateTime(item.expiresAt)}
              </Typography.Text>
            </li>
          ))}
        </ul>
        <Figures rows={[{ label: T.batchRenew.total, value: formatYuan(price.payable), total: true }]} />
      </>
    );
  }

  return (
    <ConfirmDialog
      open={open}
      texts={{ title: T.batchRenew.title(instances.length), confirm: price ? T.batchRenew.submit(formatYuan(price.payable)) : T.batchRenew.submitPending, cancel: T.plan.cancel }}
      loading={renew.isPending}
      okButtonProps={{ disabled: !price || prepay.isFetching }}
      onConfirm={() => {
        error.clear();
        renew.mutate(body);
      }}
      onCancel={onClose}
    >
      <Space orientation="vertical" size={12} className="slg-instance-dialog">
        <Form layout="vertical" requiredMark={false} className="slg-plan-form" component="div">
          <Form.Item label={T.batchRenew.duration} htmlFor="batch-renew-count" extra={single ? undefined : T.batchRenew.durationMixed}>
            <Select
              id="batch-renew-count"
              value={rentAmount}
              onChange={(count: number) => setRentAmount(count)}
              options={counts.map((count) => ({ value: count, label: single ? T.plan.count(count, single) : T.plan.periods(count) }))}
            />
          </Form.Item>
        </Form>
        {lines}
        <BalanceCheck payable={price?.payable} />
        <Alert type="info" showIcon title={T.batchRenew.noVoucher} />
        <Typography.Text type="secondary">{T.batchRenew.rule}</Typography.Text>
        <DialogError message={error.message} />
      </Space>
    </ConfirmDialog>
  );
}
