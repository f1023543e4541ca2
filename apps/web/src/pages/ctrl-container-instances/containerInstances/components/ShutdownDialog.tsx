import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Radio, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { cancelScheduledPowerOff, invalidateAfterInstanceChange, powerOffInstance, type InstanceView } from '../../../../api/compute';
import { toast } from '../../../../api/toast';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { canDo, packageOf } from '../instanceRules';
import { INSTANCE_LIST_TEXTS } from '../texts';
import { DialogError, useDialogError } from './billingParts';
import { formatMinute } from './InstanceBilling';

const T = INSTANCE_LIST_TEXTS;

/** The server's window for a scheduled power-off: later than a minute from now, at most 30 days ahead. */
export const SCHEDULE_MIN_AHEAD_MS = 60_000;
export const SCHEDULE_MAX_AHEAD_DAYS = 30;
const SCHEDULE_MAX_AHEAD_MS = SCHEDULE_MAX_AHEAD_DAYS * 86_400_000;
/** What `<input type="datetime-local">` reads and writes (local time, i.e. China time in the console). */
const LOCAL_INPUT_FORMAT = 'YYYY-MM-DDTHH:mm';
const HALF_HOUR_MS = 30 * 60_000;

export type ShutdownMode = 'now' | 'later';

/** Why a chosen time cannot be scheduled, or null when the server would take it. */
export function scheduleProblem(value: string, now = Date.now()): string | null {
  if (!value) return T.shutdown.atRequired;
  const at = dayjs(value);
  if (!at.isValid()) return T.shutdown.atRequired;
  if (at.valueOf() <= now + SCHEDULE_MIN_AHEAD_MS) return T.shutdown.atTooSoon;
  if (at.valueOf() > now + SCHEDULE_MAX_AHEAD_MS) return T.shutdown.atTooLate(SCHEDULE_MAX_AHEAD_DAYS);
  return null;
}

/** The time offered first: the current schedule, else the first half hour at least an hour away. */
function initialTime(instance: InstanceView, now: number): string {
  if (instance.scheduledPowerOffAt && Date.parse(instance.scheduledPowerOffAt) > now + SCHEDULE_MIN_AHEAD_MS) {
    return dayjs(instance.scheduledPowerOffAt).format(LOCAL_INPUT_FORMAT);
  }
  return dayjs(Math.ceil((now + 2 * HALF_HOUR_MS) / HALF_HOUR_MS) * HALF_HOUR_MS).format(LOCAL_INPUT_FORMAT);
}

interface ShutdownDialogProps {
  instance: InstanceView;
  mode: ShutdownMode;
  open: boolean;
  onClose: () => void;
}

/**
 * 关机 now or at a time (定时关机) — the dialog of the row's 关机 button and of 更多 › 定时关机: what
 * power-off does to the GPUs for this billing, the schedule already set with 取消定时关机, and a time
 * the server will accept (checked here first). 定时关机 is offered where the instance's state allows it.
 */
export function ShutdownDialog({ instance, mode: initialMode, open, onClose }: ShutdownDialogProps) {
  const queryClient = useQueryClient();
  const schedulable = canDo(instance, 'schedule_power_off');
  const [mode, setMode] = useState<ShutdownMode>(schedulable ? initialMode : 'now');
  const [opened] = useState(() => Date.now());
  const [value, setValue] = useState(() => initialTime(instance, opened));
  const [touched, setTouched] = useState(false);
  const error = useDialogError();
  const problem = mode === 'later' ? scheduleProblem(value) : null;
  const chosen = mode === 'later' && !problem ? dayjs(value) : null;

  const powerOff = useMutation({
    mutationFn: (at: string | undefined) => powerOffInstance(instance.instanceId, at),
    onSuccess: (_view, at) => {
      toast.success(at ? T.shutdown.doneLater(formatMinute(at)) : T.shutdown.doneNow);
      onClose();
    },
    onError: (failure) => error.show(failure),
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });
  const cancel = useMutation({
    mutationFn: () => cancelScheduledPowerOff(instance.instanceId),
    onSuccess: () => toast.success(T.plan.scheduleCancelled),
    onError: (failure) => error.show(failure),
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });

  const inputId = `shutdown-at-${instance.instanceId}`;
  const minimum = dayjs(opened + 2 * SCHEDULE_MIN_AHEAD_MS).format(LOCAL_INPUT_FORMAT);
  const maximum = dayjs(opened + SCHEDULE_MAX_AHEAD_MS).format(LOCAL_INPUT_FORMAT);
  return (
    <ConfirmDialog
      open={open}
      texts={{
        title: T.shutdown.title(instance.name),
        confirm: mode === 'now' ? T.shutdown.submitNow : chosen ? T.shutdown.submitLater(formatMinute(chosen.toISOString())) : T.shutdown.submitLaterPending,
        cancel: T.plan.cancel,
      }}
      loading={powerOff.isPending}
      okButtonProps={{ disabled: mode === 'later' && problem !== null }}
      onConfirm={() => {
        error.clear();
        if (mode === 'now') powerOff.mutate(undefined);
        else if (chosen) powerOff.mutate(chosen.toISOString());
        else setTouched(true);
      }}
      onCancel={onClose}
    >
      <Space orientation="vertical" size={12} className="slg-instance-dialog">
        {instance.scheduledPowerOffAt ? (
          <Alert
            type="info"
            showIcon
            title={T.shutdown.existing(formatMinute(instance.scheduledPowerOffAt))}
            description={T.shutdown.replaces}
            action={
              <Button size="small" loading={cancel.isPending} onClick={() => cancel.mutate()}>
                {T.shutdown.cancelExisting}
              </Button>
            }
          />
        ) : null}
        {schedulable ? (
          <Radio.Group
            aria-label={T.shutdown.mode}
            name={`shutdown-mode-${instance.instanceId}`}
            optionType="button"
            value={mode}
            onChange={(event) => setMode(event.target.value as ShutdownMode)}
            options={[
              { value: 'now', label: T.shutdown.now },
              { value: 'later', label: T.shutdown.later },
            ]}
          />
        ) : null}
        {mode === 'later' ? (
          <Form layout="vertical" requiredMark={false} className="slg-plan-form" component="div">
            <Form.Item
              label={T.shutdown.at}
              htmlFor={inputId}
              validateStatus={problem && (touched || value) ? 'error' : undefined}
              help={problem && (touched || value) ? problem : undefined}
              extra={T.shutdown.atHint(SCHEDULE_MAX_AHEAD_DAYS)}
            >
              <Input
                id={inputId}
                type="datetime-local"
                value={value}
                min={minimum}
                max={maximum}
                onChange={(event) => {
                  setValue(event.target.value);
                  setTouched(true);
                }}
              />
            </Form.Item>
          </Form>
        ) : null}
        <Typography.Text type="warning">{packageOf(instance) ? T.plan.powerOffPackage : T.shutdown.usageWarning}</Typography.Text>
        <DialogError message={error.message} />
      </Space>
    </ConfirmDialog>
  );
}
