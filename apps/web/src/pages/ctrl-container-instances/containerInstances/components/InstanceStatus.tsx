import { SyncOutlined } from '@ant-design/icons';
import { dictItemOf, INSTANCE_OPERATIONS, INSTANCE_STATUSES, labelOf } from '@slg/shared';
import { Tag, Typography } from 'antd';
import { isTransitional, type InstanceView } from '../../../../api/compute';
import { formatDateTime } from '../../../../components/DateTime';
import { INSTANCE_LIST_TEXTS } from '../texts';
import { CopyProgress } from './CopyDataDialog';

const T = INSTANCE_LIST_TEXTS;

/** The label shown: what is under way (开机中 …) while an operation runs, else the status. */
export function statusLabelOf(instance: Pick<InstanceView, 'status' | 'operation'>): string {
  if (instance.operation) return labelOf(INSTANCE_OPERATIONS, instance.operation);
  return labelOf(INSTANCE_STATUSES, instance.status);
}

/**
 * The status tag in the spec's colours, spinning while the platform works on the instance, with why
 * the platform changed it (e.g. 账户余额不足，已自动关机) and when a stopped one will be released.
 */
export function InstanceStatus({ instance }: { instance: InstanceView }) {
  const busy = isTransitional(instance);
  const color = busy ? 'processing' : (dictItemOf(INSTANCE_STATUSES, instance.status)?.color ?? 'default');
  return (
    <div className="slg-instance-status">
      <Tag color={color} icon={busy ? <SyncOutlined spin aria-hidden /> : undefined} className="slg-instance-status-tag">
        {statusLabelOf(instance)}
      </Tag>
      {instance.statusReason ? (
        <Typography.Text type="warning" className="slg-instance-note">
          {instance.statusReason}
        </Typography.Text>
      ) : null}
      <CopyProgress instance={instance} />
      {instance.keepWhenOff && instance.status === 'PoweredOff' && !busy ? (
        <Typography.Text type="secondary" className="slg-instance-note">
          {T.kept}
        </Typography.Text>
      ) : null}
      {instance.releaseAt && !busy ? (
        <Typography.Text type="secondary" className="slg-instance-note">
          {T.releaseAt(formatDateTime(instance.releaseAt))}
        </Typography.Text>
      ) : null}
    </div>
  );
}
