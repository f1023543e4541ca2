import { formatYuan, INSTANCE_NAME_MAX, INSTANCE_NAME_MESSAGE, INSTANCE_NAME_PATTERN, isPrivateImageId, MAX_GPUS_PER_INSTANCE, packageKeyOfRule, USAGE_CHARGING_RULE_ID, type PackageKey } from '@slg/shared';
import { Alert, Button, Card, Form, Input, Radio, Result, Skeleton, Space, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useBalanceQuery } from '../../../api/account';
import { useMarketHostQuery, usePrepayQuery, type MarketHost } from '../../../api/compute';
import { usePrivateImagesQuery } from '../../../api/images';
import { usePublicImages, type PublicImage } from '../../../api/meta';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { useMediaQuery } from '../../../layouts/useIsPhone';
import { permissionList, useUserStore } from '../../../stores/user';
import { withAntd } from '../../../theme/AntdScope';
import '../instances.css';
import { BillingFields, useBillingChoice } from '../orderParts/BillingFields';
import '../orderParts/order.css';
import { balanceRow, OrderFigures } from '../orderParts/OrderFigures';
import { BalanceCheck } from '../orderParts/OrderPayCard';
import { DatasetMountField } from '../orderParts/datasetMounts';
import { CreateNoticeCard } from '../orderParts/OrderSummaryParts';
import { COMPUTE_PATHS } from '../paths';
import { confirmOrderPath, createDraftOf, editOrderPath, type CreateChoice, type CreateDraft } from './createOrder';
import { HostSummary } from './HostSummary';
import { chosenPrivateImage, defaultImage, groupByFramework, privateImageChoices, runsOnHost } from './images';
import { PrivateImagePicker } from './PrivateImagePicker';
import { CREATE_INSTANCE_TEXTS } from './texts';

const T = CREATE_INSTANCE_TEXTS;
/** Where the layout becomes one column (instances.css) and the price card falls below the form. */
const ONE_COLUMN_MEDIA_QUERY = '(max-width: 991.98px)';

/** How the instance is paid for, as chosen on the page. */
interface Billing {
  chargingRuleId: number;
  /** The package of the rule (null: pay-as-you-go). */
  packageKey: PackageKey | null;
  rentAmount: number;
  voucherId: number | undefined;
  autoRenew: boolean;
}

type ImageSource = 'public' | 'private';

/** Whether the caller may use private images (a sub-account needs the MIRROR authority); true while not known. */
function useMayUsePrivateImages(): boolean {
  const user = useUserStore((state) => state.userInfo);
  return permissionList(user)?.includes('MIRROR') ?? true;
}

function BackToMarket() {
  return <LinkButton to={COMPUTE_PATHS.market}>{T.backToMarket}</LinkButton>;
}

/** Framework first, then one of its images; images the host's driver cannot run are shown, disabled. */
function ImagePicker({
  host,
  value,
  linkedMissing,
  onChange,
}: {
  host: MarketHost;
  value: PublicImage | undefined;
  /** The image the link named is gone or does not run here: said so, and none is chosen in its place. */
  linkedMissing: boolean;
  onChange: (image: PublicImage | null) => void;
}) {
  const images = usePublicImages();
  const [framework, setFramework] = useState<string | undefined>(undefined);
  if (images.isPending) return <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  if (images.isError) return <QueryError title={T.image.loadFailed} error={images.error} onRetry={() => void images.refetch()} />;
  const groups = groupByFramework(images.data);
  if (groups.length === 0) return <Alert type="warning" showIcon title={T.image.empty} />;
  const shownFramework = framework ?? value?.framework ?? groups[0]?.framework;
  const shown = groups.find((group) => group.framework === shownFramework) ?? groups[0];
  return (
    <div className="slg-create-images">
      {linkedMissing ? <Alert type="warning" showIcon title={T.image.linkedMissing} /> : null}
      <Radio.Group
        aria-label={T.image.framework}
        name="image-framework"
        optionType="button"
        value={shown?.framework}
        options={groups.map((group) => ({ value: group.framework, label: group.framework }))}
        onChange={(event) => {
          const next = String(event.target.value);
          setFramework(next);
          const first = defaultImage(images.data, host.cudaVersion, next);
          // A framework with no image this host runs leaves nothing chosen (and says why beside each).
          onChange(first?.framework === next ? first : null);
        }}
      />
      <Radio.Group
        aria-label={T.image.label}
        name="image"
        className="slg-create-image-list"
        value={value?.id}
        onChange={(event) => {
          const image = images.data.find((item) => item.id === event.target.value);
          if (image) onChange(image);
        }}
      >
        {shown?.images.map((image) => {
          const runs = runsOnHost(image, host.cudaVersion);
          return (
            <Radio key={image.id} value={image.id} disabled={!runs} className="slg-create-image">
              <span className="slg-create-image-label">
                <span>
                  {image.framework} {T.image.version(image)}
                </span>
                {runs ? null : (
                  <Typography.Text type="secondary" className="slg-create-image-note">
                    {T.image.incompatible(image.cuda, host.cudaVersion)}
                  </Typography.Text>
                )}
              </span>
            </Radio>
          );
        })}
      </Radio.Group>
    </div>
  );
}

