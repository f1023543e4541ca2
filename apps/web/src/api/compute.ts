/**
 * Compute: the market of GPU hosts (算力市场) and the caller's container instances (DESIGN §7). Every
 * amount is integer fen (format with `formatYuan`), every time an ISO 8601 string. No antd here. The
 * instance summary of the overview page is in ./instanceSummary (re-exported here).
 */
import { ErrorCodes, type GpuMode, type InstanceStatusValue, type Page } from '@slg/shared';
import type { MarketHost, MarketOverview } from '@slg/shared/views/market';
import type { PlatformFees } from '@slg/shared/views/meta';
import type {
  ChargingRuleChanged,
  ClonePrepayResult,
  CreatedInstance,
  GpuCountChanged,
  GpuCountQuote,
  InstancePort,
  InstanceView,
  KeepWhenOff,
  PrepayResult,
  RefundPreview,
  Renewed,
  RenewPrepayResult,
  RootPassword,
} from '@slg/shared/views/rental';
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { ApiError, isEnvelopeError, request, type ResponseEnvelope } from './client';
import { idempotencyHeaders } from './idempotency';
import { INSTANCE_SUMMARY_KEY, INSTANCES_SLOW_POLL_MS } from './instanceSummary';
import { queryKeys } from './queryKeys';
import { toast } from './toast';

export { fetchInstanceSummary, INSTANCES_SLOW_POLL_MS, useInstanceSummaryQuery, type InstanceSummary } from './instanceSummary';
// The answers' types are inferred from the server's schemas (packages/shared/src/views), never retyped here.
export type { MarketFigures, MarketHost, MarketOverview } from '@slg/shared/views/market';
export type {
  ChargingRuleChanged,
  ClonePrepayResult,
  CreatedInstance,
  GpuCountChanged,
  GpuCountQuote,
  InstancePort,
  InstanceView,
  KeepWhenOff,
  PrepayResult,
  RefundPreview,
  Renewed,
  RenewPrepayResult,
  RootPassword,
  RunningCopy,
} from '@slg/shared/views/rental';

// ---------------------------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------------------------

export type MarketSort = 'price' | 'free';

export interface MarketQuery {
  page: number;
  pageSize: number;
  chargingRuleId: number;
  /** One host only (the create page). */
  hostId?: string | undefined;
  zoneId?: string;
  gpuModelId?: string;
  /** Only hosts that can take this many GPUs now. */
  gpuNum?: number;
  sort?: MarketSort;
}

export interface PrepayBody {
  hostId: string;
  gpuNum: number;
  chargingRuleId: number;
  /** Periods of a day / week / month package. */
  rentAmount?: number;
  voucherId?: number;
}

export interface CreateInstanceBody {
  hostId: string;
  gpuNum: number;
  imageId: string;
  chargingRuleId: number;
  rentAmount?: number;
  voucherId?: number;
  autoRenew?: boolean;
  name?: string;
  /** Shared datasets mounted read-only at /root/slg-pub/<name> (public ones need not be named). */
  datasetIds?: number[];
}

export interface RenewBody {
  instanceIds: string[];
  rentAmount: number;
  voucherId?: number;
}

export interface InstanceListQuery {
  page: number;
  pageSize: number;
  status?: InstanceStatusValue;
  name?: string;
}

// ---------------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------------

export const computeKeys = {
  market: queryKeys.market,
  marketHosts: (query: MarketQuery) => [...queryKeys.market, 'hosts', query] as const,
  marketOverview: (chargingRuleId: number) => [...queryKeys.market, 'overview', chargingRuleId] as const,
  prepay: (body: PrepayBody) => [...queryKeys.market, 'prepay', body] as const,
  instances: queryKeys.instances,
  instanceList: (query: InstanceListQuery) => [...queryKeys.instances, 'list', query] as const,
  instanceSummary: INSTANCE_SUMMARY_KEY,
  /** Outside `instances`: the list's invalidations must not read the password again. */
  rootPassword: (instanceId: string) => ['instance-root-password', instanceId] as const,
} as const;

/** The market refreshes this often (the server answers from a cache at most a second old). */
export const MARKET_REFRESH_MS = 10_000;
/** The instance list polls this fast while an instance is changing state, else every INSTANCES_SLOW_POLL_MS. */
export const INSTANCES_FAST_POLL_MS = 2_500;

