import { formatYuan, PACKAGE_LABELS, TIME_PACKAGE_COUNTS, type PackageKey } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Select, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { invalidateAfterInstanceChange, renewInstances, useRenewPrepayQuery, type InstanceView, type RenewBody } from '../../../../api/compute';
import { toast } from '../../../../api/toast';
import { VoucherSelect } from '../../VoucherSelect';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { formatDateTime } from '../../../../components/DateTime';
import { QueryError } from '../../../../components/QueryError';
import { INSTANCE_LIST_TEXTS } from '../texts';
import { BalanceCheck, DialogError, Figures, useAttemptKey, useDialogError } from './billingParts';

const T = INSTANCE_LIST_TEXTS;

interface RenewDialogProps {
  instance: InstanceView;
  packageKey: PackageKey;
  open: boolean;
  onClose: () => void;
}

/**
 * 续费 of one package: how many periods, an optional voucher, and the server's price (原价, 抵扣, 应付)
 * and new end before 确认续费 — which names the amount and sends exactly the body that was priced.
 */
export function RenewDialog({ instance, packageKey, open, onClose }: RenewDialogProps) {
  const queryClient = useQueryClient();
  const [rentAmount, setRentAmount] = useState(1);
  const [voucherId, setVoucherId] = useState<number | undefined>(undefined);
  const body: RenewBody = { instanceIds: [instance.instanceId], rentAmount, ...(voucherId ? { voucherId } : {}) };
  const prepay = useRenewPrepayQuery(open ? body : null);
  const price = prepay.isPlaceholderData ? undefined : prepay.data;
  const attempt = useAttemptKey();
  const error = useDialogError();
  const renew = useMutation({
    mutationFn: (sent: RenewBody) => renewInstances(sent, attempt.keyFor(sent)),
    onSuccess: () => {
      attempt.answered();
      toast.success(T.renew.done(formatDateTime(price?.items[0]?.expiresAt)));
      onClose();
    },
    onError: (failure) => {
      attempt.answered(failure);
      error.show(failure);
    },
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });

  let figures;
  if (prepay.isError && !prepay.data) figures = <QueryError title={T.plan.priceFailed} error={prepay.error} onRetry={() => void prepay.refetch()} />;
  else if (!price) figures = <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  else {
    figures = (
      <Figures
        rows={[
          { label: T.renew.original, value: formatYuan(price.amount) },
          ...(price.discount > 0 ? [{ label: T.renew.discount, value: `-${formatYuan(price.discount)}` }] : []),
          { label: T.renew.payable, value: formatYuan(price.payable), total: true },
          { label: T.renew.newEnd, value: formatDateTime(price.items[0]?.expiresAt) },
        ]}
      />
    );
  }

  const idPrefix = `renew-${instance.instanceId}`;
  return (
    <ConfirmDialog
      open={open}
      texts={{ title: T.renew.title(instance.name), confirm: price ? T.renew.submit(formatYuan(price.payable)) : T.renew.submitPending, cancel: T.plan.cancel }}
      loading={renew.isPending}
      okButtonProps={{ disabled: !price || prepay.isFetching }}
      onConfirm={() => {
        error.clear();
        renew.mutate(body);
      }}
      onCancel={onClose}
    >
      <Space orientation="vertical" size={12} className="slg-instance-dialog">
        <Figures
          rows={[
            { label: T.renew.current, value: `${PACKAGE_LABELS[packageKey]} · ${T.spec.gpu(instance.gpuModelName, instance.gpuNum)}` },
            { label: T.renew.currentEnd, value: formatDateTime(instance.expiresAt) },
          ]}
        />
        <Form layout="vertical" requiredMark={false} className="slg-plan-form" component="div">
          <Form.Item label={T.renew.duration} htmlFor={`${idPrefix}-count`}>
            <Select
              id={`${idPrefix}-count`}
              value={rentAmount}
              onChange={(count: number) => {
                setRentAmount(count);
                setVoucherId(undefined);
              }}
              options={TIME_PACKAGE_COUNTS[packageKey].map((count) => ({ value: count, label: T.plan.count(count, packageKey) }))}
            />
          </Form.Item>
          <Form.Item label={T.renew.voucher} htmlFor={`${idPrefix}-voucher`}>
            <VoucherSelect id={`${idPrefix}-voucher`} orderType="RENEWAL_CONTAINER" amountFen={prepay.data?.amount} value={voucherId} onChange={setVoucherId} />
          </Form.Item>
        </Form>
        {figures}
        <BalanceCheck payable={price?.payable} />
        <Typography.Text type="secondary">{T.renew.rule}</Typography.Text>
        <DialogError message={error.message} />
      </Space>
    </ConfirmDialog>
  );
}
