import { CHARGING_RULES, packageKeyOfRule, type PackageKey } from '@slg/shared';
import { Alert, Card, Descriptions, Result, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useVerificationStatusQuery } from '../../../api/verification';
import { useUnusedVouchersQuery } from '../../../api/vouchers';
import { LinkButton } from '../../../components/LinkButton';
import { VERIFY_PATHS } from '../../ctrl-personal-center/authentication/paths';
import { CREATE_INSTANCE_TEXTS } from '../createInstances/texts';
import type { OrderBilling } from './orderQuery';
import { ORDER_TEXTS } from './texts';

const T = ORDER_TEXTS;

/** 计费 of an order: the rule, and for a package its duration, voucher (by name once known) and auto-renew. */
export function OrderBillingCard({ billing }: { billing: OrderBilling }) {
  const packageKey = packageKeyOfRule(billing.chargingRuleId);
  const vouchers = useUnusedVouchersQuery(billing.voucherId !== undefined);
  const voucher = vouchers.data?.list.find((item) => item.id === billing.voucherId);
  const ruleName = CHARGING_RULES.find((rule) => rule.id === billing.chargingRuleId)?.showName ?? '';
  const items: { key: string; label: string; children: ReactNode }[] = [{ key: 'rule', label: T.billing.rule, children: ruleName }];
  if (packageKey && billing.rentAmount !== undefined) {
    items.push(
      { key: 'duration', label: T.billing.duration, children: CREATE_INSTANCE_TEXTS.package.count(billing.rentAmount, packageKey) },
      {
        key: 'voucher',
        label: T.billing.voucher,
        children: billing.voucherId === undefined ? T.billing.voucherNone : (voucher?.name ?? T.billing.voucherUnknown(billing.voucherId)),
      },
      { key: 'auto', label: T.billing.autoRenew, children: billing.autoRenew ? T.billing.yes : T.billing.no },
    );
  }
  return (
    <Card title={T.billing.title} className="slg-create-card">
      <Descriptions column={{ xs: 1, sm: 2 }} size="small" items={items} />
    </Card>
  );
}

interface OrderLinkProblemProps {
  title: string;
  /** What is wrong or gone. */
  problem?: string | undefined;
  /** Where to choose again (重新选择 unless said otherwise). */
  againTo: string;
  againText?: string;
  /** A second way out, e.g. 返回实例列表. */
  other?: { to: string; text: string };
}

/** An order page whose link is off (tampered, stale) or whose host is gone: what is wrong, and the way to choose again. */
export function OrderLinkProblem({ title, problem, againTo, againText = T.link.again, other }: OrderLinkProblemProps) {
  return (
    <Result
      status="warning"
      title={title}
      subTitle={problem}
      extra={[
        <LinkButton key="again" type="primary" to={againTo}>
          {againText}
        </LinkButton>,
        ...(other
          ? [
              <LinkButton key="other" to={other.to}>
                {other.text}
              </LinkButton>,
            ]
          : []),
      ]}
    />
  );
}

/** The host can no longer take the order (GPUs gone, delisted…): why, and back to choosing a host. */
export function HostBlockedAlert({ title, reason, chooseHost }: { title: string; reason: string; chooseHost: string }) {
  return (
    <Alert
      type="warning"
      showIcon
      className="slg-create-alert"
      title={title}
      description={reason}
      action={
        <LinkButton size="small" to={chooseHost}>
          {T.refusal.chooseHost}
        </LinkButton>
      }
    />
  );
}

/**
 * With REQUIRE_VERIFICATION on, an account without an approved 实名认证 is told so before it pays (the
 * server refuses it anyway); `needed` is false while the status loads or when it is not required.
 */
export function useVerificationNeeded(): boolean {
  const status = useVerificationStatusQuery();
  return Boolean(status.data?.required && !status.data.verified);
}

export function VerificationNeededAlert() {
  return (
    <Alert
      type="warning"
      showIcon
      className="slg-create-alert"
      title={T.verification.title}
      description={
        <>
          {/* Below the text, not beside it: the pay card is narrow. */}
          <Typography.Paragraph>{T.verification.body}</Typography.Paragraph>
          <LinkButton size="small" type="primary" to={VERIFY_PATHS.overview}>
            {T.verification.action}
          </LinkButton>
        </>
      }
    />
  );
}

/** 须知 under a create order: the billing, arrears and release rules of pay-as-you-go or of a package. */
export function CreateNoticeCard({ packageKey }: { packageKey: PackageKey | null | undefined }) {
  const notice = CREATE_INSTANCE_TEXTS.notice;
  return (
    <Card title={notice.title} className="slg-create-card slg-create-notice-card" size="small">
      <ul className="slg-create-notice">
        {(packageKey ? notice.packagePoints : notice.points).map((point) => (
          <li key={point}>
            <Typography.Text type="secondary">{point}</Typography.Text>
          </li>
        ))}
      </ul>
    </Card>
  );
}
