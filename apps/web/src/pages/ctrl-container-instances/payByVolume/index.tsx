import { formatYuan, USAGE_CHARGING_RULE_ID } from '@slg/shared';
import { Alert, Button, Card, Result, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useRefundPreviewQuery, type InstanceView, type RefundPreview } from '../../../api/compute';
import { toast } from '../../../api/toast';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LinkButton } from '../../../components/LinkButton';
import { QueryError } from '../../../components/QueryError';
import { withAntd } from '../../../theme/AntdScope';
import { DialogError, Figures, useChargingSwitch, type Figure } from '../containerInstances/components/billingParts';
import { BackToList, InstanceFacts, SingleInstancePage } from '../containerInstances/components/BillingPageFrame';
import { BILLING_PAGE_TEXTS } from '../containerInstances/components/billingPageTexts';
import { statusLabelOf } from '../containerInstances/components/InstanceStatus';
import { canDo, packageOf } from '../containerInstances/instanceRules';
import { COMPUTE_PATHS, yearMonthPackagesPath } from '../paths';
import { PAY_BY_VOLUME_TEXTS } from './texts';

const T = PAY_BY_VOLUME_TEXTS;

/** The refund as the server applies it: 已付 − 按量单价 × 已用小时 (the hours said when the figure is exactly that). */
export function refundRows(refund: RefundPreview, hourlyFen: number): Figure[] {
  const hours = hourlyFen > 0 && refund.used < refund.paid && refund.used % hourlyFen === 0 ? refund.used / hourlyFen : null;
  let usedLabel: string = T.used;
  if (hours !== null) usedLabel = T.usedHours(formatYuan(hourlyFen), hours);
  else if (refund.paid > 0 && refund.used >= refund.paid) usedLabel = T.usedAll;
  return [
    { label: T.paid, value: formatYuan(refund.paid) },
    { label: usedLabel, value: `-${formatYuan(refund.used)}` },
    { label: T.refund, value: formatYuan(refund.refund), total: true },
  ];
}

function PayByVolumeForm({ instance }: { instance: InstanceView }) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const preview = useRefundPreviewQuery(instance.rentalUid);
  const change = useChargingSwitch({
    onDone: (result) => {
      toast.success(T.done(formatYuan(result.refund)));
      void navigate(COMPUTE_PATHS.list);
    },
    onFailed: () => setConfirming(false),
  });
  const refund = preview.data;
  const switchable = canDo(instance, 'switch_charging');
  const hourly = formatYuan(instance.gpuPriceFen);

  let figures;
  if (preview.isError && !refund) figures = <QueryError title={T.refundFailed} error={preview.error} onRetry={() => void preview.refetch()} />;
  else if (!refund) figures = <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  else figures = <Figures label={T.refundTitle} rows={refundRows(refund, instance.gpuPriceFen)} />;

  return (
    <div className="slg-billing-layout">
      <div className="slg-billing-main">
        <InstanceFacts instance={instance} />
        <Card title={T.afterTitle} className="slg-billing-card">
          <Space orientation="vertical" size={12}>
            <Alert type="warning" showIcon title={T.gpus} />
            <Typography.Text>{T.metering(hourly)}</Typography.Text>
          </Space>
        </Card>
      </div>
      <div className="slg-billing-side">
        <Card title={T.refundTitle} className="slg-billing-card">
          <Space orientation="vertical" size={12}>
            {switchable ? null : <Alert type="warning" showIcon title={BILLING_PAGE_TEXTS.busy(statusLabelOf(instance))} />}
            {figures}
            <Alert type="info" showIcon title={T.noVoucher} />
            <Typography.Text type="secondary">{T.rule}</Typography.Text>
            <DialogError message={change.error.message} />
            <Button
              type="primary"
              danger
              size="large"
              className="slg-billing-submit"
              disabled={!refund || !switchable}
              loading={change.pending}
              onClick={() => setConfirming(true)}
            >
              {refund ? T.submit(formatYuan(refund.refund)) : T.submitPending}
            </Button>
          </Space>
        </Card>
      </div>
      {refund ? (
        <ConfirmDialog
          open={confirming}
          danger
          texts={{ title: T.confirmTitle, confirm: T.submit(formatYuan(refund.refund)), cancel: T.cancel }}
          loading={change.pending}
          onConfirm={() => change.send({ instanceId: instance.instanceId, chargingRuleId: USAGE_CHARGING_RULE_ID })}
          onCancel={() => setConfirming(false)}
        >
          <Space orientation="vertical" size={8}>
            <Typography.Text>{T.confirmBody(instance.name, formatYuan(refund.refund))}</Typography.Text>
            <Typography.Text type="warning">{T.confirmGpus}</Typography.Text>
          </Space>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** Pay-as-you-go already: nothing to switch; the way to a package instead. */
function AlreadyUsage({ instance }: { instance: InstanceView }) {
  return (
    <Result
      status="info"
      title={T.notPackage}
      subTitle={T.notPackageHint}
      extra={[
        <LinkButton key="package" type="primary" to={yearMonthPackagesPath(instance.instanceId)}>
          {T.toPackage}
        </LinkButton>,
        <BackToList key="back" type="default" />,
      ]}
    />
  );
}

/** `/ctrl-container-instances/payByVolume?instanceId=`: a package to pay-as-you-go, the refund shown before confirming. */
function PayByVolumePage() {
  return (
    <SingleInstancePage title={T.title} description={T.description}>
      {(instance) => (packageOf(instance) ? <PayByVolumeForm instance={instance} /> : <AlreadyUsage instance={instance} />)}
    </SingleInstancePage>
  );
}

export default withAntd(PayByVolumePage);
