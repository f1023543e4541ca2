import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FREE_DATA_DISK_GB } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireRole } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { amountField, text } from '../../http/fields.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { hostIdField } from '../rental/routes.js';
import { dictionaryIdField } from './fields.js';
import { FleetService } from './fleet.js';
import { sealText } from '../../lib/crypto.js';
import { DOCKER_TLS_PURPOSE } from '../../compute/docker/engines.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope };

/** Largest GPUs one server holds (HGX-2 class machines have 16). */
export const MAX_GPUS_PER_HOST = 16;
/** Price caps keep every derived package price inside the database's integer (usage × 520 h a month). */
const MAX_USAGE_PRICE_FEN = 1_000_000;
const MAX_PACKAGE_PRICE_FEN = 1_000_000_000;

const wholeNumber = (label: string, min: number, max: number, unit = '') =>
  z
    .number({ error: (issue) => (issue.input === undefined || issue.input === null ? `请输入${label}` : `${label}必须是整数`) })
    .int(`${label}必须是整数`)
    .min(min, `${label}至少为${min}${unit}`)
    .max(max, `${label}不能超过${max}${unit}`);

const pem = (label: string) =>
  text(label)
    .max(20_000, `${label}过长`)
    .regex(/-----BEGIN [A-Z ]+-----[\s\S]+-----END [A-Z ]+-----/, `${label}须为 PEM 格式`);

const price = (label: string, max: number) => amountField(label, { max }).nullable().optional();

const hostBody = z.strictObject(
  {
    id: hostIdField.describe('主机ID，小写字母、数字和短横线，如 bj-a-4090-09；已存在则修改，否则新增'),
    name: text('主机名称')
      .trim()
      .min(1, '请输入主机名称')
      .max(64, '主机名称不能超过64个字符')
      // eslint-disable-next-line no-control-regex
      .regex(/^[^\u0000-\u001f\u007f]*$/u, '主机名称不能包含换行或控制字符')
      .optional(),
    zoneId: dictionaryIdField('可用区').optional(),
    gpuModelId: dictionaryIdField('GPU型号').optional(),
    cpuModelId: dictionaryIdField('CPU型号').optional(),
    gpuTotal: wholeNumber('GPU总数', 1, MAX_GPUS_PER_HOST, '卡').optional(),
    cpuPerGpu: wholeNumber('每卡CPU核数', 1, 256, '核').optional(),
    memoryGbPerGpu: wholeNumber('每卡内存', 1, 4096, 'GB').optional(),
    dataDiskMaxGb: wholeNumber('单实例数据盘上限', FREE_DATA_DISK_GB, 1_000_000, 'GB').optional(),
    dataDiskTotalGb: wholeNumber('数据盘总容量', FREE_DATA_DISK_GB, 100_000_000, 'GB').optional(),
    cudaVersion: text('CUDA版本')
      .trim()
      .regex(/^\d{1,2}\.\d{1,2}(\.\d{1,3})?$/, 'CUDA版本格式应为 主版本.次版本，如 12.4')
      .optional(),
    driverVersion: text('驱动版本')
      .trim()
      .regex(/^\d{2,4}(\.\d{1,4}){0,2}$/, '驱动版本格式应为数字和点，如 550.107.02')
      .optional(),
    usagePriceFen: price('按量价格（每卡每小时）', MAX_USAGE_PRICE_FEN).describe('分/卡时；null 表示使用GPU型号的参考价'),
    dayPriceFen: price('包日价格（每卡每天）', MAX_PACKAGE_PRICE_FEN).describe('分/卡天；null 表示按量价 × 22'),
    weekPriceFen: price('包周价格（每卡每周）', MAX_PACKAGE_PRICE_FEN).describe('分/卡周；null 表示按量价 × 140'),
    monthPriceFen: price('包月价格（每卡每月）', MAX_PACKAGE_PRICE_FEN).describe('分/卡月；null 表示按量价 × 520'),
    enabled: z.boolean({ error: '是否上架（enabled）必须是 true 或 false' }).optional().describe('false：从算力市场下架，已有实例照常运行'),
    simFault: z
      .enum(['error', 'unreachable'], { error: '模拟故障必须是 error（故障）、unreachable（失联）或 null（恢复）' })
      .nullable()
      .optional()
      .describe('模拟集群的故障注入：error 该主机上的操作失败、实例变为异常；unreachable 主机失联；null 恢复'),
    simFaultReason: text('故障原因').trim().min(1, '请输入故障原因').max(200, '故障原因不能超过200个字符').nullable().optional(),
    dockerUrl: text('Docker 引擎地址')
      .trim()
      .regex(/^(unix:\/\/\/[^\s]{1,200}|tcp:\/\/[A-Za-z0-9.-]{1,200}:\d{1,5})$/, 'Docker 引擎地址格式应为 unix:///var/run/docker.sock 或 tcp://主机:2376')
      .nullable()
      .optional()
      .describe('COMPUTE_DRIVER=docker 时该主机的 Docker 引擎；tcp:// 须配 dockerTls'),
    dockerTls: z
      .strictObject(
        { ca: pem('CA 证书'), cert: pem('客户端证书'), key: pem('客户端私钥') },
        { error: (issue) => (issue.code === 'unrecognized_keys' ? `不支持的字段：${issue.keys.join('、')}` : 'dockerTls 须包含 ca、cert、key 三个 PEM 文本') },
      )
      .nullable()
      .optional()
      .describe('tcp:// 引擎的 TLS 客户端证书（PEM），加密保存，之后只返回是否已配置'),
    publicAddress: text('对外地址')
      .trim()
      .regex(/^[A-Za-z0-9.-]{1,253}$/, '对外地址应为域名或 IP，如 gpu-01.example.com')
      .nullable()
      .optional()
      .describe('用户连接该主机端口（SSH）所用的地址；默认取 Docker 引擎地址中的主机名'),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `不支持的字段：${issue.keys.join('、')}` : '请求体必须是 JSON 对象') },
);

