import {
  BALANCE_COVER_HOURS,
  CHARGING_RULES,
  formatYuan,
  INSTANCE_NAME_MAX,
  INSTANCE_NAME_MESSAGE,
  INSTANCE_NAME_PATTERN,
  isPrivateImageId,
  MAX_GPUS_PER_INSTANCE,
  packageKeyOfRule,
  PACKAGE_UNIT_LABELS,
  TIME_PACKAGE_COUNTS,
  USAGE_CHARGING_RULE_ID,
  type PackageKey,
} from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Form, Input, Radio, Result, Skeleton, Space, Typography } from 'antd';
import { useRef, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useBalanceQuery } from '../../../api/account';
import { isApiError } from '../../../api/client';
import {
  createInstance,
  invalidateAfterInstanceChange,
  useMarketHostQuery,
  usePrepayQuery,
  type MarketHost,
} from '../../../api/compute';
import { newIdempotencyKey } from '../../../api/idempotency';
import { usePrivateImagesQuery } from '../../../api/images';
import { formatDateTime } from '../../../components/DateTime';
import { usePublicImages, type PublicImage } from '../../../api/meta';
import { toast } from '../../../api/toast';
import { LinkButton } from '../../../components/LinkButton';
import { RentalProtocol } from './RentalProtocol';
import { VoucherSelect } from '../VoucherSelect';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { permissionList, useUserStore } from '../../../stores/user';
import { withAntd } from '../../../theme/AntdScope';
import '../instances.css';
import { COMPUTE_PATHS } from '../paths';
import { HostSummary } from './HostSummary';
import { chosenPrivateImage, defaultImage, groupByFramework, privateImageChoices, runsOnHost } from './images';
import { PrivateImagePicker } from './PrivateImagePicker';
import { CREATE_INSTANCE_TEXTS } from './texts';

const T = CREATE_INSTANCE_TEXTS;

function parseRule(value: string | null): number {
  const id = Number(value);
  return CHARGING_RULES.some((rule) => rule.id === id) ? id : USAGE_CHARGING_RULE_ID;
}

/** How the instance is paid for, as chosen on the page. */
interface Billing {
  chargingRuleId: number;
  /** The package of the rule (null: pay-as-you-go). */
  packageKey: PackageKey | null;
  rentAmount: number;
  voucherId: number | undefined;
  autoRenew: boolean;
}

