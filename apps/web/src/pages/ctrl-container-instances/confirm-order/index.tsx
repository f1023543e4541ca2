import { ArrowLeftOutlined } from '@ant-design/icons';
import { ErrorCodes, FREE_DATA_DISK_GB, formatYuan, imageRunsOnHost, isPrivateImageId, packageKeyOfRule } from '@slg/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Skeleton } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useBalanceQuery } from '../../../api/account';
import { claimError, isApiError } from '../../../api/client';
import {
  computeKeys,
  createInstance,
  invalidateAfterInstanceChange,
  prepayInstance,
  useMarketHostQuery,
  type MarketHost,
  type PrepayBody,
  type PrepayResult,
} from '../../../api/compute';
import { imageKeys, usePrivateImagesQuery } from '../../../api/images';
import { PUBLIC_IMAGES_QUERY_KEY, usePublicImages } from '../../../api/meta';
import { toast } from '../../../api/toast';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { permissionList, useUserStore } from '../../../stores/user';
import { withAntd } from '../../../theme/AntdScope';
import { useAttemptKey } from '../containerInstances/components/billingParts';
import {
  chooseHostPath,
  createBodyOf,
  createDraftOf,
  editOrderPath,
  parseCreateChoice,
  prepayBodyOf,
  type CreateChoice,
} from '../createInstances/createOrder';
import { HostSummary } from '../createInstances/HostSummary';
import { CREATE_INSTANCE_TEXTS } from '../createInstances/texts';
import '../instances.css';
import { DatasetMountSummary } from '../orderParts/datasetMounts';
import { balanceRow, OrderFigures } from '../orderParts/OrderFigures';
import { OrderPayCard, refusalOf, type Refusal } from '../orderParts/OrderPayCard';
import { CreateNoticeCard, HostBlockedAlert, OrderBillingCard, OrderLinkProblem, useVerificationNeeded, VerificationNeededAlert } from '../orderParts/OrderSummaryParts';
import '../orderParts/order.css';
import { ORDER_TEXTS } from '../orderParts/texts';
import { COMPUTE_PATHS } from '../paths';
import { CONFIRM_ORDER_TEXTS } from './texts';

const T = CONFIRM_ORDER_TEXTS;

/** A package's end moves with the clock, and a host's price may change: the quote is asked again this often. */
const PRICE_REFRESH_MS = 60_000;

/** `/rental/prepay` of the order; a refusal stays on the page (silent, not retried). */
function useOrderPrepay(body: PrepayBody) {
  return useQuery({
    queryKey: [...computeKeys.prepay(body), 'order'] as const,
    queryFn: () => prepayInstance(body),
    placeholderData: keepPreviousData,
    refetchInterval: PRICE_REFRESH_MS,
    retry: false,
  });
}

/** The image of the order as the console knows it: what to show, and why it cannot be used on the host (null: it can, or only the server knows). */
function useOrderImage(imageId: string, host: MarketHost): { label: ReactNode; problem: string | null } {
  const isPrivate = isPrivateImageId(imageId);
  const user = useUserStore((state) => state.userInfo);
  const publicImages = usePublicImages();
  // A sub-account without 我的镜像 cannot list private images; the server still checks the image.
  const privateImages = usePrivateImagesQuery(isPrivate && (permissionList(user)?.includes('MIRROR') ?? true));
  const loading = <Skeleton.Input active size="small" />;
  if (isPrivate) {
    if (privateImages.isPending) return { label: privateImages.fetchStatus === 'idle' ? imageId : loading, problem: null };
    if (!privateImages.data) return { label: imageId, problem: null };
    const image = privateImages.data.list.find((item) => item.imageId === imageId);
    if (!image || image.status === 'failed') return { label: imageId, problem: T.blocked.imageGone };
    const label = T.config.privateImage(image.name, image.cuda);
    if (image.status === 'saving') return { label, problem: T.blocked.imageSaving(image.name) };
    if (!imageRunsOnHost(image.cuda, host.cudaVersion)) return { label, problem: T.blocked.imageCuda(image.cuda, host.cudaVersion) };
    return { label, problem: null };
  }
  if (publicImages.isPending) return { label: loading, problem: null };
  if (!publicImages.data) return { label: imageId, problem: null };
  const image = publicImages.data.find((item) => item.id === imageId);
  if (!image) return { label: imageId, problem: T.blocked.imageGone };
  const label = T.config.publicImage(image);
  if (!imageRunsOnHost(image.cuda, host.cudaVersion)) return { label, problem: T.blocked.imageCuda(image.cuda, host.cudaVersion) };
  return { label, problem: null };
}

