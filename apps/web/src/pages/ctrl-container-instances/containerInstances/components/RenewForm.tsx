import { formatYuan, PACKAGE_LABELS, TIME_PACKAGE_COUNTS, type PackageKey } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Form, Select, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { invalidateAfterInstanceChange, renewInstances, useRenewPrepayQuery, type InstanceView, type RenewBody } from '../../../../api/compute';
import { toast } from '../../../../api/toast';
import { formatDateTime } from '../../../../components/DateTime';
import { QueryError } from '../../../../components/QueryError';
import { VoucherSelect } from '../../VoucherSelect';
import { INSTANCE_LIST_TEXTS } from '../texts';
import { BalanceCheck, DialogError, Figures, useAttemptKey, useDialogError } from './billingParts';

const T = INSTANCE_LIST_TEXTS;

interface RenewFormOptions {
  /** The instances to renew: packages that can be renewed now, all of `packageKey`. */
  instances: readonly InstanceView[];
  packageKey: PackageKey;
  /** Prices only while shown (a closed dialog asks nothing). */
  enabled: boolean;
  /** After the renewal was paid (its toast already shown). */
  onRenewed: () => void;
}

/**
 * The state of a 续费: how many periods, the voucher (one instance only: the server refuses one for a
 * batch), the server's price of exactly that body, and the payment with one Idempotency-Key per attempt.
 * Used by the single 续费 dialog and by the 续费 page, so both price and pay the same way.
 */
export function useRenewForm({ instances, packageKey, enabled, onRenewed }: RenewFormOptions) {
  const queryClient = useQueryClient();
  const counts = TIME_PACKAGE_COUNTS[packageKey];
  const [rentAmount, setRentAmount] = useState<number>(counts[0]);
  const [voucherId, setVoucherId] = useState<number | undefined>(undefined);
  const single = instances.length === 1;
  const body: RenewBody = {
    instanceIds: instances.map((instance) => instance.instanceId),
    rentAmount,
    ...(single && voucherId ? { voucherId } : {}),
  };
  const prepay = useRenewPrepayQuery(enabled && instances.length > 0 ? body : null);
  // A price of another body (kept while the new one loads) is never shown as this one's.
  const price = prepay.isPlaceholderData ? undefined : prepay.data;
  const attempt = useAttemptKey();
  const error = useDialogError();
  const renew = useMutation({
    mutationFn: (sent: RenewBody) => renewInstances(sent, attempt.keyFor(sent)),
    onSuccess: (_result, sent) => {
      attempt.answered();
      const end = price?.items[0]?.expiresAt;
      toast.success(sent.instanceIds.length === 1 ? T.renew.done(formatDateTime(end)) : T.renew.doneMany(sent.instanceIds.length));
      onRenewed();
    },
    onError: (failure) => {
      attempt.answered(failure);
      error.show(failure);
    },
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });
  return {
    instances,
    packageKey,
    single,
    counts,
    rentAmount,
    voucherId,
    chooseCount(count: number) {
      setRentAmount(count);
      // A voucher fits an amount: the new amount may not reach its threshold.
      setVoucherId(undefined);
    },
    chooseVoucher: setVoucherId,
    prepay,
    price,
    error,
    paying: renew.isPending,
    /** Priced for what would be sent, and not being priced again. */
    ready: price !== undefined && !prepay.isFetching && !renew.isPending,
    submitText: price ? T.renew.submit(formatYuan(price.payable)) : T.renew.submitPending,
    submit() {
      error.clear();
      renew.mutate(body);
    },
  };
}

export type RenewFormState = ReturnType<typeof useRenewForm>;

/** Each instance with its package, its current end and the end after this renewal (and its amount when there are several). */
export function RenewLines({ form, className }: { form: RenewFormState; className?: string }) {
  const items = new Map((form.price?.items ?? []).map((item) => [item.instanceId, item]));
  return (
    <ul className={['slg-plan-lines', className].filter(Boolean).join(' ')} aria-label={T.renew.instances}>
      {form.instances.map((instance) => {
        const item = items.get(instance.instanceId);
        return (
          <li key={instance.instanceId}>
            <div className="slg-plan-line-head">
              <strong>{instance.name}</strong>
              {form.single ? null : <span className="slg-plan-amount">{item ? formatYuan(item.amount) : '-'}</span>}
            </div>
            <Typography.Text type="secondary" className="slg-instance-note">
              {T.renew.plan(PACKAGE_LABELS[form.packageKey], T.spec.gpu(instance.gpuModelName, instance.gpuNum))} · {instance.instanceId}
            </Typography.Text>
            <dl className="slg-renew-ends">
              <div>
                <dt>{T.renew.currentEnd}</dt>
                <dd>{formatDateTime(instance.expiresAt)}</dd>
              </div>
              <div>
                <dt>{T.renew.newEnd}</dt>
                <dd aria-live="polite">{item ? formatDateTime(item.expiresAt) : '-'}</dd>
              </div>
            </dl>
          </li>
        );
      })}
    </ul>
  );
}

/** 续费时长 (the counts the package sells) and, for one instance, 代金券. */
export function RenewChoices({ form, idPrefix }: { form: RenewFormState; idPrefix: string }) {
  return (
    <Form layout="vertical" requiredMark={false} className="slg-plan-form" component="div">
      <Form.Item label={T.renew.duration} htmlFor={`${idPrefix}-count`}>
        <Select
          id={`${idPrefix}-count`}
          value={form.rentAmount}
          disabled={form.paying}
          onChange={(count: number) => form.chooseCount(count)}
          options={form.counts.map((count) => ({ value: count, label: T.plan.count(count, form.packageKey) }))}
        />
      </Form.Item>
      {form.single ? (
        <Form.Item label={T.renew.voucher} htmlFor={`${idPrefix}-voucher`}>
          <VoucherSelect
            id={`${idPrefix}-voucher`}
            orderType="RENEWAL_CONTAINER"
            amountFen={form.prepay.data?.amount}
            value={form.voucherId}
            onChange={form.chooseVoucher}
          />
        </Form.Item>
      ) : (
        <Alert type="info" showIcon title={T.renew.noVoucher} />
      )}
    </Form>
  );
}

/** The server's price (原价, 抵扣, 应付), the balance against it, the rule, and a refused payment. */
export function RenewPrice({ form }: { form: RenewFormState }) {
  const { prepay, price } = form;
  let figures;
  if (prepay.isError && !prepay.data) figures = <QueryError title={T.plan.priceFailed} error={prepay.error} onRetry={() => void prepay.refetch()} />;
  else if (!price) figures = <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  else {
    figures = (
      <Figures
        rows={[
          { label: T.renew.original, value: formatYuan(price.amount) },
          ...(price.discount > 0 ? [{ label: T.renew.discount, value: `-${formatYuan(price.discount)}` }] : []),
          { label: form.single ? T.renew.payable : T.renew.total(form.instances.length), value: formatYuan(price.payable), total: true },
        ]}
      />
    );
  }
  return (
    <div className="slg-plan-price">
      {figures}
      <BalanceCheck payable={price?.payable} />
      <Typography.Text type="secondary">{form.single ? T.renew.rule : T.renew.ruleMany}</Typography.Text>
      <DialogError message={form.error.message} />
    </div>
  );
}
