import { formatYuan } from '@slg/shared';
import { Alert, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import { useBalanceQuery } from '../../../../api/account';
import { claimError, isApiError } from '../../../../api/client';
import { invalidateAfterInstanceChange, updateChargingRule } from '../../../../api/compute';
import { newIdempotencyKey } from '../../../../api/idempotency';
import { LinkButton } from '../../../../components/LinkButton';
import { COMPUTE_PATHS } from '../../paths';
import { INSTANCE_LIST_TEXTS } from '../texts';
import './billing.css';

const T = INSTANCE_LIST_TEXTS.plan;

/**
 * One `Idempotency-Key` per payment attempt: a retry after a lost answer (no response) with the same
 * body reuses it, so the server pays once; an answer, or a changed body, starts a new attempt.
 */
export function useAttemptKey() {
  const attempt = useRef<{ key: string; body: string } | null>(null);
  return {
    keyFor(body: unknown): string {
      const serialized = JSON.stringify(body);
      if (attempt.current?.body !== serialized) attempt.current = { key: newIdempotencyKey(), body: serialized };
      return attempt.current.key;
    },
    answered(error?: unknown): void {
      if (error === undefined || !isApiError(error) || error.status !== 0) attempt.current = null;
    },
  };
}

/** A failure shown in the dialog it belongs to (claimed, so the client adds no toast): each error once. */
export function useDialogError() {
  const [message, setMessage] = useState<string | null>(null);
  return {
    message,
    clear: () => setMessage(null),
    show(error: unknown): void {
      if (claimError(error) && error instanceof Error) setMessage(error.message);
    },
  };
}

export function DialogError({ message }: { message: string | null }) {
  return message ? <Alert type="error" showIcon title={message} /> : null;
}

export interface Figure {
  label: ReactNode;
  value: ReactNode;
  /** The sum to pay or refund: larger, in the page's accent. */
  total?: boolean;
}

/** Label / value pairs of a price, right-aligned figures. */
export function Figures({ rows, label }: { rows: readonly Figure[]; label?: string }) {
  return (
    <dl className="slg-plan-figures" aria-label={label}>
      {rows.map((row, index) => (
        <div key={index} className={row.total ? 'is-total' : undefined}>
          <dt>{row.label}</dt>
          <dd aria-live={row.total ? 'polite' : undefined}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The balance and, when it does not cover `payable`, a warning with 去充值. */
export function BalanceCheck({ payable }: { payable: number | undefined }) {
  const balance = useBalanceQuery();
  const total = balance.data?.totalBalance;
  const short = payable !== undefined && total !== undefined && total < payable;
  return (
    <>
      <Typography.Text type="secondary" className="slg-plan-balance">
        {T.balance}：{total === undefined ? '-' : formatYuan(total)}
      </Typography.Text>
      {short ? (
        <Alert
          type="warning"
          showIcon
          title={T.short(formatYuan(payable), formatYuan(total))}
          action={
            <LinkButton size="small" to={COMPUTE_PATHS.recharge}>
              {T.recharge}
            </LinkButton>
          }
        />
      ) : null}
    </>
  );
}

export interface ChargingSwitch {
  instanceId: string;
  /** 1 for pay-as-you-go, else the package's rule (2 包日, 3 包周, 4 包月). */
  chargingRuleId: number;
  /** Periods of the package (not sent for pay-as-you-go). */
  rentAmount?: number;
}

/**
 * `PUT /rental/update_charging_rule` with one Idempotency-Key per attempt; a refusal is shown once,
 * where `error.message` is rendered (the client adds no toast).
 */
export function useChargingSwitch(handlers: { onDone: (result: { refund: number; payable: number }) => void; onFailed?: () => void }) {
  const queryClient = useQueryClient();
  const attempt = useAttemptKey();
  const error = useDialogError();
  const mutation = useMutation({
    mutationFn: (input: ChargingSwitch) => updateChargingRule(input, attempt.keyFor(input)),
    onSuccess: (result) => {
      attempt.answered();
      handlers.onDone(result);
    },
    onError: (failure) => {
      attempt.answered(failure);
      error.show(failure);
      handlers.onFailed?.();
    },
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });
  return {
    error,
    pending: mutation.isPending,
    send(input: ChargingSwitch): void {
      error.clear();
      mutation.mutate(input);
    },
  };
}