/** Statuses that change by themselves shortly (the platform is working on the instance). */
const TRANSITIONAL_STATUSES: readonly InstanceStatusValue[] = ['CreationStarted', 'CreationAccomplished', 'ResetStarted', 'DestroyStarted'];

/** Whether the instance is between two states: its list should be polled fast. */
export function isTransitional(instance: Pick<InstanceView, 'status' | 'operation'>): boolean {
  return instance.operation !== null || TRANSITIONAL_STATUSES.includes(instance.status);
}

export function instancesPollInterval(page: Page<InstanceView> | undefined): number {
  // A running 跨实例拷贝 moves its progress on the row: polled fast as well.
  return page?.list.some((instance) => isTransitional(instance) || Boolean(instance.copyTask)) ? INSTANCES_FAST_POLL_MS : INSTANCES_SLOW_POLL_MS;
}

// ---------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------

/** Silent: the market shows a load failure in place, and a failing 10-second refresh must not toast. */
export function fetchMarketHosts(query: MarketQuery): Promise<Page<MarketHost>> {
  return request<Page<MarketHost>>({ url: '/comppower', params: { ...query }, silent: true });
}


export function fetchMarketOverview(chargingRuleId: number): Promise<MarketOverview> {
  return request<MarketOverview>({ url: '/comppower/overview', params: { chargingRuleId }, silent: true });
}

/** Silent: the create page shows a failed price in place of the price. */
export function prepayInstance(body: PrepayBody): Promise<PrepayResult> {
  return request<PrepayResult>({ method: 'POST', url: '/rental/prepay', data: body, silent: true });
}

/** Creates an instance; `idempotencyKey` is new for every submit (a retry of the same submit reuses it). */
export function createInstance(body: CreateInstanceBody, idempotencyKey: string): Promise<CreatedInstance> {
  return request<CreatedInstance>({ method: 'POST', url: '/rental', data: body, headers: idempotencyHeaders(idempotencyKey) });
}

/** Silent: the list shows its own load error, and a poll that fails must not toast every few seconds. */
export function fetchInstances(query: InstanceListQuery): Promise<Page<InstanceView>> {
  return request<Page<InstanceView>>({ url: '/rental', params: { ...query }, silent: true });
}

function statusOfCode(code: number): number {
  return Object.values(ErrorCodes).find((entry) => entry.code === code)?.status ?? 400;
}

/**
 * 开机. The client resolves power_on with the whole envelope (spec §8 exception), so a refusal is
 * turned into an ApiError here; like the client, its toast waits a task and is left out when the
 * caller claims the error (主机GPU不足 is shown in the dialog, with 无卡模式 offered).
 */
export async function powerOnInstance(instanceId: string, mode: GpuMode): Promise<InstanceView> {
  const envelope = await request<ResponseEnvelope<InstanceView>>({ method: 'POST', url: '/rental/power_on', data: { instanceId, mode } });
  if (!isEnvelopeError(envelope)) return envelope.result;
  const code = envelope.rspcode ?? envelope.code ?? 0;
  const error = new ApiError(statusOfCode(code), code, envelope.rspmsg || envelope.message || ErrorCodes.STATE_CONFLICT.message);
  setTimeout(() => {
    if (!error.claimed) toast.error(error.message);
  }, 0);
  throw error;
}

/** Powers off now, or at `at` (ISO time): a scheduled power-off the instance shows until it fires. */
export function powerOffInstance(instanceId: string, at?: string): Promise<InstanceView> {
  return request<InstanceView>({ method: 'POST', url: '/rental/power_off', data: at ? { instanceId, at } : { instanceId } });
}

export function cancelScheduledPowerOff(instanceId: string): Promise<InstanceView> {
  return request<InstanceView>({ method: 'DELETE', url: '/rental/power_off/cancel', params: { instanceId } });
}

/** Silent: the renewal dialog shows a refused price in place. */
export function renewPrepay(body: RenewBody): Promise<RenewPrepayResult> {
  return request<RenewPrepayResult>({ method: 'POST', url: '/rental/renew/prepay', data: body, silent: true });
}

export function renewInstances(body: RenewBody, idempotencyKey: string): Promise<Renewed> {
  return request<Renewed>({ method: 'POST', url: '/rental/renew', data: body, headers: idempotencyHeaders(idempotencyKey) });
}

export function setAutoRenew(instanceId: string, autoRenew: boolean): Promise<null> {
  return request<null>({ method: 'PUT', url: '/rental/auto_renew', data: { instanceId, autoRenew } });
}

