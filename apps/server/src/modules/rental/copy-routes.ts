import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { COPY_PATH_MAX, DATA_DISK_MOUNT_PATH } from '@slg/shared';
import { copyTaskSchema } from '@slg/shared/views/rental';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { text } from '../../http/fields.js';
import { COPY_HISTORY_LIMIT, CopyDataService } from './copy-data.js';
import { instanceIdField } from './routes.js';

/** A task's uid as `POST /rental/copy_data` answered it. */
const TASK_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope, 503: errorEnvelope };

/** 跨实例拷贝: copy a data disk path between two of the caller's instances in one region (docs/api-compute.md). */
export const copyRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const copies = new CopyDataService(deps);
  const containers = { preValidation: requireAuthority('CONTAINER') };
  const tags = ['容器实例'];

  app.post(
    '/rental/copy_data',
    {
      ...containers,
      schema: {
        tags,
        summary: '跨实例拷贝数据（同一地区；拷贝到目标实例的相同路径，覆盖同名文件）',
        body: z.object({
          fromInstanceId: instanceIdField.describe('源实例'),
          toInstanceId: instanceIdField.describe('目标实例（同一地区）'),
          path: text('路径')
            .max(COPY_PATH_MAX, `路径最长 ${COPY_PATH_MAX} 个字符`)
            .default(DATA_DISK_MOUNT_PATH)
            .describe(`数据盘中的绝对路径（数据盘挂载在 ${DATA_DISK_MOUNT_PATH}），默认整个数据盘`),
        }),
        response: { 200: envelopeOf(copyTaskSchema), ...errors },
      },
    },
    async (request) => ok(await copies.start(principalOf(request), request.body)),
  );

  app.get(
    '/rental/copy_data',
    {
      ...containers,
      schema: {
        tags,
        summary: `实例最近的拷贝任务（作为源或目标，最新在前，最多 ${COPY_HISTORY_LIMIT} 条）`,
        querystring: z.object({ instanceId: instanceIdField }),
        response: { 200: envelopeOf(z.array(copyTaskSchema)), ...errors },
      },
    },
    async (request) => ok(await copies.list(principalOf(request), request.query.instanceId)),
  );

  app.delete(
    '/rental/copy_data',
    {
      ...containers,
      schema: {
        tags,
        summary: '取消正在进行的跨实例拷贝（已拷贝的部分保留在目标实例上，未拷贝的不再拷贝；已结束的任务返回 409）',
        querystring: z.object({ taskId: text('拷贝任务ID').regex(TASK_ID_PATTERN, '拷贝任务ID格式不正确') }),
        response: { 200: envelopeOf(copyTaskSchema), ...errors },
      },
    },
    async (request) => ok(await copies.cancel(principalOf(request), request.query.taskId.toLowerCase())),
  );
};
