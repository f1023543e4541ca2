/**
 * What 弹性部署 answers (docs/api-elastic.md): the server's response schemas, and the types the console
 * reads them with (`import type` only). Amounts are integer fen, times ISO 8601 strings.
 */
import { z } from 'zod';
import { ELASTIC_DEPLOYMENT_STATUSES, ELASTIC_TYPES, INSTANCE_STATUSES, valuesOf } from '../dictionaries.js';
import { TIME_PACK_STATUSES } from '../elastic.js';
import { fileStorageMountSchema } from './rental.js';

export const elasticCreatedSchema = z.object({ id: z.number().int().describe('部署ID（停止、锁定、编辑、删除时使用）'), deploymentUid: z.string().describe('部署UID（查看容器时使用）') });
export type ElasticCreated = z.infer<typeof elasticCreatedSchema>;

export const elasticPortSchema = z.object({ port: z.number().int(), protocol: z.union([z.literal(1), z.literal(2)]).describe('1 http，2 tcp') });
export type ElasticPortView = z.infer<typeof elasticPortSchema>;

export const elasticDeploymentSchema = z.object({
  id: z.number().int(),
  deploymentUid: z.string(),
  name: z.string(),
  type: z.enum(valuesOf(ELASTIC_TYPES)).describe('REPLICA_SET 常驻服务、JOB 任务、CONTAINER 临时容器'),
  status: z.enum(valuesOf(ELASTIC_DEPLOYMENT_STATUSES)),
  statusReason: z.string().nullable().describe('平台停止部署的原因（欠费、任务失败）或完成说明'),
  locked: z.boolean(),
  replicaNum: z.number().int().describe('期望的容器数（任务：需成功完成的容器数）'),
  parallelismNum: z.number().int().describe('任务同时运行的容器数上限'),
  runningNum: z.number().int().describe('运行中的容器数'),
  liveNum: z.number().int().describe('未结束的容器数（创建中、运行中、释放中）'),
  waitingNum: z.number().int().describe('等待资源、尚未调度的容器数'),
  waitingReason: z.string().nullable().describe('容器等待的原因：哪个筛选条件没有库存'),
  succeededNum: z.number().int().describe('任务：已成功退出的容器数'),
  failedNum: z.number().int().describe('任务：失败的容器数'),
  gpuNum: z.number().int().describe('每个容器的 GPU 数'),
  imageId: z.string(),
  imageName: z.string(),
  zoneIds: z.array(z.string()),
  gpuModelIds: z.array(z.string()),
  cudaMin: z.string().nullable(),
  priceMaxFen: z.number().int().nullable().describe('每卡每小时价格上限（分）'),
  cmd: z.string().nullable(),
  env: z.record(z.string(), z.string()),
  ports: z.array(elasticPortSchema),
  costPerHourFen: z.number().int().describe('运行中容器每小时的费用（分）'),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ElasticDeploymentView = z.infer<typeof elasticDeploymentSchema>;

export const elasticContainerSchema = z.object({
  instanceId: z.string(),
  deploymentUid: z.string(),
  deploymentName: z.string(),
  status: z.enum(valuesOf(INSTANCE_STATUSES)),
  statusReason: z.string().nullable(),
  hostId: z.string(),
  hostName: z.string(),
  zoneId: z.string(),
  zoneName: z.string(),
  gpuModelId: z.string(),
  gpuModelName: z.string(),
  gpuNum: z.number().int(),
  templateVersion: z.number().int(),
  fileStorage: fileStorageMountSchema.describe('文件存储（/root/slg-fs）：mounted 已挂载，restartNeeded 已初始化但本次运行未挂载，none 该地区未初始化文件存储或容器已结束'),
  sshCommand: z.string().nullable().describe('运行中容器的 SSH 登录命令'),
  ports: z
    .array(z.object({ port: z.number().int(), protocol: z.union([z.literal(1), z.literal(2)]), address: z.string().describe('外部访问地址：HTTP 为 URL，TCP 为 主机:端口') }))
    .describe('部署开放的端口在该容器上的访问地址（容器运行后生成）'),
  startedAt: z.string().nullable().describe('开始运行（计费）的时间'),
  endedAt: z.string().nullable(),
  endReason: z.string().nullable(),
  exitCode: z.number().int().nullable(),
  runSeconds: z.number().int().describe('运行时长（秒）'),
  chargedFen: z.number().int().describe('余额支付的费用（分），不含时长包抵扣'),
  packSeconds: z.number().int().describe('时长包抵扣的运行秒数'),
  createdAt: z.string(),
});
export type ElasticContainerView = z.infer<typeof elasticContainerSchema>;

export const elasticEventSchema = z.object({ type: z.string(), detail: z.string(), createdAt: z.string() });
export type ElasticEventView = z.infer<typeof elasticEventSchema>;

export const elasticStockSchema = z.object({
  gpuModelId: z.string(),
  gpuModelName: z.string(),
  zoneId: z.string(),
  zoneName: z.string(),
  free: z.number().int().describe('空闲 GPU 数'),
  total: z.number().int(),
  minPriceFen: z.number().int().describe('最低每卡每小时价格（分）'),
  maxPriceFen: z.number().int(),
  cudaMax: z.string().describe('该地区该型号主机最高支持的 CUDA 版本'),
});
export type ElasticStockView = z.infer<typeof elasticStockSchema>;

export const elasticOverviewSchema = z.object({
  running: z.number().int().describe('运行中的部署数'),
  stopped: z.number().int().describe('已停止或已完成的部署数'),
  containersRunning: z.number().int(),
  costPerHourFen: z.number().int(),
  stock: z.array(elasticStockSchema),
});
export type ElasticOverview = z.infer<typeof elasticOverviewSchema>;

export const timePackSchema = z.object({
  id: z.number().int(),
  gpuModelId: z.string(),
  gpuModelName: z.string(),
  hours: z.number().int(),
  totalSeconds: z.number().int().describe('总量（GPU·秒）'),
  balanceSeconds: z.number().int().describe('剩余（GPU·秒）'),
  status: z.enum(valuesOf(TIME_PACK_STATUSES)),
  expiresAt: z.string(),
  paidFen: z.number().int(),
  refundedFen: z.number().int(),
  createdAt: z.string(),
});
export type TimePackView = z.infer<typeof timePackSchema>;

export const timePackBoughtSchema = z.object({ id: z.number().int(), orderId: z.string() });
export type TimePackBought = z.infer<typeof timePackBoughtSchema>;

export const timePackQuoteSchema = z.object({ priceFen: z.number().int().describe('应付金额（分）'), pricePerGpuHourFen: z.number().int() });
export type TimePackQuote = z.infer<typeof timePackQuoteSchema>;

export const timePackRefundSchema = z.object({
  paid: z.number().int().describe('实付（分）'),
  used: z.number().int().describe('已用部分折合（分）'),
  refund: z.number().int().describe('退回余额（分）'),
});
export type TimePackRefund = z.infer<typeof timePackRefundSchema>;

export const elasticPasswordSchema = z.object({ password: z.string() });

export const elasticLogsSchema = z.object({ text: z.string().describe('容器输出的最后若干行') });
export type ElasticLogs = z.infer<typeof elasticLogsSchema>;
