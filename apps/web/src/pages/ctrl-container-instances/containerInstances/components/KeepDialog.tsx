import { AUTO_RELEASE_DAYS, formatYuan, SYSTEM_DISK_GB } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Typography } from 'antd';
import { invalidateAfterInstanceChange, setKeepWhenOff, type InstanceView } from '../../../../api/compute';
import { useDiskInfoQuery } from '../../../../api/disks';
import { toast } from '../../../../api/toast';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { formatDateTime } from '../../../../components/DateTime';
import { KEEP_TEXTS } from './keepTexts';

const T = KEEP_TEXTS;

/**
 * 保留实例 on or off, with what it costs per day (all disks at the disk price) and what switching it
 * off means for the data.
 */
export function KeepDialog({ instance, open, onClose }: { instance: InstanceView; open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const price = useDiskInfoQuery(instance.instanceId, open).data?.priceFenPerGbDay;
  const turningOn = !instance.keepWhenOff;
  const keep = useMutation({
    mutationFn: () => setKeepWhenOff(instance.instanceId, turningOn),
    onSuccess: () => {
      toast.success(turningOn ? T.onDone : T.offDone);
      onClose();
    },
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });
  const daily = price === undefined ? null : (SYSTEM_DISK_GB + instance.dataDiskGb) * price;
  return (
    <ConfirmDialog
      open={open}
      danger={!turningOn}
      texts={{ title: turningOn ? T.onTitle : T.offTitle, confirm: turningOn ? T.onConfirm : T.offConfirm, cancel: T.cancel }}
      loading={keep.isPending}
      okButtonProps={{ disabled: turningOn && daily === null }}
      onConfirm={() => keep.mutate()}
      onCancel={onClose}
    >
      {turningOn ? (
        <Typography.Paragraph>{T.onBody(AUTO_RELEASE_DAYS, daily === null ? '…' : formatYuan(daily), SYSTEM_DISK_GB, instance.dataDiskGb)}</Typography.Paragraph>
      ) : (
        <Typography.Paragraph>{T.offBody(AUTO_RELEASE_DAYS, instance.retainedUntil ? formatDateTime(instance.retainedUntil) : null)}</Typography.Paragraph>
      )}
    </ConfirmDialog>
  );
}
