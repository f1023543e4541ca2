/**
 * What the instance calls answer (容器实例, docs/api-compute.md): the server's response schemas, and the
 * types the console reads them with (`import type` only: zod stays out of the console's bundle).
 * Every amount is integer fen, every time an ISO 8601 string.
 */
import { z } from 'zod';
import { INSTANCE_OPERATIONS } from '../compute.js';
import { INSTANCE_STATUSES, valuesOf } from '../dictionaries.js';

/** What the instance list shows of a copy running from or into an instance (跨实例拷贝). */
export const runningCopySchema = z.object({
  /** What `DELETE /rental/copy_data` cancels. */
  taskId: z.string().describe('拷贝任务ID（取消拷贝时使用）'),
  role: z.enum(['source', 'target']).describe('source 本实例是源，target 本实例是目标'),
  peerInstanceId: z.string().describe('另一端实例的ID'),
  progress: z.number().int().describe('进度 0–100'),
  path: z.string(),
});
export type RunningCopy = z.infer<typeof runningCopySchema>;

/**
 * The owner's 文件存储 of the instance's region, at /root/slg-fs: `mounted` — the machine has it (or the
 * create / power-on under way mounts it); `restartNeeded` — the store exists but the current run does
 * not mount it (initialised after the machine started: 需重启后挂载); `none` — no store in the region.
 */
export const fileStorageMountSchema = z
  .enum(['mounted', 'restartNeeded', 'none'])
  .describe('文件存储（/root/slg-fs）：mounted 已挂载，restartNeeded 已初始化但需重启（关机再开机）后挂载，none 该地区未初始化文件存储');
export type FileStorageMount = z.infer<typeof fileStorageMountSchema>;

export const instanceViewSchema = z.object({
  instanceId: z.string().describe('实例ID，如 slg-k3m9x2p7qa'),
  rentalId: z.number().int().describe('租用记录ID'),
  rentalUid: z.string().describe('租用记录UID（订单的资源ID）'),
  name: z.string(),
  status: z.enum(valuesOf(INSTANCE_STATUSES)).describe('运行状态（/meta/instance_status）'),
  operation: z.enum(valuesOf(INSTANCE_OPERATIONS)).nullable().describe('正在进行的操作：create 创建中、power_on 开机中、power_off 关机中、release 释放中、reset 重置中（重置系统、更换镜像）、save_image 保存镜像中'),
  statusReason: z.string().nullable().describe('平台改变状态的原因，如欠费关机、主机故障'),
  health: z.enum(['Normal', 'Abnormal']),
  hostId: z.string(),
  hostName: z.string(),
  zoneId: z.string(),
  zoneName: z.string(),
  gpuModelId: z.string(),
  gpuModelName: z.string(),
  gpuNum: z.number().int(),
  gpuMode: z
    .enum(['gpu', 'nogpu'])
    .describe('本次运行（或正在开机）的方式：gpu 有卡，nogpu 无卡模式；未运行时为开机默认的有卡方式 gpu，上次的方式见 lastRunMode'),
  lastRunMode: z
    .enum(['gpu', 'nogpu'])
    .nullable()
    .describe('未运行时上次运行的方式（nogpu 表示上次以无卡模式运行）；运行中或正在开机时为 null'),
  /** Of the current mode; while off, of the GPU configuration 开机 starts with. */
  cpuCores: z.number().int(),
  memoryGb: z.number().int(),
  dataDiskGb: z.number().int().describe('数据盘容量（GB），50 GB 免费'),
  diskRateFenPerDay: z.number().int().describe('数据盘超出免费容量部分每天的费用（分），0 为不计费'),
  fileStorage: fileStorageMountSchema,
  chargingRuleId: z.number().int(),
  imageId: z.string(),
  imageName: z.string(),
  sshCommand: z.string().nullable().describe('运行后可用，如 ssh -p 32101 root@bj-a.connect.example.com'),
  priceFen: z.number().int().describe('按量计费每小时价格（分）：运行中按本次方式（有卡为 GPU 单价 × 卡数，无卡模式为无卡价格），未运行时为有卡开机的价格'),
  gpuPriceFen: z.number().int().describe('有卡开机时每小时价格（分）'),
  noGpuPriceFen: z.number().int().describe('无卡模式每小时价格（分）'),
  runStartedAt: z.string().nullable().describe('本次计费运行开始时间'),
  poweredOffAt: z.string().nullable(),
  releaseAt: z.string().nullable().describe('持续关机将被自动释放的时间（开启保留实例时为空）'),
  keepWhenOff: z.boolean().describe('保留实例：关机满15天后按磁盘容量每天付费保留，不自动释放'),
  retainedUntil: z.string().nullable().describe('保留费用已付至'),
  expiresAt: z.string().nullable().describe('包日、包周、包月的到期时间；按量计费为 null'),
  autoRenew: z.boolean().describe('到期时从余额自动续费一个周期'),
  scheduledPowerOffAt: z.string().nullable().describe('定时关机时间'),
  copyTask: runningCopySchema.nullable().describe('正在进行的跨实例拷贝（本实例为源或目标）；没有时为 null'),
  createdAt: z.string(),
});
export type InstanceView = z.infer<typeof instanceViewSchema>;

