import { ArrowLeftOutlined } from '@ant-design/icons';
import { INSTANCE_NAME_MAX, INSTANCE_NAME_MESSAGE, INSTANCE_NAME_PATTERN, MAX_GPUS_PER_INSTANCE, packageKeyOfRule } from '@slg/shared';
import { Alert, Button, Card, Checkbox, Empty, Form, Input, Radio, Result, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../../api/client';
import {
  useMarketHostQuery,
  useMarketHostsQuery,
  useMarketOverviewQuery,
  type InstanceView,
  type MarketHost,
  type MarketOverview,
  type MarketSort,
} from '../../../api/compute';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { withAntd } from '../../../theme/AntdScope';
import { statusLabelOf } from '../containerInstances/components/InstanceStatus';
import { canDo } from '../containerInstances/instanceRules';
import '../instances.css';
import { BillingFields, useBillingChoice } from '../orderParts/BillingFields';
import { DatasetMountField } from '../orderParts/datasetMounts';
import { COMPUTE_PATHS } from '../paths';
import './clone.css';
import { CloneFigures } from './CloneFigures';
import {
  cloneBodyOf,
  confirmClonePath,
  dataDiskOf,
  draftOf,
  hostBlocker,
  INSTANCE_ID_PATTERN,
  releaseRefusal,
  takesDataDisk,
  type CloneChoice,
  type CloneDraft,
  type TargetRules,
} from './cloneOrder';
import { useClonePrepayQuery, useImageCuda, useSourceInstance } from './queries';
import { SourceSummary } from './SourceSummary';
import { TargetHostList, type HostVerdict } from './TargetHostList';
import { CLONE_PAGE_TEXTS } from './texts';

const T = CLONE_PAGE_TEXTS;
const PAGE_SIZE = 10;
type Scope = 'same' | 'other';

/** The other zone offered first: the one whose best host has the most free GPUs of the model. */
function firstOtherZone(overview: MarketOverview | undefined, sourceZoneId: string, modelId: string | null): string | undefined {
  if (!overview) return undefined;
  const others = overview.zones.filter((zone) => zone.zoneId !== sourceZoneId);
  const freeOnHost = (zoneId: string) =>
    modelId === null
      ? (overview.zones.find((zone) => zone.zoneId === zoneId)?.maxFreeOnHost ?? 0)
      : (overview.cells.find((cell) => cell.zoneId === zoneId && cell.gpuModelId === modelId)?.maxFreeOnHost ?? 0);
  return [...others].sort((a, b) => freeOnHost(b.zoneId) - freeOnHost(a.zoneId))[0]?.zoneId;
}

interface HostPickerProps {
  zoneId: string;
  modelId: string | null;
  chargingRuleId: number;
  chosenHostId: string | undefined;
  onChoose: (host: MarketHost) => void;
  verdictOf: (host: MarketHost) => HostVerdict;
}

/** The hosts of the target zone (and model), priced for the chosen billing, 10 a page. */
function HostPicker({ zoneId, modelId, chargingRuleId, chosenHostId, onChoose, verdictOf }: HostPickerProps) {
  const phone = useIsPhone();
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<MarketSort>('price');
  const hosts = useMarketHostsQuery({ page, pageSize: PAGE_SIZE, chargingRuleId, zoneId, ...(modelId ? { gpuModelId: modelId } : {}), sort });
  return (
    <div className="slg-clone-hosts">
      <div className="slg-clone-sort">
        <Typography.Text type="secondary">{T.target.sort}</Typography.Text>
        <Radio.Group
          aria-label={T.target.sort}
          name="clone-host-sort"
          size="small"
          optionType="button"
          value={sort}
          onChange={(event) => {
            setSort(event.target.value === 'free' ? 'free' : 'price');
            setPage(1);
          }}
          options={[
            { value: 'price', label: T.target.sortPrice },
            { value: 'free', label: T.target.sortFree },
          ]}
        />
      </div>
      {hosts.isError && hosts.data ? <Alert type="warning" showIcon title={T.target.refreshFailed} /> : null}
      {hosts.isError && !hosts.data ? (
        <QueryError title={T.target.loadFailed} error={hosts.error} onRetry={() => void hosts.refetch()} />
      ) : (
        <TargetHostList
          hosts={hosts.data?.list ?? []}
          verdictOf={verdictOf}
          chosenHostId={chosenHostId}
          onChoose={onChoose}
          loading={hosts.isFetching && hosts.isPlaceholderData}
          pending={hosts.isPending}
          phone={phone}
          page={page}
          pageSize={PAGE_SIZE}
          total={hosts.data?.total ?? 0}
          onPageChange={setPage}
          empty={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.target.empty} />}
        />
      )}
    </div>
  );
}

