import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { InstanceView } from '../../../../api/compute';
import { cloneInstancesPath, payByVolumePath, upDownSettingPath, yearMonthPackagesPath } from '../../paths';
import { canDo, packageOf } from '../instanceRules';
import { INSTANCE_LIST_TEXTS } from '../texts';
import { AutoRenewDialog } from './AutoRenewDialog';
import { CLONE_TEXTS } from './cloneTexts';
import { CopyDataDialog } from './CopyDataDialog';
import { COPY_TEXTS } from './copyTexts';
import { CustomServiceDialog } from './CustomServiceDialog';
import { DISK_TEXTS } from './diskTexts';
import { ExpandDiskDialog } from './ExpandDiskDialog';
import { ChangeImageDialog, ResetSystemDialog, SaveImageDialog } from './ImageDialogs';
import { KeepDialog } from './KeepDialog';
import { KEEP_TEXTS } from './keepTexts';
import { PORT_TEXTS } from './portTexts';
import { RenewDialog } from './RenewDialog';
import { ShutdownDialog } from './ShutdownDialog';

const T = INSTANCE_LIST_TEXTS.menu;

type BillingDialog = 'renew' | 'auto_renew' | 'shutdown' | 'ports' | 'disk' | 'keep' | 'change_image' | 'reset' | 'save_image' | 'copy';
/** Items that open a page rather than a dialog, and the page of each. */
type MenuPage = 'up_down' | 'to_usage' | 'to_package' | 'clone';
type MenuKey = BillingDialog | MenuPage;
const PAGES: Record<MenuPage, (instanceId: string) => string> = {
  up_down: upDownSettingPath,
  to_usage: payByVolumePath,
  to_package: yearMonthPackagesPath,
  clone: (instanceId) => cloneInstancesPath(instanceId),
};
const isPage = (key: string): key is MenuPage => Object.hasOwn(PAGES, key);

/** What the 更多 menu offers this instance, in its order. */
export function billingMenuItems(instance: InstanceView): { key: MenuKey; label: string }[] {
  const plan = packageOf(instance);
  const items: { key: MenuKey; label: string }[] = [];
  if (plan && canDo(instance, 'renew')) items.push({ key: 'renew', label: T.renew });
  if (plan && canDo(instance, 'auto_renew')) items.push({ key: 'auto_renew', label: instance.autoRenew ? T.autoRenewOff : T.autoRenewOn });
  if (canDo(instance, 'switch_charging')) items.push(plan ? { key: 'to_usage', label: T.toUsage } : { key: 'to_package', label: T.toPackage });
  if (canDo(instance, 'schedule_power_off')) items.push({ key: 'shutdown', label: T.shutdown });
  // A running instance is offered it too: the page says to power off first.
  if (canDo(instance, 'change_gpu_num') || canDo(instance, 'power_off')) items.push({ key: 'up_down', label: T.upDown });
  if (canDo(instance, 'switch_image')) items.push({ key: 'change_image', label: T.changeImage });
  if (canDo(instance, 'reset')) items.push({ key: 'reset', label: T.resetSystem });
  if (canDo(instance, 'save_image')) items.push({ key: 'save_image', label: T.saveImage });
  if (canDo(instance, 'extend_disk')) items.push({ key: 'disk', label: DISK_TEXTS.menu });
  if (canDo(instance, 'clone')) items.push({ key: 'clone', label: CLONE_TEXTS.menu });
  if (canDo(instance, 'copy_data')) items.push({ key: 'copy', label: COPY_TEXTS.menu });
  if (canDo(instance, 'map_port')) items.push({ key: 'ports', label: PORT_TEXTS.menu });
  // Only pay-as-you-go is released when it stays off.
  if (!plan && canDo(instance, 'keep_when_off')) items.push({ key: 'keep', label: instance.keepWhenOff ? KEEP_TEXTS.menuOff : KEEP_TEXTS.menuOn });
  return items;
}

/**
 * 更多: the billing actions — 续费, 自动续费, 定时关机 … in their dialogs; 转按量计费 / 转包年包月 and
 * 升降配置 on their pages. A dialog is mounted while open, so each opening starts from its defaults.
 */
export function BillingMenu({ instance, size }: { instance: InstanceView; size: 'small' | 'middle' }) {
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<BillingDialog | null>(null);
  const items = billingMenuItems(instance);
  const plan = packageOf(instance);
  const close = () => setDialog(null);
  if (items.length === 0 && dialog === null) return null;
  const open = (key: string) => {
    if (isPage(key)) void navigate(PAGES[key](instance.instanceId));
    else setDialog(key as BillingDialog);
  };
  const menu: MenuProps = { items, onClick: ({ key }) => open(key) };
  return (
    <>
      <Dropdown trigger={['click']} menu={menu} disabled={items.length === 0}>
        <Button size={size}>
          {INSTANCE_LIST_TEXTS.actions.more} <DownOutlined />
        </Button>
      </Dropdown>
      {dialog === 'renew' && plan ? <RenewDialog instance={instance} packageKey={plan} open onClose={close} /> : null}
      {dialog === 'auto_renew' && plan ? <AutoRenewDialog instance={instance} packageKey={plan} open onClose={close} /> : null}
      {dialog === 'change_image' ? <ChangeImageDialog instance={instance} open onClose={close} /> : null}
      {dialog === 'reset' ? <ResetSystemDialog instance={instance} open onClose={close} /> : null}
      {dialog === 'save_image' ? <SaveImageDialog instance={instance} open onClose={close} /> : null}
      {dialog === 'copy' ? <CopyDataDialog instance={instance} open onClose={close} /> : null}
      {dialog === 'keep' ? <KeepDialog instance={instance} open onClose={close} /> : null}
      {dialog === 'disk' ? <ExpandDiskDialog instance={instance} open onClose={close} /> : null}
      {dialog === 'ports' ? <CustomServiceDialog instance={instance} open onClose={close} /> : null}
      {dialog === 'shutdown' ? <ShutdownDialog instance={instance} mode="later" open onClose={close} /> : null}
    </>
  );
}