/** Silent: the switch dialog shows a failed preview in place. */
export function fetchRefundPreview(rentalUid: string): Promise<RefundPreview> {
  return request<RefundPreview>({ url: '/order/preview/refund', params: { rentalUid }, silent: true });
}

/** Switches a package to pay-as-you-go (chargingRuleId 1) or pay-as-you-go to `rentAmount` periods of a package. */
export function updateChargingRule(
  input: { instanceId: string; chargingRuleId: number; rentAmount?: number },
  idempotencyKey: string,
): Promise<ChargingRuleChanged> {
  return request<ChargingRuleChanged>({
    method: 'PUT',
    url: '/rental/update_charging_rule',
    params: { ...input },
    headers: idempotencyHeaders(idempotencyKey),
  });
}

/** Silent: the page shows a refused quote in place. */
export function gpuCountPrepay(instanceId: string, gpuNum: number): Promise<GpuCountQuote> {
  return request<GpuCountQuote>({ method: 'POST', url: '/rental/change_gpu_num/prepay', data: { instanceId, gpuNum }, silent: true });
}

export function changeGpuCount(input: { instanceId: string; gpuNum: number }, idempotencyKey: string): Promise<GpuCountChanged> {
  return request<GpuCountChanged>({
    method: 'POST',
    url: '/rental/change_gpu_num',
    data: input,
    headers: idempotencyHeaders(idempotencyKey),
  });
}

/** A clone of a stopped instance (`/rental/clone` in its region, `/rental/clone/v2` across regions). */
export interface CloneBody {
  instanceId: string;
  hostId: string;
  gpuNum: number;
  chargingRuleId: number;
  rentAmount?: number;
  /** A voucher for a day / week / month package (pay-as-you-go takes none). */
  voucherId?: number;
  autoRenew?: boolean;
  name?: string;
  copyData: boolean;
  releaseSource?: boolean;
  /** Shared datasets the clone mounts, as at create. */
  datasetIds?: number[];
}

const clonePath = (crossRegion: boolean) => (crossRegion ? '/rental/clone/v2' : '/rental/clone');

/** Silent: the clone pages show a refused price in place. */
export function clonePrepay(body: CloneBody, crossRegion: boolean): Promise<ClonePrepayResult> {
  return request<ClonePrepayResult>({ method: 'POST', url: `${clonePath(crossRegion)}/prepay`, data: body, silent: true });
}

export function cloneInstance(body: CloneBody, crossRegion: boolean, idempotencyKey: string): Promise<CreatedInstance> {
  return request<CreatedInstance>({ method: 'POST', url: clonePath(crossRegion), data: body, headers: idempotencyHeaders(idempotencyKey) });
}

export function setKeepWhenOff(instanceId: string, keep: boolean): Promise<KeepWhenOff> {
  return request<KeepWhenOff>({ method: 'PUT', url: '/rental/keep_when_off', data: { instanceId, keep } });
}

export function fetchInstancePorts(instanceId: string): Promise<InstancePort[]> {
  return request<InstancePort[]>({ url: '/rental/ports', params: { instanceId }, silent: true });
}

/** Silent: the dialog shows a refusal on its form. */
export function mapInstancePort(input: { instanceId: string; port: number; protocol: 1 | 2 }): Promise<InstancePort> {
  return request<InstancePort>({ method: 'POST', url: '/rental/map_port', data: input, silent: true });
}

export function updatePortProtocol(input: { instanceId: string; port: number; protocol: 1 | 2 }): Promise<InstancePort> {
  return request<InstancePort>({ method: 'PUT', url: '/rental/update_custom_service_protocol', data: input });
}

export function removeInstancePort(instanceId: string, port: number): Promise<null> {
  return request<null>({ method: 'DELETE', url: '/rental/map_port', params: { instanceId, port } });
}

export function useInstancePortsQuery(instanceId: string, enabled: boolean) {
  return useQuery({ queryKey: [...queryKeys.instances, 'ports', instanceId] as const, queryFn: () => fetchInstancePorts(instanceId), enabled });
}

export function renameInstance(instanceId: string, name: string): Promise<InstanceView> {
  return request<InstanceView>({ method: 'PUT', url: '/rental/name', data: { instanceId, name } });
}

