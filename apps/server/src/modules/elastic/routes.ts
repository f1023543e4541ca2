import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ELASTIC_DEPLOYMENT_STATUSES,
  ELASTIC_NAME_MESSAGE,
  ELASTIC_NAME_PATTERN,
  ELASTIC_TYPES,
  ENV_NAME_PATTERN,
  MAX_ELASTIC_ENV,
  MAX_ELASTIC_GPUS,
  MAX_ELASTIC_REPLICAS,
  TIME_PACK_MAX_HOURS,
  TIME_PACK_MAX_VALID_DAYS,
  TIME_PACK_STATUSES,
  valuesOf,
} from '@slg/shared';
import {
  elasticContainerSchema,
  elasticCreatedSchema,
  elasticDeploymentSchema,
  elasticEventSchema,
  elasticLogsSchema,
  elasticOverviewSchema,
  elasticPasswordSchema,
  timePackBoughtSchema,
  timePackQuoteSchema,
  timePackRefundSchema,
  timePackSchema,
} from '@slg/shared/views/elastic';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { emptyEnvelope, envelopeOf, ok } from '../../http/envelope.js';
import { text } from '../../http/fields.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { errors, instanceIdField } from '../rental/routes.js';
import { RESERVED_PORTS, MAX_PORTS_PER_INSTANCE } from '../rental/ports.js';
import { ElasticService } from './service.js';
import { TimePackService } from './time-packs.js';

const idParams = z.object({ id: z.coerce.number({ error: '部署ID必须是数字' }).int('部署ID必须是整数').positive('部署ID不正确').max(Number.MAX_SAFE_INTEGER, '部署ID不正确') });
const uidField = text('部署UID').uuid('部署UID格式不正确');
const idCode = /^[a-z0-9][a-z0-9-]{0,31}$/;
const zoneIdsField = z.array(text('地区').regex(idCode, '地区ID格式不正确'), { error: '地区必须是列表' }).max(50, '地区最多选50个');
const gpuModelIdsField = z.array(text('GPU型号').regex(idCode, 'GPU型号ID格式不正确'), { error: 'GPU型号必须是列表' }).max(50, 'GPU型号最多选50个');
const cudaField = text('CUDA版本').regex(/^\d{1,2}(\.\d{1,2}){0,2}$/, 'CUDA版本格式不正确，如 12.1');
const priceMaxField = z.number({ error: '价格上限必须是数字（分）' }).int('价格上限必须是整数（分）').min(1, '价格上限至少为1分').max(100_000_000, '价格上限过大');
const imageIdField = text('镜像').min(1, '请选择镜像').max(96, '镜像ID过长');
const cmdField = text('启动命令').max(4096, '启动命令不能超过4096个字符');
const envField = z
  .record(text('环境变量名').regex(ENV_NAME_PATTERN, '环境变量名只能包含字母、数字和下划线，且不能以数字开头'), text('环境变量值').max(4096, '环境变量值不能超过4096个字符'), {
    error: '环境变量必须是键值对',
  })
  .refine((env) => Object.keys(env).length <= MAX_ELASTIC_ENV, `环境变量最多${MAX_ELASTIC_ENV}个`);
const replicaField = (label: string) =>
  z
    .number({ error: `${label}必须是整数` })
    .int(`${label}必须是整数`)
    .min(1, `${label}至少为1`)
    .max(MAX_ELASTIC_REPLICAS, `${label}不能超过${MAX_ELASTIC_REPLICAS}`);
const portsField = z
  .array(
    z.object({
      port: z
        .number({ error: '端口必须是整数' })
        .int('端口必须是整数')
        .min(1, '端口范围为1–65535')
        .max(65535, '端口范围为1–65535')
        .refine((port) => !RESERVED_PORTS.includes(port), '22 端口为 SSH 保留端口'),
      protocol: z.union([z.literal(1), z.literal(2)], { error: '协议必须是 1（HTTP）或 2（TCP）' }),
    }),
    { error: '端口必须是列表' },
  )
  .max(MAX_PORTS_PER_INSTANCE, `端口最多${MAX_PORTS_PER_INSTANCE}个`)
  .refine((ports) => new Set(ports.map((item) => item.port)).size === ports.length, '端口不能重复');

const createBody = z.object({
  name: text('部署名称').trim().regex(ELASTIC_NAME_PATTERN, ELASTIC_NAME_MESSAGE),
  type: z.enum(valuesOf(ELASTIC_TYPES), { error: '部署类型必须是 REPLICA_SET、JOB 或 CONTAINER' }),
  imageId: imageIdField,
  gpuNum: z
    .number({ error: '每容器GPU数必须是整数' })
    .int('每容器GPU数必须是整数')
    .min(1, '每容器GPU数至少为1')
    .max(MAX_ELASTIC_GPUS, `每容器GPU数不能超过${MAX_ELASTIC_GPUS}`),
  replicaNum: replicaField('容器数'),
  parallelismNum: replicaField('并行数').optional(),
  zoneIds: zoneIdsField.optional(),
  gpuModelIds: gpuModelIdsField.optional(),
  cudaMin: cudaField.nullable().optional(),
  priceMaxFen: priceMaxField.nullable().optional(),
  cmd: cmdField.nullable().optional(),
  env: envField.optional(),
  ports: portsField.optional(),
});

