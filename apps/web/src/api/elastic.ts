/**
 * 弹性部署: deployments (常驻服务, 任务, 临时容器) over containers the platform places on any host
 * that matches their filters, the containers themselves, and 时长包 (prepaid GPU-hours of one model).
 * Every amount is integer fen (format with `formatYuan`), every time an ISO 8601 string. No antd here.
 * The overview (总览, stock) is in ./elasticOverview (re-exported here).
 */
import { ErrorCodes, type ElasticDeploymentStatusValue, type ElasticTypeValue, type Page, type TimePackStatusValue } from '@slg/shared';
import type {
  ElasticContainerView,
  ElasticCreated,
  ElasticDeploymentView,
  ElasticEventView,
  ElasticLogs,
  ElasticPortView,
  TimePackBought,
  TimePackQuote,
  TimePackRefund,
  TimePackView,
} from '@slg/shared/views/elastic';
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { isApiError, request } from './client';
import { idempotencyHeaders } from './idempotency';
import { queryKeys } from './queryKeys';

export { ELASTIC_OVERVIEW_KEY, fetchElasticOverview, useElasticOverviewQuery, type ElasticOverview, type ElasticStockView } from './elasticOverview';
// The answers' types are inferred from the server's schemas (packages/shared/src/views/elastic), never retyped here.
export type {
  ElasticContainerView,
  ElasticCreated,
  ElasticDeploymentView,
  ElasticEventView,
  ElasticLogs,
  ElasticPortView,
  TimePackBought,
  TimePackQuote,
  TimePackRefund,
  TimePackView,
} from '@slg/shared/views/elastic';

// ---------------------------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------------------------

/** What a deployment's containers run on and where (the filters are optional: none means any). */
export interface ElasticTemplate {
  imageId: string;
  cmd?: string;
  env?: Record<string, string>;
  zoneIds?: string[];
  gpuModelIds?: string[];
  cudaMin?: string;
  priceMaxFen?: number;
}

export interface CreateElasticBody extends ElasticTemplate {
  name: string;
  type: ElasticTypeValue;
  gpuNum: number;
  replicaNum: number;
  parallelismNum?: number;
  ports?: ElasticPortView[];
}

/**
 * What 编辑 changes: only the fields sent (a changed image, command or environment replaces the
 * containers); null clears the command, the CUDA floor or the price cap, `[]` the zones or models.
 */
export interface EditElasticBody {
  replicaNum?: number;
  parallelismNum?: number;
  imageId?: string;
  cmd?: string | null;
  env?: Record<string, string>;
  zoneIds?: string[];
  gpuModelIds?: string[];
  cudaMin?: string | null;
  priceMaxFen?: number | null;
}

export interface ElasticListQuery {
  page: number;
  pageSize: number;
  status?: ElasticDeploymentStatusValue;
  name?: string;
}

export interface ElasticInstancesQuery {
  page: number;
  pageSize: number;
  /** false: live containers; true: ended ones. */
  released: boolean;
}

export interface TimePackListQuery {
  page: number;
  pageSize: number;
  status?: TimePackStatusValue;
}

export interface BuyTimePackBody {
  gpuModelId: string;
  hours: number;
  validDays: number;
}

// ---------------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------------

export const elasticKeys = {
  all: queryKeys.elastic,
  list: (query: ElasticListQuery) => [...queryKeys.elastic, 'list', query] as const,
  detail: (deploymentUid: string) => [...queryKeys.elastic, 'detail', deploymentUid] as const,
  instances: (deploymentUid: string, query: ElasticInstancesQuery) => [...queryKeys.elastic, 'instances', deploymentUid, query] as const,
  events: (deploymentUid: string) => [...queryKeys.elastic, 'events', deploymentUid] as const,
  released: (page: number, pageSize: number) => [...queryKeys.elastic, 'released', page, pageSize] as const,
  /** Outside `elastic`: the lists' invalidations must neither read the password nor the logs again. */
  password: (instanceId: string) => ['elastic-password', instanceId] as const,
  logs: (instanceId: string) => ['elastic-logs', instanceId] as const,
  timePacks: queryKeys.timePacks,
  timePackList: (query: TimePackListQuery) => [...queryKeys.timePacks, 'list', query] as const,
  timePackQuote: (gpuModelId: string, hours: number) => [...queryKeys.timePacks, 'quote', gpuModelId, hours] as const,
  timePackRefund: (id: number) => [...queryKeys.timePacks, 'refund', id] as const,
} as const;