interface SummaryCardProps {
  source: InstanceView;
  host: MarketHost | null | undefined;
  hostLoading: boolean;
  blocker: string | null;
  choice: CloneChoice | null;
  gpuNum: number;
  copyData: boolean;
  canProceed: boolean;
  onNext: (choice: CloneChoice) => void;
}

/** The chosen target, the clone's price before going on, and 下一步. */
function SummaryCard({ source, host, hostLoading, blocker, choice, gpuNum, copyData, canProceed, onNext }: SummaryCardProps) {
  const crossRegion = host ? host.zoneId !== source.zoneId : false;
  // The name does not change the price: typing it asks nothing (the order page prices the exact body).
  const prepay = useClonePrepayQuery(choice ? cloneBodyOf({ ...choice, name: undefined, datasetIds: undefined }) : null, crossRegion);
  const packageKey = choice ? packageKeyOfRule(choice.chargingRuleId) : null;
  const current = choice !== null && prepay.data !== undefined && !prepay.isPlaceholderData;

  let target: ReactNode;
  if (hostLoading) target = <Skeleton active title={false} paragraph={{ rows: 1 }} />;
  else if (host === null) target = <Alert type="warning" showIcon title={T.summary.hostGone} />;
  else if (host) {
    target = (
      <div className="slg-clone-target">
        <strong>{host.hostName}</strong>
        <span>
          {host.zoneName} <Tag color={crossRegion ? 'orange' : 'blue'}>{crossRegion ? T.summary.otherRegion : T.summary.sameRegion}</Tag>
        </span>
      </div>
    );
  } else target = <Typography.Text type="secondary">{T.summary.none}</Typography.Text>;

  let figures: ReactNode = null;
  if (choice && prepay.isError && !current) {
    const message = prepay.error instanceof Error ? prepay.error.message : undefined;
    figures = (
      <Alert
        type="error"
        showIcon
        title={T.summary.priceFailed}
        description={message}
        action={
          <Button size="small" onClick={() => void prepay.refetch()}>
            {T.summary.retry}
          </Button>
        }
      />
    );
  } else if (choice && prepay.data) {
    figures = (
      <div aria-busy={!current} className={current ? undefined : 'slg-clone-stale'}>
        <CloneFigures quote={prepay.data} gpuNum={gpuNum} packageKey={packageKey} rentAmount={choice.rentAmount} copyData={copyData} />
      </div>
    );
  } else if (choice && prepay.isPending) figures = <Skeleton active title={false} paragraph={{ rows: 3 }} />;

  return (
    <Card title={T.summary.title} className="slg-create-card slg-create-price-card">
      <Space orientation="vertical" size={12} className="slg-clone-summary">
        <div>
          <Typography.Text type="secondary">{T.summary.target}</Typography.Text>
          {target}
        </div>
        {host && blocker ? <Alert type="warning" showIcon title={T.summary.blocked} description={blocker} /> : null}
        {figures}
        <Button type="primary" size="large" block disabled={!canProceed || !choice || !current || prepay.isError} onClick={() => choice && onNext(choice)}>
          {T.summary.next}
        </Button>
        <Typography.Text type="secondary" className="slg-create-footnote">
          {T.summary.nextHint}
        </Typography.Text>
      </Space>
    </Card>
  );
}

