/** GPU container instances (DESIGN §7): rules shared by the server and the console. */
import { TIME_PACKAGE_COUNTS, TIME_PACKAGE_KEYS } from './constants.js';
import type { InstanceStatusValue } from './dictionaries.js';

/** The charging rule of pay-as-you-go (`CHARGING_RULES` id 1): metered per second, priced per hour. */
export const USAGE_CHARGING_RULE_ID = 1;

/** The system disk of every instance (GB): what a kept instance pays for besides its data disk. */
export const SYSTEM_DISK_GB = 30;

/** Every instance gets this data disk free (GB). */
export const FREE_DATA_DISK_GB = 50;

/** Where the data disk is mounted inside every instance; 跨实例拷贝 copies paths under it. */
export const DATA_DISK_MOUNT_PATH = '/root/slg-data';
/** The longest path 跨实例拷贝 accepts. */
export const COPY_PATH_MAX = 512;

/**
 * Why a path cannot be copied between instances (null when it can): an absolute path on the data disk
 * (the mount point itself or below it), without `.`/`..` segments or control characters.
 */
export function copyPathProblem(path: string): string | null {
  if (path.length === 0) return '请输入要拷贝的路径';
  if (path.length > COPY_PATH_MAX) return `路径最长 ${COPY_PATH_MAX} 个字符`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/u.test(path)) return '路径不能包含换行或控制字符';
  const normalized = normalizeCopyPath(path);
  if (normalized !== DATA_DISK_MOUNT_PATH && !normalized.startsWith(`${DATA_DISK_MOUNT_PATH}/`)) return `只能拷贝数据盘中的数据：路径须以 ${DATA_DISK_MOUNT_PATH} 开头`;
  if (normalized.split('/').some((segment) => segment === '..' || segment === '.')) return '路径不能包含 . 或 .. 目录';
  return null;
}

/** The canonical form of a copy path: repeated and trailing slashes removed (`/root/slg-data//a/` → `/root/slg-data/a`). */
export function normalizeCopyPath(path: string): string {
  const collapsed = path.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
}
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
  // The system disk rebuilt from an image (reset and switch_image); the data disk is kept.
  { value: 'reset', label: '重置中' },
  { value: 'save_image', label: '保存镜像中' },
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

/** Default price of the data disk above FREE_DATA_DISK_GB, fen per GB per day (¥0.01/GB/天). */
export const DISK_PRICE_FEN_PER_GB_DAY = 1;

/** What a data disk of `sizeGb` costs per day: the GB above FREE_DATA_DISK_GB at `priceFenPerGbDay`. */
export function diskRateFenPerDay(sizeGb: number, priceFenPerGbDay: number): number {
  return Math.max(0, sizeGb - FREE_DATA_DISK_GB) * priceFenPerGbDay;
}

/**
 * The charge of a disk meter so far: round(rate × seconds / 86400) in fen, rounding halves up (no
 * minimum: storage is billed for the time it is kept). Settling `diskCharge(now) − charged so far` at
 * any moments makes the settlements add up to exactly the final charge.
 */