/** `GET /rental/summary`: the caller's instance counts and running cost (总览). */
export const instanceSummarySchema = z.object({ total: z.number().int(), byStatus: z.record(z.string(), z.number().int()), runningCostPerHourFen: z.number().int() });
export type InstanceSummary = z.infer<typeof instanceSummarySchema>;

/** `GET /rental/events`: one entry of an instance's history. */
export const instanceEventSchema = z.object({
  type: z.string(),
  fromStatus: z.string().nullable(),
  toStatus: z.string().nullable(),
  detail: z.string().nullable(),
  byPlatform: z.boolean(),
  createdAt: z.string(),
});
export type InstanceEvent = z.infer<typeof instanceEventSchema>;

/**
 * `POST /rental/prepay`. For pay-as-you-go: `amount` is the hourly rate, `payable` what the balance must
 * cover (one hour). For a package: `amount` its price, `discount` the voucher's part, `payable` what the
 * balance pays, and `expiresAt` when it would end if bought now.
 */
export const prepayResultSchema = z.object({
  amount: z.number().int().describe('每小时费用（分）'),
  discount: z.number().int(),
  payable: z.number().int().describe('创建时余额至少需要覆盖的金额（分）：按量计费为该实例与账户其他运行中按量实例合计1小时的费用'),
  pricePerGpuFen: z.number().int(),
  unit: z.string(),
  balanceRequired: z.number().int(),
  expiresAt: z.string().nullable().describe('包日、包周、包月：现在创建的到期时间'),
});
export type PrepayResult = z.infer<typeof prepayResultSchema>;

/** `POST /rental` and the clone calls: the new instance and its order. */
export const createdInstanceSchema = z.object({ instanceId: z.string(), rentalId: z.number().int(), rentalUid: z.string(), orderId: z.string().describe('订单号') });
export type CreatedInstance = z.infer<typeof createdInstanceSchema>;

/** `POST /rental/renew/prepay`. */
export const renewPrepaySchema = z.object({
  amount: z.number().int(),
  discount: z.number().int(),
  payable: z.number().int().describe('应付（分）'),
  items: z.array(z.object({ instanceId: z.string(), name: z.string(), packageName: z.string(), amount: z.number().int(), expiresAt: z.string() })),
});
export type RenewPrepayResult = z.infer<typeof renewPrepaySchema>;

/** `POST /rental/renew`: one order per instance. */
export const renewedSchema = z.object({ orderIds: z.array(z.string()).describe('订单号') });
export type Renewed = z.infer<typeof renewedSchema>;

/** `PUT /rental/update_charging_rule`. */
export const chargingRuleChangedSchema = z.object({ orderId: z.string(), refund: z.number().int().describe('退回余额（分）'), payable: z.number().int().describe('已支付（分）') });
export type ChargingRuleChanged = z.infer<typeof chargingRuleChangedSchema>;

/** `GET /order/preview/refund`: what switching a package to pay-as-you-go refunds now, fen. */
export const refundPreviewSchema = z.object({ paid: z.number().int(), used: z.number().int(), refund: z.number().int() });
export type RefundPreview = z.infer<typeof refundPreviewSchema>;

/** `POST /rental/clone/prepay` and `/rental/clone/v2/prepay`. */
export const clonePrepaySchema = prepayResultSchema.extend({
  dataDiskGb: z.number().int(),
  diskRateFenPerDay: z.number().int().describe('数据盘超出免费部分每天的费用（分）'),
  sourceInstanceId: z.string(),
});
export type ClonePrepayResult = z.infer<typeof clonePrepaySchema>;

/** `PUT /rental/keep_when_off` (保留实例). */
export const keepWhenOffSchema = z.object({ keepWhenOff: z.boolean(), rateFenPerDay: z.number().int().describe('保留每天的费用（分）') });
export type KeepWhenOff = z.infer<typeof keepWhenOffSchema>;

/** What changing an instance's GPU count costs (package: payable / refund) or makes its hourly rate. */
export const gpuCountQuoteSchema = z.object({
  fromGpuNum: z.number().int(),
  toGpuNum: z.number().int(),
  maxGpuNum: z.number().int().describe('该主机最多可选的GPU数'),
  hostFreeGpus: z.number().int().describe('主机当前空闲GPU数'),
  hourlyFen: z.number().int().describe('按量计费：变更后每小时费用（分）'),
  payable: z.number().int().describe('包日/包周/包月：增加的GPU按剩余时长（不足1小时按1小时）应付（分）'),
  refund: z.number().int().describe('包日/包周/包月：减少的GPU按剩余整小时退回余额（分），不超过已付现金'),
  expiresAt: z.string().nullable(),
});
export type GpuCountQuote = z.infer<typeof gpuCountQuoteSchema>;