/** The choice itself: specs and billing, the target host, what comes along; the price beside them. */
function CloneForm({ source, draft }: { source: InstanceView; draft: CloneDraft }) {
  const navigate = useNavigate();
  const [gpuNum, setGpuNum] = useState(draft.gpuNum ?? source.gpuNum);
  const [billingChoice, setBillingChoice] = useBillingChoice(draft);
  const { chargingRuleId, rentAmount, voucherId, autoRenew } = billingChoice;
  const packageKey = packageKeyOfRule(chargingRuleId);
  const [scope, setScope] = useState<Scope>(draft.zoneId && draft.zoneId !== source.zoneId ? 'other' : 'same');
  const [otherZoneId, setOtherZoneId] = useState<string | undefined>(draft.zoneId && draft.zoneId !== source.zoneId ? draft.zoneId : undefined);
  const [modelId, setModelId] = useState<string | null>(source.gpuModelId);
  const [hostId, setHostId] = useState<string | undefined>(draft.hostId);
  // The row picked, shown at once while the host's own live query loads.
  const [picked, setPicked] = useState<MarketHost | null>(null);
  const [copyWanted, setCopyWanted] = useState(draft.copyData ?? true);
  const [releaseWanted, setReleaseWanted] = useState(draft.releaseSource ?? draft.move);
  const [name, setName] = useState(draft.name ?? '');
  const [datasetIds, setDatasetIds] = useState<number[]>(draft.datasetIds ?? []);

  const overview = useMarketOverviewQuery(chargingRuleId);
  const imageCuda = useImageCuda(source);
  const sameRegion = scope === 'same';
  const targetZoneId = sameRegion ? source.zoneId : (otherZoneId ?? firstOtherZone(overview.data, source.zoneId, modelId));
  const releaseBlocked = releaseRefusal(source, sameRegion);
  const releaseSource = releaseWanted && releaseBlocked === null;
  const copyData = sameRegion && (copyWanted || releaseSource);
  const rules: TargetRules = { source, gpuNum, copyData, releaseSource, imageCuda };
  const verdictOf = (host: MarketHost): HostVerdict => {
    const here = host.zoneId === source.zoneId;
    let disk: HostVerdict['disk'];
    if (!here) disk = { text: T.target.systemOnly, color: 'default' };
    else if (takesDataDisk(host, source)) disk = { text: T.target.diskCopy(dataDiskOf(source, true)), color: 'success' };
    else disk = { text: T.target.diskNoRoom(host.dataDiskFreeGb), color: 'warning' };
    return { blocker: hostBlocker(host, rules), disk, isSourceHost: host.hostId === source.hostId };
  };

  // The chosen host, live (free GPUs change), even when it is not on the page of the list shown.
  const chosen = useMarketHostQuery(hostId, chargingRuleId);
  const live = chosen.data !== undefined ? chosen.data : picked?.hostId === hostId && picked?.chargingRuleId === chargingRuleId ? picked : undefined;
  const chosenHost = live && live.zoneId === targetZoneId ? live : live === null ? null : undefined;
  const blocker = chosenHost ? hostBlocker(chosenHost, rules) : null;
  const trimmedName = name.trim();
  const nameError = trimmedName && !INSTANCE_NAME_PATTERN.test(trimmedName) ? INSTANCE_NAME_MESSAGE : undefined;
  const choice: CloneChoice | null =
    chosenHost && !blocker && !nameError
      ? {
          instanceId: source.instanceId,
          move: draft.move,
          hostId: chosenHost.hostId,
          zoneId: chosenHost.zoneId,
          gpuNum,
          chargingRuleId,
          ...(packageKey ? { rentAmount, voucherId, autoRenew } : { autoRenew: false }),
          name: trimmedName || undefined,
          copyData,
          releaseSource,
          datasetIds,
        }
      : null;
  const clonable = canDo(source, 'clone');
  // The voucher list needs the order's amount: the prepay's `amount` is the price before any voucher.
  const undiscounted = useClonePrepayQuery(
    choice && packageKey ? cloneBodyOf({ ...choice, name: undefined, voucherId: undefined, datasetIds: undefined }) : null,
    chosenHost ? chosenHost.zoneId !== source.zoneId : false,
  );

  const zoneOptions = (overview.data?.zones ?? [])
    .filter((zone) => zone.zoneId !== source.zoneId)
    .map((zone) => {
      const cell = modelId ? overview.data?.cells.find((item) => item.zoneId === zone.zoneId && item.gpuModelId === modelId) : zone;
      return { value: zone.zoneId, label: T.target.zoneOption(zone.zoneName, cell?.gpuFree ?? 0) };
    });
  const modelsInZone = (overview.data?.cells ?? []).filter((cell) => cell.zoneId === targetZoneId).map((cell) => cell.gpuModelId);
  const modelOptions = [
    { value: '', label: T.target.allModels },
    { value: source.gpuModelId, label: T.target.sameModel(source.gpuModelName) },
    ...(overview.data?.gpuModels ?? [])
      .filter((model) => model.gpuModelId !== source.gpuModelId && modelsInZone.includes(model.gpuModelId))
      .map((model) => ({ value: model.gpuModelId, label: model.gpuModelName })),
  ];

  return (
    <div className="slg-create-layout">
      <div className="slg-create-main">
        <SourceSummary instance={source} />
        {clonable ? null : <Alert type="warning" showIcon title={T.mustBeOff(statusLabelOf(source))} />}
        <Card title={T.spec.title} className="slg-create-card">
          <Form layout="vertical" requiredMark={false} component="div">
            <Form.Item label={T.spec.gpuNum} extra={T.spec.gpuHint(source.gpuNum)}>
              <Radio.Group
                aria-label={T.spec.gpuNum}
                name="clone-gpu-num"
                optionType="button"
                className="slg-create-counts"
                value={gpuNum}
                onChange={(event) => setGpuNum(Number(event.target.value))}
                options={Array.from({ length: MAX_GPUS_PER_INSTANCE }, (_, index) => index + 1).map((count) => ({ value: count, label: T.spec.gpuOption(count) }))}
              />
            </Form.Item>
            <BillingFields
              idPrefix="clone"
              orderType="CLONE_INSTANCE"
              value={billingChoice}
              amountFen={undiscounted.data?.amount}
              onChange={setBillingChoice}
            />
          </Form>
        </Card>
        <Card title={T.target.title} className="slg-create-card">
          <Form layout="vertical" requiredMark={false} component="div">
            <Form.Item label={T.target.scope} extra={sameRegion ? T.target.sameRegionHint(dataDiskOf(source, true)) : T.target.otherRegionHint}>
              <Radio.Group
                aria-label={T.target.scope}
                name="clone-scope"
                optionType="button"
                value={scope}
                onChange={(event) => {
                  setScope(event.target.value === 'other' ? 'other' : 'same');
                  setHostId(undefined);
                }}
                options={[
                  { value: 'same', label: T.target.sameRegion(source.zoneName) },
                  { value: 'other', label: T.target.otherRegion },
                ]}
              />
            </Form.Item>
            <div className="slg-clone-filters">
              {sameRegion ? null : (
                <Form.Item label={T.target.zone} htmlFor="clone-zone">
                  <Select
                    id="clone-zone"
                    className="slg-clone-filter"
                    loading={overview.isPending}
                    placeholder={T.target.zonePlaceholder}
                    notFoundContent={T.target.noZones}
                    value={targetZoneId}
                    onChange={(value: string) => {
                      setOtherZoneId(value);
                      setHostId(undefined);
                    }}
                    options={zoneOptions}
                  />
                </Form.Item>
              )}
              <Form.Item label={T.target.model} htmlFor="clone-model">
                <Select
                  id="clone-model"
                  className="slg-clone-filter"
                  value={modelId ?? ''}
                  onChange={(value: string) => setModelId(value === '' ? null : value)}
                  options={modelOptions}
                />
              </Form.Item>
            </div>
          </Form>
          {overview.isError && !overview.data && !sameRegion ? (
            <QueryError title={T.target.loadFailed} error={overview.error} onRetry={() => void overview.refetch()} />
          ) : targetZoneId ? (
            <HostPicker
              key={`${targetZoneId}/${modelId ?? ''}/${chargingRuleId}`}
              zoneId={targetZoneId}
              modelId={modelId}
              chargingRuleId={chargingRuleId}
              chosenHostId={chosenHost ? chosenHost.hostId : undefined}
              onChoose={(host) => {
                setPicked(host);
                setHostId(host.hostId);
              }}
              verdictOf={verdictOf}
            />
          ) : overview.isPending ? (
            <Skeleton active title={false} paragraph={{ rows: 4 }} />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.target.noZones} />
          )}
        </Card>
        <Card title={T.options.title} className="slg-create-card">
          <Form layout="vertical" requiredMark={false} component="div">
            <Form.Item extra={sameRegion ? (releaseSource ? T.options.copyDataRequired : T.options.copyDataHint) : T.options.crossRegion}>
              <Space orientation="vertical" size={8}>
                <Checkbox checked={copyData} disabled={!sameRegion || releaseSource} onChange={(event) => setCopyWanted(event.target.checked)}>
                  {T.options.copyData(dataDiskOf(source, true))}
                </Checkbox>
                <Checkbox checked={releaseSource} disabled={releaseBlocked !== null} onChange={(event) => setReleaseWanted(event.target.checked)}>
                  {T.options.release}
                </Checkbox>
                {sameRegion && releaseBlocked ? <Typography.Text type="secondary">{releaseBlocked}</Typography.Text> : null}
              </Space>
            </Form.Item>
            {releaseSource ? <Alert type="warning" showIcon className="slg-clone-release" title={T.options.releaseEffect(source.name, source.instanceId)} /> : null}
            <Form.Item label={T.options.name} htmlFor="clone-name" validateStatus={nameError ? 'error' : undefined} help={nameError}>
              <Input
                id="clone-name"
                value={name}
                maxLength={INSTANCE_NAME_MAX}
                showCount
                autoComplete="off"
                placeholder={T.options.namePlaceholder(`${source.name.slice(0, 29)}-克隆`)}
                onChange={(event) => setName(event.target.value)}
              />
            </Form.Item>
            <DatasetMountField id="clone-datasets" value={datasetIds} onChange={setDatasetIds} />
          </Form>
        </Card>
      </div>
      <aside className="slg-create-side">
        <SummaryCard
          source={source}
          host={hostId ? chosenHost : undefined}
          hostLoading={hostId !== undefined && live === undefined && chosen.isPending}
          blocker={blocker}
          choice={choice}
          gpuNum={gpuNum}
          copyData={copyData}
          canProceed={clonable}
          onNext={(next) => void navigate(confirmClonePath(next))}
        />
      </aside>
    </div>
  );
}

