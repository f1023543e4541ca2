/** GPU container instances (DESIGN §7): rules shared by the server and the console. */

/** The charging rule of pay-as-you-go (`CHARGING_RULES` id 1): metered per second, priced per hour. */
export const USAGE_CHARGING_RULE_ID = 1;

/** Every instance gets this data disk free (GB). */
export const FREE_DATA_DISK_GB = 50;
/** Default price of no-GPU mode (无卡模式), fen per hour, whatever the host. */
export const NO_GPU_PRICE_FEN_PER_HOUR = 10;
/** Creating or powering on a pay-as-you-go instance needs a balance that covers this many hours. */
export const BALANCE_COVER_HOURS = 1;
/** An instance powered off this many days in a row is released, its data wiped. */
export const AUTO_RELEASE_DAYS = 15;
/** Reminders before the automatic release, in days before it. */
export const RELEASE_WARNING_DAYS = [3, 1] as const;

/** GPUs one instance may ask for. */
export const MAX_GPUS_PER_INSTANCE = 8;

export const INSTANCE_NAME_MAX = 32;
export const INSTANCE_NAME_MESSAGE = `实例名称为1-${INSTANCE_NAME_MAX}个字符，不能包含换行或控制字符`;
// eslint-disable-next-line no-control-regex
export const INSTANCE_NAME_PATTERN = /^[^\u0000-\u001f\u007f]{1,32}$/u;

/** Root password of an instance: 8–30 characters with letters and digits; these symbols allowed. */
export const ROOT_PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d!@#$%^&*()_+\-=.,?]{8,30}$/;
export const ROOT_PASSWORD_MESSAGE = '密码为8-30位，须同时包含字母和数字，可使用 !@#$%^&*()_+-=.,? 等符号';

/** What the platform is bringing about for an instance right now (the console shows it beside the status). */
export const INSTANCE_OPERATIONS = [
  { value: 'create', label: '创建中' },
  { value: 'power_on', label: '开机中' },
  { value: 'power_off', label: '关机中' },
  { value: 'release', label: '释放中' },
] as const;
export type InstanceOperation = (typeof INSTANCE_OPERATIONS)[number]['value'];

/** gpu: with the instance's GPUs; nogpu: 无卡模式 (CPU only, its own low rate, for setting up and copying data). */
export const GPU_MODES = ['gpu', 'nogpu'] as const;
export type GpuMode = (typeof GPU_MODES)[number];

/**
 * The charge of a metered run so far: round(rate × seconds / 3600) in fen, rounding halves up, and at
 * least 1 fen once the run has lasted a second. Settling `runCharge(now) − charged so far` at any
 * moments makes the sum of a run's settlements exactly its final charge.
 */
export function runCharge(rateFenPerHour: number, seconds: number): number {
  if (seconds <= 0 || rateFenPerHour <= 0) return 0;
  return Math.max(1, Math.floor((rateFenPerHour * seconds + 1800) / 3600));
}

/**
 * Time packages cost the usage price of this many hours per GPU and period, unless the operator set a
 * price for the host: a day 22 hours (8% off), a week 140 hours (17% off), a month 520 hours (28% off).
 */
export const PACKAGE_PRICE_HOURS = { day: 22, week: 140, month: 520 } as const;

/** What an instance gets in no-GPU mode, whatever its size with GPUs. */
export const NO_GPU_CPU_CORES = 2;
export const NO_GPU_MEMORY_GB = 4;

/** `12.4` → [12, 4]; anything unreadable counts as 0. */
function versionParts(version: string): number[] {
  return version.split('.').map((part) => Number.parseInt(part, 10) || 0);
}

/** Compares two dotted versions numerically (12.10 is newer than 12.4). */
export function compareVersions(a: string, b: string): number {
  const left = versionParts(a);
  const right = versionParts(b);
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Whether a host's driver runs an image: the image may need at most the host's CUDA version. */
export function imageRunsOnHost(imageCuda: string, hostCudaVersion: string): boolean {
  return compareVersions(imageCuda, hostCudaVersion) <= 0;
}