interface PriceState {
  prepay: ReturnType<typeof usePrepayQuery>;
  balance: number | undefined;
  /** The price of the current choice (not the last one's, kept while the new one loads). */
  current: boolean;
  /** Why 下一步 is off (null: it is not, or it waits without a reason to give). */
  reason: string | null;
  canGoOn: boolean;
}

/** What creating will cost (from /rental/prepay) and whether 下一步 may go on: one state for the card and the bar. */
function usePriceState(host: MarketHost, gpuNum: number, billing: Billing, blocker: string | null, waiting: boolean): PriceState {
  const { packageKey } = billing;
  const prepay = usePrepayQuery({
    hostId: host.hostId,
    gpuNum,
    chargingRuleId: billing.chargingRuleId,
    ...(packageKey ? { rentAmount: billing.rentAmount, ...(billing.voucherId ? { voucherId: billing.voucherId } : {}) } : {}),
  });
  const balance = useBalanceQuery().data?.totalBalance;
  const current = prepay.data !== undefined && !prepay.isPlaceholderData;
  const reason = blocker ?? (prepay.isError && prepay.data ? T.next.priceFailed : null);
  return { prepay, balance, current, reason, canGoOn: reason === null && !waiting && current && !prepay.isError };
}

interface PriceViewProps {
  gpuNum: number;
  billing: Billing;
  state: PriceState;
  onNext: () => void;
}

function NextButton({ state, onNext }: Pick<PriceViewProps, 'state' | 'onNext'>) {
  return (
    <Button type="primary" size="large" block disabled={!state.canGoOn} title={state.reason ?? undefined} onClick={onNext}>
      {T.next.label}
    </Button>
  );
}

/** What creating will cost against the balance, and 下一步 to the order, where it is paid. */
function PriceCard({ gpuNum, billing, state, onNext }: PriceViewProps) {
  const { packageKey } = billing;
  const { prepay, current, reason } = state;
  const price = prepay.data;

  let figures: ReactNode;
  if (prepay.isPending) figures = <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  else if (prepay.isError && !price) figures = <QueryError title={T.price.failed} error={prepay.error} onRetry={() => void prepay.refetch()} />;
  else if (price) {
    figures = (
      <div aria-busy={!current} className={current ? undefined : 'slg-order-stale'}>
        <OrderFigures
          quote={price}
          gpuNum={gpuNum}
          packageKey={packageKey}
          rentAmount={packageKey ? billing.rentAmount : undefined}
          extra={[balanceRow(state.balance)]}
        />
      </div>
    );
  }

  return (
    <Card title={T.price.title} className="slg-create-card slg-create-price-card">
      {figures}
      {price ? <BalanceCheck payable={price.payable} packageKey={packageKey} balance={state.balance} /> : null}
      <NextButton state={state} onNext={onNext} />
      {reason ? (
        <Typography.Paragraph type="warning" className="slg-order-reason">
          {reason}
        </Typography.Paragraph>
      ) : null}
      <Typography.Paragraph type="secondary" className="slg-create-footnote">
        {T.next.hint}
        {packageKey ? T.price.packageNote : T.price.noGpuNote}
      </Typography.Paragraph>
    </Card>
  );
}

/**
 * Below the two-column width the price card comes after the whole form (on a phone some 2,000 px
 * down): this bar keeps the sum and 下一步 at the bottom of the screen while the form scrolls.
 */
function NextBar({ billing, state, onNext }: PriceViewProps) {
  const price = state.prepay.data;
  let sum: ReactNode = '-';
  if (price) sum = billing.packageKey ? formatYuan(price.payable) : T.bar.hourly(formatYuan(price.amount));
  return (
    <div className="slg-create-next-bar" role="region" aria-label={T.bar.label}>
      <div className="slg-create-next-bar-sum">
        <Typography.Text type="secondary">{billing.packageKey ? T.bar.payable : T.bar.usage}</Typography.Text>
        <strong aria-live="polite" className={state.current ? undefined : 'slg-order-stale'}>
          {sum}
        </strong>
        {state.reason ? (
          <Typography.Text type="warning" className="slg-create-next-bar-reason">
            {state.reason}
          </Typography.Text>
        ) : null}
      </div>
      <div className="slg-create-next-bar-action">
        <NextButton state={state} onNext={onNext} />
      </div>
    </div>
  );
}