/** `/ctrl-container-instances/cloneInstances?instanceId=…[&move=1]`: 克隆实例 (迁移), the target and the options. */
function CloneInstancesPage() {
  const [params] = useSearchParams();
  const draft = draftOf(params);
  const validId = INSTANCE_ID_PATTERN.test(draft.instanceId);
  const source = useSourceInstance(draft.instanceId);
  const back = (
    <LinkButton to={COMPUTE_PATHS.list} icon={<ArrowLeftOutlined />} type="text">
      {T.back}
    </LinkButton>
  );
  const header = <PageHeader title={draft.move ? T.moveTitle : T.title} description={draft.move ? T.moveDescription : T.description} back={back} />;

  let content: ReactNode;
  if (!validId || (source.isError && isApiError(source.error) && source.error.status === 404)) {
    content = <Result status="warning" title={validId ? T.missing : T.invalidId} extra={<LinkButton to={COMPUTE_PATHS.list}>{T.back}</LinkButton>} />;
  } else if (source.data && (source.isFetchedAfterMount || source.isError)) {
    // The form starts from the source's GPUs and disk: from the answer of this visit, not an older cache.
    content = <CloneForm key={source.data.instanceId} source={source.data} draft={draft} />;
  } else if (source.isError) {
    content = <QueryError variant="page" title={T.loadFailed} error={source.error} onRetry={() => void source.refetch()} />;
  } else {
    content = (
      <Card>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }

  return (
    <div className="slg-page">
      {header}
      {content}
    </div>
  );
}

export default withAntd(CloneInstancesPage);
