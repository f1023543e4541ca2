import {
  formatYuan,
  PACKAGE_LABELS,
  PACKAGE_UNIT_LABELS,
  packageEnd,
  TIME_PACKAGE_COUNTS,
  TIME_PACKAGE_KEYS,
  USAGE_CHARGING_RULE_ID,
  type PackageKey,
} from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Form, Radio, Select, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { invalidateAfterInstanceChange, updateChargingRule, useMarketHostQuery, useRefundPreviewQuery, type InstanceView } from '../../../../api/compute';
import { toast } from '../../../../api/toast';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { formatDateTime } from '../../../../components/DateTime';
import { QueryError } from '../../../../components/QueryError';
import { INSTANCE_LIST_TEXTS } from '../texts';
import { BalanceCheck, DialogError, Figures, useAttemptKey, useDialogError } from './billingParts';

const T = INSTANCE_LIST_TEXTS;
const PACKAGE_KEYS = Object.keys(TIME_PACKAGE_KEYS) as PackageKey[];

interface SwitchDialogProps {
  instance: InstanceView;
  open: boolean;
  onClose: () => void;
}

type SwitchInput = { instanceId: string; chargingRuleId: number; rentAmount?: number };

function useSwitchMutation(onDone: (result: { refund: number; payable: number }) => void) {
  const queryClient = useQueryClient();
  const attempt = useAttemptKey();
  const error = useDialogError();
  const mutation = useMutation({
    mutationFn: (input: SwitchInput) => updateChargingRule(input, attempt.keyFor(input)),
    onSuccess: (result) => {
      attempt.answered();
      onDone(result);
    },
    onError: (failure) => {
      attempt.answered(failure);
      error.show(failure);
    },
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });
  return { mutation, error };
}

/**
 * 转按量计费: the refund as the server would apply it now ({paid, used, refund}), that the GPUs are no
 * longer kept while off, and a confirm that names the refund.
 */
export function SwitchToUsageDialog({ instance, open, onClose }: SwitchDialogProps) {
  const preview = useRefundPreviewQuery(open ? instance.rentalUid : null);
  const { mutation, error } = useSwitchMutation((result) => {
    toast.success(T.toUsage.done(formatYuan(result.refund)));
    onClose();
  });
  const refund = preview.data;

  let figures;
  if (preview.isError && !refund) figures = <QueryError title={T.toUsage.failed} error={preview.error} onRetry={() => void preview.refetch()} />;
  else if (!refund) figures = <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  else {
    figures = (
      <Figures
        label={T.toUsage.refund}
        rows={[
          { label: T.toUsage.paid, value: formatYuan(refund.paid) },
          { label: T.toUsage.used, value: `-${formatYuan(refund.used)}` },
          { label: T.toUsage.refund, value: formatYuan(refund.refund), total: true },
        ]}
      />
    );
  }

  return (
    <ConfirmDialog
      open={open}
      danger
      texts={{ title: T.toUsage.title(instance.name), confirm: refund ? T.toUsage.submit(formatYuan(refund.refund)) : T.toUsage.submitPending, cancel: T.plan.cancel }}
      loading={mutation.isPending}
      okButtonProps={{ disabled: !refund }}
      onConfirm={() => {
        error.clear();
        mutation.mutate({ instanceId: instance.instanceId, chargingRuleId: USAGE_CHARGING_RULE_ID });
      }}
      onCancel={onClose}
    >
      <Space orientation="vertical" size={12} className="slg-instance-dialog">
        {figures}
        <Typography.Text type="secondary">{T.toUsage.rule}</Typography.Text>
        <Alert type="warning" showIcon title={T.toUsage.gpus} />
        <DialogError message={error.message} />
      </Space>
    </ConfirmDialog>
  );
}

/**
 * 转包年包月 of a pay-as-you-go instance: the package and how many periods, the price from the market
 * (the host's own package price, or the usage price times the package hours), the end, and a confirm
 * that names the amount taken from the balance now.
 */