/** Why the host cannot take the order now (null: it can), as the server would refuse it. */
function hostBlocker(host: MarketHost, gpuNum: number): string | null {
  if (host.gpuTotal < gpuNum) return T.blocked.gpuTotal(host.gpuTotal, gpuNum);
  if (host.gpuFree < gpuNum) return host.gpuFree === 0 ? T.blocked.full : T.blocked.gpuFree(host.gpuFree, gpuNum);
  return null;
}

/** 配置: the GPUs, CPU and memory the instance gets, its free data disk, the image and the name. */
function ConfigCard({ host, choice, image }: { host: MarketHost; choice: CreateChoice; image: ReactNode }) {
  return (
    <Card title={T.config.title} className="slg-create-card">
      <Descriptions
        column={{ xs: 1, sm: 2 }}
        size="small"
        items={[
          { key: 'gpu', label: T.config.gpu, children: T.config.gpuValue(host.gpuModelName, choice.gpuNum) },
          { key: 'cpu', label: T.config.cpu, children: T.config.cpuValue(host.cpuPerGpu * choice.gpuNum, host.cpuModelName) },
          { key: 'memory', label: T.config.memory, children: T.config.memoryValue(host.memoryGbPerGpu * choice.gpuNum) },
          { key: 'disk', label: T.config.dataDisk, children: T.config.dataDiskValue(FREE_DATA_DISK_GB) },
          { key: 'image', label: T.config.image, children: image, span: 'filled' },
          // The server names an unnamed instance after the GPU model and the region.
          { key: 'name', label: T.config.name, children: choice.name ?? T.config.nameDefault(`${host.gpuModelName}-${host.zoneName}`), span: 'filled' },
          ...(choice.datasetIds?.length
            ? [{ key: 'datasets', label: ORDER_TEXTS.datasets.summary, children: <DatasetMountSummary ids={choice.datasetIds} />, span: 'filled' as const }]
            : []),
        ]}
      />
    </Card>
  );
}

