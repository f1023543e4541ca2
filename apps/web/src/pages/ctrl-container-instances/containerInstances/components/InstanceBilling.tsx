import { formatYuan, PACKAGE_LABELS } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { cancelScheduledPowerOff, invalidateAfterInstanceChange, type InstanceView } from '../../../../api/compute';
import { toast } from '../../../../api/toast';
import { formatDateTime } from '../../../../components/DateTime';
import { canDo, packageOf } from '../instanceRules';
import { INSTANCE_LIST_TEXTS } from '../texts';
import './billing.css';

const T = INSTANCE_LIST_TEXTS;
const DAY_MS = 86_400_000;

/** How close a package is to its end: highlighted in its last day, and once it is over. */
export function expiryState(expiresAt: string, now = Date.now()): 'expired' | 'soon' | 'later' {
  const left = Date.parse(expiresAt) - now;
  if (left <= 0) return 'expired';
  return left < DAY_MS ? 'soon' : 'later';
}

/**
 * 计费: 按量计费 with the hourly price, or the package (包日/包周/包月) with its end — highlighted in its
 * last 24 hours and once over — and whether it renews itself. `inline` puts it on lines of the table cell.
 */
export function BillingSummary({ instance, inline = false }: { instance: InstanceView; inline?: boolean }) {
  const key = packageOf(instance);
  const className = inline ? 'slg-instance-billing is-inline' : 'slg-instance-billing';
  if (!key || !instance.expiresAt) {
    return (
      <div className={className}>
        <span>{T.billing.usage}</span>
        <Typography.Text strong className="slg-instance-price">
          {T.billing.perHour(formatYuan(instance.priceFen))}
        </Typography.Text>
        {instance.status === 'PoweredOff' ? (
          <Typography.Text type="secondary" className="slg-instance-note">
            {T.billing.stopped}
          </Typography.Text>
        ) : null}
      </div>
    );
  }
  const state = expiryState(instance.expiresAt);
  return (
    <div className={`${className} is-package`}>
      <span className="slg-plan-line">
        <Tag color="blue" className="slg-plan-tag">
          {PACKAGE_LABELS[key]}
        </Tag>
        <Typography.Text type={state === 'expired' ? 'danger' : state === 'soon' ? 'warning' : undefined} strong={state !== 'later'} className="slg-plan-expiry">
          <time dateTime={instance.expiresAt}>{T.plan.expiresAt(formatDateTime(instance.expiresAt))}</time>
        </Typography.Text>
      </span>
      {state === 'later' ? null : (
        <Typography.Text type={state === 'expired' ? 'danger' : 'warning'} strong className="slg-instance-note">
          {state === 'expired' ? T.plan.expired : T.plan.expiresSoon}
        </Typography.Text>
      )}
      <Typography.Text type="secondary" className="slg-instance-note">
        {instance.autoRenew ? T.plan.autoRenewOn : T.plan.autoRenewOff}
        {instance.status === 'PoweredOff' ? ` · ${T.plan.keepsGpus}` : null}
      </Typography.Text>
    </div>
  );
}

/** A scheduled time to the minute it is set to (local time, China time in the console). */
export function formatMinute(value: string): string {
  return dayjs(value).format('YYYY-MM-DD HH:mm');
}

/** 定时关机 2026-12-01 22:00 with 取消, while one is set; `bare` leaves out the label (a card row names it). */
export function ScheduledPowerOff({ instance, bare = false }: { instance: InstanceView; bare?: boolean }) {
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => cancelScheduledPowerOff(instance.instanceId),
    onSuccess: () => toast.success(T.plan.scheduleCancelled),
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });
  if (!instance.scheduledPowerOffAt) return null;
  return (
    <span className="slg-plan-scheduled">
      <Typography.Text type="warning" className="slg-instance-note">
        {bare ? null : `${T.plan.scheduledLabel} `}
        <time dateTime={instance.scheduledPowerOffAt} className="slg-plan-time">
          {formatMinute(instance.scheduledPowerOffAt)}
        </time>
      </Typography.Text>
      {canDo(instance, 'cancel_power_off') ? (
        <Button
          type="link"
          size="small"
          className="slg-plan-inline-button"
          aria-label={T.plan.cancelScheduledLabel(instance.name)}
          loading={cancel.isPending}
          onClick={() => cancel.mutate()}
        >
          {T.plan.cancelScheduled}
        </Button>
      ) : null}
    </span>
  );
}