interface CreateFormProps {
  host: MarketHost;
  /** The choice the link carries (from 算力市场, or 返回修改 on 确认订单): what is well-formed in it is kept. */
  draft: CreateDraft;
}

function CreateForm({ host, draft }: CreateFormProps) {
  const navigate = useNavigate();
  const maxGpus = Math.min(MAX_GPUS_PER_INSTANCE, host.gpuTotal);
  const [gpuNum, setGpuNum] = useState(Math.min(Math.max(1, draft.gpuNum ?? 1), Math.max(1, host.gpuFree)));
  const linkedImageId = draft.imageId;
  const images = usePublicImages();
  // undefined: not chosen yet (the linked one, else the default, applies); null: the chosen framework has no image for this host.
  const [chosenImage, setChosenImage] = useState<PublicImage | null | undefined>(undefined);
  const linkedPublicId = linkedImageId && !isPrivateImageId(linkedImageId) ? linkedImageId : undefined;
  const linkedPublic = linkedPublicId ? images.data?.find((item) => item.id === linkedPublicId && runsOnHost(item, host.cudaVersion)) : undefined;
  let image: PublicImage | undefined;
  if (chosenImage !== undefined) image = chosenImage ?? undefined;
  else if (linkedPublicId) image = linkedPublic;
  else image = images.data ? defaultImage(images.data, host.cudaVersion) : undefined;
  const publicLinkMissing = chosenImage === undefined && linkedPublicId !== undefined && images.data !== undefined && !linkedPublic;
  const mayUsePrivateImages = useMayUsePrivateImages();
  const linkedPrivateId = linkedImageId && isPrivateImageId(linkedImageId) ? linkedImageId : undefined;
  const [chosenSource, setImageSource] = useState<ImageSource>(linkedPrivateId ? 'private' : 'public');
  const imageSource: ImageSource = mayUsePrivateImages ? chosenSource : 'public';
  // undefined: the first usable one applies; an id: the one picked or linked, chosen once it is usable (a saving one when saved).
  const [wantedPrivateImage, setWantedPrivateImage] = useState<string | undefined>(linkedPrivateId);
  const privateImages = usePrivateImagesQuery(imageSource === 'private');
  const privateImage =
    imageSource === 'private' && privateImages.data ? chosenPrivateImage(privateImages.data.list, host.cudaVersion, wantedPrivateImage) : undefined;
  const imageId = imageSource === 'private' ? privateImage?.imageId : image?.id;
  // Nothing to choose from (the empty state says how to get an image) is not an error of the field.
  const imageMissing =
    imageSource === 'private'
      ? Boolean(privateImages.data && !privateImage && privateImageChoices(privateImages.data.list).length > 0)
      : Boolean(images.data && !image);
  const [name, setName] = useState(draft.name ?? '');
  const [datasetIds, setDatasetIds] = useState<number[]>(draft.datasetIds ?? []);
  const [billingChoice, setBillingChoice] = useBillingChoice(draft);
  const { chargingRuleId, rentAmount, voucherId, autoRenew } = billingChoice;
  const packageKey = packageKeyOfRule(chargingRuleId);
  const billing: Billing = { chargingRuleId, packageKey, rentAmount, voucherId: packageKey ? voucherId : undefined, autoRenew };
  // The voucher list needs the order's amount; the undiscounted price of the current choice gives it.
  const undiscounted = usePrepayQuery(packageKey ? { hostId: host.hostId, gpuNum, chargingRuleId, rentAmount } : null);
  const trimmedName = name.trim();
  const nameError = trimmedName && !INSTANCE_NAME_PATTERN.test(trimmedName) ? INSTANCE_NAME_MESSAGE : undefined;

  const imagesLoading = imageSource === 'private' ? privateImages.isPending : images.isPending;
  const tooMany = gpuNum > host.gpuFree;
  let blocker: string | null = null;
  if (host.gpuFree === 0) blocker = T.next.hostFull;
  else if (tooMany) blocker = T.next.tooMany(host.gpuFree);
  else if (!imageId && !imagesLoading) blocker = T.next.needImage;
  else if (nameError) blocker = T.next.badName;

  const price = usePriceState(host, gpuNum, billing, blocker, !imageId);
  const oneColumn = useMediaQuery(ONE_COLUMN_MEDIA_QUERY);

  const next = () => {
    if (blocker !== null || !imageId) return;
    const choice: CreateChoice = {
      hostId: host.hostId,
      gpuNum,
      chargingRuleId,
      ...(packageKey ? { rentAmount, voucherId, autoRenew } : { autoRenew: false }),
      imageId,
      name: trimmedName || undefined,
      datasetIds,
    };
    // This page's own entry keeps the choice too, so the browser's back button returns to it as 返回修改 does.
    void (async () => {
      await navigate(editOrderPath(choice), { replace: true });
      await navigate(confirmOrderPath(choice));
    })();
  };

  return (
    <>
      <div className="slg-create-layout">
        <div className="slg-create-main">
          <HostSummary host={host} />
          <Card className="slg-create-card">
            <Form layout="vertical" requiredMark={false} onSubmitCapture={(event) => event.preventDefault()}>
              <BillingFields
                idPrefix="create"
                orderType="NEW_PURCHASE"
                value={billingChoice}
                amountFen={undiscounted.data?.amount}
                onChange={setBillingChoice}
              />
              <Form.Item
                label={T.gpuNum.label}
                validateStatus={host.gpuFree === 0 || tooMany ? 'error' : undefined}
                help={host.gpuFree === 0 ? T.gpuNum.none : tooMany ? T.gpuNum.tooMany(host.gpuFree) : undefined}
                extra={T.gpuNum.hint(host.gpuFree)}
              >
                <Radio.Group
                  aria-label={T.gpuNum.label}
                  name="gpu-num"
                  optionType="button"
                  className="slg-create-counts"
                  value={gpuNum}
                  onChange={(event) => setGpuNum(Number(event.target.value))}
                  options={Array.from({ length: maxGpus }, (_, index) => index + 1).map((count) => ({
                    value: count,
                    label: T.gpuNum.option(count),
                    disabled: count > host.gpuFree,
                  }))}
                />
              </Form.Item>
              <Form.Item
                label={T.image.label}
                required
                validateStatus={imageMissing ? 'error' : undefined}
                help={imageMissing ? T.image.required : undefined}
              >
                <div className="slg-create-images">
                  {mayUsePrivateImages ? (
                    <Radio.Group
                      aria-label={T.image.source}
                      name="image-source"
                      optionType="button"
                      value={imageSource}
                      onChange={(event) => setImageSource(event.target.value === 'private' ? 'private' : 'public')}
                      options={[
                        { value: 'public', label: T.image.publicSource },
                        { value: 'private', label: T.image.privateSource },
                      ]}
                    />
                  ) : null}
                  {imageSource === 'private' ? (
                    <PrivateImagePicker host={host} value={privateImage} wanted={wantedPrivateImage} onChange={setWantedPrivateImage} />
                  ) : (
                    <ImagePicker host={host} value={image} linkedMissing={publicLinkMissing} onChange={setChosenImage} />
                  )}
                </div>
              </Form.Item>
              <DatasetMountField id="create-datasets" value={datasetIds} onChange={setDatasetIds} />
              <Form.Item label={T.name.label} htmlFor="instance-name" validateStatus={nameError ? 'error' : undefined} help={nameError}>
                <Input
                  id="instance-name"
                  value={name}
                  maxLength={INSTANCE_NAME_MAX}
                  showCount
                  placeholder={T.name.placeholder}
                  autoComplete="off"
                  onChange={(event) => setName(event.target.value)}
                />
              </Form.Item>
            </Form>
          </Card>
        </div>
        <aside className="slg-create-side">
          <PriceCard gpuNum={gpuNum} billing={billing} state={price} onNext={next} />
        </aside>
        <CreateNoticeCard packageKey={packageKey} />
      </div>
      {/* Outside the grid: a sticky grid item could not leave its own row. */}
      {oneColumn ? <NextBar gpuNum={gpuNum} billing={billing} state={price} onNext={next} /> : null}
    </>
  );
}