export function SwitchToPackageDialog({ instance, open, onClose }: SwitchDialogProps) {
  const [key, setKey] = useState<PackageKey>('day');
  const [count, setCount] = useState(1);
  const chargingRuleId = TIME_PACKAGE_KEYS[key];
  const host = useMarketHostQuery(open ? instance.hostId : undefined, chargingRuleId);
  const { mutation, error } = useSwitchMutation(() => {
    toast.success(T.toPackage.done(PACKAGE_LABELS[key], formatDateTime(packageEnd(new Date(), key, count).toISOString())));
    onClose();
  });
  const market = host.data;
  const total = market ? market.pricePerGpuFen * instance.gpuNum * count : undefined;
  const unit = PACKAGE_UNIT_LABELS[key] === '个月' ? '月' : PACKAGE_UNIT_LABELS[key];
  // An instance that is off holds no GPUs on 按量: the package takes them back from the host's free ones.
  const needsGpus = instance.status === 'PoweredOff' || instance.status === 'Error';

  let figures;
  if (host.isError && host.data === undefined) figures = <QueryError title={T.plan.priceFailed} error={host.error} onRetry={() => void host.refetch()} />;
  else if (host.isPending) figures = <Skeleton active title={false} paragraph={{ rows: 4 }} />;
  else if (!market || total === undefined) figures = <Alert type="error" showIcon title={T.toPackage.hostGone} />;
  else {
    figures = (
      <>
        <Figures
          rows={[
            { label: T.toPackage.unitPrice, value: T.toPackage.perGpuPeriod(formatYuan(market.pricePerGpuFen), unit) },
            { label: T.toPackage.gpus, value: T.toPackage.gpuCount(instance.gpuNum) },
            { label: T.toPackage.duration, value: T.plan.count(count, key) },
            { label: T.toPackage.payable, value: formatYuan(total), total: true },
            { label: T.toPackage.expiresAt, value: formatDateTime(packageEnd(new Date(), key, count).toISOString()) },
          ]}
        />
        {needsGpus && market.gpuFree < instance.gpuNum ? <Alert type="warning" showIcon title={T.toPackage.shortage(market.gpuFree, instance.gpuNum)} /> : null}
      </>
    );
  }

  return (
    <ConfirmDialog
      open={open}
      texts={{ title: T.toPackage.title(instance.name), confirm: total !== undefined ? T.toPackage.submit(formatYuan(total)) : T.toPackage.submitPending, cancel: T.plan.cancel }}
      loading={mutation.isPending}
      okButtonProps={{ disabled: total === undefined }}
      onConfirm={() => {
        error.clear();
        mutation.mutate({ instanceId: instance.instanceId, chargingRuleId, rentAmount: count });
      }}
      onCancel={onClose}
    >
      <Space orientation="vertical" size={12} className="slg-instance-dialog">
        <Form layout="vertical" requiredMark={false} className="slg-plan-form" component="div">
          <Form.Item label={T.toPackage.plan}>
            <Radio.Group
              aria-label={T.toPackage.plan}
              name={`to-package-${instance.instanceId}`}
              optionType="button"
              value={key}
              onChange={(event) => {
                setKey(event.target.value as PackageKey);
                setCount(1);
              }}
              options={PACKAGE_KEYS.map((option) => ({ value: option, label: PACKAGE_LABELS[option] }))}
            />
          </Form.Item>
          <Form.Item label={T.toPackage.duration} htmlFor={`to-package-count-${instance.instanceId}`}>
            <Select
              id={`to-package-count-${instance.instanceId}`}
              value={count}
              onChange={(value: number) => setCount(value)}
              options={TIME_PACKAGE_COUNTS[key].map((option) => ({ value: option, label: T.plan.count(option, key) }))}
            />
          </Form.Item>
        </Form>
        {figures}
        <BalanceCheck payable={total} />
        <Typography.Text type="secondary">{T.toPackage.rule}</Typography.Text>
        <DialogError message={error.message} />
      </Space>
    </ConfirmDialog>
  );
}
