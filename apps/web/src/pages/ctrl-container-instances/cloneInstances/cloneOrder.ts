/**
 * A clone as the two pages carry it in the URL (克隆实例 → 确认克隆订单 → back), the body it sends, and
 * the rules the server applies to a target host, so the console offers only what it would accept.
 */
import {
  CHARGING_RULES,
  FREE_DATA_DISK_GB,
  imageRunsOnHost,
  INSTANCE_NAME_PATTERN,
  MAX_GPUS_PER_INSTANCE,
  packageKeyOfRule,
  TIME_PACKAGE_COUNTS,
  USAGE_CHARGING_RULE_ID,
} from '@slg/shared';
import type { CloneBody, InstanceView, MarketHost } from '../../../api/compute';
import { COMPUTE_PATHS } from '../paths';
import { CLONE_PAGE_TEXTS } from './texts';

export const INSTANCE_ID_PATTERN = /^slg-[a-z0-9]{10}$/;
const HOST_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;
const ZONE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;

export interface CloneChoice {
  instanceId: string;
  /** Opened as 迁移 (from 主机GPU不足): the wording and the defaults, not what is sent. */
  move: boolean;
  hostId: string;
  gpuNum: number;
  chargingRuleId: number;
  /** Periods of a day / week / month package. */
  rentAmount?: number | undefined;
  voucherId?: number | undefined;
  autoRenew: boolean;
  name?: string | undefined;
  copyData: boolean;
  releaseSource: boolean;
  /** The target's zone, so 上一步 opens the host list where the host is; never sent. */
  zoneId?: string | undefined;
}

/** What the choose page starts from: the fields of the URL that are well-formed, the rest left to defaults. */
export type CloneDraft = Partial<CloneChoice> & { instanceId: string; move: boolean };

