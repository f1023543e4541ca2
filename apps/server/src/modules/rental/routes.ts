import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DATASETS_PER_INSTANCE_MAX,
  GPU_MODES,
  INSTANCE_NAME_MESSAGE,
  INSTANCE_NAME_PATTERN,
  INSTANCE_STATUSES,
  MAX_GPUS_PER_INSTANCE,
  ROOT_PASSWORD_MESSAGE,
  ROOT_PASSWORD_PATTERN,
} from '@slg/shared';
import {
  chargingRuleChangedSchema,
  clonePrepaySchema,
  createdInstanceSchema,
  gpuCountChangedSchema,
  gpuCountQuoteSchema,
  instanceEventSchema,
  instancePortSchema,
  instanceSummarySchema,
  instanceViewSchema,
  keepWhenOffSchema,
  prepayResultSchema,
  refundPreviewSchema,
  renewedSchema,
  renewPrepaySchema,
  rootPasswordSchema,
} from '@slg/shared/views/rental';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { emptyEnvelope, envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { text } from '../../http/fields.js';
import { once } from '../../http/idempotency.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { CloneService, type CloneScope } from './clone.js';
import { GpuCountService } from './gpu-count.js';
import { MAX_RENEW_BATCH, PackageService } from './packages.js';
import { PortService, PORT_PROTOCOLS } from './ports.js';
import { RetentionService } from './retention.js';
import { RentalService } from './service.js';
import { ElasticService } from '../elastic/service.js';

/** The refusals every instance route may answer with. */
export const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope, 503: errorEnvelope };

export const instanceIdField = text('实例ID').regex(/^slg-[a-z0-9]{10}$/, '实例ID格式不正确');
export const hostIdField = text('主机ID').regex(/^[a-z0-9][a-z0-9-]{0,31}$/, '主机ID格式不正确');
export const gpuNumField = z
  .number({ error: (issue) => (issue.input === undefined ? '请选择GPU数量' : 'GPU数量必须是整数') })
  .int('GPU数量必须是整数')
  .min(1, 'GPU数量至少为1')
  .max(MAX_GPUS_PER_INSTANCE, `GPU数量不能超过${MAX_GPUS_PER_INSTANCE}`);
export const chargingRuleField = z
  .number({ error: (issue) => (issue.input === undefined ? '请选择计费方式' : '计费方式不正确') })
  .int('计费方式不正确');
const datasetIdsField = z
  .array(z.number({ error: '数据集ID必须是整数' }).int('数据集ID必须是整数').positive('数据集ID必须是正整数'), { error: 'datasetIds 必须是数据集ID的数组' })
  .max(DATASETS_PER_INSTANCE_MAX, `一个实例最多挂载${DATASETS_PER_INSTANCE_MAX}个共享数据集`)
  .optional()
  .describe('挂载的共享数据集（只读，位于 /root/slg-pub/<名称>；公开数据集总会挂载）');
const imageIdField = text('镜像').min(1, '请选择镜像').max(96, '镜像ID过长');
const nameField = text('实例名称').trim().regex(INSTANCE_NAME_PATTERN, INSTANCE_NAME_MESSAGE);
// Checked against the package's counts where it means something (chargingOf); pay-as-you-go ignores it.
const RENT_AMOUNT_DESCRIPTION = '包日、包周、包月的时长（天、周、月的个数）；按量计费时忽略';
const rentAmountField = z.number({ error: '时长必须是整数' }).int('时长必须是整数').optional().describe(RENT_AMOUNT_DESCRIPTION);
const modeField = z.enum(GPU_MODES, { error: '开机方式必须是 gpu（有卡）或 nogpu（无卡模式）' }).default('gpu');
const statusFilter = z.enum(INSTANCE_STATUSES.map((item) => item.value) as [string, ...string[]], { error: '实例状态不正确' });

const voucherField = z
  .number({ error: '代金券ID必须是整数' })
  .int('代金券ID必须是整数')
  .positive('代金券ID必须是正整数')
  .nullable()
  .optional()
  .describe('代金券：只能用于包日、包周、包月；按量计费不接受');

