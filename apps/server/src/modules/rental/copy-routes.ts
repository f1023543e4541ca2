import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { COPY_PATH_MAX, DATA_DISK_MOUNT_PATH } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { text } from '../../http/fields.js';
import { COPY_HISTORY_LIMIT, CopyDataService } from './copy-data.js';
import { instanceIdField } from './routes.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, 429: errorEnvelope, 503: errorEnvelope };

const copyTaskView = z.object({
  taskId: z.string().describe('拷贝任务ID'),
  role: z.enum(['source', 'target']).describe('所查询的实例在此任务中是源（source）还是目标（target）'),
  fromInstanceId: z.string(),
  fromInstanceName: z.string(),
  toInstanceId: z.string(),
  toInstanceName: z.string(),
  peerInstanceId: z.string().describe('另一端实例的ID'),
  peerInstanceName: z.string(),
  path: z.string().describe('拷贝的路径；数据拷贝到目标实例的相同路径'),
  status: z.enum(['running', 'done', 'failed']).describe('running 拷贝中、done 已完成、failed 失败'),
  statusReason: z.string().nullable().describe('失败原因'),
  progress: z.number().int().describe('进度 0–100'),
  totalGb: z.number().describe('需拷贝的数据量（GB），开始后可知'),
  copiedGb: z.number().describe('已拷贝（GB）'),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});

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
        response: { 200: envelopeOf(copyTaskView), ...errors },
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
        response: { 200: envelopeOf(z.array(copyTaskView)), ...errors },
      },
    },
    async (request) => ok(await copies.list(principalOf(request), request.query.instanceId)),
  );
};