/** Pages of deployments and containers poll this fast while something changes by itself. */
export const ELASTIC_POLL_MS = 3_000;
/** How many lines of a container's output 日志 shows. */
export const ELASTIC_LOG_LINES = 200;

/** Statuses where the platform is still working on the deployment (containers placed, replaced, ended). */
const ACTIVE_STATUSES: readonly ElasticDeploymentStatusValue[] = ['RUNNING', 'STOPPING'];

/** Whether the deployment changes by itself: its pages poll while it does. */
export function isActiveDeployment(deployment: Pick<ElasticDeploymentView, 'status'>): boolean {
  return ACTIVE_STATUSES.includes(deployment.status);
}

// ---------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------

/** Creates a deployment; `idempotencyKey` is new for every submit (a retry of the same submit reuses it). */
export function createElastic(body: CreateElasticBody, idempotencyKey: string): Promise<ElasticCreated> {
  return request<ElasticCreated>({ method: 'POST', url: '/elastic', data: body, headers: idempotencyHeaders(idempotencyKey) });
}

/** Silent: the list shows its own load error, and a poll that fails must not toast every few seconds. */
export function fetchElasticList(query: ElasticListQuery): Promise<Page<ElasticDeploymentView>> {
  return request<Page<ElasticDeploymentView>>({ url: '/elastic/list', params: { ...query }, silent: true });
}

export function fetchElasticDetail(deploymentUid: string): Promise<ElasticDeploymentView> {
  return request<ElasticDeploymentView>({ url: '/elastic/detail', params: { deploymentUid }, silent: true });
}

export function fetchElasticInstances(deploymentUid: string, query: ElasticInstancesQuery): Promise<Page<ElasticContainerView>> {
  return request<Page<ElasticContainerView>>({
    url: `/elastic/${encodeURIComponent(deploymentUid)}/instances`,
    params: { page: query.page, pageSize: query.pageSize, released: String(query.released) },
    silent: true,
  });
}

export function fetchElasticEvents(deploymentUid: string): Promise<ElasticEventView[]> {
  return request<ElasticEventView[]>({ url: `/elastic/${encodeURIComponent(deploymentUid)}/events`, silent: true });
}

export function fetchReleasedContainers(page: number, pageSize: number): Promise<Page<ElasticContainerView>> {
  return request<Page<ElasticContainerView>>({ url: '/elastic/released', params: { page, pageSize }, silent: true });
}

export function stopElastic(id: number): Promise<unknown> {
  return request<unknown>({ method: 'PUT', url: `/elastic/${id}/stop` });
}

export function lockElastic(id: number, locked: boolean): Promise<unknown> {
  return request<unknown>({ method: 'PUT', url: `/elastic/${id}/${locked ? 'lock' : 'unlock'}` });
}

export function deleteElastic(id: number): Promise<unknown> {
  return request<unknown>({ method: 'DELETE', url: `/elastic/${id}` });
}

export function editElastic(id: number, body: EditElasticBody): Promise<ElasticDeploymentView> {
  return request<ElasticDeploymentView>({ method: 'POST', url: `/elastic/${id}/edit`, data: body });
}

/** Releases one container (a 常驻服务 places another unless its replicas were lowered). */
export function releaseElasticContainer(instanceId: string): Promise<unknown> {
  return request<unknown>({ method: 'DELETE', url: '/elastic/instance', params: { instanceId } });
}

export function revealElasticPassword(instanceId: string): Promise<{ password: string }> {
  return request<{ password: string }>({ url: '/elastic/instance/password', params: { instanceId } });
}

/** Silent: the drawer shows a failure in place. */
export function fetchElasticLogs(instanceId: string, lines = ELASTIC_LOG_LINES): Promise<ElasticLogs> {
  return request<ElasticLogs>({ url: '/elastic/instance/logs', params: { instanceId, lines }, silent: true });
}

export function fetchTimePacks(query: TimePackListQuery): Promise<Page<TimePackView>> {
  return request<Page<TimePackView>>({ url: '/elastic/time-bundle', params: { ...query }, silent: true });
}

/** Silent: the dialog shows a refused quote in place. */
export function fetchTimePackQuote(gpuModelId: string, hours: number): Promise<TimePackQuote> {
  return request<TimePackQuote>({ url: '/elastic/time-bundle/quote', params: { gpuModelId, hours }, silent: true });
}

export function buyTimePack(body: BuyTimePackBody, idempotencyKey: string): Promise<TimePackBought> {
  return request<TimePackBought>({ method: 'POST', url: '/elastic/time-bundle', data: body, headers: idempotencyHeaders(idempotencyKey) });
}

