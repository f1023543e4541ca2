/** 弹性部署 and 时长包: the rules the console and the server share. */

/** A job's container that fails is retried this many times; the next failure fails the job. */
export const JOB_MAX_RETRIES = 3;
/** The most containers one deployment may want. */
export const MAX_ELASTIC_REPLICAS = 100;
/** The most GPUs one container may have. */
export const MAX_ELASTIC_GPUS = 8;
/** Released containers are listed (已释放实例) this many days after they ended. */
export const RELEASED_CONTAINER_DAYS = 30;
/** Environment variables: how many, and their names. */
export const MAX_ELASTIC_ENV = 50;
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const ELASTIC_NAME_PATTERN = /^[\p{L}\p{N}_.-]{1,32}$/u;
export const ELASTIC_NAME_MESSAGE = '名称为1–32个字符，可包含中英文、数字、下划线、点和短横线';

export const TIME_PACK_STATUSES = [
  { value: 'IN_USE', label: '使用中', color: 'success' },
  { value: 'EXPIRED', label: '已过期', color: 'default' },
  { value: 'REFUNDED', label: '已退款', color: 'default' },
] as const;
export type TimePackStatusValue = (typeof TIME_PACK_STATUSES)[number]['value'];

export const TIME_PACK_MAX_HOURS = 10_000;
export const TIME_PACK_MAX_VALID_DAYS = 365;
/** What the console offers; any whole number within the limits is accepted. */
export const TIME_PACK_HOUR_CHOICES = [10, 50, 100, 500, 1000] as const;
export const TIME_PACK_VALID_DAY_CHOICES = [30, 90, 180, 365] as const;

/** The discount (percent of the pay-as-you-go price) a pack of this many GPU-hours gets. */
export function timePackPercent(hours: number): number {
  if (hours >= 500) return 85;
  if (hours >= 100) return 90;
  if (hours >= 50) return 95;
  return 100;
}

/** What a pack of `hours` GPU-hours of a model costs, from its pay-as-you-go price per GPU-hour. */
export function timePackPriceFen(pricePerGpuHourFen: number, hours: number): number {
  return Math.round((pricePerGpuHourFen * hours * timePackPercent(hours)) / 100);
}

/** The refund of a pack's unused part, pro rata to GPU-seconds left, rounded down to the fen. */
export function timePackRefundFen(paidFen: number, balanceSeconds: number, totalSeconds: number): number {
  if (totalSeconds <= 0) return 0;
  // paid × seconds can pass 2^53: exact in BigInt.
  return Number((BigInt(paidFen) * BigInt(balanceSeconds)) / BigInt(totalSeconds));
}
