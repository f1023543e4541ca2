import { ArrowLeftOutlined, ArrowRightOutlined } from '@ant-design/icons';
import { dictItemOf, formatYuan, INSTANCE_STATUSES, packageKeyOfRule } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Result, Skeleton, Space, Tag } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useBalanceQuery } from '../../../api/account';
import { claimError, isApiError } from '../../../api/client';
import { cloneInstance, invalidateAfterInstanceChange, useMarketHostQuery, type ClonePrepayResult, type InstanceView, type MarketHost } from '../../../api/compute';
import { toast } from '../../../api/toast';
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
import '../instances.css';
import { DatasetMountSummary } from '../orderParts/datasetMounts';
import { balanceRow } from '../orderParts/OrderFigures';
import { OrderPayCard, refusalOf, type Refusal } from '../orderParts/OrderPayCard';
import { HostBlockedAlert, OrderBillingCard, OrderLinkProblem, useVerificationNeeded, VerificationNeededAlert } from '../orderParts/OrderSummaryParts';
import { ORDER_TEXTS } from '../orderParts/texts';
import { cloneInstancesPath, COMPUTE_PATHS } from '../paths';
import { CONFIRM_CLONE_TEXTS } from './texts';

const T = CONFIRM_CLONE_TEXTS;

/** The host lost its GPUs or disk meanwhile, or was delisted: another host is the way on. */
function cloneRefusalOf(error: Error): Refusal {
  return refusalOf(error, (failure) => (failure.status === 409 || failure.status === 404 ? 'choose_host' : undefined));
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
          items={[
            { key: 'mode', label: T.route.mode, children: `${modeText(crossRegion, choice.copyData)}${choice.releaseSource ? '' : `；${T.route.keepSource}`}` },
            ...(choice.datasetIds?.length ? [{ key: 'datasets', label: ORDER_TEXTS.datasets.summary, children: <DatasetMountSummary ids={choice.datasetIds} /> }] : []),
          ]}
        />
        {choice.releaseSource ? <Alert type="warning" showIcon title={CLONE_PAGE_TEXTS.options.release} description={CLONE_PAGE_TEXTS.options.releaseEffect(source.name, source.instanceId)} /> : null}
      </Space>
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
      setRefusal(cloneRefusalOf(failure));
    },
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });

  const clonable = canDo(source, 'clone');
  const blocker = hostBlocker(host, { source, gpuNum: choice.gpuNum, copyData: choice.copyData, releaseSource: choice.releaseSource, imageCuda });
  const verificationNeeded = useVerificationNeeded();
  const total = balance.data?.totalBalance;
  const links = { chooseHost: chooseAgainPath({ ...choice, zoneId: host.zoneId }, false), change: chooseAgainPath({ ...choice, zoneId: host.zoneId }) };
  const submitText = (quote: ClonePrepayResult | undefined) =>
    packageKey && quote
      ? (choice.releaseSource ? T.submit.payMove : T.submit.payClone)(formatYuan(quote.payable))
      : choice.releaseSource
        ? T.submit.move
        : T.submit.clone;

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
        <OrderBillingCard billing={choice} />
      </div>
      <aside className="slg-create-side">
        <OrderPayCard
          prepay={prepay}
          failedTitle={T.priceFailed}
          figuresOf={(quote) => (
            <CloneFigures quote={quote} gpuNum={choice.gpuNum} packageKey={packageKey} rentAmount={choice.rentAmount} copyData={choice.copyData} extra={[balanceRow(total)]} />
          )}
          packageKey={packageKey}
          balance={total}
          links={links}
          warnings={
            <>
              {verificationNeeded ? <VerificationNeededAlert /> : null}
              {clonable ? null : <Alert type="warning" showIcon className="slg-create-alert" title={CLONE_PAGE_TEXTS.mustBeOff(statusLabelOf(source))} />}
              {blocker && !refusal ? <HostBlockedAlert title={CLONE_PAGE_TEXTS.summary.blocked} reason={blocker} chooseHost={links.chooseHost} /> : null}
            </>
          }
          refusal={refusal}
          ready={clonable && blocker === null && !verificationNeeded}
          submitText={submitText}
          submitting={clone.isPending}
          danger={choice.releaseSource}
          onSubmit={submit}
        />
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
  const again = chooseAgainPath(choice, false);
  if (!host.data) return <OrderLinkProblem title={T.hostGone.title} problem={T.hostGone.description} againTo={again} />;
  if (host.data.zoneId !== source.zoneId && (choice.copyData || choice.releaseSource)) {
    return <OrderLinkProblem title={CLONE_PAGE_TEXTS.invalidChoice.title} problem={T.crossRegionData} againTo={again} />;
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
      <OrderLinkProblem
        title={CLONE_PAGE_TEXTS.invalidChoice.title}
        problem={parsed.problem}
        againTo={cloneInstancesPath(instanceId, move)}
        other={{ to: COMPUTE_PATHS.list, text: T.backToList }}
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
