import { BellOutlined } from '@ant-design/icons';
import {
  ALWAYS_ON_REMIND_TYPES,
  formatYuan,
  REMINDER_DAYS_DEFAULT,
  REMINDER_DAYS_MAX,
  REMINDER_DAYS_MIN,
  REMINDER_THRESHOLD_MAX_FEN,
  REMINDER_THRESHOLD_MIN_FEN,
  type RemindType,
} from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Checkbox, Form, Input, Select, Skeleton, Switch, Tooltip, Typography } from 'antd';
import { claimError, isApiError } from '../../../../api/client';
import { deleteReminder, invalidateReminders, saveReminder, useRemindersQuery, type ReminderInput, type ReminderView } from '../../../../api/reminders';
import { toast } from '../../../../api/toast';
import { formatDateTime } from '../../../../components/DateTime';
import { QueryError } from '../../../../components/QueryError';
import { fenToYuanInput, parseYuanToFen } from '../../../ctrl-cost-center/recharge/yuan';
import { REMINDER_TEXTS } from '../reminderTexts';
import './ReminderSettings.css';

const T = REMINDER_TEXTS;

/** What a row's form holds: the threshold as the yuan typed. */
export interface ReminderDraft {
  enabled: boolean;
  threshold?: string;
  daysBefore?: number;
  sms: boolean;
}

/** The threshold typed in yuan as fen, or why it cannot be sent. */
export function checkThreshold(input: string | undefined): { fen: number } | { error: string } {
  if (!input?.trim()) return { error: T.threshold.required };
  const fen = parseYuanToFen(input);
  if (fen === null) return { error: T.threshold.format };
  if (fen < REMINDER_THRESHOLD_MIN_FEN) return { error: T.threshold.min };
  if (fen > REMINDER_THRESHOLD_MAX_FEN) return { error: T.threshold.max };
  return { fen };
}

export type ReminderRequest = { action: 'save'; input: ReminderInput } | { action: 'delete' } | { action: 'invalid'; field: 'threshold'; message: string };

/** The call a row's draft makes: switched off → DELETE; on → POST with the threshold in fen. */
export function reminderRequestOf(type: RemindType, draft: ReminderDraft): ReminderRequest {
  if (ALWAYS_ON_REMIND_TYPES.includes(type)) return { action: 'save', input: { remindType: type, sms: draft.sms } };
  if (!draft.enabled) return { action: 'delete' };
  if (type === 'BALANCE_LOW') {
    const checked = checkThreshold(draft.threshold);
    if ('error' in checked) return { action: 'invalid', field: 'threshold', message: checked.error };
    return { action: 'save', input: { remindType: type, thresholdFen: checked.fen, sms: draft.sms } };
  }
  return { action: 'save', input: { remindType: type, daysBefore: draft.daysBefore ?? REMINDER_DAYS_DEFAULT, sms: draft.sms } };
}

function draftOf(view: ReminderView): ReminderDraft {
  return {
    enabled: view.enabled,
    threshold: view.thresholdFen === null ? '' : fenToYuanInput(view.thresholdFen),
    daysBefore: view.daysBefore ?? REMINDER_DAYS_DEFAULT,
    sms: view.sms,
  };
}

function isDirty(type: RemindType, initial: ReminderDraft, current: Partial<ReminderDraft>): boolean {
  if (ALWAYS_ON_REMIND_TYPES.includes(type)) return current.sms !== initial.sms;
  const enabled = current.enabled ?? initial.enabled;
  if (enabled !== initial.enabled) return true;
  if (!enabled) return false;
  if ((current.sms ?? initial.sms) !== initial.sms) return true;
  if (type === 'BALANCE_LOW') return (current.threshold ?? '').trim() !== initial.threshold;
  return (current.daysBefore ?? initial.daysBefore) !== initial.daysBefore;
}

const DAY_OPTIONS = Array.from({ length: REMINDER_DAYS_MAX - REMINDER_DAYS_MIN + 1 }, (_, index) => {
  const days = REMINDER_DAYS_MIN + index;
  return { value: days, label: T.days.option(days) };
});

function successText(type: RemindType, request: ReminderRequest): string {
  const title = T.types[type].title;
  if (request.action !== 'save') return T.saved.off(title);
  const { input } = request;
  if (ALWAYS_ON_REMIND_TYPES.includes(type)) return input.sms ? T.saved.smsOn(title) : T.saved.smsOff(title);
  const detail = type === 'BALANCE_LOW' ? T.saved.balanceDetail(formatYuan(input.thresholdFen ?? 0), input.sms) : T.saved.daysDetail(input.daysBefore ?? REMINDER_DAYS_DEFAULT, input.sms);
  return T.saved.on(title, detail);
}

interface RowProps {
  view: ReminderView;
  balanceFen: number;
  sharedMainBalance: boolean;
}