const instanceCounts = z.object({
  total: z.number().int().describe('未释放的实例数'),
  running: z.number().int(),
  poweredOff: z.number().int(),
  inOperation: z.number().int().describe('正在创建、开关机或释放的实例数'),
  abnormal: z.number().int().describe('异常或失联的实例数'),
});

const fleetHostSchema = z.object({
  hostId: z.string(),
  hostName: z.string(),
  zoneId: z.string(),
  zoneName: z.string(),
  zoneEnabled: z.boolean(),
  gpuModelId: z.string(),
  gpuModelName: z.string(),
  gpuModelEnabled: z.boolean(),
  cpuModelId: z.string(),
  cpuModelName: z.string(),
  gpuTotal: z.number().int(),
  gpuAllocated: z.number().int(),
  gpuFree: z.number().int(),
  cpuPerGpu: z.number().int(),
  memoryGbPerGpu: z.number().int(),
  dataDiskMaxGb: z.number().int(),
  dataDiskTotalGb: z.number().int(),
  dataDiskAllocatedGb: z.number().int(),
  cudaVersion: z.string(),
  driverVersion: z.string(),
  usagePriceFen: z.number().int().nullable(),
  dayPriceFen: z.number().int().nullable(),
  weekPriceFen: z.number().int().nullable(),
  monthPriceFen: z.number().int().nullable(),
  effectivePrices: z.object({ usage: z.number().int(), day: z.number().int(), week: z.number().int(), month: z.number().int() }).describe('生效价格（分/卡·单位）'),
  enabled: z.boolean(),
  onMarket: z.boolean().describe('主机、可用区与GPU型号均已上架，用户可在算力市场看到'),
  simFault: z.enum(['error', 'unreachable']).nullable(),
  simFaultReason: z.string().nullable(),
  dockerUrl: z.string().nullable(),
  dockerTls: z.boolean().describe('是否已配置 TLS 客户端证书'),
  publicAddress: z.string().nullable(),
  instances: instanceCounts,
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** The operator's fleet calls (role operator; every change in the audit log). */
export const fleetAdminRoutes = (deps: AppDeps, onFleetChanged: () => void): FastifyPluginAsyncZod => async (app) => {
  const fleet = new FleetService(deps);
  const operator = requireRole('operator');
  const tags = ['运营'];

  app.post(
    '/comppower/admin',
    {
      preValidation: operator,
      schema: {
        tags,
        summary: '新增或修改主机（ID 已存在则只修改传入的字段）；含价格覆盖、上下架与模拟故障',
        body: hostBody,
        response: { 200: envelopeOf(z.object({ created: z.boolean(), host: fleetHostSchema })), ...errors },
      },
    },
    async (request) => {
      const { dockerTls, ...body } = request.body;
      const sealed = dockerTls === undefined ? {} : { dockerTlsSealed: dockerTls === null ? null : sealText(deps.config.jwtSecret, DOCKER_TLS_PURPOSE, JSON.stringify(dockerTls)) };
      const saved = await fleet.save(principalOf(request).userId, { ...body, ...sealed });
      onFleetChanged();
      return ok(saved);
    },
  );

  app.get(
    '/comppower/admin/entities',
    {
      preValidation: operator,
      schema: {
        tags,
        summary: '主机列表（含下架主机）：分配情况与其上的实例数',
        querystring: pageQuery.extend({
          zoneId: dictionaryIdField('可用区').optional(),
          gpuModelId: dictionaryIdField('GPU型号').optional(),
          enabled: z
            .enum(['true', 'false'], { error: 'enabled 必须是 true 或 false' })
            .transform((value) => value === 'true')
            .optional(),
        }),
        response: { 200: envelopeOf(pageSchema(fleetHostSchema)), ...errors },
      },
    },
    async (request) => ok(await fleet.list(request.query)),
  );
};
