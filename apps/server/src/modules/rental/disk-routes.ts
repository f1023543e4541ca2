import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FREE_DATA_DISK_GB } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { DiskService } from './disks.js';
import { instanceIdField } from './routes.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope, 503: errorEnvelope };

/** Far above any host's limit; the host's own maximum is checked by the service. */
const SIZE_CEILING_GB = 100_000;

const sizeField = z
  .number({ error: (issue) => (issue.input === undefined ? '请输入数据盘容量' : '数据盘容量必须是整数（GB）') })
  .int('数据盘容量必须是整数（GB）')
  .min(FREE_DATA_DISK_GB, `数据盘最小 ${FREE_DATA_DISK_GB} GB（免费容量）`)
  .max(SIZE_CEILING_GB, '数据盘容量过大')
  .describe('调整后的数据盘总容量（GB），不是增减量');

const resizeBody = z.object({ instanceId: instanceIdField, sizeGb: sizeField });

const diskInfo = z.object({
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

/** 扩容设置: the data disk's size and price, and its extend and shrink (docs/api-compute.md). */
export const diskRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const disks = new DiskService(deps);
  const containers = { preValidation: requireAuthority('CONTAINER') };
  const tags = ['容器实例'];

  app.get(
    '/rental/disk',
    {
      ...containers,
      schema: {
        tags,
        summary: '数据盘容量、使用量与扩容价格',
        querystring: z.object({ instanceId: instanceIdField }),
        response: { 200: envelopeOf(diskInfo), ...errors },
      },
    },
    async (request) => ok(await disks.info(principalOf(request), request.query.instanceId)),
  );

  const resized = diskInfo.extend({ orderId: z.string().nullable().describe('首次超出免费容量时开立的数据盘扩容按量订单号') });

  app.post(
    '/rental/extend_disk',
    {
      ...containers,
      schema: {
        tags,
        summary: `扩容数据盘（运行中或已关机；超出免费 ${FREE_DATA_DISK_GB} GB 的部分按 GB·天按量计费，不预付）`,
        body: resizeBody,
        response: { 200: envelopeOf(resized), ...errors },
      },
    },
    async (request) => ok(await disks.extend(principalOf(request), request.body)),
  );

  app.post(
    '/rental/shrink_disk',
    {
      ...containers,
      schema: {
        tags,
        summary: `缩容数据盘（须已关机；不能小于已使用量和免费的 ${FREE_DATA_DISK_GB} GB）`,
        body: resizeBody,
        response: { 200: envelopeOf(resized), ...errors },
      },
    },
    async (request) => ok(await disks.shrink(principalOf(request), request.body)),
  );
};
