import { formatYuan, type PackageKey } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Space, Typography } from 'antd';
import { invalidateAfterInstanceChange, setAutoRenew, useRenewPrepayQuery, type InstanceView } from '../../../../api/compute';
import { toast } from '../../../../api/toast';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { formatDateTime } from '../../../../components/DateTime';
import { INSTANCE_LIST_TEXTS } from '../texts';
import { DialogError, useDialogError } from './billingParts';

const T = INSTANCE_LIST_TEXTS;

interface AutoRenewDialogProps {
  instance: InstanceView;
  packageKey: PackageKey;
  open: boolean;
  onClose: () => void;
}

/**
 * 开启/关闭自动续费, saying what follows: on, one period at the end from the balance (its price now) or,
 * when the balance is short, power-off and 按量; off, the end date and what happens then.
 */
export function AutoRenewDialog({ instance, packageKey, open, onClose }: AutoRenewDialogProps) {
  const queryClient = useQueryClient();
  const turningOn = !instance.autoRenew;
  const onePeriod = useRenewPrepayQuery(open && turningOn ? { instanceIds: [instance.instanceId], rentAmount: 1 } : null);
  const error = useDialogError();
  const toggle = useMutation({
    mutationFn: (autoRenew: boolean) => setAutoRenew(instance.instanceId, autoRenew),
    onSuccess: (_result, autoRenew) => {
      toast.success(autoRenew ? T.autoRenew.doneOn : T.autoRenew.doneOff);
      onClose();
    },
    onError: (failure) => error.show(failure),
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });
  const period = T.plan.count(1, packageKey);
  return (
    <ConfirmDialog
      open={open}
      texts={{
        title: turningOn ? T.autoRenew.titleOn(instance.name) : T.autoRenew.titleOff(instance.name),
        confirm: turningOn ? T.autoRenew.submitOn : T.autoRenew.submitOff,
        cancel: T.plan.cancel,
      }}
      loading={toggle.isPending}
      onConfirm={() => {
        error.clear();
        toggle.mutate(turningOn);
      }}
      onCancel={onClose}
    >
      <Space orientation="vertical" size={8} className="slg-instance-dialog">
        {turningOn ? (
          <>
            <Typography.Text>{onePeriod.data ? T.autoRenew.on(period, formatYuan(onePeriod.data.amount)) : T.autoRenew.onLoading}</Typography.Text>
            <Typography.Text type="secondary">{T.autoRenew.short}</Typography.Text>
          </>
        ) : (
          <Typography.Text>{T.autoRenew.off(formatDateTime(instance.expiresAt))}</Typography.Text>
        )}
        <DialogError message={error.message} />
      </Space>
    </ConfirmDialog>
  );
}
