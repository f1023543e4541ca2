/**
 * The billing of an order as a choose page carries it in the URL to its order page (创建实例 → 确认订单,
 * 克隆实例 → 确认克隆订单), read back strictly there and leniently on the way back.
 */
import { CHARGING_RULES, MAX_GPUS_PER_INSTANCE, packageKeyOfRule, TIME_PACKAGE_COUNTS, USAGE_CHARGING_RULE_ID } from '@slg/shared';

/** A host's (and zone's) id as the server accepts it. */
export const HOST_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;

export interface OrderBilling {
  chargingRuleId: number;
  /** Periods of a day / week / month package. */
  rentAmount?: number | undefined;
  voucherId?: number | undefined;
  autoRenew: boolean;
}

export function intOf(value: string | null): number | undefined {
  return value !== null && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

export function flagOf(value: string | null): boolean | undefined {
  if (value === '1') return true;
  if (value === '0') return false;
  return undefined;
}

export function validGpuNum(count: number | undefined): count is number {
  return count !== undefined && count >= 1 && count <= MAX_GPUS_PER_INSTANCE;
}

export function validRule(id: number | undefined): id is number {
  return id !== undefined && CHARGING_RULES.some((rule) => rule.id === id);
}

/** Whether `count` periods are sold for the rule's package. */
export function validCount(chargingRuleId: number, count: number | undefined): count is number {
  const key = packageKeyOfRule(chargingRuleId);
  return key !== null && count !== undefined && (TIME_PACKAGE_COUNTS[key] as readonly number[]).includes(count);
}

/** What is wrong with the billing of a URL. */
export type BillingProblem = 'rule' | 'rentAmount' | 'voucher' | 'usageExtras' | 'autoRenew';

export type ParsedBilling = { ok: true; billing: OrderBilling } | { ok: false; problem: BillingProblem };

/** Strict: an order page sends what the URL says, so anything off in the billing is refused. */
export function parseBilling(params: URLSearchParams): ParsedBilling {
  const chargingRuleId = intOf(params.get('chargingRuleId'));
  if (!validRule(chargingRuleId)) return { ok: false, problem: 'rule' };
  const rentParam = params.get('rentAmount');
  const voucherParam = params.get('voucherId');
  const autoRenewParam = params.get('autoRenew');
  if (chargingRuleId === USAGE_CHARGING_RULE_ID) {
    if (rentParam !== null || voucherParam !== null || autoRenewParam !== null) return { ok: false, problem: 'usageExtras' };
    return { ok: true, billing: { chargingRuleId, autoRenew: false } };
  }
  const rentAmount = intOf(rentParam);
  if (!validCount(chargingRuleId, rentAmount)) return { ok: false, problem: 'rentAmount' };
  let voucherId: number | undefined;
  if (voucherParam !== null) {
    voucherId = intOf(voucherParam);
    if (!voucherId) return { ok: false, problem: 'voucher' };
  }
  const autoRenew = autoRenewParam === null ? false : flagOf(autoRenewParam);
  if (autoRenew === undefined) return { ok: false, problem: 'autoRenew' };
  return { ok: true, billing: { chargingRuleId, rentAmount, voucherId, autoRenew } };
}

/** Lenient: for a choose page, which only starts from the URL; what is off is left to its defaults. */
export function billingDraftOf(params: URLSearchParams): Partial<OrderBilling> {
  const chargingRuleId = intOf(params.get('chargingRuleId'));
  const rule = validRule(chargingRuleId) ? chargingRuleId : undefined;
  const rentAmount = intOf(params.get('rentAmount'));
  const voucherId = intOf(params.get('voucherId'));
  return {
    chargingRuleId: rule,
    rentAmount: rule !== undefined && validCount(rule, rentAmount) ? rentAmount : undefined,
    voucherId: voucherId && voucherId > 0 ? voucherId : undefined,
    autoRenew: flagOf(params.get('autoRenew')),
  };
}

/** Writes the billing into a URL query: the package's fields only for a package. */
export function writeBilling(query: URLSearchParams, billing: Partial<OrderBilling>): void {
  if (billing.chargingRuleId === undefined) return;
  query.set('chargingRuleId', String(billing.chargingRuleId));
  if (billing.chargingRuleId === USAGE_CHARGING_RULE_ID) return;
  if (billing.rentAmount !== undefined) query.set('rentAmount', String(billing.rentAmount));
  if (billing.voucherId !== undefined) query.set('voucherId', String(billing.voucherId));
  if (billing.autoRenew) query.set('autoRenew', '1');
}

/** The billing fields of an order's body (and its prepay): exactly the choice, nothing the server would default differently. */
export function billingBodyOf(billing: OrderBilling): { chargingRuleId: number; rentAmount?: number; voucherId?: number; autoRenew?: true } {
  const isPackage = billing.chargingRuleId !== USAGE_CHARGING_RULE_ID;
  return {
    chargingRuleId: billing.chargingRuleId,
    ...(isPackage && billing.rentAmount !== undefined ? { rentAmount: billing.rentAmount } : {}),
    ...(isPackage && billing.voucherId !== undefined ? { voucherId: billing.voucherId } : {}),
    ...(isPackage && billing.autoRenew ? { autoRenew: true as const } : {}),
  };
}
