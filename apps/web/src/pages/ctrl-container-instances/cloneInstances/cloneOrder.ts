/**
 * A clone as the two pages carry it in the URL (克隆实例 → 确认克隆订单 → back), the body it sends, and
 * the rules the server applies to a target host, so the console offers only what it would accept.
 */
import { FREE_DATA_DISK_GB, imageRunsOnHost, INSTANCE_NAME_PATTERN, USAGE_CHARGING_RULE_ID } from '@slg/shared';
import type { CloneBody, InstanceView, MarketHost } from '../../../api/compute';
import { datasetIdsBody, datasetIdsDraft, parseDatasetIds, writeDatasetIds } from '../orderParts/datasetIds';
import { COMPUTE_PATHS } from '../paths';
import {
  billingBodyOf,
  billingDraftOf,
  flagOf,
  HOST_ID_PATTERN,
  intOf,
  parseBilling,
  validGpuNum,
  writeBilling,
  type BillingProblem,
  type OrderBilling,
} from '../orderParts/orderQuery';
import { CLONE_PAGE_TEXTS } from './texts';

export const INSTANCE_ID_PATTERN = /^slg-[a-z0-9]{10}$/;
const ZONE_ID_PATTERN = HOST_ID_PATTERN;

export interface CloneChoice extends OrderBilling {
  instanceId: string;
  /** Opened as 迁移 (from 主机GPU不足): the wording and the defaults, not what is sent. */
  move: boolean;
  hostId: string;
  gpuNum: number;
  name?: string | undefined;
  copyData: boolean;
  releaseSource: boolean;
  /** The target's zone, so 上一步 opens the host list where the host is; never sent. */
  zoneId?: string | undefined;
  /** Shared datasets the clone mounts (none: only the public ones). */
  datasetIds?: number[] | undefined;
}

/** What the choose page starts from: the fields of the URL that are well-formed, the rest left to defaults. */
export type CloneDraft = Partial<CloneChoice> & { instanceId: string; move: boolean };

/** Lenient: for the choose page, which only starts from the URL. */
export function draftOf(params: URLSearchParams): CloneDraft {
  const gpuNum = intOf(params.get('gpuNum'));
  const hostId = params.get('hostId');
  const zoneId = params.get('zoneId');
  const name = params.get('name')?.trim();
  return {
    instanceId: params.get('instanceId') ?? '',
    move: params.get('move') === '1',
    hostId: hostId && HOST_ID_PATTERN.test(hostId) ? hostId : undefined,
    zoneId: zoneId && ZONE_ID_PATTERN.test(zoneId) ? zoneId : undefined,
    gpuNum: validGpuNum(gpuNum) ? gpuNum : undefined,
    ...billingDraftOf(params),
    name: name && INSTANCE_NAME_PATTERN.test(name) ? name : undefined,
    copyData: flagOf(params.get('copyData')),
    releaseSource: flagOf(params.get('releaseSource')),
    datasetIds: datasetIdsDraft(params.get('datasetIds')),
  };
}

export type ParsedChoice = { ok: true; choice: CloneChoice } | { ok: false; problem: string };

const BILLING_PROBLEMS: Record<BillingProblem, string> = {
  rule: CLONE_PAGE_TEXTS.invalidChoice.rule,
  rentAmount: CLONE_PAGE_TEXTS.invalidChoice.rentAmount,
  voucher: CLONE_PAGE_TEXTS.invalidChoice.voucher,
  usageExtras: CLONE_PAGE_TEXTS.invalidChoice.usageExtras,
  autoRenew: CLONE_PAGE_TEXTS.invalidChoice.usageExtras,
};

/** Strict: the confirm page sends what the URL says, so anything off in it is refused with what is wrong. */
export function parseChoice(params: URLSearchParams): ParsedChoice {
  const T = CLONE_PAGE_TEXTS.invalidChoice;
  const fail = (problem: string): ParsedChoice => ({ ok: false, problem });
  const instanceId = params.get('instanceId') ?? '';
  if (!INSTANCE_ID_PATTERN.test(instanceId)) return fail(T.instance);
  const hostId = params.get('hostId') ?? '';
  if (!HOST_ID_PATTERN.test(hostId)) return fail(T.host);
  const gpuNum = intOf(params.get('gpuNum'));
  if (!validGpuNum(gpuNum)) return fail(T.gpuNum);
  const billing = parseBilling(params);
  if (!billing.ok) return fail(BILLING_PROBLEMS[billing.problem]);
  const copyData = flagOf(params.get('copyData'));
  if (copyData === undefined) return fail(T.copyData);
  const releaseParam = params.get('releaseSource');
  const releaseSource = releaseParam === null ? false : flagOf(releaseParam);
  if (releaseSource === undefined || (releaseSource && !copyData)) return fail(T.release);
  const nameParam = params.get('name');
  const name = nameParam?.trim();
  if (nameParam !== null && !(name && INSTANCE_NAME_PATTERN.test(name))) return fail(T.name);
  const zoneId = params.get('zoneId');
  const datasetIds = parseDatasetIds(params.get('datasetIds'));
  if (!datasetIds) return fail(T.datasets);
  return {
    ok: true,
    choice: {
      instanceId,
      move: params.get('move') === '1',
      hostId,
      gpuNum,
      ...billing.billing,
      name,
      copyData,
      releaseSource,
      zoneId: zoneId && ZONE_ID_PATTERN.test(zoneId) ? zoneId : undefined,
      ...(datasetIds.length > 0 ? { datasetIds } : {}),
    },
  };
}

