import { ArrowLeftOutlined, ArrowRightOutlined } from '@ant-design/icons';
import { BALANCE_COVER_HOURS, CHARGING_RULES, dictItemOf, ErrorCodes, formatYuan, INSTANCE_STATUSES, packageKeyOfRule, type PackageKey } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Result, Skeleton, Space, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useBalanceQuery } from '../../../api/account';
import { claimError, isApiError } from '../../../api/client';
import { cloneInstance, invalidateAfterInstanceChange, useMarketHostQuery, type InstanceView, type MarketHost } from '../../../api/compute';
import { toast } from '../../../api/toast';
import { useUnusedVouchersQuery } from '../../../api/vouchers';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { withAntd } from '../../../theme/AntdScope';
import { cloneBodyOf, chooseAgainPath, dataDiskOf, hostBlocker, INSTANCE_ID_PATTERN, parseChoice, type CloneChoice } from '../cloneInstances/cloneOrder';
import { CloneFigures } from '../cloneInstances/CloneFigures';
import '../cloneInstances/clone.css';
import { useAttemptKey } from '../containerInstances/components/billingParts';
import { useClonePrepayQuery, useImageCuda, useSourceInstance } from '../cloneInstances/queries';
import { CLONE_PAGE_TEXTS } from '../cloneInstances/texts';
import { statusLabelOf } from '../containerInstances/components/InstanceStatus';
import { canDo } from '../containerInstances/instanceRules';
import { HostSummary } from '../createInstances/HostSummary';
import { RentalProtocol } from '../createInstances/RentalProtocol';
import { CREATE_INSTANCE_TEXTS } from '../createInstances/texts';
import '../instances.css';
import { cloneInstancesPath, COMPUTE_PATHS } from '../paths';
import { CONFIRM_CLONE_TEXTS } from './texts';

const T = CONFIRM_CLONE_TEXTS;

/** A refusal of the clone, shown once above the button with the way forward. */
interface Refusal {
  message: string;
  action: 'choose_host' | 'change' | 'recharge';
}

function refusalOf(error: Error): Refusal {
  if (!isApiError(error)) return { message: error.message, action: 'change' };
  if (error.code === ErrorCodes.INSUFFICIENT_BALANCE.code) return { message: error.message, action: 'recharge' };
  // The host lost its GPUs or disk meanwhile, or was delisted: another host is the way on.
  if (error.code === ErrorCodes.HOST_GPU_SHORTAGE.code || error.status === 409 || error.status === 404) return { message: error.message, action: 'choose_host' };
  return { message: error.message, action: 'change' };
}

function modeText(crossRegion: boolean, copyData: boolean): string {
  if (crossRegion) return T.route.crossRegion;
  return copyData ? T.route.sameWithData : T.route.sameSystemOnly;
}

