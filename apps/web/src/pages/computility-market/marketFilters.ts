import { CHARGING_RULES, MAX_GPUS_PER_INSTANCE, USAGE_CHARGING_RULE_ID } from '@slg/shared';
import type { MarketSort } from '../../api/compute';
import type { ListFilters } from '../ctrl-cost-center/shared/useListState';

/** The market's choices kept in the URL query, so a link (e.g. from 首页's GPU cards) opens them. */
export const MARKET_FILTER_KEYS = ['chargingRuleId', 'gpuModelId', 'gpuNum', 'zoneId', 'sort'] as const;
export type MarketFilterKey = (typeof MARKET_FILTER_KEYS)[number];

export interface MarketFilters {
  /** 按量 (1) or a day / week / month package: the prices shown are per hour, day, week or month. */
  chargingRuleId: number;
  gpuModelId?: string;
  gpuNum?: number;
  zoneId?: string;
  sort: MarketSort;
}

/** The steps of the market, also its sub-paths (/computility-market/model …) that focus one step. */
export const MARKET_STEPS = ['method', 'model', 'quantity', 'region'] as const;
export type MarketStep = (typeof MARKET_STEPS)[number];

const DICTIONARY_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;

function parseGpuNum(value: string | undefined): number | undefined {
  if (!value || !/^\d+$/.test(value)) return undefined;
  const count = Number(value);
  return count >= 1 && count <= MAX_GPUS_PER_INSTANCE ? count : undefined;
}

/** The filters of a URL query; values that cannot be right (a typo, an old link) are left out. */
export function parseMarketFilters(raw: ListFilters<MarketFilterKey>): MarketFilters {
  return {
    chargingRuleId: CHARGING_RULES.find((rule) => String(rule.id) === raw.chargingRuleId)?.id ?? USAGE_CHARGING_RULE_ID,
    gpuModelId: raw.gpuModelId && DICTIONARY_ID.test(raw.gpuModelId) ? raw.gpuModelId : undefined,
    gpuNum: parseGpuNum(raw.gpuNum),
    zoneId: raw.zoneId && DICTIONARY_ID.test(raw.zoneId) ? raw.zoneId : undefined,
    sort: raw.sort === 'free' ? 'free' : 'price',
  };
}

/** The step a sub-path focuses, e.g. `/computility-market/region` → region. */
export function marketStepOf(pathname: string): MarketStep | null {
  const last = pathname.replace(/\/+$/, '').split('/').pop()?.toLowerCase();
  return MARKET_STEPS.find((step) => step === last) ?? null;
}