const editBody = z
  .object({
    replicaNum: z
      .number({ error: '容器数必须是整数' })
      .int('容器数必须是整数')
      .min(0, '容器数不能为负数')
      .max(MAX_ELASTIC_REPLICAS, `容器数不能超过${MAX_ELASTIC_REPLICAS}`)
      .optional(),
    parallelismNum: replicaField('并行数').optional(),
    imageId: imageIdField.optional(),
    cmd: cmdField.nullable().optional(),
    env: envField.optional(),
    zoneIds: zoneIdsField.optional(),
    gpuModelIds: gpuModelIdsField.optional(),
    cudaMin: cudaField.nullable().optional(),
    priceMaxFen: priceMaxField.nullable().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), '请至少修改一项');

const timePackIdField = z.coerce.number({ error: '时长包ID必须是数字' }).int('时长包ID必须是整数').positive('时长包ID不正确').max(Number.MAX_SAFE_INTEGER, '时长包ID不正确');
const gpuModelIdField = text('GPU型号').regex(idCode, 'GPU型号ID格式不正确');
const hoursField = z.coerce
  .number({ error: '时长必须是整数（卡时）' })
  .int('时长必须是整数（卡时）')
  .min(1, '时长至少为1卡时')
  .max(TIME_PACK_MAX_HOURS, `时长不能超过${TIME_PACK_MAX_HOURS}卡时`);

