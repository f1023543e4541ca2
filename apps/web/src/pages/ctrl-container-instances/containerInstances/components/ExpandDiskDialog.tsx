import { formatYuan } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Form, InputNumber, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { invalidateAfterInstanceChange, type InstanceView } from '../../../../api/compute';
import { dailyDiskFen, extendDisk, largestSizeGb, shrinkDisk, useDiskInfoQuery, type DiskInfo, type DiskResizeBody } from '../../../../api/disks';
import { toast } from '../../../../api/toast';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { QueryError } from '../../../../components/QueryError';
import { canDo } from '../instanceRules';
import { DialogError, Figures, useDialogError } from './billingParts';
import { DISK_TEXTS as T } from './diskTexts';

const STEP_GB = 10;
/** Days a month's estimate counts, as packages do. */
const MONTH_DAYS = 30;

interface ExpandDiskDialogProps {
  instance: InstanceView;
  open: boolean;
  onClose: () => void;
}

type Plan = { kind: 'extend' | 'shrink'; sizeGb: number } | null;

/** What the chosen size does: extend above the current size, shrink below it (only while off), nothing at it. */
export function planOf(current: number, chosen: number | null, shrinkAllowed: boolean): Plan {
  if (chosen === null || !Number.isInteger(chosen) || chosen === current) return null;
  if (chosen > current) return { kind: 'extend', sizeGb: chosen };
  return shrinkAllowed ? { kind: 'shrink', sizeGb: chosen } : null;
}

function priceOf(info: DiskInfo, sizeGb: number): string {
  const daily = dailyDiskFen(info, sizeGb);
  return daily === 0 ? T.freeOfCharge : formatYuan(daily);
}

function costOf(info: DiskInfo, sizeGb: number): string {
  const daily = dailyDiskFen(info, sizeGb);
  return daily === 0 ? T.noCharge : T.dailyCost(formatYuan(daily));
}

/**
 * 扩容设置: the data disk's size, use and limits, a new size (steps of 10 GB) with what it costs per day
 * and per month before confirming, and a confirm that names the effect. Larger sizes extend (running or
 * off); smaller ones shrink, only while the instance is off and never below what is used.
 */
export function ExpandDiskDialog({ instance, open, onClose }: ExpandDiskDialogProps) {
  const queryClient = useQueryClient();
  const info = useDiskInfoQuery(instance.instanceId, open);
  const [chosen, setChosen] = useState<number | null>(null);
  const error = useDialogError();
  const close = () => {
    setChosen(null);
    error.clear();
    onClose();
  };
  const shrinkAllowed = canDo(instance, 'shrink_disk');
  const resize = useMutation({
    mutationFn: (plan: NonNullable<Plan>) => {
      const body: DiskResizeBody = { instanceId: instance.instanceId, sizeGb: plan.sizeGb };
      return plan.kind === 'extend' ? extendDisk(body) : shrinkDisk(body);
    },
    onSuccess: (resized, plan) => {
      toast.success(plan.kind === 'extend' ? T.extended(resized.sizeGb) : T.shrunk(resized.sizeGb));
      close();
    },
    onError: (failure) => error.show(failure),
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });

  const data = info.data;
  const size = chosen ?? data?.sizeGb ?? null;
  const plan = data ? planOf(data.sizeGb, size, shrinkAllowed) : null;

  let body;
  if (info.isError && !data) body = <QueryError title={T.loadFailed} error={info.error} onRetry={() => void info.refetch()} />;
  else if (!data) body = <Skeleton active title={false} paragraph={{ rows: 5 }} />;
  else {
    const largest = largestSizeGb(data);
    const smallest = shrinkAllowed ? Math.max(data.freeGb, Math.ceil(data.minGb)) : data.sizeGb;
    const newDaily = size === null ? 0 : dailyDiskFen(data, size);
    const inputId = `disk-size-${instance.instanceId}`;
    body = (
      <>
        <Figures
          rows={[
            { label: T.current, value: T.gb(data.sizeGb) },
            { label: T.used, value: data.usedGb === null ? T.usedUnknown : T.gb(data.usedGb) },
            { label: T.free, value: T.gb(data.freeGb) },
            { label: T.max, value: T.gb(largest) },
            { label: T.price, value: T.perGbDay(formatYuan(data.priceFenPerGbDay)) },
          ]}
        />
        <Typography.Text type="secondary">{T.maxHint(data.maxGb, data.hostFreeGb)}</Typography.Text>
        {shrinkAllowed ? null : <Alert type="info" showIcon title={T.runningHint} />}
        <Form layout="vertical" requiredMark={false} className="slg-plan-form" component="div">
          <Form.Item label={T.size} htmlFor={inputId} help={T.sizeHelp(smallest, largest)}>
            <InputNumber
              id={inputId}
              min={smallest}
              max={largest}
              step={STEP_GB}
              precision={0}
              value={size}
              suffix="GB"
              style={{ width: '100%' }}
              onChange={(value) => {
                error.clear();
                setChosen(typeof value === 'number' ? value : null);
              }}
            />
          </Form.Item>
        </Form>
        <Figures
          rows={[
            { label: T.nowDaily, value: priceOf(data, data.sizeGb) },
            { label: T.newDaily, value: size === null ? '-' : priceOf(data, size), total: true },
            { label: T.newMonthly, value: newDaily === 0 ? T.freeOfCharge : formatYuan(newDaily * MONTH_DAYS) },
          ]}
        />
        {plan ? (
          <Typography.Text>{plan.kind === 'extend' ? T.extendEffect(plan.sizeGb, costOf(data, plan.sizeGb)) : T.shrinkEffect(plan.sizeGb, costOf(data, plan.sizeGb))}</Typography.Text>
        ) : (
          <Typography.Text type="secondary">{T.unchanged}</Typography.Text>
        )}
        <Typography.Text type="secondary">{T.rule}</Typography.Text>
      </>
    );
  }

  const confirm = plan ? (plan.kind === 'extend' ? T.extend(plan.sizeGb) : T.shrink(plan.sizeGb)) : T.submitPending;
  return (
    <ConfirmDialog
      open={open}
      texts={{ title: T.title(instance.name), confirm, cancel: T.cancel }}
      loading={resize.isPending}
      okButtonProps={{ disabled: !plan }}
      onConfirm={() => {
        if (!plan) return;
        error.clear();
        resize.mutate(plan);
      }}
      onCancel={close}
    >
      <Space orientation="vertical" size={12} className="slg-instance-dialog">
        {body}
        <DialogError message={error.message} />
      </Space>
    </ConfirmDialog>
  );
}
