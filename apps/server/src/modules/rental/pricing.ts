import { PACKAGE_PRICE_HOURS, USAGE_CHARGING_RULE_ID, type GpuMode } from '@slg/shared';

/** The price columns of a host and its GPU model that every price is computed from. */
export interface PriceSource {
  /** The GPU model's reference usage price, fen per GPU-hour. */
  modelPricePerHourFen: number;
  usagePriceFen: number | null;
  dayPriceFen: number | null;
  weekPriceFen: number | null;
  monthPriceFen: number | null;
}

const PACKAGE_OF_RULE: Record<number, keyof typeof PACKAGE_PRICE_HOURS> = { 2: 'day', 3: 'week', 4: 'month' };

/** Fen per GPU-hour of pay-as-you-go on this host: the operator's price, else the GPU model's. */
export function usagePricePerGpuFen(source: PriceSource): number {
  return source.usagePriceFen ?? source.modelPricePerHourFen;
}

/**
 * Fen per GPU for one unit of a charging rule: an hour for usage, a day / week / month for the
 * packages (the operator's price, else the usage price times PACKAGE_PRICE_HOURS).
 */
export function pricePerGpuFen(source: PriceSource, chargingRuleId: number): number {
  if (chargingRuleId === USAGE_CHARGING_RULE_ID) return usagePricePerGpuFen(source);
  const period = PACKAGE_OF_RULE[chargingRuleId];
  if (!period) throw new Error(`unknown charging rule ${chargingRuleId}`);
  const override = { day: source.dayPriceFen, week: source.weekPriceFen, month: source.monthPriceFen }[period];
  return override ?? usagePricePerGpuFen(source) * PACKAGE_PRICE_HOURS[period];
}

/** Fen per hour a pay-as-you-go instance costs while it runs in a mode. */
export function hourlyRateFen(source: PriceSource, gpuNum: number, mode: GpuMode, noGpuPriceFen: number): number {
  return mode === 'nogpu' ? noGpuPriceFen : usagePricePerGpuFen(source) * gpuNum;
}
