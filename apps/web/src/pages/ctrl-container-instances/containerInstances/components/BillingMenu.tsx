import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useState } from 'react';
import type { InstanceView } from '../../../../api/compute';
import { canDo, packageOf } from '../instanceRules';
import { INSTANCE_LIST_TEXTS } from '../texts';
import { AutoRenewDialog } from './AutoRenewDialog';
import { RenewDialog } from './RenewDialog';
import { ShutdownDialog } from './ShutdownDialog';
import { SwitchToPackageDialog, SwitchToUsageDialog } from './SwitchChargingDialog';

const T = INSTANCE_LIST_TEXTS.menu;

type BillingDialog = 'renew' | 'to_usage' | 'to_package' | 'auto_renew' | 'shutdown';

/** What the 更多 menu offers this instance, in its order. */
export function billingMenuItems(instance: InstanceView): { key: BillingDialog; label: string }[] {
  const plan = packageOf(instance);
  const items: { key: BillingDialog; label: string }[] = [];
  if (plan && canDo(instance, 'renew')) items.push({ key: 'renew', label: T.renew });
  if (plan && canDo(instance, 'auto_renew')) items.push({ key: 'auto_renew', label: instance.autoRenew ? T.autoRenewOff : T.autoRenewOn });
  if (canDo(instance, 'switch_charging')) items.push(plan ? { key: 'to_usage', label: T.toUsage } : { key: 'to_package', label: T.toPackage });
  if (canDo(instance, 'schedule_power_off')) items.push({ key: 'shutdown', label: T.shutdown });
  return items;
}

/**
 * 更多: the billing actions — 续费, 自动续费, 转按量计费 / 转包年包月, 定时关机 — each in its dialog. A
 * dialog is mounted while open, so each opening starts from its defaults.
 */
export function BillingMenu({ instance, size }: { instance: InstanceView; size: 'small' | 'middle' }) {
  const [dialog, setDialog] = useState<BillingDialog | null>(null);
  const items = billingMenuItems(instance);
  const plan = packageOf(instance);
  const close = () => setDialog(null);
  if (items.length === 0 && dialog === null) return null;
  const menu: MenuProps = { items, onClick: ({ key }) => setDialog(key as BillingDialog) };
  return (
    <>
      <Dropdown trigger={['click']} menu={menu} disabled={items.length === 0}>
        <Button size={size}>
          {INSTANCE_LIST_TEXTS.actions.more} <DownOutlined />
        </Button>
      </Dropdown>
      {dialog === 'renew' && plan ? <RenewDialog instance={instance} packageKey={plan} open onClose={close} /> : null}
      {dialog === 'auto_renew' && plan ? <AutoRenewDialog instance={instance} packageKey={plan} open onClose={close} /> : null}
      {dialog === 'to_usage' ? <SwitchToUsageDialog instance={instance} open onClose={close} /> : null}
      {dialog === 'to_package' ? <SwitchToPackageDialog instance={instance} open onClose={close} /> : null}
      {dialog === 'shutdown' ? <ShutdownDialog instance={instance} mode="later" open onClose={close} /> : null}
    </>
  );
}