function intOf(value: string | null): number | undefined {
  return value !== null && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

function flagOf(value: string | null): boolean | undefined {
  if (value === '1') return true;
  if (value === '0') return false;
  return undefined;
}

function validGpuNum(count: number | undefined): count is number {
  return count !== undefined && count >= 1 && count <= MAX_GPUS_PER_INSTANCE;
}

function validRule(id: number | undefined): id is number {
  return id !== undefined && CHARGING_RULES.some((rule) => rule.id === id);
}

function validCount(chargingRuleId: number, count: number | undefined): count is number {
  const key = packageKeyOfRule(chargingRuleId);
  return key !== null && count !== undefined && (TIME_PACKAGE_COUNTS[key] as readonly number[]).includes(count);
}

/** Lenient: for the choose page, which only starts from the URL. */
export function draftOf(params: URLSearchParams): CloneDraft {
  const gpuNum = intOf(params.get('gpuNum'));
  const chargingRuleId = intOf(params.get('chargingRuleId'));
  const rule = validRule(chargingRuleId) ? chargingRuleId : undefined;
  const rentAmount = intOf(params.get('rentAmount'));
  const voucherId = intOf(params.get('voucherId'));
  const hostId = params.get('hostId');
  const zoneId = params.get('zoneId');
  const name = params.get('name')?.trim();
  return {
    instanceId: params.get('instanceId') ?? '',
    move: params.get('move') === '1',
    hostId: hostId && HOST_ID_PATTERN.test(hostId) ? hostId : undefined,
    zoneId: zoneId && ZONE_ID_PATTERN.test(zoneId) ? zoneId : undefined,
    gpuNum: validGpuNum(gpuNum) ? gpuNum : undefined,
    chargingRuleId: rule,
    rentAmount: rule !== undefined && validCount(rule, rentAmount) ? rentAmount : undefined,
    voucherId: voucherId && voucherId > 0 ? voucherId : undefined,
    autoRenew: flagOf(params.get('autoRenew')),
    name: name && INSTANCE_NAME_PATTERN.test(name) ? name : undefined,
    copyData: flagOf(params.get('copyData')),
    releaseSource: flagOf(params.get('releaseSource')),
  };
}

export type ParsedChoice = { ok: true; choice: CloneChoice } | { ok: false; problem: string };

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
  const chargingRuleId = intOf(params.get('chargingRuleId'));
  if (!validRule(chargingRuleId)) return fail(T.rule);
  const isPackage = chargingRuleId !== USAGE_CHARGING_RULE_ID;
  const rentParam = params.get('rentAmount');
  const voucherParam = params.get('voucherId');
  const autoRenewParam = params.get('autoRenew');
  let rentAmount: number | undefined;
  let voucherId: number | undefined;
  if (isPackage) {
    rentAmount = intOf(rentParam);
    if (!validCount(chargingRuleId, rentAmount)) return fail(T.rentAmount);
    if (voucherParam !== null) {
      voucherId = intOf(voucherParam);
      if (!voucherId) return fail(T.voucher);
    }
    if (autoRenewParam !== null && flagOf(autoRenewParam) === undefined) return fail(T.usageExtras);
  } else if (rentParam !== null || voucherParam !== null || autoRenewParam !== null) {
    return fail(T.usageExtras);
  }
  const copyData = flagOf(params.get('copyData'));
  if (copyData === undefined) return fail(T.copyData);
  const releaseParam = params.get('releaseSource');
  const releaseSource = releaseParam === null ? false : flagOf(releaseParam);
  if (releaseSource === undefined || (releaseSource && !copyData)) return fail(T.release);
  const nameParam = params.get('name');
  const name = nameParam?.trim();
  if (nameParam !== null && !(name && INSTANCE_NAME_PATTERN.test(name))) return fail(T.name);
  const zoneId = params.get('zoneId');
  return {
    ok: true,
    choice: {
      instanceId,
      move: params.get('move') === '1',
      hostId,
      gpuNum,
      chargingRuleId,
      rentAmount,
      voucherId,
      autoRenew: isPackage && flagOf(autoRenewParam) === true,
      name,
      copyData,
      releaseSource,
      zoneId: zoneId && ZONE_ID_PATTERN.test(zoneId) ? zoneId : undefined,
    },
  };
}

function queryOf(choice: CloneChoice): URLSearchParams {
  const query = new URLSearchParams({ instanceId: choice.instanceId });
  if (choice.move) query.set('move', '1');
  query.set('hostId', choice.hostId);
  if (choice.zoneId) query.set('zoneId', choice.zoneId);
  query.set('gpuNum', String(choice.gpuNum));
  query.set('chargingRuleId', String(choice.chargingRuleId));
  if (choice.chargingRuleId !== USAGE_CHARGING_RULE_ID) {
    if (choice.rentAmount !== undefined) query.set('rentAmount', String(choice.rentAmount));
    if (choice.voucherId !== undefined) query.set('voucherId', String(choice.voucherId));
    if (choice.autoRenew) query.set('autoRenew', '1');
  }
  query.set('copyData', choice.copyData ? '1' : '0');
  if (choice.releaseSource) query.set('releaseSource', '1');
  if (choice.name) query.set('name', choice.name);
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
  const isPackage = choice.chargingRuleId !== USAGE_CHARGING_RULE_ID;
  return {
    instanceId: choice.instanceId,
    hostId: choice.hostId,
    gpuNum: choice.gpuNum,
    chargingRuleId: choice.chargingRuleId,
    ...(isPackage && choice.rentAmount !== undefined ? { rentAmount: choice.rentAmount } : {}),
    ...(isPackage && choice.voucherId !== undefined ? { voucherId: choice.voucherId } : {}),
    ...(isPackage && choice.autoRenew ? { autoRenew: true } : {}),
    ...(choice.name ? { name: choice.name } : {}),
    copyData: choice.copyData,
    ...(choice.releaseSource ? { releaseSource: true } : {}),
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
