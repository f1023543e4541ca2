import { formatYuan, PACKAGE_LABELS, PACKAGE_UNIT_LABELS, packageEnd, TIME_PACKAGE_COUNTS, TIME_PACKAGE_KEYS, type PackageKey } from '@slg/shared';
import { Alert, Button, Card, Form, Radio, Result, Select, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useMarketHostQuery, type InstanceView } from '../../../api/compute';
import { toast } from '../../../api/toast';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { formatDateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { QueryError } from '../../../components/QueryError';
import { withAntd } from '../../../theme/AntdScope';
import { BalanceCheck, DialogError, Figures, useChargingSwitch } from '../containerInstances/components/billingParts';
import { BackToList, InstanceFacts, SingleInstancePage } from '../containerInstances/components/BillingPageFrame';
import { BILLING_PAGE_TEXTS } from '../containerInstances/components/billingPageTexts';
import { statusLabelOf } from '../containerInstances/components/InstanceStatus';
import { canDo, packageOf } from '../containerInstances/instanceRules';
import { INSTANCE_LIST_TEXTS } from '../containerInstances/texts';
import { COMPUTE_PATHS, payByVolumePath, renewPath } from '../paths';
import { YEAR_MONTH_TEXTS } from './texts';

const T = YEAR_MONTH_TEXTS;
const PACKAGE_KEYS = Object.keys(TIME_PACKAGE_KEYS) as PackageKey[];

/** 月 rather than 个月 after a slash: ¥990.00/卡·月. */
function periodUnit(key: PackageKey): string {
  return PACKAGE_UNIT_LABELS[key] === '个月' ? '月' : PACKAGE_UNIT_LABELS[key];
}

/**
 * The package and how many periods, its price from the market (the host's own price per GPU and period)
 * and its end, then the "switch year-month tip" saying what changes before paying.
 */
function YearMonthForm({ instance }: { instance: InstanceView }) {
  const navigate = useNavigate();
  const [key, setKey] = useState<PackageKey>('day');
  const [count, setCount] = useState(1);
  const [confirming, setConfirming] = useState(false);
  const chargingRuleId = TIME_PACKAGE_KEYS[key];
  const host = useMarketHostQuery(instance.hostId, chargingRuleId);
  const change = useChargingSwitch({
    onDone: () => {
      toast.success(T.done(PACKAGE_LABELS[key], formatDateTime(packageEnd(new Date(), key, count).toISOString())));
      void navigate(COMPUTE_PATHS.list);
    },
    onFailed: () => setConfirming(false),
  });
  const market = host.data;
  const total = market ? market.pricePerGpuFen * instance.gpuNum * count : undefined;
  const end = formatDateTime(packageEnd(new Date(), key, count).toISOString());
  const switchable = canDo(instance, 'switch_charging');
  // An instance that is off holds no GPUs on 按量: the package takes them back from the host's free ones.
  const needsGpus = instance.status === 'PoweredOff' || instance.status === 'Error';
  const duration = INSTANCE_LIST_TEXTS.plan.count(count, key);

  let figures;
  if (host.isError && host.data === undefined) figures = <QueryError title={INSTANCE_LIST_TEXTS.plan.priceFailed} error={host.error} onRetry={() => void host.refetch()} />;
  else if (host.isPending) figures = <Skeleton active title={false} paragraph={{ rows: 4 }} />;
  else if (!market || total === undefined) figures = <Alert type="error" showIcon title={T.hostGone} />;
  else {
    figures = (
      <>
        <Figures
          label={T.price}
          rows={[
            { label: T.unitPrice, value: T.perGpuPeriod(formatYuan(market.pricePerGpuFen), periodUnit(key)) },
            { label: T.gpus, value: T.gpuCount(instance.gpuNum) },
            { label: T.duration, value: duration },
            { label: T.expiresAt, value: end },
            { label: T.payable, value: formatYuan(total), total: true },
          ]}
        />
        {needsGpus && market.gpuFree < instance.gpuNum ? <Alert type="warning" showIcon title={T.shortage(market.gpuFree, instance.gpuNum)} /> : null}
      </>
    );
  }

  return (
    <div className="slg-billing-layout">
      <div className="slg-billing-main">
        <InstanceFacts instance={instance} />
        <Card title={T.choose} className="slg-billing-card">
          <Form layout="vertical" requiredMark={false} className="slg-plan-form" component="div">
            <Form.Item label={T.plan}>
              <Radio.Group
                aria-label={T.plan}
                name="year-month-plan"
                optionType="button"
                value={key}
                disabled={change.pending}
                onChange={(event) => {
                  setKey(event.target.value as PackageKey);
                  setCount(1);
                }}
                options={PACKAGE_KEYS.map((option) => ({ value: option, label: PACKAGE_LABELS[option] }))}
              />
            </Form.Item>
            <Form.Item label={T.duration} htmlFor="year-month-count">
              <Select
                id="year-month-count"
                value={count}
                disabled={change.pending}
                onChange={(value: number) => setCount(value)}
                options={TIME_PACKAGE_COUNTS[key].map((option) => ({ value: option, label: INSTANCE_LIST_TEXTS.plan.count(option, key) }))}
              />
            </Form.Item>
            <Form.Item label={T.voucher}>
              <Typography.Text type="secondary">{T.noVoucher}</Typography.Text>
            </Form.Item>
            <Form.Item label={T.autoRenew}>
              <Typography.Text type="secondary">{T.autoRenewLater}</Typography.Text>
            </Form.Item>
          </Form>
        </Card>
      </div>
      <div className="slg-billing-side">
        <Card title={T.price} className="slg-billing-card">
          <Space orientation="vertical" size={12}>
            {switchable ? null : <Alert type="warning" showIcon title={BILLING_PAGE_TEXTS.busy(statusLabelOf(instance))} />}
            {figures}
            <BalanceCheck payable={total} />
            <Typography.Text type="secondary">{T.rule}</Typography.Text>
            <DialogError message={change.error.message} />
            <Button
              type="primary"
              size="large"
              className="slg-billing-submit"
              disabled={total === undefined || !switchable}
              loading={change.pending}
              onClick={() => setConfirming(true)}
            >
              {total !== undefined ? T.submit(formatYuan(total)) : T.submitPending}
            </Button>
          </Space>
        </Card>
      </div>
      {total !== undefined ? (
        <ConfirmDialog
          open={confirming}
          texts={{ title: T.tip.title(PACKAGE_LABELS[key]), confirm: T.submit(formatYuan(total)), cancel: T.tip.cancel }}
          loading={change.pending}
          onConfirm={() => change.send({ instanceId: instance.instanceId, chargingRuleId, rentAmount: count })}
          onCancel={() => setConfirming(false)}
        >
          <Space orientation="vertical" size={8}>
            <Typography.Text strong>{T.tip.intro(instance.name, PACKAGE_LABELS[key], duration, formatYuan(total))}</Typography.Text>
            <ul className="slg-billing-tip">
              <li>{T.tip.period(end)}</li>
              <li>{T.tip.gpus}</li>
              <li>{T.tip.refund}</li>
            </ul>
          </Space>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** A package already: the ways on from there (续费, 转按量计费). */
function AlreadyPackage({ instance, plan }: { instance: InstanceView; plan: PackageKey }) {
  return (
    <Result
      status="info"
      title={T.alreadyPackage(PACKAGE_LABELS[plan])}
      subTitle={T.alreadyPackageHint}
      extra={[
        <LinkButton key="renew" type="primary" to={renewPath([instance.instanceId])}>
          {T.renew}
        </LinkButton>,
        <LinkButton key="usage" to={payByVolumePath(instance.instanceId)}>
          {INSTANCE_LIST_TEXTS.menu.toUsage}
        </LinkButton>,
        <BackToList key="back" type="default" />,
      ]}
    />
  );
}

/** `/ctrl-container-instances/yearMonthPackages?instanceId=`: a pay-as-you-go instance to 包日 / 包周 / 包月. */
function YearMonthPackagesPage() {
  return (
    <SingleInstancePage title={T.title} description={T.description}>
      {(instance) => {
        const plan = packageOf(instance);
        return plan ? <AlreadyPackage instance={instance} plan={plan} /> : <YearMonthForm instance={instance} />;
      }}
    </SingleInstancePage>
  );
}

export default withAntd(YearMonthPackagesPage);