/** Silent: the dialog shows a refused preview in place. */
export function fetchTimePackRefundPreview(id: number): Promise<TimePackRefund> {
  return request<TimePackRefund>({ url: '/elastic/time-bundle/refund', params: { id }, silent: true });
}

export function refundTimePack(id: number, idempotencyKey: string): Promise<TimePackRefund> {
  return request<TimePackRefund>({ method: 'POST', url: '/elastic/time-bundle/refund', data: { id }, headers: idempotencyHeaders(idempotencyKey) });
}

/** After a deployment or a container changed: every elastic query and the header balance. */
export async function invalidateAfterElasticChange(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.elastic }),
    queryClient.invalidateQueries({ queryKey: queryKeys.balance }),
  ]);
}

/** After a pack was bought or refunded: the packs and the balance. */
export async function invalidateAfterTimePackChange(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.timePacks }),
    queryClient.invalidateQueries({ queryKey: queryKeys.balance }),
  ]);
}

/** Whether a refusal is about the name (40026 名称已存在). */
export function isElasticNameError(error: unknown): boolean {
  return isApiError(error) && error.code === ErrorCodes.NAME_EXISTS.code;
}

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

/** The deployments, polled while one of them is running or stopping (also in a background tab). */
export function useElasticListQuery(query: ElasticListQuery) {
  return useQuery({
    queryKey: elasticKeys.list(query),
    queryFn: () => fetchElasticList(query),
    placeholderData: keepPreviousData,
    refetchInterval: (current) => (current.state.data?.list.some(isActiveDeployment) ? ELASTIC_POLL_MS : false),
    refetchIntervalInBackground: true,
  });
}

export function useElasticDetailQuery(deploymentUid: string | undefined) {
  return useQuery({
    queryKey: elasticKeys.detail(deploymentUid ?? ''),
    queryFn: () => fetchElasticDetail(deploymentUid as string),
    enabled: Boolean(deploymentUid),
    refetchInterval: (current) => (current.state.data && isActiveDeployment(current.state.data) ? ELASTIC_POLL_MS : false),
  });
}

/** A deployment's containers; `poll` while the deployment is active. */
export function useElasticInstancesQuery(deploymentUid: string, query: ElasticInstancesQuery, poll: boolean) {
  return useQuery({
    queryKey: elasticKeys.instances(deploymentUid, query),
    queryFn: () => fetchElasticInstances(deploymentUid, query),
    placeholderData: keepPreviousData,
    refetchInterval: poll ? ELASTIC_POLL_MS : false,
  });
}

export function useElasticEventsQuery(deploymentUid: string, poll: boolean) {
  return useQuery({
    queryKey: elasticKeys.events(deploymentUid),
    queryFn: () => fetchElasticEvents(deploymentUid),
    refetchInterval: poll ? ELASTIC_POLL_MS : false,
  });
}

export function useReleasedContainersQuery(page: number, pageSize: number) {
  return useQuery({
    queryKey: elasticKeys.released(page, pageSize),
    queryFn: () => fetchReleasedContainers(page, pageSize),
    placeholderData: keepPreviousData,
  });
}

/** The root password: asked for only when shown, forgotten as soon as nothing shows it. */
export function useElasticPasswordQuery(instanceId: string, enabled: boolean) {
  return useQuery({
    queryKey: elasticKeys.password(instanceId),
    queryFn: () => revealElasticPassword(instanceId),
    enabled,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

export function useElasticLogsQuery(instanceId: string | null) {
  return useQuery({
    queryKey: elasticKeys.logs(instanceId ?? ''),
    queryFn: () => fetchElasticLogs(instanceId as string),
    enabled: instanceId !== null,
    gcTime: 0,
    retry: false,
  });
}

export function useTimePacksQuery(query: TimePackListQuery) {
  return useQuery({ queryKey: elasticKeys.timePackList(query), queryFn: () => fetchTimePacks(query), placeholderData: keepPreviousData });
}

export function useTimePackQuoteQuery(gpuModelId: string | undefined, hours: number | null) {
  return useQuery({
    queryKey: elasticKeys.timePackQuote(gpuModelId ?? '', hours ?? 0),
    queryFn: () => fetchTimePackQuote(gpuModelId as string, hours as number),
    enabled: Boolean(gpuModelId) && hours !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** The refund of a pack as it would be now (it shrinks as running containers draw the pack down). */
export function useTimePackRefundPreviewQuery(id: number | null) {
  return useQuery({
    queryKey: elasticKeys.timePackRefund(id ?? 0),
    queryFn: () => fetchTimePackRefundPreview(id as number),
    enabled: id !== null,
    gcTime: 0,
    retry: false,
  });
}