/** One type: its switch, its fields, 短信 and 保存 (nothing changes until 保存). */
function ReminderRow({ view, balanceFen, sharedMainBalance }: RowProps) {
  const type = view.remindType;
  const texts = T.types[type];
  const alwaysOn = ALWAYS_ON_REMIND_TYPES.includes(type);
  const initial = draftOf(view);
  const [form] = Form.useForm<ReminderDraft>();
  // Watched one by one (and kept while a field is hidden): what the row shows and whether it changed.
  const watch = { form, preserve: true } as const;
  const current: Partial<ReminderDraft> = {
    enabled: Form.useWatch<boolean | undefined>('enabled', watch) ?? initial.enabled,
    threshold: Form.useWatch<string | undefined>('threshold', watch) ?? initial.threshold,
    daysBefore: Form.useWatch<number | undefined>('daysBefore', watch) ?? initial.daysBefore,
    sms: Form.useWatch<boolean | undefined>('sms', watch) ?? initial.sms,
  };
  const queryClient = useQueryClient();
  const enabled = alwaysOn || (current.enabled ?? initial.enabled);
  const dirty = isDirty(type, initial, current);

  const save = useMutation({
    mutationFn: async (request: ReminderRequest) => {
      if (request.action === 'delete') return deleteReminder(type);
      if (request.action === 'save') return saveReminder(request.input);
      throw new Error(request.message);
    },
    onSuccess: (_view, request) => {
      toast.success(successText(type, request));
      return invalidateReminders(queryClient);
    },
    onError: (error) => {
      // The server's refusal of the amount or the days belongs under that field; others get the client's toast.
      if (isApiError(error) && error.status === 400 && !alwaysOn) {
        claimError(error);
        form.setFields([{ name: type === 'BALANCE_LOW' ? 'threshold' : 'daysBefore', errors: [error.message] }]);
      }
    },
  });

  function submit(values: ReminderDraft) {
    const request = reminderRequestOf(type, { ...initial, ...values });
    if (request.action === 'invalid') {
      form.setFields([{ name: request.field, errors: [request.message] }]);
      return;
    }
    save.mutate(request);
  }

  const typedFen = type === 'BALANCE_LOW' ? parseYuanToFen(current.threshold ?? '') : null;
  const balanceText = sharedMainBalance ? T.threshold.sharedBalance(formatYuan(balanceFen)) : T.threshold.balance(formatYuan(balanceFen));

  return (
    <section className="slg-reminder-row" aria-label={texts.title}>
      <Form<ReminderDraft> form={form} name={`reminder-${type}`} initialValues={initial} onFinish={submit}>
        <div className="slg-reminder-head">
          <div className="slg-reminder-title">
            <Typography.Text strong>{texts.title}</Typography.Text>
            <Typography.Paragraph type="secondary" className="slg-reminder-text">
              {texts.text}
            </Typography.Paragraph>
          </div>
          {alwaysOn ? (
            <Tooltip title={T.alwaysOn}>
              <span className="slg-reminder-switch">
                <Switch checked disabled aria-label={T.enabledLabel(texts.title)} />
                <Typography.Text type="secondary" className="slg-reminder-always">
                  {T.alwaysOn}
                </Typography.Text>
              </span>
            </Tooltip>
          ) : (
            <Form.Item name="enabled" valuePropName="checked" noStyle>
              <Switch aria-label={T.enabledLabel(texts.title)} />
            </Form.Item>
          )}
        </div>

        <div className="slg-reminder-fields">
          {enabled && type === 'BALANCE_LOW' ? (
            <Form.Item
              name="threshold"
              label={T.threshold.label}
              className="slg-reminder-threshold"
              extra={balanceText}
              rules={[
                {
                  validator: async (_rule, value?: string) => {
                    const checked = checkThreshold(value);
                    if ('error' in checked) throw new Error(checked.error);
                  },
                },
              ]}
            >
              <Input prefix="¥" inputMode="decimal" placeholder={T.threshold.placeholder} autoComplete="off" aria-label={T.threshold.label} />
            </Form.Item>
          ) : null}
          {enabled && type === 'PACKAGE_EXPIRING' ? (
            <Form.Item name="daysBefore" label={T.days.label} className="slg-reminder-days">
              <Select options={DAY_OPTIONS} aria-label={T.days.label} />
            </Form.Item>
          ) : null}
          {enabled ? (
            <Form.Item name="sms" valuePropName="checked" className="slg-reminder-sms">
              <Checkbox aria-label={T.smsLabel(texts.title)}>{T.sms}</Checkbox>
            </Form.Item>
          ) : null}
          {dirty || save.isPending ? (
            <div className="slg-reminder-actions">
              <Button type="primary" htmlType="submit" loading={save.isPending} aria-label={`${T.save}${texts.title}`}>
                {T.save}
              </Button>
              <Button onClick={() => form.resetFields()} disabled={save.isPending}>
                {T.reset}
              </Button>
              <Typography.Text type="warning" className="slg-reminder-unsaved">
                {T.unsaved}
              </Typography.Text>
            </div>
          ) : null}
        </div>

        {enabled && dirty && type === 'BALANCE_LOW' && typedFen !== null && typedFen > balanceFen ? (
          <Typography.Paragraph type="warning" className="slg-reminder-note">
            {T.threshold.alreadyBelow}
          </Typography.Paragraph>
        ) : null}
        {type === 'BALANCE_LOW' && view.enabled && view.firedAt && view.thresholdFen !== null && !dirty ? (
          <Typography.Paragraph type="secondary" className="slg-reminder-note">
            {T.threshold.fired(formatDateTime(view.firedAt), formatYuan(view.thresholdFen))}
          </Typography.Paragraph>
        ) : null}
      </Form>
    </section>
  );
}

/** 提醒设置: a row per reminder type, each saved on its own. */
export function ReminderSettings() {
  const query = useRemindersQuery();
  const data = query.data;
  let content;
  if (query.isError && !data) {
    content = <QueryError title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  } else if (!data) {
    content = <Skeleton active paragraph={{ rows: 6 }} />;
  } else {
    content = (
      <div className="slg-reminder-rows">
        {data.list.map((view) => (
          // Remounted when the saved setting changes, so the form starts from it again.
          <ReminderRow key={JSON.stringify(view)} view={view} balanceFen={data.balanceFen} sharedMainBalance={data.sharedMainBalance} />
        ))}
      </div>
    );
  }
  return (
    <Card
      className="slg-reminder-card"
      title={
        <span className="slg-reminder-card-title">
          <BellOutlined />
          {T.title}
        </span>
      }
    >
      <Typography.Paragraph type="secondary">{T.intro}</Typography.Paragraph>
      {content}
    </Card>
  );
}
