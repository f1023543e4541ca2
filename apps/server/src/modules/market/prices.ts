import { sql, type SQL } from 'drizzle-orm';
import { CHARGE_PERIODS, PACKAGE_PRICE_HOURS, USAGE_CHARGING_RULE_ID } from '@slg/shared';
import { gpuModels, hosts } from '../../db/schema/index.js';

/** Charging rules the market prices (`CHARGING_RULES` ids): 1 usage, 2 day, 3 week, 4 month. */
export const MARKET_RULE_IDS = CHARGE_PERIODS.map((period) => period.ruleId);
export type MarketRuleId = (typeof MARKET_RULE_IDS)[number];

/** The unit one price of a rule is for: 时 / 天 / 周 / 月. */
export function unitOfRule(chargingRuleId: number): string {
  const period = CHARGE_PERIODS.find((item) => item.ruleId === chargingRuleId);
  if (!period) throw new Error(`unknown charging rule ${chargingRuleId}`);
  return period.unitLabel;
}

const usagePrice = sql`coalesce(${hosts.usagePriceFen}, ${gpuModels.pricePerHourFen})`;

/**
 * Fen per GPU for one unit of a rule, in SQL over `hosts` joined with `gpu_models`: the same rule as
 * `pricePerGpuFen` in modules/rental/pricing.ts (the answers use that function; this one orders and
 * aggregates in the database; market.test.ts checks that both agree on every host and rule).
 */
export function priceSql(chargingRuleId: MarketRuleId): SQL<number> {
  if (chargingRuleId === USAGE_CHARGING_RULE_ID) return sql<number>`${usagePrice}`;
  const column = { 2: hosts.dayPriceFen, 3: hosts.weekPriceFen, 4: hosts.monthPriceFen }[chargingRuleId];
  const hours = { 2: PACKAGE_PRICE_HOURS.day, 3: PACKAGE_PRICE_HOURS.week, 4: PACKAGE_PRICE_HOURS.month }[chargingRuleId];
  return sql<number>`coalesce(${column}, ${usagePrice} * ${sql.raw(String(hours))})`;
}
