import { formatYuan, MAX_GPUS_PER_INSTANCE, USAGE_CHARGING_RULE_ID } from '@slg/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Checkbox, Form, Input, Radio, Select, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import {
  cloneInstance,
  clonePrepay,
  invalidateAfterInstanceChange,
  useMarketHostsQuery,
  type CloneBody,
  type InstanceView,
} from '../../../../api/compute';
import { queryKeys } from '../../../../api/queryKeys';
import { toast } from '../../../../api/toast';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { QueryError } from '../../../../components/QueryError';
import { BalanceCheck, DialogError, Figures, useAttemptKey, useDialogError } from './billingParts';
import { CLONE_TEXTS } from './cloneTexts';

const T = CLONE_TEXTS;
type Scope = 'same' | 'other';

/**
 * 克隆实例, or with `move` 迁移 (the way off a host with no free GPUs): a target host with enough free
 * GPUs (the source's region, or any for a cross-region clone), the GPU count, whether the data disk
 * comes along, the new instance's price before confirming. The clone is pay-as-you-go.
 */
export function CloneDialog({ instance, open, move = false, onClose }: { instance: InstanceView; open: boolean; move?: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [scope, setScope] = useState<Scope>('same');
  const [gpuNum, setGpuNum] = useState(instance.gpuNum);
  const [hostId, setHostId] = useState<string | null>(null);
  const [copyData, setCopyData] = useState(true);
  const [releaseSource, setReleaseSource] = useState(move);
  const [name, setName] = useState('');
  const sameRegion = scope === 'same';
  const hosts = useMarketHostsQuery({
    page: 1,
    pageSize: 50,
    chargingRuleId: USAGE_CHARGING_RULE_ID,
    gpuNum,
    sort: 'price',
    ...(sameRegion ? { zoneId: instance.zoneId } : {}),
    ...(move ? { gpuModelId: instance.gpuModelId } : {}),
  });
  const choices = (hosts.data?.list ?? []).filter((host) => !move || host.hostId !== instance.hostId);
  const chosen = choices.find((host) => host.hostId === hostId) ? hostId : null;
  const body: CloneBody | null = chosen
    ? {
        instanceId: instance.instanceId,
        hostId: chosen,
        gpuNum,
        chargingRuleId: USAGE_CHARGING_RULE_ID,
        copyData: sameRegion && copyData,
        ...(sameRegion && copyData && releaseSource ? { releaseSource: true } : {}),
        ...(name.trim() ? { name: name.trim() } : {}),
      }
    : null;
  const crossRegion = !sameRegion;
  const price = useQuery({
    queryKey: [...queryKeys.instances, 'clone-prepay', crossRegion, body] as const,
    queryFn: () => clonePrepay(body as CloneBody, crossRegion),
    enabled: open && body !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const attempt = useAttemptKey();
  const error = useDialogError();
  const clone = useMutation({
    mutationFn: (input: CloneBody) => cloneInstance(input, crossRegion, attempt.keyFor({ input, crossRegion })),
    onSuccess: (created) => {
      attempt.answered();
      toast.success(body?.releaseSource ? T.moveDone(created.instanceId) : T.done(created.instanceId));
      onClose();
    },
    onError: (failure) => {
      attempt.answered(failure);
      error.show(failure);
    },
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });
  const moving = move || Boolean(body?.releaseSource);
  const quote = price.data;

  return (
    <ConfirmDialog
      open={open}
      danger={moving}
      texts={{ title: move ? T.moveTitle(instance.name) : T.title(instance.name), confirm: moving ? T.submit.move : T.submit.clone, cancel: T.cancel }}
      loading={clone.isPending}
      okButtonProps={{ disabled: body === null || !quote }}
      onConfirm={() => body && clone.mutate(body)}
      onCancel={onClose}
      width={620}
    >
      <Space orientation="vertical" size={12} className="slg-instance-dialog">
        <Typography.Text type="secondary">{move ? T.moveIntro : T.intro}</Typography.Text>
        <Form layout="vertical" component="div">
          {move ? null : (
            <Form.Item label={T.scope.label} extra={sameRegion ? undefined : T.scope.otherHint}>
              <Radio.Group
                optionType="button"
                value={scope}
                onChange={(event) => {
                  setScope(event.target.value as Scope);
                  setHostId(null);
                }}
                options={[
                  { value: 'same', label: T.scope.same },
                  { value: 'other', label: T.scope.other },
                ]}
              />
            </Form.Item>
          )}
          <Form.Item label={T.gpuNum}>
            <Select
              aria-label={T.gpuNum}
              value={gpuNum}
              onChange={(value) => setGpuNum(value)}
              options={Array.from({ length: MAX_GPUS_PER_INSTANCE }, (_, index) => ({ value: index + 1, label: T.gpuOption(index + 1) }))}
            />
          </Form.Item>
          <Form.Item label={T.host.label}>
            {hosts.isError && !hosts.data ? <QueryError title={T.host.label} error={hosts.error} onRetry={() => void hosts.refetch()} /> : null}
            <Select
              aria-label={T.host.label}
              placeholder={T.host.placeholder}
              loading={hosts.isLoading}
              showSearch={{ optionFilterProp: 'label' }}
              value={chosen}
              onChange={(value) => setHostId(value)}
              notFoundContent={T.host.none}
              options={choices.map((host) => ({
                value: host.hostId,
                label: T.host.option(host.zoneName, host.hostName, host.gpuFree, formatYuan(host.pricePerGpuFen)),
              }))}
            />
          </Form.Item>
          {sameRegion ? (
            <Form.Item>
              <Space orientation="vertical" size={4}>
                <Checkbox checked={copyData} disabled={move} onChange={(event) => setCopyData(event.target.checked)}>
                  {T.copyData(instance.dataDiskGb)}
                </Checkbox>
                {move ? null : (
                  <Checkbox checked={releaseSource} disabled={!copyData} onChange={(event) => setReleaseSource(event.target.checked)}>
                    {T.release}
                  </Checkbox>
                )}
              </Space>
            </Form.Item>
          ) : null}
          <Form.Item label={T.name}>
            <Input aria-label={T.name} value={name} maxLength={32} placeholder={`${instance.name.slice(0, 29)}-克隆`} onChange={(event) => setName(event.target.value)} />
          </Form.Item>
        </Form>
        {moving ? <Alert type="warning" showIcon title={T.releaseHint} /> : null}
        {body && price.isError && !price.data ? <QueryError title={T.priceFailed} error={price.error} onRetry={() => void price.refetch()} /> : null}
        {body && price.isLoading ? <Skeleton active paragraph={{ rows: 1 }} title={false} /> : null}
        {quote ? (
          <Figures
            label={T.price.hourly}
            rows={[
              { label: T.price.disk, value: quote.diskRateFenPerDay > 0 ? T.price.perDay(formatYuan(quote.diskRateFenPerDay)) : T.price.none },
              { label: T.price.hourly, value: T.price.perHour(formatYuan(quote.amount)), total: true },
            ]}
          />
        ) : null}
        {quote ? <BalanceCheck payable={quote.balanceRequired} /> : null}
        <DialogError message={error.message} />
      </Space>
    </ConfirmDialog>
  );
}
