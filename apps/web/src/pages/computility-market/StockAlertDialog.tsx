import { BellOutlined } from '@ant-design/icons';
import { MAX_GPUS_PER_INSTANCE, USAGE_CHARGING_RULE_ID } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Select, Space, Typography, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { claimError } from '../../api/client';
import { useMarketOverviewQuery, type MarketOverview } from '../../api/compute';
import { createStockAlert, invalidateStockAlerts } from '../../api/subscriptions';
import { toast } from '../../api/toast';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LinkButton } from '../../components/LinkButton';
import { loginRedirectPath } from '../../router/guards';
import { permissionList, useUserStore } from '../../stores/user';
import './stockAlert.css';
import { STOCK_ALERT_TEXTS } from './stockAlertTexts';

const T = STOCK_ALERT_TEXTS;
const GPU_COUNTS = Array.from({ length: MAX_GPUS_PER_INSTANCE }, (_, index) => index + 1);

/** What an alert waits for, with the names to show before the market's overview has loaded. */
export interface StockAlertTarget {
  zoneId: string;
  zoneName: string;
  gpuModelId: string;
  gpuModelName: string;
  gpuNum: number;
}

function cellOf(overview: MarketOverview | undefined, zoneId: string, gpuModelId: string) {
  return overview?.cells.find((cell) => cell.zoneId === zoneId && cell.gpuModelId === gpuModelId);
}

/**
 * 订阅到货提醒: the zone, GPU model and count come preselected and can be changed; the market's
 * overview says how many GPUs are free there now. A refusal (已订阅, the cap, a zone without the
 * model) is shown in the dialog.
 */
export function StockAlertDialog({ target, onClose }: { target: StockAlertTarget; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [zoneId, setZoneId] = useState(target.zoneId);
  const [gpuModelId, setGpuModelId] = useState(target.gpuModelId);
  const [gpuNum, setGpuNum] = useState(Math.min(Math.max(1, target.gpuNum), MAX_GPUS_PER_INSTANCE));
  const [refusal, setRefusal] = useState<string | null>(null);
  const overview = useMarketOverviewQuery(USAGE_CHARGING_RULE_ID);
  const data = overview.data;

  const subscribe = useMutation({
    mutationFn: () => createStockAlert({ zoneId, gpuModelId, gpuNum }),
    onSuccess: () => {
      toast.success(T.dialog.done);
      onClose();
    },
    onError: (error) => {
      if (claimError(error) && error instanceof Error) setRefusal(error.message);
    },
    onSettled: () => void invalidateStockAlerts(queryClient),
  });

  const zoneOptions = data
    ? data.zones.map((zone) => {
        const offered = Boolean(cellOf(data, zone.zoneId, gpuModelId));
        return { value: zone.zoneId, label: offered ? zone.zoneName : `${zone.zoneName}（${T.dialog.noModelHere}）`, disabled: !offered && zone.zoneId !== zoneId };
      })
    : [{ value: target.zoneId, label: target.zoneName }];
  const modelOptions = data
    ? data.gpuModels.map((model) => {
        const offered = Boolean(cellOf(data, zoneId, model.gpuModelId));
        return {
          value: model.gpuModelId,
          label: offered ? model.gpuModelName : `${model.gpuModelName}（${T.dialog.noModelHere}）`,
          disabled: !offered && model.gpuModelId !== gpuModelId,
        };
      })
    : [{ value: target.gpuModelId, label: target.gpuModelName }];
  const cell = cellOf(data, zoneId, gpuModelId);
  const change = (apply: () => void) => {
    apply();
    setRefusal(null);
  };

  return (
    <ConfirmDialog
      open
      texts={{ title: T.dialog.title, confirm: T.dialog.submit, cancel: T.dialog.cancel }}
      loading={subscribe.isPending}
      okButtonProps={{ disabled: !zoneId || !gpuModelId }}
      onConfirm={() => subscribe.mutate()}
      onCancel={onClose}
    >
      <Space orientation="vertical" size={12} className="slg-stock-alert-dialog">
        <Typography.Text type="secondary">{T.dialog.intro}</Typography.Text>
        <Form layout="vertical" requiredMark={false} onSubmitCapture={(event) => event.preventDefault()} className="slg-stock-alert-form">
          <Form.Item label={T.dialog.zone} htmlFor="stock-alert-zone">
            <Select
              id="stock-alert-zone"
              value={zoneId}
              loading={overview.isPending}
              options={zoneOptions}
              placeholder={T.dialog.choose}
              onChange={(value: string) => change(() => setZoneId(value))}
            />
          </Form.Item>
          <Form.Item label={T.dialog.model} htmlFor="stock-alert-model">
            <Select
              id="stock-alert-model"
              value={gpuModelId}
              loading={overview.isPending}
              options={modelOptions}
              placeholder={T.dialog.choose}
              onChange={(value: string) => change(() => setGpuModelId(value))}
            />
          </Form.Item>
          <Form.Item label={T.dialog.count} htmlFor="stock-alert-count">
            <Select
              id="stock-alert-count"
              value={gpuNum}
              options={GPU_COUNTS.map((count) => ({ value: count, label: T.dialog.countOption(count) }))}
              onChange={(value: number) => change(() => setGpuNum(value))}
            />
          </Form.Item>
        </Form>
        {cell ? <Typography.Text type="secondary">{T.dialog.now(cell.gpuFree, cell.gpuTotal, cell.maxFreeOnHost)}</Typography.Text> : null}
        {overview.isError && !data ? <Typography.Text type="secondary">{T.dialog.overviewFailed}</Typography.Text> : null}
        {cell && cell.maxFreeOnHost >= gpuNum ? <Alert type="info" showIcon title={T.dialog.availableNow(gpuNum)} /> : null}
        {refusal ? <Alert type="error" showIcon title={refusal} /> : null}
      </Space>
    </ConfirmDialog>
  );
}

interface StockAlertButtonProps extends Pick<ButtonProps, 'size' | 'block' | 'type'> {
  target: StockAlertTarget;
}

/**
 * 到货提醒: opens the dialog with the target preselected. Signed out it leads through the login back
 * here; a sub-account without the CONTAINER authority is not offered it.
 */
export function StockAlertButton({ target, size, block, type = 'link' }: StockAlertButtonProps) {
  const location = useLocation();
  const signedIn = useUserStore((state) => Boolean(state.token));
  const permissions = useUserStore((state) => permissionList(state.userInfo));
  const [open, setOpen] = useState(false);
  const label = T.openLabel(target.zoneName, target.gpuModelName, target.gpuNum);
  if (!signedIn) {
    return (
      <LinkButton to={loginRedirectPath(location)} size={size} block={block} type={type} icon={<BellOutlined />} aria-label={T.signIn}>
        {T.open}
      </LinkButton>
    );
  }
  if (permissions && !permissions.includes('CONTAINER')) return null;
  return (
    <>
      <Button size={size} block={block} type={type} icon={<BellOutlined />} aria-label={label} onClick={() => setOpen(true)}>
        {T.open}
      </Button>
      {open ? <StockAlertDialog target={target} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
