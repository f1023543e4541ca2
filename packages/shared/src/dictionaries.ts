/**
 * Option dictionaries of spec §3 ("Option dictionaries (labels Chinese)"), shared by the server and
 * the console. Every dictionary is a readonly array of `{ value, label, ...extra }` in display order;
 * `XxxValue` is the union of its values. Authority types and permission levels live in
 * `permissions.ts`; business constants (time package counts and keys) in `constants.ts`.
 */
import { TIME_PACKAGE_KEYS } from './constants.js';

// ---------------------------------------------------------------------------------------------
// Generic shape and helpers
// ---------------------------------------------------------------------------------------------

export interface DictItem<V extends string | number = string | number> {
  readonly value: V;
  /** Chinese label shown to users. */
  readonly label: string;
}

export type Dictionary<V extends string | number = string | number> = readonly DictItem<V>[];

/** The union of a dictionary's values. */
export type DictValue<D extends Dictionary> = D[number]['value'];

/**
 * A value that should be one of the dictionary's but is not promised to be: an answer whose schema says
 * `string` (an order's type, a ledger entry's), from a newer server or for a stale client.
 */
export type LooseDictValue<D extends Dictionary> = DictValue<D> | (DictValue<D> extends string ? string & {} : number & {});

/** antd preset Tag colours used for statuses. */
export type TagColor = 'success' | 'processing' | 'default' | 'error' | 'warning';

/** The item of `value`, or undefined for a value the dictionary does not know. */
export function dictItemOf<D extends Dictionary>(dict: D, value: LooseDictValue<D> | null | undefined): D[number] | undefined {
  if (value === null || value === undefined) return undefined;
  return dict.find((item) => item.value === value);
}

/**
 * The Chinese label of `value`. An unknown value (a newer server, a stale client) is shown as
 * itself rather than hidden; a missing value gives `fallback` (default '-').
 */
export function labelOf<D extends Dictionary>(dict: D, value: LooseDictValue<D> | null | undefined, fallback = '-'): string {
  if (value === null || value === undefined) return fallback;
  return dictItemOf(dict, value)?.label ?? String(value);
}

/** Narrows an unknown value (from a query string, storage, a response) to the dictionary's values. */
export function isDictValue<D extends Dictionary>(dict: D, value: unknown): value is DictValue<D> {
  return dict.some((item) => item.value === value);
}

/** The dictionary's values in order, e.g. for `z.enum(valuesOf(ORDER_STATUSES))`. */
export function valuesOf<D extends Dictionary>(dict: D): DictValue<D>[] {
  return dict.map((item) => item.value);
}

/** The items marked as filter options in lists (`isFilter`). */
export function filterOptionsOf<D extends readonly (DictItem & { readonly isFilter: boolean })[]>(dict: D): D[number][] {
  return dict.filter((item) => item.isFilter);
}

// ---------------------------------------------------------------------------------------------
// Orders
// ---------------------------------------------------------------------------------------------

export const ORDER_STATUSES = [
  { value: 'UNPAID', label: '待支付', color: 'warning' },
  { value: 'PAID', label: '已支付', color: 'success' },
  { value: 'CANCELED', label: '已取消', color: 'default' },
  { value: 'REFUNDED', label: '已退款', color: 'default' },
  { value: 'PLACED', label: '已下单', color: 'processing' },
] as const satisfies readonly (DictItem<string> & { color: TagColor })[];
export type OrderStatusValue = DictValue<typeof ORDER_STATUSES>;

export const ORDER_TYPES = [
  { value: 'NEW_PURCHASE', label: '新购实例' },
  { value: 'CLONE_INSTANCE', label: '克隆实例' },
  { value: 'NEW_FLEXIBLE_DEPLOYMENT', label: '新建弹性部署' },
  { value: 'SWITCH_TO_USAGE', label: '转按量计费' },
  { value: 'SWITCH_TO_BUYOUT', label: '转包年包月' },
  { value: 'REFUND_INSTANCE', label: '退订实例' },
  { value: 'NEW_STORAGE', label: '新购存储' },
  { value: 'EXPAND_DISK', label: '扩容数据盘' },
  { value: 'SHRINK_DISK', label: '缩容数据盘' },
  { value: 'NEW_TIME_PACKAGE', label: '购买时长包' },
  { value: 'CANCEL_TIME_PACKAGE', label: '退订时长包' },
  { value: 'NEW_IMAGE', label: '镜像存储' },
  { value: 'UPGRADE_CONTAINER', label: '实例升配' },
  { value: 'DOWNGRADE_CONTAINER', label: '实例降配' },
  { value: 'RENEWAL_CONTAINER', label: '实例续费' },
  { value: 'MODEL_EXPERIENCE', label: '模型体验' },
  { value: 'NEW_MODEL_INSTANCE', label: '新建模型实例' },
  { value: 'UPDATE_MODEL_INSTANCE', label: '变更模型实例' },
] as const satisfies Dictionary<string>;
export type OrderTypeValue = DictValue<typeof ORDER_TYPES>;

