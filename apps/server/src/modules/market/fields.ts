import { z } from 'zod';
import { text } from '../../http/fields.js';
import { MARKET_RULE_IDS, type MarketRuleId } from './prices.js';

/** Ids of the dictionaries (zones, GPU and CPU models): lower-case letters, digits and dashes. */
export const dictionaryIdField = (label: string) =>
  text(label)
    .trim()
    .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, `${label}不正确`);

/** `chargingRuleId` of the market calls, default 1 (usage). */
export const chargingRuleQuery = z.coerce
  .number({ error: '计费方式必须是数字' })
  .int('计费方式不正确')
  .refine((value) => (MARKET_RULE_IDS as readonly number[]).includes(value), '计费方式不正确，可选 1 按量计费、2 包日、3 包周、4 包月')
  .transform((value) => value as MarketRuleId)
  .default(1)
  .describe('计费方式（/meta/charging_rule）：1 按量（价格为每卡每小时），2 包日，3 包周，4 包月；默认 1');