export function updateInstancePassword(instanceId: string, password: string): Promise<null> {
  return request<null>({ method: 'POST', url: '/rental/update_pwd', data: { instanceId, password } });
}

export function revealInstancePassword(instanceId: string): Promise<RootPassword> {
  return request<RootPassword>({ url: '/rental/password', params: { instanceId } });
}

/** Releases a powered-off instance: its system and data disks are deleted. */
export function releaseInstance(instance: Pick<InstanceView, 'instanceId' | 'rentalId'>): Promise<null> {
  return request<null>({ method: 'DELETE', url: '/rental', params: { instanceId: instance.instanceId, rentalId: instance.rentalId } });
}

/** After an instance changed: every instance query, the market's free GPUs and the header balance. */
export async function invalidateAfterInstanceChange(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.instances }),
    queryClient.invalidateQueries({ queryKey: queryKeys.market }),
    queryClient.invalidateQueries({ queryKey: queryKeys.balance }),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

/** The market's hosts, kept current every ~10 s (also in a background tab: free GPUs change). */
export function useMarketHostsQuery(query: MarketQuery) {
  return useQuery({
    queryKey: computeKeys.marketHosts(query),
    queryFn: () => fetchMarketHosts(query),
    placeholderData: keepPreviousData,
    refetchInterval: MARKET_REFRESH_MS,
  });
}

export function useMarketOverviewQuery(chargingRuleId: number) {
  return useQuery({
    queryKey: computeKeys.marketOverview(chargingRuleId),
    queryFn: () => fetchMarketOverview(chargingRuleId),
    placeholderData: keepPreviousData,
    refetchInterval: MARKET_REFRESH_MS,
  });
}

/** The platform's fees besides the GPUs (`GET /meta/fees`, set by the operator). */
export type { PlatformFees } from '@slg/shared/views/meta';

export function usePlatformFeesQuery() {
  return useQuery({
    queryKey: ['meta', 'fees'] as const,
    queryFn: () => request<PlatformFees>({ url: '/meta/fees', silent: true }),
    staleTime: 10 * 60_000,
  });
}

/** One host of the market by id; null when it is gone (delisted by the operator, or a stale link). */
export function useMarketHostQuery(hostId: string | undefined, chargingRuleId: number) {
  const query: MarketQuery = { page: 1, pageSize: 1, chargingRuleId, sort: 'price', hostId };
  return useQuery({
    queryKey: computeKeys.marketHosts(query),
    queryFn: async () => (await fetchMarketHosts(query)).list[0] ?? null,
    enabled: Boolean(hostId),
    refetchInterval: MARKET_REFRESH_MS,
  });
}

export function useRenewPrepayQuery(body: RenewBody | null) {
  return useQuery({
    queryKey: [...queryKeys.instances, 'renew-prepay', body] as const,
    queryFn: () => renewPrepay(body as RenewBody),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** The refund preview, refreshed each minute while the dialog is open (it changes with every hour begun). */
export function useRefundPreviewQuery(rentalUid: string | null) {
  return useQuery({
    queryKey: [...queryKeys.instances, 'refund-preview', rentalUid] as const,
    queryFn: () => fetchRefundPreview(rentalUid as string),
    enabled: rentalUid !== null,
    refetchInterval: 60_000,
    retry: false,
  });
}

/** The quote for `gpuNum` GPUs, refreshed each minute (a package's remaining hours change). */
export function useGpuCountQuoteQuery(instanceId: string, gpuNum: number | null) {
  return useQuery({
    queryKey: [...queryKeys.instances, 'gpu-count-prepay', instanceId, gpuNum] as const,
    queryFn: () => gpuCountPrepay(instanceId, gpuNum as number),
    enabled: gpuNum !== null,
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
    retry: false,
  });
}

export function usePrepayQuery(body: PrepayBody | null) {
  return useQuery({
    queryKey: computeKeys.prepay(body ?? { hostId: '', gpuNum: 0, chargingRuleId: 0 }),
    queryFn: () => prepayInstance(body as PrepayBody),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });
}

/** The instance list, polled fast while an instance is changing state (also in a background tab). */
export function useInstancesQuery(query: InstanceListQuery) {
  return useQuery({
    queryKey: computeKeys.instanceList(query),
    queryFn: () => fetchInstances(query),
    placeholderData: keepPreviousData,
    refetchInterval: (current) => instancesPollInterval(current.state.data),
    refetchIntervalInBackground: true,
  });
}
