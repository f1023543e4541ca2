import { ArrowLeftOutlined } from '@ant-design/icons';
import { formatYuan, MAX_GPUS_PER_INSTANCE, PACKAGE_LABELS, USAGE_CHARGING_RULE_ID } from '@slg/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Radio, Result, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../../api/client';
import { changeGpuCount, invalidateAfterInstanceChange, useGpuCountQuoteQuery, useMarketHostQuery, type GpuCountQuote, type InstanceView } from '../../../api/compute';
import { fetchInstanceDetail } from '../../../api/monitoring';
import { queryKeys } from '../../../api/queryKeys';
import { toast } from '../../../api/toast';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { formatDateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { withAntd } from '../../../theme/AntdScope';
import { BalanceCheck, DialogError, Figures, useAttemptKey, useDialogError, type Figure } from '../containerInstances/components/billingParts';
import { InstanceStatus } from '../containerInstances/components/InstanceStatus';
import { canDo, packageOf } from '../containerInstances/instanceRules';
import { INSTANCE_LIST_TEXTS } from '../containerInstances/texts';
import '../instances.css';
import { COMPUTE_PATHS } from '../paths';
import { UP_DOWN_TEXTS } from './texts';
import './upDownSetting.css';

const T = UP_DOWN_TEXTS;
const INSTANCE_ID_PATTERN = /^slg-[a-z0-9]{10}$/;
/** The status follows the instance, so powering it off elsewhere unlocks the form here. */
const DETAIL_REFRESH_MS = 5_000;

function billingName(instance: InstanceView): string {
  const plan = packageOf(instance);
  return plan ? `${PACKAGE_LABELS[plan]}（${T.expires} ${formatDateTime(instance.expiresAt ?? '')}）` : T.usage;
}

function priceRows(instance: InstanceView, quote: GpuCountQuote): Figure[] {
  if (!packageOf(instance)) {
    return [
      { label: T.price.hourlyNow, value: T.price.perHour(formatYuan(instance.gpuPriceFen)) },
      { label: T.price.hourlyAfter, value: T.price.perHour(formatYuan(quote.hourlyFen)), total: true },
    ];
  }
  const rows: Figure[] = [];
  if (quote.expiresAt) {
    const hours = Math.max(0, Math.round((Date.parse(quote.expiresAt) - Date.now()) / 3_600_000));
    rows.push({ label: T.price.remaining, value: T.price.hours(hours) }, { label: T.price.expiresAt, value: formatDateTime(quote.expiresAt) });
  }
  if (quote.payable > 0) rows.push({ label: T.price.payable, value: formatYuan(quote.payable), total: true });
  else if (quote.refund > 0) rows.push({ label: T.price.refund, value: formatYuan(quote.refund), total: true });
  else rows.push({ label: T.price.payable, value: T.price.nothing, total: true });
  return rows;
}

function confirmText(instance: InstanceView, quote: GpuCountQuote): string {
  if (!packageOf(instance)) return T.confirm.usage(quote.fromGpuNum, quote.toGpuNum, formatYuan(quote.hourlyFen));
  if (quote.toGpuNum > quote.fromGpuNum) return T.confirm.up(quote.fromGpuNum, quote.toGpuNum, formatYuan(quote.payable));
  return T.confirm.down(quote.fromGpuNum, quote.toGpuNum, quote.refund > 0 ? formatYuan(quote.refund) : '');
}

function submitText(instance: InstanceView, quote: GpuCountQuote | undefined): string {
  if (!quote || !packageOf(instance)) return T.submit.change;
  return quote.payable > 0 ? T.submit.up(formatYuan(quote.payable)) : T.submit.down;
}

/** The form: the new count (a package cannot take more than the host has free), its price, and a confirm naming the effect. */
function UpDownForm({ instance }: { instance: InstanceView }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const host = useMarketHostQuery(instance.hostId, USAGE_CHARGING_RULE_ID);
  const quote = useGpuCountQuoteQuery(instance.instanceId, target);
  const attempt = useAttemptKey();
  const error = useDialogError();
  const change = useMutation({
    mutationFn: (gpuNum: number) => changeGpuCount({ instanceId: instance.instanceId, gpuNum }, attempt.keyFor({ instanceId: instance.instanceId, gpuNum })),
    onSuccess: (result) => {
      attempt.answered();
      toast.success(T.done(result.toGpuNum));
      void navigate(COMPUTE_PATHS.list);
    },
    onError: (failure) => {
      attempt.answered(failure);
      setConfirming(false);
      error.show(failure);
    },
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });

  const plan = packageOf(instance);
  const off = canDo(instance, 'change_gpu_num');
  const total = Math.min(MAX_GPUS_PER_INSTANCE, host.data?.gpuTotal ?? quote.data?.maxGpuNum ?? MAX_GPUS_PER_INSTANCE);
  const free = host.data?.gpuFree;
  const canTake = (count: number) => !plan || free === undefined || count <= instance.gpuNum + free;
  const shown = quote.data && quote.data.toGpuNum === target ? quote.data : undefined;

  return (
    <Card title={T.target} className="slg-updown-card">
      <Space direction="vertical" size="middle" className="slg-updown-body">
        {!off ? <Alert type="warning" showIcon title={T.mustBeOff} /> : null}
        <Radio.Group
          optionType="button"
          className="slg-updown-options"
          value={target ?? instance.gpuNum}
          disabled={!off || change.isPending}
          onChange={(event) => {
            error.clear();
            setTarget(event.target.value === instance.gpuNum ? null : (event.target.value as number));
          }}
          options={Array.from({ length: total }, (_, index) => index + 1).map((count) => ({
            value: count,
            label: T.gpuOption(count),
            disabled: count !== instance.gpuNum && !canTake(count),
            title: canTake(count) ? undefined : T.notFree,
          }))}
        />
        {host.data ? <Typography.Text type="secondary">{T.hostFree(host.data.gpuFree, host.data.gpuTotal)}</Typography.Text> : null}
        <Typography.Paragraph type="secondary" className="slg-updown-note">
          {plan ? T.packageNote : T.usageNote}
        </Typography.Paragraph>
        {target !== null && quote.isError && !quote.data ? <QueryError title={INSTANCE_LIST_TEXTS.plan.priceFailed} error={quote.error} onRetry={() => void quote.refetch()} /> : null}
        {target !== null && quote.isLoading ? <Skeleton active paragraph={{ rows: 2 }} title={false} /> : null}
        {shown ? <Figures rows={priceRows(instance, shown)} label={T.title} /> : null}
        {shown && shown.payable > 0 ? <BalanceCheck payable={shown.payable} /> : null}
        <DialogError message={error.message} />
        <Button type="primary" disabled={!off || !shown} loading={change.isPending} onClick={() => setConfirming(true)}>
          {submitText(instance, shown)}
        </Button>
      </Space>
      {shown ? (
        <ConfirmDialog
          open={confirming}
          texts={{ title: T.confirm.title, confirm: T.confirm.ok, cancel: T.confirm.cancel }}
          loading={change.isPending}
          onConfirm={() => change.mutate(shown.toGpuNum)}
          onCancel={() => setConfirming(false)}
        >
          {confirmText(instance, shown)}
        </ConfirmDialog>
      ) : null}
    </Card>
  );
}

/** `/ctrl-container-instances/upDownSetting?instanceId=`: 升降配置, the GPU count of one instance. */
function UpDownSettingPage() {
  const [params] = useSearchParams();
  const instanceId = params.get('instanceId') ?? '';
  const validId = INSTANCE_ID_PATTERN.test(instanceId);
  const instance = useQuery({
    queryKey: [...queryKeys.instances, 'detail', instanceId],
    queryFn: ({ signal }) => fetchInstanceDetail(instanceId, signal),
    enabled: validId,
    refetchInterval: DETAIL_REFRESH_MS,
  });
  const back = (
    <LinkButton to={COMPUTE_PATHS.list} icon={<ArrowLeftOutlined />} type="text">
      {T.back}
    </LinkButton>
  );
  const header = <PageHeader title={T.title} description={T.description} back={back} />;
  if (!validId || (instance.isError && isApiError(instance.error) && instance.error.status === 404)) {
    return (
      <>
        {header}
        <Result status="404" title={validId ? T.missing : T.invalidId} extra={<LinkButton to={COMPUTE_PATHS.list}>{T.back}</LinkButton>} />
      </>
    );
  }
  const data = instance.data;
  return (
    <div className="slg-updown">
      {header}
      {instance.isError && !data ? <QueryError title={T.loadFailed} error={instance.error} onRetry={() => void instance.refetch()} /> : null}
      {!data && !instance.isError ? <Skeleton active /> : null}
      {data ? (
        <>
          <Card title={T.current} className="slg-updown-card">
            <Descriptions column={{ xs: 1, sm: 2 }} size="small">
              <Descriptions.Item label={T.instance}>
                {data.name}（{data.instanceId}） <InstanceStatus instance={data} />
              </Descriptions.Item>
              <Descriptions.Item label={T.host}>
                {data.zoneName} · {data.hostName}
              </Descriptions.Item>
              <Descriptions.Item label="GPU">{T.gpus(data.gpuModelName, data.gpuNum)}</Descriptions.Item>
              <Descriptions.Item label="CPU / 内存">{T.cpuMemory(data.cpuCores, data.memoryGb)}</Descriptions.Item>
              <Descriptions.Item label={T.billing}>{billingName(data)}</Descriptions.Item>
            </Descriptions>
          </Card>
          <UpDownForm key={data.gpuNum} instance={data} />
        </>
      ) : null}
    </div>
  );
}

export default withAntd(UpDownSettingPage);