/** The order: the host, what the instance gets, the billing; its price from the prepay, the balance, the agreement and the one button. */
function CreateOrder({ host, choice }: { host: MarketHost; choice: CreateChoice }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const packageKey = packageKeyOfRule(choice.chargingRuleId);
  // The one choice: priced by the prepay and sent by the button, so what is paid is what was shown.
  const body = createBodyOf(choice);
  const prepay = useOrderPrepay(prepayBodyOf(choice));
  const balance = useBalanceQuery();
  const image = useOrderImage(choice.imageId, host);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const attempt = useAttemptKey();
  const links = { change: editOrderPath(choice), chooseHost: chooseHostPath(choice, host) };
  const create = useMutation({
    mutationFn: () => createInstance(body, attempt.keyFor(body)),
    onSuccess: () => {
      attempt.answered();
      toast.success(T.created);
      void navigate(COMPUTE_PATHS.list);
    },
    onError: (failure) => {
      attempt.answered(failure);
      // Claimed: the refusal is shown here, not as a toast as well.
      claimError(failure);
      const refused = refusalOf(failure);
      if (isApiError(failure) && failure.status === 404) {
        refused.message = T.gone;
        void queryClient.invalidateQueries({ queryKey: PUBLIC_IMAGES_QUERY_KEY });
        void queryClient.invalidateQueries({ queryKey: imageKeys.list() });
      }
      // A voucher used or expired meanwhile: 返回修改 without it, to choose another or none.
      if (isApiError(failure) && failure.code === ErrorCodes.VOUCHER_UNAVAILABLE.code) refused.changeTo = editOrderPath({ ...choice, voucherId: undefined });
      setRefusal(refused);
    },
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });

  const blocker = hostBlocker(host, choice.gpuNum);
  const verificationNeeded = useVerificationNeeded();
  const total = balance.data?.totalBalance;
  // Once the server has refused, its answer is the one said (the page's own check would repeat it).
  const warnings = refusal ? null : (
    <>
      {verificationNeeded ? <VerificationNeededAlert /> : null}
      {blocker ? <HostBlockedAlert title={T.blocked.title} reason={blocker} chooseHost={links.chooseHost} /> : null}
      {image.problem ? (
        <Alert
          type="warning"
          showIcon
          className="slg-create-alert"
          title={T.blocked.title}
          description={image.problem}
          action={
            <LinkButton size="small" to={links.change}>
              {ORDER_TEXTS.refusal.change}
            </LinkButton>
          }
        />
      ) : null}
    </>
  );

  return (
    <div className="slg-create-layout">
      <div className="slg-create-main">
        <HostSummary host={host} title={T.host} />
        <ConfigCard host={host} choice={choice} image={image.label} />
        <OrderBillingCard billing={choice} />
      </div>
      <aside className="slg-create-side">
        <OrderPayCard
          prepay={prepay}
          failedTitle={T.priceFailed}
          figuresOf={(quote: PrepayResult) => (
            <OrderFigures quote={quote} gpuNum={choice.gpuNum} packageKey={packageKey} rentAmount={choice.rentAmount} extra={[balanceRow(total)]} />
          )}
          packageKey={packageKey}
          balance={total}
          links={links}
          warnings={warnings}
          refusal={refusal}
          ready={blocker === null && image.problem === null && !verificationNeeded}
          submitText={(quote) => (packageKey && quote ? T.submitPaying(formatYuan(quote.payable)) : T.submit)}
          submitting={create.isPending}
          onSubmit={() => {
            setRefusal(null);
            create.mutate();
          }}
        />
      </aside>
      <CreateNoticeCard packageKey={packageKey} />
    </div>
  );
}

/** The order once its host is known: a host gone is said so, with the way back to 算力市场. */
function CreateOrderOf({ choice }: { choice: CreateChoice }) {
  const host = useMarketHostQuery(choice.hostId, choice.chargingRuleId);
  if (host.isPending) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  if (host.isError && host.data === undefined) return <QueryError variant="page" title={T.hostFailed} error={host.error} onRetry={() => void host.refetch()} />;
  if (!host.data) {
    return <OrderLinkProblem title={T.hostGone.title} problem={T.hostGone.description} againTo={chooseHostPath(choice)} againText={T.hostGone.action} />;
  }
  return <CreateOrder host={host.data} choice={choice} />;
}

/** `/ctrl-container-instances/confirm-order?…`: the instance chosen on 创建实例, priced, then paid for and created. */
function ConfirmOrderPage() {
  const [params] = useSearchParams();
  const parsed = parseCreateChoice(params);
  // 返回修改 keeps whatever of the link is well-formed, also when the rest is not.
  const editPath = editOrderPath(parsed.ok ? parsed.choice : createDraftOf(params));

  const content = parsed.ok ? (
    <CreateOrderOf choice={parsed.choice} />
  ) : (
    <OrderLinkProblem title={CREATE_INSTANCE_TEXTS.invalidChoice.title} problem={parsed.problem} againTo={editPath} />
  );
  return (
    <div className="slg-page">
      <PageHeader
        title={T.title}
        description={T.description}
        back={
          <LinkButton to={editPath} icon={<ArrowLeftOutlined />} type="text">
            {T.change}
          </LinkButton>
        }
      />
      {content}
    </div>
  );
}

export default withAntd(ConfirmOrderPage);
