import { ErrorCodes, formatYuan, NO_GPU_CPU_CORES, NO_GPU_MEMORY_GB, type GpuMode } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Radio, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { claimError, isApiError } from '../../../../api/client';
import { invalidateAfterInstanceChange, powerOnInstance, releaseInstance, type InstanceView } from '../../../../api/compute';
import { toast } from '../../../../api/toast';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { LinkButton } from '../../../../components/LinkButton';
import { cloneInstancesPath, instanceMonitoringPath } from '../../paths';
import { StockAlertButton } from '../../../computility-market/StockAlertDialog';
import { canDo, packageOf, releaseBlocker } from '../instanceRules';
import { INSTANCE_LIST_TEXTS } from '../texts';
import { BillingMenu } from './BillingMenu';
import { ShutdownDialog } from './ShutdownDialog';

const T = INSTANCE_LIST_TEXTS;

/**
 * 开机: the one step of powering on — the mode with its price (有卡 first), confirmed once. When the
 * host has too few free GPUs (主机GPU不足) the dialog says so in place and switches to 无卡模式, so the
 * user can power on without GPUs at once. Mounted while open.
 */
function PowerOnDialog({ instance, onClose }: { instance: InstanceView; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<GpuMode>('gpu');
  const [shortage, setShortage] = useState<string | null>(null);
  const powerOn = useMutation({
    mutationFn: (chosen: GpuMode) => powerOnInstance(instance.instanceId, chosen),
    onSuccess: () => {
      toast.success(T.powerOn.done);
      onClose();
    },
    onError: (error) => {
      if (isApiError(error) && error.code === ErrorCodes.HOST_GPU_SHORTAGE.code) {
        claimError(error);
        setShortage(error.message);
        setMode('nogpu');
      }
    },
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });
  const gpuOffered = shortage === null;
  return (
    <ConfirmDialog
      open
      texts={{ title: T.powerOn.title(instance.name), confirm: mode === 'gpu' ? T.powerOn.submitGpu : T.powerOn.submitNoGpu, cancel: T.powerOn.cancel }}
      loading={powerOn.isPending}
      onConfirm={() => powerOn.mutate(mode)}
      onCancel={onClose}
    >
      <Space orientation="vertical" size={12} className="slg-instance-dialog">
        {shortage ? (
          <Alert
            type="warning"
            showIcon
            title={shortage}
            action={
              <Space orientation="vertical" size={4}>
                {canDo(instance, 'clone') && !packageOf(instance) ? (
                  <LinkButton size="small" to={cloneInstancesPath(instance.instanceId, true)}>
                    {T.powerOn.move}
                  </LinkButton>
                ) : null}
                <StockAlertButton
                  size="small"
                  target={{ zoneId: instance.zoneId, zoneName: instance.zoneName, gpuModelId: instance.gpuModelId, gpuModelName: instance.gpuModelName, gpuNum: instance.gpuNum }}
                />
              </Space>
            }
          />
        ) : null}
        <Radio.Group aria-label={T.actions.powerOn} name={`power-on-mode-${instance.instanceId}`} value={mode} onChange={(event) => setMode(event.target.value as GpuMode)} className="slg-instance-modes">
          <Radio value="gpu" disabled={!gpuOffered}>
            <span className="slg-instance-mode">
              <strong>{T.powerOn.gpu}</strong>
              <Typography.Text type="secondary">
                {packageOf(instance)
                  ? T.plan.powerOnPackageDetail(instance.gpuModelName, instance.gpuNum)
                  : T.powerOn.gpuDetail(instance.gpuModelName, instance.gpuNum, formatYuan(instance.gpuPriceFen))}
              </Typography.Text>
            </span>
          </Radio>
          <Radio value="nogpu" disabled={!canDo(instance, 'power_on_nogpu')}>
            <span className="slg-instance-mode">
              <strong>{T.powerOn.noGpu}</strong>
              <Typography.Text type="secondary">{T.powerOn.noGpuDetail(NO_GPU_CPU_CORES, NO_GPU_MEMORY_GB, formatYuan(instance.noGpuPriceFen))}</Typography.Text>
            </span>
          </Radio>
        </Radio.Group>
        <Typography.Text type="secondary">{packageOf(instance) ? T.plan.powerOnPackageCover : T.powerOn.cover}</Typography.Text>
      </Space>
    </ConfirmDialog>
  );
}

/** 释放 names what is lost and is enabled only once the user ticked that they understood it. */
function ReleaseDialog({ instance, open, onClose }: { instance: InstanceView; open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [understood, setUnderstood] = useState(false);
  const release = useMutation({
    mutationFn: () => releaseInstance(instance),
    onSuccess: () => {
      toast.success(T.release.done);
      onClose();
    },
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });
  return (
    <ConfirmDialog
      open={open}
      danger
      texts={{ title: T.release.title, confirm: T.release.confirm, cancel: T.release.cancel }}
      loading={release.isPending}
      okButtonProps={{ disabled: !understood }}
      onConfirm={() => release.mutate()}
      onCancel={onClose}
      afterOpenChange={(visible) => {
        if (!visible) setUnderstood(false);
      }}
    >
      <Space orientation="vertical" size={12} className="slg-instance-dialog">
        <Typography.Text>{T.release.body(instance.name, instance.instanceId)}</Typography.Text>
        <Alert type="error" showIcon title={T.release.warning} />
        <Checkbox checked={understood} onChange={(event) => setUnderstood(event.target.checked)}>
          {T.release.acknowledge}
        </Checkbox>
      </Space>
    </ConfirmDialog>
  );
}

/**
 * The actions the instance's state allows: 开机 (one dialog: the mode with its price), 关机 (one dialog:
 * now, or 定时关机 at a time), 释放.
 */
export function InstanceActions({ instance, block = false }: { instance: InstanceView; block?: boolean }) {
  const [dialog, setDialog] = useState<'power_on' | 'power_off' | 'release' | null>(null);
  const close = () => setDialog(null);
  const size = block ? 'middle' : 'small';

  const powerOnButton = canDo(instance, 'power_on') ? (
    <Button type="primary" size={size} onClick={() => setDialog('power_on')}>
      {T.actions.powerOn}
    </Button>
  ) : null;

  const powerOffButton = canDo(instance, 'power_off') ? (
    <Button size={size} onClick={() => setDialog('power_off')}>
      {T.actions.powerOff}
    </Button>
  ) : null;

  const releasable = canDo(instance, 'release');
  const releaseButton = releasable ? (
    <Button size={size} danger onClick={() => setDialog('release')}>
      {T.actions.release}
    </Button>
  ) : releaseBlocker(instance) !== null ? (
    <Tooltip title={{ switch_to_usage_first: T.plan.releaseNeedsUsage, power_off_first: T.actions.releaseNeedsOff, copy_running: T.actions.releaseDuringCopy }[releaseBlocker(instance) ?? 'power_off_first']}>
      <Button size={size} danger disabled>
        {T.actions.release}
      </Button>
    </Tooltip>
  ) : null;

  return (
    <div className={block ? 'slg-instance-actions is-block' : 'slg-instance-actions'}>
      {powerOnButton}
      {powerOffButton}
      <LinkButton size={size} to={instanceMonitoringPath(instance.instanceId)}>
        {T.actions.monitor}
      </LinkButton>
      {releaseButton}
      <BillingMenu instance={instance} size={size} />
      {dialog === 'power_on' ? <PowerOnDialog instance={instance} onClose={close} /> : null}
      {dialog === 'power_off' ? <ShutdownDialog instance={instance} mode="now" open onClose={close} /> : null}
      <ReleaseDialog instance={instance} open={dialog === 'release'} onClose={close} />
    </div>
  );
}