/** 创建实例: the host chosen in 算力市场, GPUs, billing, image, name and the price; 下一步 takes the choice to 确认订单. */
function CreateInstancePage() {
  const [params] = useSearchParams();
  const draft = createDraftOf(params);
  const hostId = params.get('hostId') ?? undefined;
  const host = useMarketHostQuery(hostId, USAGE_CHARGING_RULE_ID);

  let content: ReactNode;
  if (!hostId) {
    content = (
      <Result
        status="info"
        title={T.noHost.title}
        subTitle={T.noHost.description}
        extra={
          <LinkButton type="primary" to={COMPUTE_PATHS.market}>
            {T.noHost.action}
          </LinkButton>
        }
      />
    );
  } else if (host.isPending) {
    content = (
      <Card>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  } else if (host.isError && host.data === undefined) {
    content = <QueryError variant="page" title={T.hostFailed} error={host.error} onRetry={() => void host.refetch()} />;
  } else if (!host.data) {
    content = <Result status="warning" title={T.hostGone.title} subTitle={T.hostGone.description} extra={<BackToMarket />} />;
  } else {
    content = (
      <CreateForm key={host.data.hostId} host={host.data} draft={draft} />
    );
  }

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} extra={<Space>{hostId ? <BackToMarket /> : null}</Space>} />
      {content}
    </div>
  );
}

export default withAntd(CreateInstancePage);