export const elasticRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const elastic = new ElasticService(deps);
  const packs = new TimePackService(deps);
  const guarded = { preValidation: requireAuthority('ELASTIC') };
  const tags = ['弹性部署'];

  app.post(
    '/elastic',
    {
      ...guarded,
      schema: {
        tags,
        summary: '创建弹性部署（余额需覆盖全部容器1小时的费用；容器按调度主机价格按秒计费）',
        body: createBody,
        response: { 200: envelopeOf(elasticCreatedSchema), ...errors },
      },
    },
    async (request) => ok(await elastic.create(principalOf(request), request.body)),
  );

  app.get(
    '/elastic/list',
    {
      ...guarded,
      schema: {
        tags,
        summary: '弹性部署列表',
        querystring: pageQuery.extend({
          status: z.enum(valuesOf(ELASTIC_DEPLOYMENT_STATUSES), { error: '部署状态不正确' }).optional(),
          name: text('部署名称').trim().max(64, '部署名称过长').optional(),
        }),
        response: { 200: envelopeOf(pageSchema(elasticDeploymentSchema)), ...errors },
      },
    },
    async (request) => ok(await elastic.list(principalOf(request), request.query)),
  );

  app.get(
    '/elastic/detail',
    { ...guarded, schema: { tags, summary: '单个弹性部署', querystring: z.object({ deploymentUid: uidField }), response: { 200: envelopeOf(elasticDeploymentSchema), ...errors } } },
    async (request) => ok(await elastic.detail(principalOf(request), request.query.deploymentUid)),
  );

  app.get(
    '/elastic/released',
    {
      ...guarded,
      schema: { tags, summary: '已释放实例：近30天结束的容器', querystring: pageQuery, response: { 200: envelopeOf(pageSchema(elasticContainerSchema)), ...errors } },
    },
    async (request) => ok(await elastic.released(principalOf(request), request.query)),
  );

  app.get(
    '/elastic/:deploymentUid/instances',
    {
      ...guarded,
      schema: {
        tags,
        summary: '部署的容器：released=false 未结束的容器，released=true 近30天结束的容器',
        params: z.object({ deploymentUid: uidField }),
        querystring: pageQuery.extend({ released: z.enum(['true', 'false'], { error: 'released 必须是 true 或 false' }).optional() }),
        response: { 200: envelopeOf(pageSchema(elasticContainerSchema)), ...errors },
      },
    },
    async (request) => ok(await elastic.containers(principalOf(request), request.params.deploymentUid, { ...request.query, released: request.query.released === 'true' })),
  );

  app.get(
    '/elastic/:deploymentUid/events',
    {
      ...guarded,
      schema: { tags, summary: '部署事件（最近100条）', params: z.object({ deploymentUid: uidField }), response: { 200: envelopeOf(z.array(elasticEventSchema)), ...errors } },
    },
    async (request) => ok(await elastic.events(principalOf(request), request.params.deploymentUid)),
  );

  for (const [action, summary] of [
    ['stop', '停止部署：全部容器停止计费并释放（数据盘数据删除）'],
    ['lock', '锁定部署：锁定后不能编辑、停止、删除'],
    ['unlock', '解锁部署'],
  ] as const) {
    app.put(
      `/elastic/:id/${action}`,
      { ...guarded, schema: { tags, summary, params: idParams, response: { 200: envelopeOf(elasticDeploymentSchema), ...errors } } },
      async (request) => {
        const principal = principalOf(request);
        const { id } = request.params;
        if (action === 'stop') return ok(await elastic.stop(principal, id));
        return ok(await elastic.setLocked(principal, id, action === 'lock'));
      },
    );
  }

  app.post(
    '/elastic/:id/edit',
    {
      ...guarded,
      schema: {
        tags,
        summary: '编辑部署：副本数、镜像、启动命令、环境变量、筛选条件；镜像、命令或环境变量变化时旧容器逐个替换',
        params: idParams,
        body: editBody,
        response: { 200: envelopeOf(elasticDeploymentSchema), ...errors },
      },
    },
    async (request) => ok(await elastic.edit(principalOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/elastic/:id',
    { ...guarded, schema: { tags, summary: '删除部署（运行中的先停止，全部容器释放）', params: idParams, response: { 200: emptyEnvelope, ...errors } } },
    async (request) => {
      await elastic.delete(principalOf(request), request.params.id);
      return ok(null);
    },
  );

  app.delete(
    '/elastic/instance',
    {
      ...guarded,
      schema: { tags, summary: '释放一个容器（常驻服务会补充新容器，除非先调低副本数）', querystring: z.object({ instanceId: instanceIdField }), response: { 200: emptyEnvelope, ...errors } },
    },
    async (request) => {
      await elastic.releaseContainer(principalOf(request), request.query.instanceId);
      return ok(null);
    },
  );

  app.get(
    '/elastic/instance/password',
    {
      ...guarded,
      schema: { tags, summary: '容器的 root 密码（SSH 登录）', querystring: z.object({ instanceId: instanceIdField }), response: { 200: envelopeOf(elasticPasswordSchema), ...errors } },
    },
    async (request) => ok(await elastic.password(principalOf(request), request.query.instanceId)),
  );

  app.get(
    '/elastic/instance/logs',
    {
      ...guarded,
      schema: {
        tags,
        summary: '容器输出的最后若干行',
        querystring: z.object({
          instanceId: instanceIdField,
          lines: z.coerce.number({ error: '行数必须是整数' }).int('行数必须是整数').min(1, '行数至少为1').max(2000, '行数不能超过2000').default(200),
        }),
        response: { 200: envelopeOf(elasticLogsSchema), ...errors },
      },
    },
    async (request) => ok(await elastic.logs(principalOf(request), request.query.instanceId, request.query.lines)),
  );

  app.post(
    '/elastic/overview',
    { ...guarded, schema: { tags, summary: '弹性部署总览：部署数、运行中容器、每小时费用、各型号各地区的库存', response: { 200: envelopeOf(elasticOverviewSchema), ...errors } } },
    async (request) => ok(await elastic.overview(principalOf(request))),
  );

  app.get(
    '/elastic/time-bundle',
    {
      ...guarded,
      schema: {
        tags,
        summary: '时长包列表',
        querystring: pageQuery.extend({ status: z.enum(valuesOf(TIME_PACK_STATUSES), { error: '时长包状态不正确' }).optional() }),
        response: { 200: envelopeOf(pageSchema(timePackSchema)), ...errors },
      },
    },
    async (request) => ok(await packs.list(principalOf(request), request.query)),
  );

  app.get(
    '/elastic/time-bundle/quote',
    {
      ...guarded,
      schema: { tags, summary: '时长包询价', querystring: z.object({ gpuModelId: gpuModelIdField, hours: hoursField }), response: { 200: envelopeOf(timePackQuoteSchema), ...errors } },
    },
    async (request) => ok(await packs.quote(request.query.gpuModelId, request.query.hours)),
  );

  app.post(
    '/elastic/time-bundle',
    {
      ...guarded,
      schema: {
        tags,
        summary: '购买时长包（从余额支付）：该型号运行中的弹性容器按秒先抵扣时长包，再从余额扣费',
        body: z.object({
          gpuModelId: gpuModelIdField,
          hours: hoursField,
          validDays: z
            .number({ error: '有效期必须是整数（天）' })
            .int('有效期必须是整数（天）')
            .min(1, '有效期至少为1天')
            .max(TIME_PACK_MAX_VALID_DAYS, `有效期不能超过${TIME_PACK_MAX_VALID_DAYS}天`),
        }),
        response: { 200: envelopeOf(timePackBoughtSchema), ...errors },
      },
    },
    async (request) => ok(await packs.buy(principalOf(request), request.body)),
  );

  app.get(
    '/elastic/time-bundle/refund',
    {
      ...guarded,
      schema: { tags, summary: '时长包退款预览：按剩余比例退回实付金额', querystring: z.object({ id: timePackIdField }), response: { 200: envelopeOf(timePackRefundSchema), ...errors } },
    },
    async (request) => ok(await packs.refundPreview(principalOf(request), request.query.id)),
  );

  app.post(
    '/elastic/time-bundle/refund',
    {
      ...guarded,
      schema: { tags, summary: '时长包退款：剩余部分按比例退回余额', body: z.object({ id: timePackIdField }), response: { 200: envelopeOf(timePackRefundSchema), ...errors } },
    },
    async (request) => ok(await packs.refund(principalOf(request), request.body.id)),
  );
};
