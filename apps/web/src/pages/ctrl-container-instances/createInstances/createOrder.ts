/**
 * A new instance as 创建实例 carries it in the URL to 确认订单 (and 返回修改 back), and the body that
 * order sends: the prepay prices the same choice, so what is paid is what was shown.
 */
import { INSTANCE_NAME_PATTERN } from '@slg/shared';
import type { CreateInstanceBody, MarketHost, PrepayBody } from '../../../api/compute';
import {
  billingBodyOf,
  billingDraftOf,
  HOST_ID_PATTERN,
  intOf,
  parseBilling,
  validGpuNum,
  writeBilling,
  type BillingProblem,
  type OrderBilling,
} from '../orderParts/orderQuery';
import { datasetIdsBody, datasetIdsDraft, parseDatasetIds, writeDatasetIds } from '../orderParts/datasetIds';
import { COMPUTE_PATHS } from '../paths';
import { CREATE_INSTANCE_TEXTS } from './texts';

/** A public image's id (`pytorch-2.5.1-py3.12-cu124`) or a private one's (`img-…`), as the server takes it. */
const IMAGE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;

export interface CreateChoice extends OrderBilling {
  hostId: string;
  gpuNum: number;
  imageId: string;
  /** Trimmed; none: the server names the instance after the GPU model and region. */
  name?: string | undefined;
  /** Shared datasets to mount (none: only the public ones, which every machine has). */
  datasetIds?: number[] | undefined;
}

/** What 创建实例 starts from: the fields of the URL that are well-formed; the name as written (its field says what is wrong). */
export type CreateDraft = Partial<CreateChoice>;

/** Lenient: for 创建实例, which only starts from the URL. */
export function createDraftOf(params: URLSearchParams): CreateDraft {
  const hostId = params.get('hostId');
  const gpuNum = intOf(params.get('gpuNum'));
  const imageId = params.get('imageId');
  const name = params.get('name');
  return {
    hostId: hostId && HOST_ID_PATTERN.test(hostId) ? hostId : undefined,
    gpuNum: validGpuNum(gpuNum) ? gpuNum : undefined,
    ...billingDraftOf(params),
    imageId: imageId && IMAGE_ID_PATTERN.test(imageId) ? imageId : undefined,
    name: name ?? undefined,
    datasetIds: datasetIdsDraft(params.get('datasetIds')),
  };
}

export type ParsedCreateChoice = { ok: true; choice: CreateChoice } | { ok: false; problem: string };

const PROBLEMS = CREATE_INSTANCE_TEXTS.invalidChoice;
const BILLING_PROBLEMS: Record<BillingProblem, string> = {
  rule: PROBLEMS.rule,
  rentAmount: PROBLEMS.rentAmount,
  voucher: PROBLEMS.voucher,
  usageExtras: PROBLEMS.usageExtras,
  autoRenew: PROBLEMS.autoRenew,
};

/** Strict: 确认订单 sends what the URL says, so anything off in it is refused with what is wrong. */
export function parseCreateChoice(params: URLSearchParams): ParsedCreateChoice {
  const fail = (problem: string): ParsedCreateChoice => ({ ok: false, problem });
  const hostId = params.get('hostId') ?? '';
  if (!HOST_ID_PATTERN.test(hostId)) return fail(PROBLEMS.host);
  const gpuNum = intOf(params.get('gpuNum'));
  if (!validGpuNum(gpuNum)) return fail(PROBLEMS.gpuNum);
  const billing = parseBilling(params);
  if (!billing.ok) return fail(BILLING_PROBLEMS[billing.problem]);
  const imageId = params.get('imageId') ?? '';
  if (!IMAGE_ID_PATTERN.test(imageId)) return fail(PROBLEMS.image);
  const nameParam = params.get('name');
  const name = nameParam?.trim();
  if (nameParam !== null && !(name && INSTANCE_NAME_PATTERN.test(name))) return fail(PROBLEMS.name);
  const datasetIds = parseDatasetIds(params.get('datasetIds'));
  if (!datasetIds) return fail(PROBLEMS.datasets);
  return { ok: true, choice: { hostId, gpuNum, ...billing.billing, imageId, name, ...(datasetIds.length > 0 ? { datasetIds } : {}) } };
}

function queryOf(draft: CreateDraft): URLSearchParams {
  const query = new URLSearchParams();
  if (draft.hostId) query.set('hostId', draft.hostId);
  if (draft.gpuNum !== undefined) query.set('gpuNum', String(draft.gpuNum));
  writeBilling(query, draft);
  if (draft.imageId) query.set('imageId', draft.imageId);
  if (draft.name) query.set('name', draft.name);
  writeDatasetIds(query, draft.datasetIds);
  return query;
}

/** 确认订单 of this choice. */
export function confirmOrderPath(choice: CreateChoice): string {
  return `${COMPUTE_PATHS.confirmOrder}?${queryOf(choice).toString()}`;
}

/** 创建实例 with this choice filled in (返回修改, 重新选择); without a host there is nothing to create on, so 算力市场. */
export function editOrderPath(draft: CreateDraft): string {
  if (!draft.hostId) return COMPUTE_PATHS.market;
  return `${COMPUTE_PATHS.create}?${queryOf(draft).toString()}`;
}

/** 算力市场 with the GPUs, billing and model of the choice, to pick another host. */
export function chooseHostPath(choice: Pick<CreateChoice, 'gpuNum' | 'chargingRuleId'>, host?: Pick<MarketHost, 'gpuModelId'>): string {
  const query = new URLSearchParams({ chargingRuleId: String(choice.chargingRuleId), gpuNum: String(choice.gpuNum) });
  if (host) query.set('gpuModelId', host.gpuModelId);
  return `${COMPUTE_PATHS.market}?${query.toString()}`;
}

/** The body of `POST /rental`: exactly the choice, nothing the server would default differently. */
export function createBodyOf(choice: CreateChoice): CreateInstanceBody {
  return {
    hostId: choice.hostId,
    gpuNum: choice.gpuNum,
    imageId: choice.imageId,
    ...billingBodyOf(choice),
    ...(choice.name ? { name: choice.name } : {}),
    ...datasetIdsBody(choice.datasetIds),
  };
}

/** The priced part of the body, for `/rental/prepay`. */
export function prepayBodyOf(choice: CreateChoice): PrepayBody {
  const { chargingRuleId, rentAmount, voucherId } = billingBodyOf(choice);
  return {
    hostId: choice.hostId,
    gpuNum: choice.gpuNum,
    chargingRuleId,
    ...(rentAmount !== undefined ? { rentAmount } : {}),
    ...(voucherId !== undefined ? { voucherId } : {}),
  };
}