/**
 * The order types the platform places today: instances (new, clone, renewal, GPU-count upgrade, charging
 * switches), data disks and the storage fee of a kept instance. The rest of ORDER_TYPES come with the
 * products that place them (elastic deployments, time packages, models); filters offer only these.
 */
const PLACED_ORDER_TYPE_VALUES: readonly OrderTypeValue[] = [
  'NEW_PURCHASE',
  'CLONE_INSTANCE',
  'RENEWAL_CONTAINER',
  'UPGRADE_CONTAINER',
  'SWITCH_TO_USAGE',
  'SWITCH_TO_BUYOUT',
  'EXPAND_DISK',
  'SHRINK_DISK',
  'NEW_STORAGE',
];
export const PLACED_ORDER_TYPES = ORDER_TYPES.filter((type) => PLACED_ORDER_TYPE_VALUES.includes(type.value));

export const ORDER_BILLING_TYPES = [
  { value: 'USAGE', label: '按量计费' },
  { value: 'BUYOUT', label: '包年包月' },
] as const satisfies Dictionary<string>;
export type OrderBillingTypeValue = DictValue<typeof ORDER_BILLING_TYPES>;

// ---------------------------------------------------------------------------------------------
// Charging
// ---------------------------------------------------------------------------------------------

/** Spec "Charge rule": pay as you go or prepaid. */
export const CHARGE_TYPES = [
  { value: 'OnDemand', label: '按量计费' },
  { value: 'PreOrdered', label: '包年包月' },
] as const satisfies Dictionary<string>;
export type ChargeTypeValue = DictValue<typeof CHARGE_TYPES>;

export type ChargeUnit = 'hour' | 'day' | 'week' | 'month';

/** Spec §9 "Charge unit labels: hour, day, week, month". */
export const CHARGE_UNIT_LABELS = { hour: '时', day: '天', week: '周', month: '月' } as const satisfies Record<
  ChargeUnit,
  string
>;

/**
 * Spec "Charge periods": usage billed by the hour, time packages by day / week / month.
 * `ruleId` is the id of the matching `CHARGING_RULES` item; `packageKey` the time package key of §9.
 */
export const CHARGE_PERIODS = [
  { value: 'ByUsage', label: '按量', unit: 'hour', unitLabel: '时', chargeType: 'OnDemand', ruleId: 1, packageKey: null },
  { value: 'ByDay', label: '包日', unit: 'day', unitLabel: '天', chargeType: 'PreOrdered', ruleId: 2, packageKey: 'day' },
  { value: 'ByWeek', label: '包周', unit: 'week', unitLabel: '周', chargeType: 'PreOrdered', ruleId: 3, packageKey: 'week' },
  { value: 'ByMonth', label: '包月', unit: 'month', unitLabel: '月', chargeType: 'PreOrdered', ruleId: 4, packageKey: 'month' },
] as const satisfies readonly (DictItem<string> & {
  unit: ChargeUnit;
  unitLabel: string;
  chargeType: ChargeTypeValue;
  ruleId: number;
  packageKey: keyof typeof TIME_PACKAGE_KEYS | null;
})[];
export type ChargePeriodValue = DictValue<typeof CHARGE_PERIODS>;

/** A charging rule as `GET /meta/charging_rule` returns it (spec §3: name, showName, isFilter, id, unit). */
export interface ChargingRuleItem {
  readonly id: number;
  readonly name: ChargePeriodValue;
  readonly showName: string;
  readonly isFilter: boolean;
  readonly unit: string;
}

/**
 * The four charging rules. Ids equal the time package keys of spec §9 (day=2, week=3, month=4);
 * the usage rule's unit is shown as day (spec §9).
 */