export const rentalRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const rental = new RentalService(deps);
  const packages = new PackageService(deps);
  const gpuCount = new GpuCountService(deps);
  const ports = new PortService(deps);
  const clones = new CloneService(deps);
  const retention = new RetentionService(deps);
  // Before validation, so a caller without the authority learns nothing about the body's rules.
  const containers = { preValidation: requireAuthority('CONTAINER') };
  const tags = ['容器实例'];

  app.get(
    '/rental',
    {
      ...containers,
      schema: {
        tags,
        summary: '容器实例列表（不含已释放）',
        querystring: pageQuery.extend({ status: statusFilter.optional(), name: text('实例名称').trim().max(64, '实例名称过长').optional() }),
        response: { 200: envelopeOf(pageSchema(instanceViewSchema)), ...errors },
      },
    },
    async (request) => ok(await rental.list(principalOf(request), request.query)),
  );

  app.get(
    '/rental/summary',
    {
      ...containers,
      schema: {
        tags,
        summary: '实例数量（按状态）与运行中实例每小时费用，供总览',
        response: {
          200: envelopeOf(instanceSummarySchema),
          ...errors,
        },
      },
    },
    async (request) => ok(await rental.summary(principalOf(request))),
  );

  app.get(
    '/rental/detail',
    { ...containers, schema: { tags, summary: '单个实例', querystring: z.object({ instanceId: instanceIdField }), response: { 200: envelopeOf(instanceViewSchema), ...errors } } },
    async (request) => ok(await rental.get(principalOf(request), request.query.instanceId)),
  );

  app.get(
    '/rental/events',
    {
      ...containers,
      schema: {
        tags,
        summary: '实例事件（最近100条）',
        querystring: z.object({ instanceId: instanceIdField }),
        response: {
          200: envelopeOf(z.array(instanceEventSchema)),
          ...errors,
        },
      },
    },
    async (request) => ok(await rental.events(principalOf(request), request.query.instanceId)),
  );

  app.post(
    '/rental/prepay',
    {
      ...containers,
      schema: {
        tags,
        summary: '创建前询价：按量计费返回每小时费用与余额需覆盖的金额',
        body: z.object({ hostId: hostIdField, gpuNum: gpuNumField, chargingRuleId: chargingRuleField, rentAmount: rentAmountField, voucherId: voucherField }),
        response: { 200: envelopeOf(prepayResultSchema), ...errors },
      },
    },
    async (request) => ok(await rental.prepay(principalOf(request), request.body)),
  );

  app.post(
    '/rental',
    {
      ...containers,
      schema: {
        tags,
        summary: '创建容器实例（按量计费：余额需覆盖1小时费用；包日、包周、包月：创建时从余额支付，可用代金券；支持 Idempotency-Key）',
        body: z.object({
          hostId: hostIdField,
          gpuNum: gpuNumField,
          imageId: imageIdField,
          chargingRuleId: chargingRuleField,
          rentAmount: rentAmountField,
          name: nameField.optional(),
          voucherId: voucherField,
          autoRenew: z.boolean({ error: 'autoRenew 必须是 true 或 false' }).optional().describe('包日、包周、包月到期时从余额自动续费'),
          datasetIds: datasetIdsField,
        }),
        response: { 200: envelopeOf(createdInstanceSchema), ...errors },
      },
    },
    async (request, reply) => {
      const result = await once(deps, request, reply, async (tx) => ok(await rental.create(tx, principalOf(request), request.body)));
      deps.compute.wake();
      return result;
    },
  );

  app.post(
    '/rental/power_on',
    {
      ...containers,
      schema: {
        tags,
        summary: '开机：gpu 有卡（重新占用GPU，不足时返回 主机GPU不足）或 nogpu 无卡模式',
        body: z.object({ instanceId: instanceIdField, mode: modeField }),
        response: { 200: envelopeOf(instanceViewSchema), ...errors },
      },
    },
    async (request) => ok(await rental.powerOn(principalOf(request), request.body)),
  );

  app.post(
    '/rental/power_off',
    {
      ...containers,
      schema: {
        tags,
        summary: '关机（立即停止计费；按量实例的GPU归还主机，包年包月实例保留GPU）；带 at 时为定时关机',
        body: z.object({
          instanceId: instanceIdField,
          at: z.iso
            .datetime({ offset: true, error: '定时关机时间格式不正确，应为 ISO 8601 时间，如 2026-12-01T22:00:00+08:00' })
            .optional()
            .describe('定时关机时间（ISO 8601）；不传则立即关机'),
        }),
        response: { 200: envelopeOf(instanceViewSchema), ...errors },
      },
    },
    async (request) => ok(await rental.powerOff(principalOf(request), { instanceId: request.body.instanceId, at: request.body.at ? new Date(request.body.at) : undefined })),
  );

  app.delete(
    '/rental/power_off/cancel',
    {
      ...containers,
      schema: { tags, summary: '取消定时关机', querystring: z.object({ instanceId: instanceIdField }), response: { 200: envelopeOf(instanceViewSchema), ...errors } },
    },
    async (request) => ok(await rental.cancelScheduledPowerOff(principalOf(request), request.query.instanceId)),
  );

  const renewBody = z.object({
    instanceIds: z
      .array(instanceIdField, { error: '请选择要续费的实例' })
      .min(1, '请选择要续费的实例')
      .max(MAX_RENEW_BATCH, `一次最多续费${MAX_RENEW_BATCH}台实例`),
    rentAmount: z.number({ error: '请选择续费时长' }).int('续费时长必须是整数').min(1, '续费时长至少为1'),
    voucherId: voucherField,
  });

  app.post(
    '/rental/renew/prepay',
    {
      ...containers,
      schema: {
        tags,
        summary: '续费询价：每台实例按其包日/包周/包月续 rentAmount 个周期，从当前到期时间顺延',
        body: renewBody,
        response: {
          200: envelopeOf(renewPrepaySchema),
          ...errors,
        },
      },
    },
    async (request) => ok(await packages.renewPrepay(principalOf(request), request.body)),
  );

  app.post(
    '/rental/renew',
    {
      ...containers,
      schema: {
        tags,
        summary: '续费（可批量；每台一笔订单，全部成功或全部不变；支持 Idempotency-Key）',
        body: renewBody,
        response: { 200: envelopeOf(renewedSchema), ...errors },
      },
    },
    async (request, reply) => once(deps, request, reply, async (tx) => ok(await packages.renew(tx, principalOf(request), request.body))),
  );

  app.put(
    '/rental/auto_renew',
    {
      ...containers,
      schema: {
        tags,
        summary: '开启或关闭自动续费（包日、包周、包月实例）',
        body: z.object({ instanceId: instanceIdField, autoRenew: z.boolean({ error: 'autoRenew 必须是 true 或 false' }) }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await packages.setAutoRenew(principalOf(request), request.body);
      return ok(null);
    },
  );

  app.put(
    '/rental/update_charging_rule',
    {
      ...containers,
      schema: {
        tags,
        summary: '变更计费方式：包年包月转按量（退回未使用部分，见 /order/preview/refund）或按量转包日/包周/包月（从余额支付）；支持 Idempotency-Key',
        querystring: z.object({
          instanceId: instanceIdField,
          chargingRuleId: z.coerce.number({ error: '计费方式不正确' }).int('计费方式不正确'),
          rentAmount: z.coerce.number({ error: '时长必须是整数' }).int('时长必须是整数').optional().describe(RENT_AMOUNT_DESCRIPTION),
        }),
        response: { 200: envelopeOf(chargingRuleChangedSchema), ...errors },
      },
    },
    async (request, reply) => {
      const result = await once(deps, request, reply, async (tx) => ok(await packages.updateChargingRule(tx, principalOf(request), request.query)));
      deps.compute.wake();
      return result;
    },
  );

  app.get(
    '/order/preview/refund',
    {
      ...containers,
      schema: {
        tags,
        summary: '包年包月转按量的退款预览：已付 − 按量单价 × 已用小时（不足1小时按1小时），不为负，不含代金券部分',
        querystring: z.object({ rentalUid: z.uuid({ error: '租用记录UID格式不正确' }) }),
        response: { 200: envelopeOf(refundPreviewSchema), ...errors },
      },
    },
    async (request) => ok(await packages.refundPreview(principalOf(request), request.query.rentalUid)),
  );

  const cloneBody = z.object({
    instanceId: instanceIdField.describe('源实例（须已关机）'),
    hostId: hostIdField,
    gpuNum: gpuNumField,
    chargingRuleId: chargingRuleField,
    rentAmount: rentAmountField,
    name: nameField.optional(),
    voucherId: voucherField,
    autoRenew: z.boolean({ error: 'autoRenew 必须是 true 或 false' }).optional(),
    copyData: z.boolean({ error: 'copyData 必须是 true 或 false' }).default(false).describe('同时复制数据盘（仅同地区）'),
    releaseSource: z.boolean({ error: 'releaseSource 必须是 true 或 false' }).optional().describe('迁移：新实例运行后释放源实例（须同地区、复制数据盘、按量计费）'),
    datasetIds: datasetIdsField.describe('挂载的共享数据集；不传则沿用源实例的（仍可用的）'),
  });
  const cloneRoutes: { path: string; scope: CloneScope; what: string }[] = [
    { path: '/rental/clone', scope: 'same_region', what: '克隆实例（同地区，可复制数据盘；releaseSource 为迁移）' },
    { path: '/rental/clone/v2', scope: 'any_region', what: '跨地区克隆实例（只复制系统盘）' },
  ];
  for (const route of cloneRoutes) {
    app.post(
      `${route.path}/prepay`,
      { ...containers, schema: { tags, summary: `${route.what}询价`, body: cloneBody, response: { 200: envelopeOf(clonePrepaySchema), ...errors } } },
      async (request) => ok(await clones.prepay(principalOf(request), request.body, route.scope)),
    );
    app.post(
      route.path,
      {
        ...containers,
        schema: { tags, summary: `${route.what}：源实例须已关机，计费同创建（订单类型 CLONE_INSTANCE）；支持 Idempotency-Key`, body: cloneBody, response: { 200: envelopeOf(createdInstanceSchema), ...errors } },
      },
      async (request, reply) => {
        const result = await once(deps, request, reply, async (tx) => ok(await clones.clone(tx, principalOf(request), request.body, route.scope)));
        deps.compute.wake();
        return result;
      },
    );
  }

  app.put(
    '/rental/keep_when_off',
    {
      ...containers,
      schema: {
        tags,
        summary: '保留实例：开启后按量实例关机满15天不自动释放，改为按磁盘容量（系统盘+数据盘）每天从余额付费保留；余额不足时停止保留并释放',
        body: z.object({ instanceId: instanceIdField, keep: z.boolean({ error: 'keep 必须是 true 或 false' }) }),
        response: { 200: envelopeOf(keepWhenOffSchema), ...errors },
      },
    },
    async (request) => ok(await retention.setKeep(principalOf(request), request.body)),
  );

  const gpuCountBody = z.object({ instanceId: instanceIdField, gpuNum: gpuNumField });

  app.post(
    '/rental/change_gpu_num/prepay',
    {
      ...containers,
      schema: { tags, summary: '变更GPU数量询价（实例须已关机）', body: gpuCountBody, response: { 200: envelopeOf(gpuCountQuoteSchema), ...errors } },
    },
    async (request) => ok(await gpuCount.prepay(principalOf(request), request.body)),
  );

  app.post(
    '/rental/change_gpu_num',
    {
      ...containers,
      schema: {
        tags,
        summary: '变更GPU数量（实例须已关机；包年包月实例增加的GPU立即占用并按剩余时长付费，减少的GPU归还主机并退回剩余时长费用；支持 Idempotency-Key）',
        body: gpuCountBody,
        response: { 200: envelopeOf(gpuCountChangedSchema), ...errors },
      },
    },
    async (request, reply) => once(deps, request, reply, async (tx) => ok(await gpuCount.change(tx, principalOf(request), request.body))),
  );

  const portField = z
    .number({ error: (issue) => (issue.input === undefined ? '请填写端口' : '端口必须是整数') })
    .int('端口必须是整数')
    .min(1, '端口范围为1-65535')
    .max(65535, '端口范围为1-65535');
  const protocolField = z.union([z.literal(PORT_PROTOCOLS.http), z.literal(PORT_PROTOCOLS.tcp)], { error: '协议必须是 1（HTTP）或 2（TCP）' });
  const portBody = z.object({ instanceId: instanceIdField, port: portField, protocol: protocolField });

  app.get(
    '/rental/ports',
    {
      ...containers,
      schema: { tags, summary: '实例的自定义服务端口', querystring: z.object({ instanceId: instanceIdField }), response: { 200: envelopeOf(z.array(instancePortSchema)), ...errors } },
    },
    async (request) => ok(await ports.list(principalOf(request), request.query.instanceId)),
  );

  app.post(
    '/rental/map_port',
    {
      ...containers,
      schema: {
        tags,
        summary: '添加自定义服务端口（HTTP=1 经 https 域名访问，TCP=2 经网关端口访问；每实例最多5个，22 为SSH保留），返回访问地址',
        body: portBody,
        response: { 200: envelopeOf(instancePortSchema), ...errors },
      },
    },
    async (request) => ok(await ports.map(principalOf(request), request.body, 'add')),
  );

  app.put(
    '/rental/update_custom_service_protocol',
    {
      ...containers,
      schema: { tags, summary: '修改自定义服务端口的协议，返回新的访问地址', body: portBody, response: { 200: envelopeOf(instancePortSchema), ...errors } },
    },
    async (request) => ok(await ports.map(principalOf(request), request.body, 'update')),
  );

  app.delete(
    '/rental/map_port',
    {
      ...containers,
      schema: {
        tags,
        summary: '删除自定义服务端口',
        querystring: z.object({ instanceId: instanceIdField, port: z.coerce.number({ error: '端口必须是整数' }).pipe(portField) }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await ports.remove(principalOf(request), request.query);
      return ok(null);
    },
  );

  app.post(
    '/rental/update_pwd',
    {
      ...containers,
      schema: {
        tags,
        summary: '修改实例 root 密码（实例运行中）',
        body: z.object({ instanceId: instanceIdField, password: text('密码').regex(ROOT_PASSWORD_PATTERN, ROOT_PASSWORD_MESSAGE) }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      await rental.updatePassword(principalOf(request), request.body);
      return ok(null);
    },
  );

  app.get(
    '/rental/password',
    {
      ...containers,
      schema: { tags, summary: '查看实例 root 密码', querystring: z.object({ instanceId: instanceIdField }), response: { 200: envelopeOf(rootPasswordSchema), ...errors } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await rental.revealPassword(principalOf(request), request.query.instanceId));
    },
  );

  app.put(
    '/rental/name',
    {
      ...containers,
      schema: { tags, summary: '修改实例名称', body: z.object({ instanceId: instanceIdField, name: nameField }), response: { 200: envelopeOf(instanceViewSchema), ...errors } },
    },
    async (request) => ok(await rental.rename(principalOf(request), request.body)),
  );

  app.delete(
    '/rental',
    {
      ...containers,
      schema: {
        tags,
        summary: '释放实例（须已关机；系统盘与数据盘数据将被删除，不可恢复）；elastic=true 释放弹性部署的一个容器',
        querystring: z.object({
          instanceId: instanceIdField,
          rentalId: z.coerce.number({ error: '租用记录ID必须是数字' }).int().positive().optional(),
          elastic: z.enum(['true', 'false'], { error: 'elastic 必须是 true 或 false' }).optional(),
        }),
        response: { 200: emptyEnvelope, ...errors },
      },
    },
    async (request) => {
      // elastic=true: a container of an elastic deployment (the ELASTIC authority's own route is DELETE /elastic/instance).
      if (request.query.elastic === 'true') await new ElasticService(deps).releaseContainer(principalOf(request), request.query.instanceId);
      else await rental.release(principalOf(request), request.query);
      return ok(null);
    },
  );
};