function parseCount(value: string | null): number | undefined {
  if (!value || !/^\d+$/.test(value)) return undefined;
  const count = Number(value);
  return count >= 1 && count <= MAX_GPUS_PER_INSTANCE ? count : undefined;
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
function ImagePicker({ host, value, onChange }: { host: MarketHost; value: PublicImage | undefined; onChange: (image: PublicImage | null) => void }) {
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

interface PriceCardProps {
  host: MarketHost;
  gpuNum: number;
  billing: Billing;
  canSubmit: boolean;
  agreed: boolean;
  onAgreedChange: (agreed: boolean) => void;
  submitting: boolean;
  onSubmit: () => void;
}

/** What creating costs (from /rental/prepay), the one-hour rule against the balance, and 立即创建. */
function PriceCard({ host, gpuNum, billing, canSubmit, agreed, onAgreedChange, submitting, onSubmit }: PriceCardProps) {
  const { packageKey } = billing;
  const prepay = usePrepayQuery({
    hostId: host.hostId,
    gpuNum,
    chargingRuleId: billing.chargingRuleId,
    ...(packageKey ? { rentAmount: billing.rentAmount, ...(billing.voucherId ? { voucherId: billing.voucherId } : {}) } : {}),
  });
  const balance = useBalanceQuery();
  const price = prepay.data;
  const short = price !== undefined && balance.data !== undefined && balance.data.totalBalance < price.payable;

  let figures: ReactNode;
  if (prepay.isPending) figures = <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  else if (prepay.isError && !price) figures = <QueryError title={T.price.failed} error={prepay.error} onRetry={() => void prepay.refetch()} />;
  else if (price && packageKey) {
    figures = (
      <dl className="slg-create-price">
        <div>
          <dt>{T.price.unitPrice}</dt>
          <dd>{T.price.perGpuPeriod(formatYuan(price.pricePerGpuFen), PACKAGE_UNIT_LABELS[packageKey])}</dd>
        </div>
        <div>
          <dt>{T.price.gpuNum}</dt>
          <dd>{T.gpuNum.option(gpuNum)}</dd>
        </div>
        <div>
          <dt>{T.price.duration}</dt>
          <dd>{T.package.count(billing.rentAmount, packageKey)}</dd>
        </div>
        <div>
          <dt>{T.price.original}</dt>
          <dd>{formatYuan(price.amount)}</dd>
        </div>
        {price.discount > 0 ? (
          <div>
            <dt>{T.price.voucher}</dt>
            <dd>-{formatYuan(price.discount)}</dd>
          </div>
        ) : null}
        <div className="slg-create-price-total">
          <dt>{T.price.payable}</dt>
          <dd aria-live="polite">{formatYuan(price.payable)}</dd>
        </div>
        <div>
          <dt>{T.price.expiresAt}</dt>
          <dd>{price.expiresAt ? formatDateTime(price.expiresAt) : '-'}</dd>
        </div>
        <div>
          <dt>{T.price.balance}</dt>
          <dd>{balance.data ? formatYuan(balance.data.totalBalance) : '-'}</dd>
        </div>
      </dl>
    );
  } else if (price) {
    figures = (
      <dl className="slg-create-price">
        <div>
          <dt>{T.price.unitPrice}</dt>
          <dd>{T.price.perGpuHour(formatYuan(price.pricePerGpuFen))}</dd>
        </div>
        <div>
          <dt>{T.price.gpuNum}</dt>
          <dd>{T.gpuNum.option(gpuNum)}</dd>
        </div>
        <div className="slg-create-price-total">
          <dt>{T.price.hourly}</dt>
          <dd aria-live="polite">{T.price.hourlyValue(formatYuan(price.amount))}</dd>
        </div>
        <div>
          <dt>{T.price.balance}</dt>
          <dd>{balance.data ? formatYuan(balance.data.totalBalance) : '-'}</dd>
        </div>
      </dl>
    );
  }

  return (
    <Card title={T.price.title} className="slg-create-card slg-create-price-card">
      {figures}
      {price && !packageKey ? (
        <Typography.Paragraph type="secondary" className="slg-create-cover">
          {T.price.cover(BALANCE_COVER_HOURS, formatYuan(price.payable))}
        </Typography.Paragraph>
      ) : null}
      {short && balance.data ? (
        <Alert
          type="warning"
          showIcon
          className="slg-create-alert"
          title={T.insufficient.title}
          description={
            packageKey
              ? T.insufficient.packageDescription(formatYuan(price.payable), formatYuan(balance.data.totalBalance))
              : T.insufficient.description(formatYuan(price.payable), formatYuan(balance.data.totalBalance))
          }
          action={
            <LinkButton size="small" type="primary" to={COMPUTE_PATHS.recharge}>
              {T.insufficient.action}
            </LinkButton>
          }
        />
      ) : null}
      <RentalProtocol agreed={agreed} onAgreedChange={onAgreedChange} />
      <Button
        type="primary"
        size="large"
        block
        loading={submitting}
        disabled={!canSubmit || !price || short || !agreed}
        title={agreed ? undefined : T.protocol.required}
        onClick={onSubmit}
      >
        {packageKey && price ? T.submitPaying(formatYuan(price.payable)) : T.submit}
      </Button>
      <Typography.Paragraph type="secondary" className="slg-create-footnote">
        {packageKey ? T.price.packageNote : T.price.noGpuNote}
      </Typography.Paragraph>
    </Card>
  );
}

interface CreateFormProps {
  host: MarketHost;
  initialGpuNum: number;
  initialRuleId: number;
  /** A private image named by the link (`?imageId=img-…`): 我的镜像 opens with it chosen. */
  initialPrivateImageId: string | undefined;
}

function CreateForm({ host, initialGpuNum, initialRuleId, initialPrivateImageId }: CreateFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const maxGpus = Math.min(MAX_GPUS_PER_INSTANCE, host.gpuTotal);
  const [gpuNum, setGpuNum] = useState(Math.min(Math.max(1, initialGpuNum), Math.max(1, host.gpuFree)));
  const images = usePublicImages();
  // undefined: not chosen yet (the default applies); null: the chosen framework has no image for this host.
  const [chosenImage, setChosenImage] = useState<PublicImage | null | undefined>(undefined);
  const image = chosenImage === undefined ? (images.data ? defaultImage(images.data, host.cudaVersion) : undefined) : (chosenImage ?? undefined);
  const mayUsePrivateImages = useMayUsePrivateImages();
  const [chosenSource, setImageSource] = useState<ImageSource>(initialPrivateImageId ? 'private' : 'public');
  const imageSource: ImageSource = mayUsePrivateImages ? chosenSource : 'public';
  // undefined: the first usable one applies; an id: the one picked or linked, chosen once it is usable (a saving one when saved).
  const [wantedPrivateImage, setWantedPrivateImage] = useState<string | undefined>(initialPrivateImageId);
  const privateImages = usePrivateImagesQuery(imageSource === 'private');
  const privateImage =
    imageSource === 'private' && privateImages.data ? chosenPrivateImage(privateImages.data.list, host.cudaVersion, wantedPrivateImage) : undefined;
  const imageId = imageSource === 'private' ? privateImage?.imageId : image?.id;
  // Nothing to choose from (the empty state says how to get an image) is not an error of the field.
  const imageMissing =
    imageSource === 'private'
      ? Boolean(privateImages.data && !privateImage && privateImageChoices(privateImages.data.list).length > 0)
      : Boolean(images.data && !image);
  const [name, setName] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [chargingRuleId, setChargingRuleId] = useState(initialRuleId);
  const packageKey = packageKeyOfRule(chargingRuleId);
  const [rentAmount, setRentAmount] = useState(1);
  const [voucherId, setVoucherId] = useState<number | undefined>(undefined);
  const [autoRenew, setAutoRenew] = useState(false);
  const billing: Billing = { chargingRuleId, packageKey, rentAmount, voucherId: packageKey ? voucherId : undefined, autoRenew };
  // The voucher list needs the order's amount; the undiscounted price of the current choice gives it.
  const undiscounted = usePrepayQuery(packageKey ? { hostId: host.hostId, gpuNum, chargingRuleId, rentAmount } : null);
  const trimmedName = name.trim();
  const nameError = trimmedName && !INSTANCE_NAME_PATTERN.test(trimmedName) ? INSTANCE_NAME_MESSAGE : undefined;
  // One key per attempt: a repeat after a lost answer (network failure) reuses it, so it creates once.
  const idempotencyKey = useRef<string | null>(null);

  const create = useMutation({
    mutationFn: () => {
      idempotencyKey.current ??= newIdempotencyKey();
      return createInstance(
        {
          hostId: host.hostId,
          gpuNum,
          imageId: imageId ?? '',
          chargingRuleId,
          ...(packageKey ? { rentAmount, autoRenew, ...(voucherId ? { voucherId } : {}) } : {}),
          ...(trimmedName ? { name: trimmedName } : {}),
        },
        idempotencyKey.current,
      );
    },
    onSuccess: () => {
      idempotencyKey.current = null;
      toast.success(T.created);
      void invalidateAfterInstanceChange(queryClient);
      void navigate(COMPUTE_PATHS.list);
    },
    onError: (error) => {
      // The server answered: the next submit is a new attempt. The client shows its message (one toast).
      if (isApiError(error) && error.status !== 0) idempotencyKey.current = null;
      void invalidateAfterInstanceChange(queryClient);
    },
  });

  const tooMany = gpuNum > host.gpuFree;
  const canSubmit = host.gpuFree > 0 && !tooMany && Boolean(imageId) && !nameError;

  return (
    <div className="slg-create-layout">
      <div className="slg-create-main">
        <HostSummary host={host} />
        <Card className="slg-create-card">
          <Form layout="vertical" requiredMark={false} onSubmitCapture={(event) => event.preventDefault()}>
            <Form.Item label={T.billing.label} extra={packageKey ? T.billing.packageHint : T.billing.usageHint}>
              <Radio.Group
                aria-label={T.billing.label}
                name="charging-rule"
                optionType="button"
                value={chargingRuleId}
                onChange={(event) => {
                  setChargingRuleId(Number(event.target.value));
                  setRentAmount(1);
                  setVoucherId(undefined);
                }}
                options={CHARGING_RULES.map((rule) => ({ value: rule.id, label: rule.showName }))}
              />
            </Form.Item>
            {packageKey ? (
              <>
                <Form.Item label={T.package.duration}>
                  <Radio.Group
                    aria-label={T.package.duration}
                    name="rent-amount"
                    optionType="button"
                    className="slg-create-counts"
                    value={rentAmount}
                    onChange={(event) => {
                      setRentAmount(Number(event.target.value));
                      setVoucherId(undefined);
                    }}
                    options={TIME_PACKAGE_COUNTS[packageKey].map((count) => ({ value: count, label: T.package.count(count, packageKey) }))}
                  />
                </Form.Item>
                <Form.Item label={T.package.voucher} htmlFor="create-voucher">
                  <VoucherSelect id="create-voucher" orderType="NEW_PURCHASE" amountFen={undiscounted.data?.amount} value={voucherId} onChange={setVoucherId} />
                </Form.Item>
                <Form.Item extra={T.package.autoRenewHint}>
                  <Checkbox checked={autoRenew} onChange={(event) => setAutoRenew(event.target.checked)}>
                    {T.package.autoRenew}
                  </Checkbox>
                </Form.Item>
              </>
            ) : null}
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
                  <ImagePicker host={host} value={image} onChange={setChosenImage} />
                )}
              </div>
            </Form.Item>
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
        <PriceCard
          host={host}
          gpuNum={gpuNum}
          billing={billing}
          canSubmit={canSubmit}
          agreed={agreed}
          onAgreedChange={setAgreed}
          submitting={create.isPending}
          onSubmit={() => create.mutate()}
        />
      </aside>
      <Card title={T.notice.title} className="slg-create-card slg-create-notice-card" size="small">
        <ul className="slg-create-notice">
          {(packageKey ? T.notice.packagePoints : T.notice.points).map((point) => (
            <li key={point}>
              <Typography.Text type="secondary">{point}</Typography.Text>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

/** 创建实例: the host chosen in 算力市场, GPUs, image, name; the price and the one-hour rule before 立即创建. */
function CreateInstancePage() {
  const [params] = useSearchParams();
  const hostId = params.get('hostId') ?? undefined;
  const initialGpuNum = parseCount(params.get('gpuNum')) ?? 1;
  const initialRuleId = parseRule(params.get('chargingRuleId'));
  const linkedImageId = params.get('imageId');
  const initialPrivateImageId = linkedImageId && isPrivateImageId(linkedImageId) ? linkedImageId : undefined;
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
      <CreateForm
        key={host.data.hostId}
        host={host.data}
        initialGpuNum={initialGpuNum}
        initialRuleId={initialRuleId}
        initialPrivateImageId={initialPrivateImageId}
      />
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