function queryOf(choice: CloneChoice): URLSearchParams {
  const query = new URLSearchParams({ instanceId: choice.instanceId });
  if (choice.move) query.set('move', '1');
  query.set('hostId', choice.hostId);
  if (choice.zoneId) query.set('zoneId', choice.zoneId);
  query.set('gpuNum', String(choice.gpuNum));
  writeBilling(query, choice);
  query.set('copyData', choice.copyData ? '1' : '0');
  if (choice.releaseSource) query.set('releaseSource', '1');
  if (choice.name) query.set('name', choice.name);
  writeDatasetIds(query, choice.datasetIds);
  return query;
}

/** 确认克隆订单 of this choice. */
export function confirmClonePath(choice: CloneChoice): string {
  return `${COMPUTE_PATHS.confirmClone}?${queryOf(choice).toString()}`;
}

/** 克隆实例 again with this choice filled in (上一步, 重新选择 after a refusal; without a host to choose another). */
export function chooseAgainPath(choice: CloneChoice, keepHost = true): string {
  const query = queryOf(choice);
  if (!keepHost) query.delete('hostId');
  return `${COMPUTE_PATHS.clone}?${query.toString()}`;
}

/** The body of `/rental/clone` (and its prepay): exactly the choice, nothing the server would default differently. */
export function cloneBodyOf(choice: CloneChoice): CloneBody {
  return {
    instanceId: choice.instanceId,
    hostId: choice.hostId,
    gpuNum: choice.gpuNum,
    ...billingBodyOf(choice),
    ...(choice.name ? { name: choice.name } : {}),
    copyData: choice.copyData,
    ...(choice.releaseSource ? { releaseSource: true } : {}),
    ...datasetIdsBody(choice.datasetIds),
  };
}

/** The data disk the clone gets: the source's (at least the free size) when copied, else a new free one. */
export function dataDiskOf(source: Pick<InstanceView, 'dataDiskGb'>, copyData: boolean): number {
  return copyData ? Math.max(FREE_DATA_DISK_GB, source.dataDiskGb) : FREE_DATA_DISK_GB;
}

/** Whether the host has room for the source's data disk (same region only). */
export function takesDataDisk(host: Pick<MarketHost, 'dataDiskFreeGb'>, source: Pick<InstanceView, 'dataDiskGb'>): boolean {
  return host.dataDiskFreeGb >= dataDiskOf(source, true);
}

/** Why the source cannot be released after the clone (null: it can); the host is checked separately. */
export function releaseRefusal(source: Pick<InstanceView, 'chargingRuleId'>, sameRegion: boolean): string | null {
  if (!sameRegion) return CLONE_PAGE_TEXTS.options.crossRegion;
  if (source.chargingRuleId !== USAGE_CHARGING_RULE_ID) return CLONE_PAGE_TEXTS.options.releasePackage;
  return null;
}

export interface TargetRules {
  source: Pick<InstanceView, 'hostId' | 'dataDiskGb'>;
  gpuNum: number;
  copyData: boolean;
  releaseSource: boolean;
  /** The CUDA the source's image needs, when known. */
  imageCuda: string | undefined;
}

/** Why the host cannot take this clone now (null: it can), as the server would refuse it. */
export function hostBlocker(host: MarketHost, rules: TargetRules): string | null {
  const T = CLONE_PAGE_TEXTS.blocker;
  if (host.gpuTotal < rules.gpuNum) return T.gpuTotal(host.gpuTotal);
  if (host.gpuFree < rules.gpuNum) return host.gpuFree === 0 ? T.full : T.gpuFree(host.gpuFree, rules.gpuNum);
  if (rules.releaseSource && host.hostId === rules.source.hostId) return T.sourceHost;
  if (rules.imageCuda && !imageRunsOnHost(rules.imageCuda, host.cudaVersion)) return T.cuda(rules.imageCuda, host.cudaVersion);
  const needed = dataDiskOf(rules.source, rules.copyData);
  if (host.dataDiskFreeGb < needed) return T.disk(host.dataDiskFreeGb, needed);
  return null;
}