export const CHARGING_RULES = [
  { id: 1, name: 'ByUsage', showName: '按量计费', isFilter: true, unit: CHARGE_UNIT_LABELS.day },
  { id: TIME_PACKAGE_KEYS.day, name: 'ByDay', showName: '包日', isFilter: true, unit: CHARGE_UNIT_LABELS.day },
  { id: TIME_PACKAGE_KEYS.week, name: 'ByWeek', showName: '包周', isFilter: true, unit: CHARGE_UNIT_LABELS.week },
  { id: TIME_PACKAGE_KEYS.month, name: 'ByMonth', showName: '包月', isFilter: true, unit: CHARGE_UNIT_LABELS.month },
] as const satisfies readonly ChargingRuleItem[];
export type ChargingRuleId = (typeof CHARGING_RULES)[number]['id'];

// ---------------------------------------------------------------------------------------------
// Invoices
// ---------------------------------------------------------------------------------------------

export const INVOICE_TYPES = [
  { value: 'ORDINARY', label: '增值税普通发票' },
  { value: 'SPECIAL', label: '增值税专用发票' },
] as const satisfies Dictionary<string>;
export type InvoiceTypeValue = DictValue<typeof INVOICE_TYPES>;

/** `code` is the numeric variant (`INVOICE_STATUS_CODES`) where one exists. */
export const INVOICE_STATUSES = [
  { value: 'PENDING', label: '审核中', color: 'processing', code: 1 },
  { value: 'SUCCESS', label: '已开票', color: 'success', code: 2 },
  { value: 'REJECTED', label: '已驳回', color: 'error', code: 3 },
  { value: 'CANCELED', label: '已取消', color: 'default', code: null },
] as const satisfies readonly (DictItem<string> & { color: TagColor; code: number | null })[];
export type InvoiceStatusValue = DictValue<typeof INVOICE_STATUSES>;

/** Numeric invoice status: 1 under review, 2 issued, 3 rejected. */
export const INVOICE_STATUS_CODES = [
  { value: 1, label: '审核中', color: 'processing' },
  { value: 2, label: '已开票', color: 'success' },
  { value: 3, label: '已驳回', color: 'error' },
] as const satisfies readonly (DictItem<number> & { color: TagColor })[];
export type InvoiceStatusCode = DictValue<typeof INVOICE_STATUS_CODES>;

export const INVOICING_METHODS = [
  { value: 'RECHARGE', label: '按充值开票' },
  { value: 'BILL', label: '按账单开票' },
] as const satisfies Dictionary<string>;
export type InvoicingMethodValue = DictValue<typeof INVOICING_METHODS>;

// ---------------------------------------------------------------------------------------------
// Elastic deployments
// ---------------------------------------------------------------------------------------------

export const ELASTIC_DEPLOYMENT_STATUSES = [
  { value: 'RUNNING', label: '运行中', color: 'success' },
  { value: 'STOPPING', label: '停止中', color: 'processing' },
  { value: 'STOPPED', label: '已停止', color: 'default' },
  { value: 'FINISHED', label: '已完成', color: 'default' },
] as const satisfies readonly (DictItem<string> & { color: TagColor })[];
export type ElasticDeploymentStatusValue = DictValue<typeof ELASTIC_DEPLOYMENT_STATUSES>;

export const ELASTIC_TYPES = [
  { value: 'REPLICA_SET', label: '常驻服务' },
  { value: 'JOB', label: '任务' },
  { value: 'CONTAINER', label: '临时容器' },
] as const satisfies Dictionary<string>;
export type ElasticTypeValue = DictValue<typeof ELASTIC_TYPES>;

/** Custom service protocol: http=1, tcp=2. */
export const PROTOCOLS = [
  { value: 1, label: 'HTTP 协议', name: 'http' },
  { value: 2, label: 'TCP 协议', name: 'tcp' },
] as const satisfies readonly (DictItem<number> & { name: string })[];
export type ProtocolValue = DictValue<typeof PROTOCOLS>;

/** Time package status codes: 2 in use, 3 expired, 4 refunded; `TIME_PACKAGE_STATUS_ALL` (1) means all. */
export const TIME_PACKAGE_STATUSES = [
  { value: 'IN_USE', label: '使用中', code: 2, color: 'success' },
  { value: 'EXPIRED', label: '已过期', code: 3, color: 'default' },
  { value: 'REFUNDED', label: '已退订', code: 4, color: 'warning' },
] as const satisfies readonly (DictItem<string> & { code: number; color: TagColor })[];
export type TimePackageStatusValue = DictValue<typeof TIME_PACKAGE_STATUSES>;
export type TimePackageStatusCode = (typeof TIME_PACKAGE_STATUSES)[number]['code'];
export const TIME_PACKAGE_STATUS_ALL = { code: 1, label: '全部' } as const;