/** `POST /rental/change_gpu_num`. */
export const gpuCountChangedSchema = gpuCountQuoteSchema.extend({ orderId: z.string().nullable().describe('升配订单号（有支付时）') });
export type GpuCountChanged = z.infer<typeof gpuCountChangedSchema>;

/** A custom service port (自定义服务): protocol 1 HTTP (an https address), 2 TCP (gateway host:port). */
export const instancePortSchema = z.object({
  port: z.number().int(),
  protocol: z.number().int().describe('1 HTTP，2 TCP'),
  protocolName: z.string(),
  address: z.string().describe('外部访问地址：HTTP 为 https 地址，TCP 为 主机:端口'),
  createdAt: z.string(),
});
export type InstancePort = z.infer<typeof instancePortSchema>;

/** `GET /rental/password`. */
export const rootPasswordSchema = z.object({ password: z.string() });
export type RootPassword = z.infer<typeof rootPasswordSchema>;

/** A 跨实例拷贝 task (`/rental/copy_data`), as seen from the instance the list was asked for. */
export const copyTaskSchema = z.object({
  taskId: z.string().describe('拷贝任务ID'),
  role: z.enum(['source', 'target']).describe('所查询的实例在此任务中是源（source）还是目标（target）'),
  fromInstanceId: z.string(),
  fromInstanceName: z.string(),
  toInstanceId: z.string(),
  toInstanceName: z.string(),
  peerInstanceId: z.string().describe('另一端实例的ID'),
  peerInstanceName: z.string(),
  path: z.string().describe('拷贝的路径；数据拷贝到目标实例的相同路径'),
  status: z.enum(['running', 'done', 'failed', 'cancelled']).describe('running 拷贝中、done 已完成、failed 失败、cancelled 已取消'),
  statusReason: z.string().nullable().describe('失败原因；已取消时为「已取消」'),
  progress: z.number().int().describe('进度 0–100'),
  totalGb: z.number().describe('需拷贝的数据量（GB），开始后可知'),
  copiedGb: z.number().describe('已拷贝（GB）；已取消的任务为取消时已拷贝的量，这部分保留在目标实例上'),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type CopyTask = z.infer<typeof copyTaskSchema>;
export type CopyStatus = CopyTask['status'];

/** 扩容设置: the data disk's size and price (`GET /rental/disk`). */
export const diskInfoSchema = z.object({
  instanceId: z.string(),
  sizeGb: z.number().int().describe('当前数据盘容量（GB）'),
  usedGb: z.number().nullable().describe('已使用（GB）；暂时无法读取时为 null'),
  freeGb: z.number().int().describe('免费容量（GB），超出部分按量计费'),
  minGb: z.number().describe('可缩容到的最小容量（GB）：不小于免费容量和已使用量'),
  maxGb: z.number().int().describe('该主机单个实例数据盘的最大容量（GB）'),
  hostFreeGb: z.number().int().describe('主机当前剩余可分配的数据盘空间（GB）'),
  priceFenPerGbDay: z.number().int().describe('超出免费容量部分的价格：分 / GB / 天'),
  rateFenPerDay: z.number().int().describe('当前数据盘每天的费用（分）'),
});
export type DiskInfo = z.infer<typeof diskInfoSchema>;

/** `POST /rental/extend_disk` and `/rental/shrink_disk`. */
export const diskResizedSchema = diskInfoSchema.extend({ orderId: z.string().nullable().describe('首次超出免费容量时开立的数据盘扩容按量订单号') });
export type DiskResized = z.infer<typeof diskResizedSchema>;

/** What an instance (or every instance in range) has cost so far, by kind (计费记录). */
export const chargingAmountsSchema = z.object({
  usageFen: z.number().int().describe('按量计费（含无卡模式）已结算的费用（分）'),
  packageFen: z.number().int().describe('包日/包周/包月等预付费实付，扣除退款（分）'),
  diskFen: z.number().int().describe('数据盘扩容费用（分）'),
  totalFen: z.number().int().describe('合计（分）'),
});
export type ChargingAmounts = z.infer<typeof chargingAmountsSchema>;

/** `GET /rental/charging_records`: what one instance has cost so far. */
export const chargingRecordSchema = chargingAmountsSchema.extend({
  instanceId: z.string(),
  rentalUid: z.string(),
  name: z.string(),
  zoneName: z.string(),
  gpuModelName: z.string(),
  gpuNum: z.number().int(),
  chargingRuleId: z.number().int().describe('当前计费方式'),
  status: z.string(),
  released: z.boolean(),
  createdAt: z.string(),
  releasedAt: z.string().nullable(),
});
export type ChargingRecord = z.infer<typeof chargingRecordSchema>;