export function diskCharge(rateFenPerDay: number, seconds: number): number {
  if (seconds <= 0 || rateFenPerDay <= 0) return 0;
  return Math.floor((rateFenPerDay * seconds + 43_200) / 86_400);
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

export type PackageKey = keyof typeof TIME_PACKAGE_KEYS;
/** Length of one package period in days: a month is 30 days, whatever the calendar month. */
export const PACKAGE_PERIOD_DAYS = { day: 1, week: 7, month: 30 } as const satisfies Record<PackageKey, number>;
export const PACKAGE_LABELS = { day: '包日', week: '包周', month: '包月' } as const satisfies Record<PackageKey, string>;
export const PACKAGE_UNIT_LABELS = { day: '天', week: '周', month: '个月' } as const satisfies Record<PackageKey, string>;

/** The package of a charging rule (`null` for pay-as-you-go or an unknown id). */
export function packageKeyOfRule(chargingRuleId: number): PackageKey | null {
  const entry = (Object.entries(TIME_PACKAGE_KEYS) as [PackageKey, number][]).find(([, id]) => id === chargingRuleId);
  return entry ? entry[0] : null;
}

/** Whether `count` periods may be bought of a package (day 1–6, week 1–3, month 1–10, 20, 50, 100). */
export function isPackageCount(key: PackageKey, count: number): boolean {
  return (TIME_PACKAGE_COUNTS[key] as readonly number[]).includes(count);
}

/** When `count` periods of a package bought at (or renewed from) `from` end. */
export function packageEnd(from: Date, key: PackageKey, count: number): Date {
  return new Date(from.getTime() + PACKAGE_PERIOD_DAYS[key] * count * 86_400_000);
}

const HOUR_MS = 3_600_000;

/**
 * How far into a package its hours are priced: the package began at `startedAt`; its first
 * `pricedHours` whole hours were priced (`pricedFen`, at the usage price of the most GPUs in force
 * during each), and `nextHourMostGpus` is the most GPUs in force so far in the hour after them.
 */
export interface PackageHours {
  startedAt: Date;
  pricedHours: number;
  pricedFen: number;
  nextHourMostGpus: number;
}

/**
 * The pay-as-you-go price of every hour begun in a package, each hour at the most GPUs in force
 * during it: the hours already priced, the next one at the most GPUs it has seen (or has now), the
 * rest at the GPUs it has now (`gpuNum`).
 */
export function packageUsedFen(hours: PackageHours, usagePricePerGpuFen: number, gpuNum: number, now: Date): number {
  const begun = Math.max(0, Math.ceil((now.getTime() - hours.startedAt.getTime()) / HOUR_MS));
  if (begun <= hours.pricedHours) return hours.pricedFen;
  const next = usagePricePerGpuFen * Math.max(hours.nextHourMostGpus, gpuNum);
  return hours.pricedFen + next + usagePricePerGpuFen * gpuNum * (begun - hours.pricedHours - 1);
}

/**
 * A package's GPU count changes from `gpuBefore` to `gpuAfter` at `now`: the hours that are over are
 * priced for good, and the hour in progress remembers the most GPUs it has seen (a count set exactly
 * on the hour belongs to the hour it starts).
 */
export function priceHoursAtGpuChange(hours: PackageHours, usagePricePerGpuFen: number, gpuBefore: number, gpuAfter: number, now: Date): Omit<PackageHours, 'startedAt'> {
  const elapsed = Math.max(0, now.getTime() - hours.startedAt.getTime()) / HOUR_MS;
  const over = Math.floor(elapsed);
  if (over <= hours.pricedHours) {
    return { pricedHours: hours.pricedHours, pricedFen: hours.pricedFen, nextHourMostGpus: Math.max(hours.nextHourMostGpus, gpuBefore, gpuAfter) };
  }
  const first = usagePricePerGpuFen * Math.max(hours.nextHourMostGpus, gpuBefore);
  return {
    pricedHours: over,
    pricedFen: hours.pricedFen + first + usagePricePerGpuFen * gpuBefore * (over - hours.pricedHours - 1),
    nextHourMostGpus: elapsed === over ? gpuAfter : Math.max(gpuBefore, gpuAfter),
  };
}

/**
 * What switching a package to pay-as-you-go refunds: what was paid in cash for it, less the
 * pay-as-you-go price of every hour begun since it started (`packageUsedFen`); never negative. Whole
 * hours keep the preview a user reads equal to what is applied when they confirm within the same hour.
 */
export function packageRefund(paidFen: number, usedFen: number): { paid: number; used: number; refund: number } {
  const used = Math.min(paidFen, usedFen);
  return { paid: paidFen, used, refund: Math.max(0, paidFen - used) };
}

/** What a user (or a job on the user's behalf) can ask of an instance. */
export type InstanceUserAction =
  | 'power_on'
  | 'power_off'
  | 'release'
  | 'rename'
  | 'update_pwd'
  | 'reveal_pwd'
  | 'schedule_power_off'
  | 'cancel_power_off'
  | 'renew'
  | 'auto_renew'
  | 'switch_charging'
  | 'change_gpu_num'
  | 'reset'
  | 'switch_image'
  | 'save_image'
  | 'extend_disk'
  | 'shrink_disk'
  | 'map_port'
  | 'clone'
  | 'keep_when_off'
  | 'copy_data';

/**
 * The statuses each action may start from (DESIGN §7 state machine): the server enforces them
 * (`compute/state-machine.ts`) and the console offers an action only where the server would accept it.
 */
export const INSTANCE_ACTION_STATES: Record<InstanceUserAction, readonly InstanceStatusValue[]> = {
  power_on: ['PoweredOff', 'Error'],
  power_off: ['PoweredOn', 'PoweredOnNoGPU'],
  release: ['PoweredOff', 'Error'],
  rename: ['CreationStarted', 'ResetStarted', 'PoweredOn', 'PoweredOnNoGPU', 'PoweredOff', 'Error', 'OutOfConnection'],
  update_pwd: ['PoweredOn', 'PoweredOnNoGPU'],
  reveal_pwd: ['CreationStarted', 'ResetStarted', 'PoweredOn', 'PoweredOnNoGPU', 'PoweredOff', 'Error', 'OutOfConnection'],
  schedule_power_off: ['PoweredOn', 'PoweredOnNoGPU'],
  cancel_power_off: ['CreationStarted', 'ResetStarted', 'PoweredOn', 'PoweredOnNoGPU', 'PoweredOff', 'Error', 'OutOfConnection'],
  renew: ['CreationStarted', 'PoweredOn', 'PoweredOff', 'Error', 'OutOfConnection'],
  auto_renew: ['CreationStarted', 'PoweredOn', 'PoweredOff', 'Error', 'OutOfConnection'],
  // Metered runs open and close with the machine, so the billing changes only while nothing is in flight.
  switch_charging: ['PoweredOn', 'PoweredOff'],
  change_gpu_num: ['PoweredOff'],
  // The system disk is rebuilt or read while the machine is stopped; the data disk is never touched.
  reset: ['PoweredOff', 'Error'],
  switch_image: ['PoweredOff', 'Error'],
  save_image: ['PoweredOff'],
  // A disk grows under a running machine; it shrinks only while nothing writes to it.
  extend_disk: ['PoweredOn', 'PoweredOnNoGPU', 'PoweredOff'],
  shrink_disk: ['PoweredOff'],
  // Gateway configuration, not the machine: a port may be set up whatever the machine is doing.
  // The disks are copied from a stopped machine, so what is copied is consistent.
  clone: ['PoweredOff'],
  keep_when_off: ['CreationStarted', 'ResetStarted', 'PoweredOn', 'PoweredOnNoGPU', 'PoweredOff', 'Error', 'OutOfConnection'],
  map_port: ['CreationStarted', 'ResetStarted', 'PoweredOn', 'PoweredOnNoGPU', 'PoweredOff', 'Error', 'OutOfConnection'],
  // Disk to disk in the data centre: the machines may be on or off, but must exist and be left alone meanwhile.
  copy_data: ['PoweredOn', 'PoweredOnNoGPU', 'PoweredOff'],
};

/** Actions that do not touch the machine and may run while an operation is in flight. */
export const INSTANCE_ACTIONS_ALONGSIDE_OPERATIONS: ReadonlySet<InstanceUserAction> = new Set(['rename', 'reveal_pwd', 'cancel_power_off', 'renew', 'auto_renew', 'map_port', 'keep_when_off']);

/**
 * How the instance terminal's WebSocket (`GET /api/v1/rental/terminal`) closes: the shell ended, the
 * ticket was refused, the machine could not be reached, the console session was signed out, nobody
 * typed for 30 minutes, or the instance stopped. A JSON text frame `{ type: 'closed', message }` says it
 * in words first.
 */
export const TERMINAL_CLOSE_CODES = { ended: 1000, refused: 4403, unavailable: 4503, sessionEnded: 4401, idle: 4408, stopped: 4409 } as const;