// ---------------------------------------------------------------------------------------------
// Money movements
// ---------------------------------------------------------------------------------------------

export const TRANSACTION_TYPES = [
  { value: 'CONSUME', label: '消费' },
  { value: 'RECHARGE', label: '充值' },
  { value: 'REFUND', label: '退款' },
  { value: 'WITHDRAW', label: '提现' },
] as const satisfies Dictionary<string>;
export type TransactionTypeValue = DictValue<typeof TRANSACTION_TYPES>;

export const TRANSACTION_CHANNELS = [
  { value: 'WECHAT', label: '微信' },
  { value: 'ALIPAY', label: '支付宝' },
  { value: 'BALANCE', label: '余额' },
  { value: 'BANK', label: '银行转账' },
] as const satisfies Dictionary<string>;
export type TransactionChannelValue = DictValue<typeof TRANSACTION_CHANNELS>;

export const INCOME_TYPES = [
  { value: 'INCOME', label: '收入' },
  { value: 'EXPENSE', label: '支出' },
] as const satisfies Dictionary<string>;
export type IncomeTypeValue = DictValue<typeof INCOME_TYPES>;

export const PAYMENT_CHANNELS = [
  { value: 'WXPAY', label: '微信支付' },
  { value: 'ALIPAY', label: '支付宝' },
  { value: 'BANK', label: '对公转账' },
] as const satisfies Dictionary<string>;
export type PaymentChannelValue = DictValue<typeof PAYMENT_CHANNELS>;

export const PAYMENT_STATUSES = [
  { value: 'CREATED', label: '待支付', color: 'processing' },
  { value: 'SUCCESS', label: '支付成功', color: 'success' },
  { value: 'FAILED', label: '支付失败', color: 'error' },
] as const satisfies readonly (DictItem<string> & { color: TagColor })[];
export type PaymentStatusValue = DictValue<typeof PAYMENT_STATUSES>;

/** How a refund or voucher amount comes back to the wallet. */
export const RETURN_TYPES = [
  { value: 'REALTIME', label: '实时返还' },
  { value: 'SCHEDULED', label: '定时返还' },
  { value: 'PREHOLD', label: '预扣返还' },
  { value: 'REFUND', label: '退款返还' },
] as const satisfies Dictionary<string>;
export type ReturnTypeValue = DictValue<typeof RETURN_TYPES>;

// ---------------------------------------------------------------------------------------------
// Data sets
// ---------------------------------------------------------------------------------------------

export const DATA_TYPES = [{ value: 'DATASET', label: '数据集' }] as const satisfies Dictionary<string>;
export type DataTypeValue = DictValue<typeof DATA_TYPES>;

export const SHARE_REVIEW_STATUSES = [
  { value: 'IN_REVIEW', label: '审核中', color: 'processing' },
  { value: 'PASS', label: '审核通过', color: 'success' },
  { value: 'REJECTED', label: '已驳回', color: 'error' },
] as const satisfies readonly (DictItem<string> & { color: TagColor })[];
export type ShareReviewStatusValue = DictValue<typeof SHARE_REVIEW_STATUSES>;

// ---------------------------------------------------------------------------------------------
// Instances
// ---------------------------------------------------------------------------------------------

/**
 * Instance runtime states (spec §3), `id` is the stable id `GET /meta/instance_status` returns.
 * `isFilter` marks the states offered as status filters in instance lists: aliases (Running,
 * Stopped) and transient or monitoring-only states are not.
 */
