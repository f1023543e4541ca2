import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FREE_DATA_DISK_GB } from '@slg/shared';
import { diskInfoSchema, diskResizedSchema } from '@slg/shared/views/rental';
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
        response: { 200: envelopeOf(diskInfoSchema), ...errors },
      },
    },
    async (request) => ok(await disks.info(principalOf(request), request.query.instanceId)),
  );

  app.post(
    '/rental/extend_disk',
    {
      ...containers,
      schema: {
        tags,
        summary: `扩容数据盘（运行中或已关机；超出免费 ${FREE_DATA_DISK_GB} GB 的部分按 GB·天按量计费，不预付）`,
        body: resizeBody,
        response: { 200: envelopeOf(diskResizedSchema), ...errors },
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
        response: { 200: envelopeOf(diskResizedSchema), ...errors },
      },
    },
    async (request) => ok(await disks.shrink(principalOf(request), request.body)),
  );
};