function RouteSide({ title, rows }: { title: ReactNode; rows: { label: string; value: ReactNode }[] }) {
  return (
    <section className="slg-clone-route-side">
      <div className="slg-clone-route-title">{title}</div>
      <dl>
        {rows.map((row) => (
          <div key={row.label} className="slg-clone-route-row">
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Source → new instance, side by side (one under the other at phone width). */
function CloneRoute({ source, host, choice, crossRegion }: { source: InstanceView; host: MarketHost; choice: CloneChoice; crossRegion: boolean }) {
  const newDisk = dataDiskOf(source, choice.copyData);
  return (
    <Card title={T.route.title} className="slg-create-card">
      <Space orientation="vertical" size={16} className="slg-clone-summary">
        <div className="slg-clone-route">
          <RouteSide
            title={
              <>
                <span>{T.route.source}</span>
                <Tag color={dictItemOf(INSTANCE_STATUSES, source.status)?.color ?? 'default'}>{statusLabelOf(source)}</Tag>
              </>
            }
            rows={[
              { label: T.route.name, value: `${source.name}（${source.instanceId}）` },
              { label: T.route.where, value: T.route.whereValue(source.zoneName, source.hostName) },
              { label: T.route.gpu, value: T.route.gpuValue(source.gpuModelName, source.gpuNum) },
              { label: T.route.image, value: source.imageName },
              { label: T.route.dataDisk, value: T.route.dataDiskValue(source.dataDiskGb) },
            ]}
          />
          <ArrowRightOutlined className="slg-clone-route-arrow" aria-hidden />
          <RouteSide
            title={T.route.target}
            rows={[
              { label: T.route.name, value: choice.name ?? `${source.name.slice(0, 29)}-克隆` },
              { label: T.route.where, value: T.route.whereValue(host.zoneName, host.hostName) },
              { label: T.route.gpu, value: T.route.gpuValue(host.gpuModelName, choice.gpuNum) },
              { label: T.route.cpuMemory, value: T.route.cpuMemoryValue(host.cpuPerGpu * choice.gpuNum, host.memoryGbPerGpu * choice.gpuNum) },
              { label: T.route.image, value: T.route.imageCopied(source.imageName) },
              { label: T.route.dataDisk, value: choice.copyData ? T.route.dataDiskCopied(newDisk) : T.route.dataDiskNew(newDisk) },
            ]}
          />
        </div>
        <Descriptions
          column={1}
          size="small"
          items={[{ key: 'mode', label: T.route.mode, children: `${modeText(crossRegion, choice.copyData)}${choice.releaseSource ? '' : `；${T.route.keepSource}`}` }]}
        />
        {choice.releaseSource ? <Alert type="warning" showIcon title={CLONE_PAGE_TEXTS.options.release} description={CLONE_PAGE_TEXTS.options.releaseEffect(source.name, source.instanceId)} /> : null}
      </Space>
    </Card>
  );
}

function BillingCard({ choice, packageKey }: { choice: CloneChoice; packageKey: PackageKey | null }) {
  const vouchers = useUnusedVouchersQuery(choice.voucherId !== undefined);
  const voucher = vouchers.data?.list.find((item) => item.id === choice.voucherId);
  const ruleName = CHARGING_RULES.find((rule) => rule.id === choice.chargingRuleId)?.showName ?? '';
  const items: { key: string; label: string; children: ReactNode }[] = [{ key: 'rule', label: T.billing.rule, children: ruleName }];
  if (packageKey && choice.rentAmount !== undefined) {
    items.push(
      { key: 'duration', label: T.billing.duration, children: CREATE_INSTANCE_TEXTS.package.count(choice.rentAmount, packageKey) },
      {
        key: 'voucher',
        label: T.billing.voucher,
        children: choice.voucherId === undefined ? T.billing.voucherNone : voucher ? T.billing.voucherValue(voucher.name) : T.billing.voucherUnknown(choice.voucherId),
      },
      { key: 'auto', label: T.billing.autoRenew, children: choice.autoRenew ? T.billing.yes : T.billing.no },
    );
  }
  return (
    <Card title={T.billing.title} className="slg-create-card">
      <Descriptions column={{ xs: 1, sm: 2 }} size="small" items={items} />
    </Card>
  );
}

/** The order: what is cloned where, its price from the prepay, the balance, the agreement and the button that sends it. */
function CloneOrder({ source, host, choice }: { source: InstanceView; host: MarketHost; choice: CloneChoice }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const crossRegion = host.zoneId !== source.zoneId;
  const packageKey = packageKeyOfRule(choice.chargingRuleId);
  // The one body: priced by the prepay and sent by the button, so what is paid is what was shown.
  const body = cloneBodyOf(choice);
  const prepay = useClonePrepayQuery(body, crossRegion);
  const balance = useBalanceQuery();
  const imageCuda = useImageCuda(source);
  const [agreed, setAgreed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const attempt = useAttemptKey();
  const clone = useMutation({
    mutationFn: () => cloneInstance(body, crossRegion, attempt.keyFor({ body, crossRegion })),
    onSuccess: (created) => {
      attempt.answered();
      toast.success(choice.releaseSource ? T.moveDone(created.instanceId) : T.done(created.instanceId));
      void navigate(COMPUTE_PATHS.list);
    },
    onError: (failure) => {
      attempt.answered(failure);
      setConfirming(false);
      // Claimed: the refusal is shown here, not as a toast as well.
      claimError(failure);
      setRefusal(refusalOf(failure));
    },
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });

  const quote = prepay.data;
  const clonable = canDo(source, 'clone');
  const blocker = hostBlocker(host, { source, gpuNum: choice.gpuNum, copyData: choice.copyData, releaseSource: choice.releaseSource, imageCuda });
  const total = balance.data?.totalBalance;
  const short = quote !== undefined && total !== undefined && total < quote.payable;
  const priceRefused = prepay.isError;
  const canSubmit = clonable && blocker === null && quote !== undefined && !priceRefused && !short && agreed;
  const submitText = packageKey && quote
    ? (choice.releaseSource ? T.submit.payMove : T.submit.payClone)(formatYuan(quote.payable))
    : choice.releaseSource
      ? T.submit.move
      : T.submit.clone;
  const chooseHost = chooseAgainPath({ ...choice, zoneId: host.zoneId }, false);
  const change = chooseAgainPath({ ...choice, zoneId: host.zoneId });

  let figures: ReactNode;
  if (prepay.isError && !quote) {
    figures = (
      <Alert
        type="error"
        showIcon
        title={T.price.failed}
        description={prepay.error.message}
        action={
          <Space orientation="vertical" size={4}>
            <Button size="small" onClick={() => void prepay.refetch()}>
              {T.price.retry}
            </Button>
            <LinkButton size="small" to={change}>
              {T.price.change}
            </LinkButton>
          </Space>
        }
      />
    );
  } else if (quote) {
    figures = (
      <CloneFigures
        quote={quote}
        gpuNum={choice.gpuNum}
        packageKey={packageKey}
        rentAmount={choice.rentAmount}
        copyData={choice.copyData}
        extra={[{ label: T.price.balance, value: total === undefined ? '-' : formatYuan(total) }]}
      />
    );
  } else figures = <Skeleton active title={false} paragraph={{ rows: 4 }} />;

  let refusalAction: ReactNode = null;
  if (refusal?.action === 'recharge') refusalAction = <LinkButton size="small" type="primary" to={COMPUTE_PATHS.recharge}>{T.refusal.recharge}</LinkButton>;
  else if (refusal?.action === 'choose_host') refusalAction = <LinkButton size="small" to={chooseHost}>{T.refusal.chooseHost}</LinkButton>;
  else if (refusal) refusalAction = <LinkButton size="small" to={change}>{T.refusal.change}</LinkButton>;

  const submit = () => {
    setRefusal(null);
    if (choice.releaseSource) setConfirming(true);
    else clone.mutate();
  };

  return (
    <div className="slg-create-layout">
      <div className="slg-create-main">
        <CloneRoute source={source} host={host} choice={choice} crossRegion={crossRegion} />
        <HostSummary host={host} title={T.targetHost} />
        <BillingCard choice={choice} packageKey={packageKey} />
      </div>
      <aside className="slg-create-side">
        <Card title={T.price.title} className="slg-create-card slg-create-price-card">
          {figures}
          {quote && !packageKey ? (
            <Typography.Paragraph type="secondary" className="slg-create-cover">
              {CREATE_INSTANCE_TEXTS.price.cover(BALANCE_COVER_HOURS, formatYuan(quote.payable))}
            </Typography.Paragraph>
          ) : null}
          {short && quote && total !== undefined ? (
            <Alert
              type="warning"
              showIcon
              className="slg-create-alert"
              title={CREATE_INSTANCE_TEXTS.insufficient.title}
              description={
                packageKey
                  ? CREATE_INSTANCE_TEXTS.insufficient.packageDescription(formatYuan(quote.payable), formatYuan(total))
                  : CREATE_INSTANCE_TEXTS.insufficient.description(formatYuan(quote.payable), formatYuan(total))
              }
              action={
                <LinkButton size="small" type="primary" to={COMPUTE_PATHS.recharge}>
                  {CREATE_INSTANCE_TEXTS.insufficient.action}
                </LinkButton>
              }
            />
          ) : null}
          {clonable ? null : <Alert type="warning" showIcon className="slg-create-alert" title={CLONE_PAGE_TEXTS.mustBeOff(statusLabelOf(source))} />}
          {blocker && !refusal ? (
            <Alert
              type="warning"
              showIcon
              className="slg-create-alert"
              title={CLONE_PAGE_TEXTS.summary.blocked}
              description={blocker}
              action={
                <LinkButton size="small" to={chooseHost}>
                  {T.refusal.chooseHost}
                </LinkButton>
              }
            />
          ) : null}
          {refusal ? <Alert type="error" showIcon className="slg-create-alert" title={refusal.message} action={refusalAction} /> : null}
          <RentalProtocol agreed={agreed} onAgreedChange={setAgreed} />
          <Button
              type="primary"
              size="large"
              block
              danger={choice.releaseSource}
              loading={clone.isPending}
              disabled={!canSubmit}
              title={agreed ? undefined : CREATE_INSTANCE_TEXTS.protocol.required}
              onClick={submit}
            >
              {submitText}
            </Button>
        </Card>
      </aside>
      {choice.releaseSource ? (
        <ConfirmDialog
          open={confirming}
          danger
          texts={{ title: T.releaseConfirm.title, confirm: T.releaseConfirm.confirm, cancel: T.releaseConfirm.cancel }}
          loading={clone.isPending}
          onConfirm={() => clone.mutate()}
          onCancel={() => setConfirming(false)}
        >
          {T.releaseConfirm.body(source.name, source.instanceId, `${host.zoneName} · ${host.hostName}`)}
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** The order once the source and the target are known: a target gone, or a URL the server would refuse, is said so. */
function CloneOrderOf({ source, choice }: { source: InstanceView; choice: CloneChoice }) {
  const host = useMarketHostQuery(choice.hostId, choice.chargingRuleId);
  if (host.isPending) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  if (host.isError && host.data === undefined) return <QueryError variant="page" title={CLONE_PAGE_TEXTS.target.loadFailed} error={host.error} onRetry={() => void host.refetch()} />;
  const again = (
    <LinkButton type="primary" to={chooseAgainPath(choice, false)}>
      {CLONE_PAGE_TEXTS.invalidChoice.again}
    </LinkButton>
  );
  if (!host.data) return <Result status="warning" title={T.hostGone.title} subTitle={T.hostGone.description} extra={again} />;
  if (host.data.zoneId !== source.zoneId && (choice.copyData || choice.releaseSource)) {
    return <Result status="warning" title={CLONE_PAGE_TEXTS.invalidChoice.title} subTitle={T.crossRegionData} extra={again} />;
  }
  return <CloneOrder source={source} host={host.data} choice={choice} />;
}

/** `/ctrl-container-instances/confirm-clone-order?…`: the clone chosen on 克隆实例, priced, then sent. */
function ConfirmCloneOrderPage() {
  const [params] = useSearchParams();
  const parsed = parseChoice(params);
  const instanceId = parsed.ok ? parsed.choice.instanceId : (params.get('instanceId') ?? '');
  const validId = INSTANCE_ID_PATTERN.test(instanceId);
  const move = params.get('move') === '1';
  const source = useSourceInstance(parsed.ok ? instanceId : '');
  const toList = <LinkButton to={COMPUTE_PATHS.list}>{T.backToList}</LinkButton>;

  let content: ReactNode;
  if (!validId) {
    content = <Result status="warning" title={CLONE_PAGE_TEXTS.invalidId} extra={toList} />;
  } else if (!parsed.ok) {
    content = (
      <Result
        status="warning"
        title={CLONE_PAGE_TEXTS.invalidChoice.title}
        subTitle={parsed.problem}
        extra={[
          <LinkButton key="again" type="primary" to={cloneInstancesPath(instanceId, move)}>
            {CLONE_PAGE_TEXTS.invalidChoice.again}
          </LinkButton>,
          <LinkButton key="list" to={COMPUTE_PATHS.list}>
            {T.backToList}
          </LinkButton>,
        ]}
      />
    );
  } else if (source.isError && isApiError(source.error) && source.error.status === 404) {
    content = <Result status="warning" title={CLONE_PAGE_TEXTS.missing} extra={toList} />;
  } else if (source.data) {
    content = <CloneOrderOf source={source.data} choice={parsed.choice} />;
  } else if (source.isError) {
    content = <QueryError variant="page" title={CLONE_PAGE_TEXTS.loadFailed} error={source.error} onRetry={() => void source.refetch()} />;
  } else {
    content = (
      <Card>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }

  const back = parsed.ok ? (
    <LinkButton to={chooseAgainPath(parsed.choice)} icon={<ArrowLeftOutlined />} type="text">
      {T.previous}
    </LinkButton>
  ) : (
    <LinkButton to={COMPUTE_PATHS.list} icon={<ArrowLeftOutlined />} type="text">
      {T.backToList}
    </LinkButton>
  );
  return (
    <div className="slg-page">
      <PageHeader title={move ? T.moveTitle : T.title} description={T.description} back={back} />
      {content}
    </div>
  );
}

export default withAntd(ConfirmCloneOrderPage);
