import { BALANCE_COVER_HOURS, ErrorCodes, formatYuan, type PackageKey } from '@slg/shared';
import { Alert, Button, Card, Skeleton, Space, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { isApiError, type ApiError } from '../../../api/client';
import type { PrepayResult } from '../../../api/compute';
import { LinkButton } from '../../../components/LinkButton';
import { RentalProtocol } from '../createInstances/RentalProtocol';
import { CREATE_INSTANCE_TEXTS } from '../createInstances/texts';
import { COMPUTE_PATHS } from '../paths';
import { ORDER_TEXTS } from './texts';

const T = ORDER_TEXTS;

/** Whether the balance cannot pay (a package) or cover (pay-as-you-go) what the quote asks. */
export function isShort(payable: number | undefined, balance: number | undefined): boolean {
  return payable !== undefined && balance !== undefined && balance < payable;
}

interface BalanceCheckProps {
  payable: number;
  packageKey: PackageKey | null;
  balance: number | undefined;
}

/** Pay-as-you-go: the hours the balance must cover. Either: a balance short of it, with 去充值. */
export function BalanceCheck({ payable, packageKey, balance }: BalanceCheckProps) {
  return (
    <>
      {packageKey ? null : (
        <Typography.Paragraph type="secondary" className="slg-create-cover">
          {T.balance.cover(BALANCE_COVER_HOURS, formatYuan(payable))}
        </Typography.Paragraph>
      )}
      {balance !== undefined && isShort(payable, balance) ? (
        <Alert
          type="warning"
          showIcon
          className="slg-create-alert"
          title={T.balance.shortTitle}
          description={packageKey ? T.balance.shortPackage(formatYuan(payable), formatYuan(balance)) : T.balance.shortHourly(formatYuan(payable), formatYuan(balance))}
          action={
            <LinkButton size="small" type="primary" to={COMPUTE_PATHS.recharge}>
              {T.balance.recharge}
            </LinkButton>
          }
        />
      ) : null}
    </>
  );
}

/** What the way forward from a refusal is: 去充值, another host, or back to the choices. */
export type RefusalAction = 'recharge' | 'choose_host' | 'change';

/** The server's refusal of the order, shown once above the button with the way forward. */
export interface Refusal {
  message: string;
  action: RefusalAction;
  /** Where 返回修改 goes instead of the page's own link (e.g. without the voucher that was refused). */
  changeTo?: string;
}

/**
 * The refusal of an order: a short balance leads to 去充值 and GPUs taken meanwhile to another host,
 * as for every order; the page tells the rest (`actionOf`), and whatever it does not know is 返回修改.
 */
export function refusalOf(error: Error, actionOf: (error: ApiError) => RefusalAction | undefined = () => undefined): Refusal {
  if (!isApiError(error)) return { message: error.message, action: 'change' };
  if (error.code === ErrorCodes.INSUFFICIENT_BALANCE.code) return { message: error.message, action: 'recharge' };
  if (error.code === ErrorCodes.HOST_GPU_SHORTAGE.code) return { message: error.message, action: 'choose_host' };
  return { message: error.message, action: actionOf(error) ?? 'change' };
}

/** Where the ways forward of the order page lead. */
export interface OrderLinks {
  /** Back to the choose page with the choice kept. */
  change: string;
  /** To choose another host. */
  chooseHost: string;
}

function RefusalAlert({ refusal, links }: { refusal: Refusal; links: OrderLinks }) {
  let action: ReactNode;
  if (refusal.action === 'recharge') {
    action = (
      <LinkButton size="small" type="primary" to={COMPUTE_PATHS.recharge}>
        {T.refusal.recharge}
      </LinkButton>
    );
  } else if (refusal.action === 'choose_host') {
    action = (
      <LinkButton size="small" to={links.chooseHost}>
        {T.refusal.chooseHost}
      </LinkButton>
    );
  } else {
    action = (
      <LinkButton size="small" to={refusal.changeTo ?? links.change}>
        {T.refusal.change}
      </LinkButton>
    );
  }
  return <Alert type="error" showIcon className="slg-create-alert" title={refusal.message} action={action} />;
}

/** The part of a prepay query the card reads (a react-query result fits). */
export interface PrepayState<Q extends PrepayResult> {
  data: Q | undefined;
  error: Error | null;
  refetch: () => unknown;
}

interface OrderPayCardProps<Q extends PrepayResult> {
  /** The prepay of exactly the body the button sends. */
  prepay: PrepayState<Q>;
  /** The title of a refused price, e.g. 无法按此配置创建. */
  failedTitle: string;
  figuresOf: (quote: Q) => ReactNode;
  packageKey: PackageKey | null;
  balance: number | undefined;
  links: OrderLinks;
  /** The page's own reasons not to send now (a host without the GPUs, a source not off), above the agreement. */
  warnings?: ReactNode;
  refusal: Refusal | null;
  /** Whether the page's own checks pass; the price, the balance and the agreement are checked here. */
  ready: boolean;
  submitText: (quote: Q | undefined) => string;
  submitting: boolean;
  danger?: boolean;
  onSubmit: () => void;
}

/**
 * 费用 of an order page: the price of the body to send (or its refusal, with 重试 and 返回修改), the
 * balance against it, the page's warnings, the server's refusal, the agreement, and the one button.
 */
export function OrderPayCard<Q extends PrepayResult>({
  prepay,
  failedTitle,
  figuresOf,
  packageKey,
  balance,
  links,
  warnings,
  refusal,
  ready,
  submitText,
  submitting,
  danger = false,
  onSubmit,
}: OrderPayCardProps<Q>) {
  const [agreed, setAgreed] = useState(false);
  const quote = prepay.data;
  const short = isShort(quote?.payable, balance);

  let figures: ReactNode;
  if (prepay.error && !quote) {
    figures = (
      <Alert
        type="error"
        showIcon
        className="slg-create-alert"
        title={failedTitle}
        description={prepay.error.message}
        action={
          <Space orientation="vertical" size={4}>
            <Button size="small" onClick={() => void prepay.refetch()}>
              {T.pay.retry}
            </Button>
            <LinkButton size="small" to={links.change}>
              {T.pay.change}
            </LinkButton>
          </Space>
        }
      />
    );
  } else if (quote) figures = figuresOf(quote);
  else figures = <Skeleton active title={false} paragraph={{ rows: 4 }} />;

  return (
    <Card title={T.pay.title} className="slg-create-card slg-create-price-card">
      {figures}
      {/* A refused payment already says the balance is short, with 去充值: not twice. */}
      {quote && refusal?.action !== 'recharge' ? <BalanceCheck payable={quote.payable} packageKey={packageKey} balance={balance} /> : null}
      {warnings}
      {refusal ? <RefusalAlert refusal={refusal} links={links} /> : null}
      <RentalProtocol agreed={agreed} onAgreedChange={setAgreed} />
      <Button
        type="primary"
        size="large"
        block
        danger={danger}
        loading={submitting}
        disabled={!ready || !quote || prepay.error !== null || short || !agreed}
        title={agreed ? undefined : CREATE_INSTANCE_TEXTS.protocol.required}
        onClick={onSubmit}
      >
        {submitText(quote)}
      </Button>
    </Card>
  );
}
