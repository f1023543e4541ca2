import type { PackageKey } from '@slg/shared';
import { Space } from 'antd';
import type { InstanceView } from '../../../../api/compute';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { INSTANCE_LIST_TEXTS } from '../texts';
import { RenewChoices, RenewLines, RenewPrice, useRenewForm } from './RenewForm';

const T = INSTANCE_LIST_TEXTS;

interface RenewDialogProps {
  instance: InstanceView;
  packageKey: PackageKey;
  open: boolean;
  onClose: () => void;
}

/**
 * 续费 of one package from 更多: the 续费 form (the same as the 续费 page's) in a dialog whose
 * confirm names the amount and sends exactly the body that was priced.
 */
export function RenewDialog({ instance, packageKey, open, onClose }: RenewDialogProps) {
  const form = useRenewForm({ instances: [instance], packageKey, enabled: open, onRenewed: onClose });
  return (
    <ConfirmDialog
      open={open}
      texts={{ title: T.renew.title(instance.name), confirm: form.submitText, cancel: T.plan.cancel }}
      loading={form.paying}
      okButtonProps={{ disabled: !form.ready }}
      onConfirm={form.submit}
      onCancel={onClose}
    >
      <Space orientation="vertical" size={12} className="slg-instance-dialog">
        <RenewLines form={form} />
        <RenewChoices form={form} idPrefix={`renew-${instance.instanceId}`} />
        <RenewPrice form={form} />
      </Space>
    </ConfirmDialog>
  );
}