export const INSTANCE_STATUSES = [
  { id: 1, value: 'PoweredOnNoGPU', label: '无卡模式运行中', color: 'success', isFilter: true },
  { id: 2, value: 'Running', label: '运行中', color: 'success', isFilter: false },
  { id: 3, value: 'Stopped', label: '已停止', color: 'default', isFilter: false },
  { id: 4, value: 'CreationStarted', label: '创建中', color: 'processing', isFilter: true },
  { id: 5, value: 'ResetStarted', label: '重置中', color: 'processing', isFilter: true },
  { id: 6, value: 'PoweredOn', label: '运行中', color: 'success', isFilter: true },
  { id: 7, value: 'PoweredOff', label: '已关机', color: 'default', isFilter: true },
  { id: 8, value: 'Error', label: '异常', color: 'error', isFilter: true },
  { id: 9, value: 'DestroyStarted', label: '释放中', color: 'processing', isFilter: true },
  { id: 10, value: 'Unknown', label: '未知', color: 'default', isFilter: false },
  { id: 11, value: 'OutOfConnection', label: '失联', color: 'warning', isFilter: true },
  { id: 12, value: 'Warning', label: '告警', color: 'warning', isFilter: false },
  { id: 13, value: 'Normal', label: '正常', color: 'success', isFilter: false },
  { id: 14, value: 'CreationAccomplished', label: '创建完成', color: 'processing', isFilter: false },
] as const satisfies readonly (DictItem<string> & { id: number; color: TagColor; isFilter: boolean })[];
export type InstanceStatusValue = DictValue<typeof INSTANCE_STATUSES>;

export const INSTANCE_HEALTHS = [
  { id: 1, value: 'Normal', label: '正常', color: 'success' },
  { id: 2, value: 'Abnormal', label: '异常', color: 'error' },
] as const satisfies readonly (DictItem<string> & { id: number; color: TagColor })[];
export type InstanceHealthValue = DictValue<typeof INSTANCE_HEALTHS>;

/** Private image status; spec §3 names 就绪 (ready), saving and failure are the states around it. */
export const IMAGE_STATUSES = [
  { value: 'SAVING', label: '保存中', color: 'processing' },
  { value: 'READY', label: '就绪', color: 'success' },
  { value: 'FAILED', label: '保存失败', color: 'error' },
] as const satisfies readonly (DictItem<string> & { color: TagColor })[];
export type ImageStatusValue = DictValue<typeof IMAGE_STATUSES>;

/** Instance lifecycle events recorded per rental; `id` is what `GET /meta/rental_event_type` returns. */
export const RENTAL_EVENT_TYPES = [
  { id: 1, value: 'CREATE', label: '创建' },
  { id: 2, value: 'POWER_ON', label: '开机' },
  { id: 3, value: 'POWER_OFF', label: '关机' },
  { id: 4, value: 'RESET_SYSTEM', label: '重置系统' },
  { id: 5, value: 'SWITCH_IMAGE', label: '更换镜像' },
  { id: 6, value: 'EXTEND_DISK', label: '扩容磁盘' },
  { id: 7, value: 'SHRINK_DISK', label: '缩容磁盘' },
  { id: 8, value: 'CLONE', label: '克隆' },
  { id: 9, value: 'SAVE_IMAGE', label: '保存镜像' },
  { id: 10, value: 'CHANGE_GPU_NUM', label: '变更GPU数量' },
  { id: 11, value: 'CHANGE_CHARGING_RULE', label: '变更计费方式' },
  { id: 12, value: 'SCHEDULED_POWER_OFF', label: '定时关机' },
  { id: 13, value: 'ARREARS_POWER_OFF', label: '欠费关机' },
  { id: 14, value: 'EXPIRE', label: '到期' },
  { id: 15, value: 'RELEASE', label: '释放' },
] as const satisfies readonly (DictItem<string> & { id: number })[];
export type RentalEventTypeValue = DictValue<typeof RENTAL_EVENT_TYPES>;

/** Monitor metrics of `GET /prometheus/query/metric`, with the unit their values come in. */
export const MONITOR_METRICS = [
  { value: 'GPU', label: 'GPU 利用率', unit: '%' },
  { value: 'CPU', label: 'CPU 利用率', unit: '%' },
  { value: 'MEMORY', label: '内存使用量', unit: 'GB' },
  { value: 'MEMORY_COUNT', label: '内存总量', unit: 'GB' },
  { value: 'CPU_COUNT', label: 'CPU 核数', unit: '核' },
  { value: 'GPU_COUNT', label: 'GPU 卡数', unit: '卡' },
  { value: 'PVC_USAGE', label: '数据盘使用量', unit: 'GB' },
  { value: 'PVC_CAPACITY', label: '数据盘容量', unit: 'GB' },
  { value: 'PVC_SHARE_USAGE', label: '文件存储使用量', unit: 'GB' },
  { value: 'SYS_DISK_USAGE', label: '系统盘使用量', unit: 'GB' },
  { value: 'SYS_DISK_COUNT', label: '系统盘容量', unit: 'GB' },
] as const satisfies readonly (DictItem<string> & { unit: string })[];
export type MonitorMetricValue = DictValue<typeof MONITOR_METRICS>;
