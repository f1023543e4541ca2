import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DATASET_DESCRIPTION_MAX,
  DATASET_LICENSES,
  DATASET_NAME_MESSAGE,
  DATASET_NAME_PATTERN,
  DATASET_STATUSES,
  DATASET_TAG_MAX,
  DATASET_TAGS_MAX,
} from '@slg/shared';
import { adminDatasetSchema, createdDatasetSchema, datasetSchema } from '@slg/shared/views/datasets';
import { storageListingSchema } from '@slg/shared/views/storage';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority, requireRole } from '../../http/auth.js';
import { emptyEnvelope, envelopeOf, ok } from '../../http/envelope.js';
import { text } from '../../http/fields.js';
import { pageQuery, pageSchema } from '../../http/pagination.js';
import { downloadLink, downloadLinkSchema, listingPageOf, listingPageQuery, pathField, sendDownload, storageErrors as errors, zoneIdField } from '../storage/routes.js';
import { DatasetService } from './service.js';

const nameField = text('数据集名称').trim().regex(DATASET_NAME_PATTERN, DATASET_NAME_MESSAGE);
const descriptionField = text('描述').trim().max(DATASET_DESCRIPTION_MAX, `描述不能超过${DATASET_DESCRIPTION_MAX}个字符`);
const tagsField = z
  .array(text('标签').trim().min(1, '标签不能为空').max(DATASET_TAG_MAX, `每个标签最多${DATASET_TAG_MAX}个字符`), { error: '标签必须是字符串数组' })
  .max(DATASET_TAGS_MAX, `最多${DATASET_TAGS_MAX}个标签`)
  .transform((tags) => [...new Set(tags)]);
const licenseField = z.enum(DATASET_LICENSES, { error: `许可协议必须是 ${DATASET_LICENSES.join('、')} 之一` });
const idParams = z.object({ id: z.coerce.number({ error: '数据集ID必须是整数' }).int('数据集ID必须是整数').positive('数据集ID不正确') });
const searchQuery = pageQuery.extend({ name: text('名称').trim().max(64, '名称过长').optional() });

/** The viewer of a route open to everyone: the signed-in caller, or null. */
const viewerOf = (request: { principal: ReturnType<typeof principalOf> | null }) => request.principal;

export const datasetRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const service = new DatasetService(deps);
  const sharing = { preValidation: requireAuthority('FILE_STORAGE') };
  const signedIn = { config: { access: 'account' as const } };
  const open = { config: { public: true } };
  const tags = ['数据集'];

  app.get(
    '/public-data/list',
    { ...open, schema: { tags, summary: '公开数据集（挂载在每个实例的 /root/slg-pub/<名称>）', querystring: searchQuery, response: { 200: envelopeOf(pageSchema(datasetSchema)), ...errors } } },
    async (request) => ok(await service.listPublic(viewerOf(request), request.query)),
  );

  app.get(
    '/share-data/list',
    {
      ...open,
      schema: {
        tags,
        summary: '已通过审核的共享数据集，最新的在前',
        querystring: searchQuery.extend({ tag: text('标签').trim().max(DATASET_TAG_MAX, '标签过长').optional() }),
        response: { 200: envelopeOf(pageSchema(datasetSchema)), ...errors },
      },
    },
    async (request) => ok(await service.listShared(viewerOf(request), request.query)),
  );

  app.get(
    '/share-data/list/me',
    {
      ...sharing,
      schema: {
        tags,
        summary: '我共享的数据集（全部状态，含未通过的原因）',
        querystring: pageQuery.extend({ status: z.enum(DATASET_STATUSES, { error: '状态必须是 IN_REVIEW、PASS 或 REJECTED' }).optional() }),
        response: { 200: envelopeOf(pageSchema(datasetSchema)), ...errors },
      },
    },
    async (request) => ok(await service.listMine(principalOf(request), request.query)),
  );

  app.get(
    '/share-data/favorites',
    { ...signedIn, schema: { tags, summary: '我收藏的数据集', querystring: pageQuery, response: { 200: envelopeOf(pageSchema(datasetSchema)), ...errors } } },
    async (request) => ok(await service.listFavorites(principalOf(request), request.query)),
  );

  app.post(
    '/share-data/favorites/:id',
    { ...signedIn, schema: { tags, summary: '收藏数据集（重复收藏无影响；只能收藏公开或已通过审核的）', params: idParams, response: { 200: envelopeOf(datasetSchema), ...errors } } },
    async (request) => ok(await service.favorite(principalOf(request), request.params.id)),
  );

  app.delete(
    '/share-data/favorites/:id',
    { ...signedIn, schema: { tags, summary: '取消收藏（未收藏时无影响）', params: idParams, response: { 200: envelopeOf(datasetSchema), ...errors } } },
    async (request) => ok(await service.unfavorite(principalOf(request), request.params.id)),
  );

  app.get(
    '/share-data/:id',
    { ...open, schema: { tags, summary: '一个数据集（公开的、已通过审核的或自己的）', params: idParams, response: { 200: envelopeOf(datasetSchema), ...errors } } },
    async (request) => ok(await service.get(viewerOf(request), request.params.id)),
  );

  app.post(
    '/share-data',
    {
      ...sharing,
      schema: {
        tags,
        summary: '把文件存储中的文件夹共享为数据集（复制为快照，之后对文件夹的修改不影响数据集），提交审核',
        body: z.object({
          name: nameField,
          description: descriptionField,
          zoneId: zoneIdField,
          path: pathField('文件夹路径', 'existing'),
          tags: tagsField.optional(),
          license: licenseField.optional(),
        }),
        response: { 200: envelopeOf(createdDatasetSchema), ...errors },
      },
    },
    async (request) => ok(await service.share(principalOf(request), request.body)),
  );

  app.put(
    '/share-data/:id',
    {
      ...sharing,
      schema: {
        tags,
        summary: '修改共享数据集（修改后重新审核；给出 path 时重新复制文件夹）',
        params: idParams,
        body: z.object({
          name: nameField.optional(),
          description: descriptionField.optional(),
          zoneId: zoneIdField.optional(),
          path: pathField('文件夹路径', 'existing').optional(),
          tags: tagsField.optional(),
          license: licenseField.optional(),
        }),
        response: { 200: envelopeOf(datasetSchema), ...errors },
      },
    },
    async (request) => ok(await service.update(principalOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/share-data/:id',
    { ...sharing, schema: { tags, summary: '删除共享数据集（已挂载它的实例在下次关机后失去它）', params: idParams, response: { 200: emptyEnvelope, ...errors } } },
    async (request) => {
      await service.remove(principalOf(request), request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/datasets/:id/files',
    {
      ...open,
      schema: {
        tags,
        summary: '列出数据集中的文件夹',
        params: idParams,
        querystring: listingPageQuery.extend({ path: pathField('路径', 'existing').default('/') }),
        response: { 200: envelopeOf(storageListingSchema), ...errors },
      },
    },
    async (request) => ok(await service.listFiles(viewerOf(request), request.params.id, request.query.path, listingPageOf(request.query))),
  );

  app.get(
    '/datasets/:id/file',
    {
      ...open,
      exposeHeadRoute: false,
      schema: { tags, summary: '下载数据集中的文件（支持 Range）', params: idParams, querystring: z.object({ path: pathField('文件路径', 'existing') }) },
    },
    async (request, reply) => sendDownload(request, reply, await service.openDownload(viewerOf(request), request.params.id, request.query.path)),
  );

  app.post(
    '/datasets/:id/download-url',
    {
      ...open,
      schema: {
        tags,
        summary: '数据集文件的下载链接（浏览器直接下载，支持断点续传，5 分钟内有效）',
        params: idParams,
        body: z.object({ path: pathField('文件路径', 'existing') }),
        response: { 200: envelopeOf(downloadLinkSchema), ...errors },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const opened = await service.openDownload(viewer, request.params.id, request.body.path);
      await opened.handle.close();
      return ok(downloadLink(deps, { kind: 'dataset', datasetId: request.params.id, viewerOwnerId: viewer?.ownerId ?? null, path: request.body.path }));
    },
  );

  // ── Operator ──────────────────────────────────────────────────────────────
  const operator = { preValidation: requireRole('operator') };
  const adminTags = ['运营'];

  app.get(
    '/admin/share-data',
    {
      ...operator,
      schema: {
        tags: adminTags,
        summary: '共享数据集审核队列（默认待审核，最早提交的在前）',
        querystring: pageQuery.extend({ status: z.enum(DATASET_STATUSES, { error: '状态必须是 IN_REVIEW、PASS 或 REJECTED' }).default('IN_REVIEW') }),
        response: { 200: envelopeOf(pageSchema(adminDatasetSchema)), ...errors },
      },
    },
    async (request) => ok(await service.reviewQueue(request.query)),
  );

  app.post(
    '/admin/share-data/:id/approve',
    { ...operator, schema: { tags: adminTags, summary: '通过共享数据集的审核（所有用户可见）', params: idParams, response: { 200: envelopeOf(adminDatasetSchema), ...errors } } },
    async (request) => ok(await service.review(deps.database.db, principalOf(request).userId, request.params.id, { pass: true })),
  );

  app.post(
    '/admin/share-data/:id/reject',
    {
      ...operator,
      schema: {
        tags: adminTags,
        summary: '驳回共享数据集（原因只给共享者看）',
        params: idParams,
        body: z.object({ reason: text('驳回原因').trim().min(1, '请填写驳回原因').max(200, '驳回原因不能超过200个字符') }),
        response: { 200: envelopeOf(adminDatasetSchema), ...errors },
      },
    },
    async (request) => ok(await service.review(deps.database.db, principalOf(request).userId, request.params.id, { pass: false, reason: request.body.reason })),
  );

  app.post(
    '/admin/public-data',
    {
      ...operator,
      schema: {
        tags: adminTags,
        summary: '把存储后端 .public/<名称> 文件夹发布为公开数据集',
        body: z.object({ name: nameField, description: descriptionField, tags: tagsField.optional(), license: licenseField.optional() }),
        response: { 200: envelopeOf(datasetSchema), ...errors },
      },
    },
    async (request) => ok(await service.publish(deps.database.db, principalOf(request).userId, request.body)),
  );

  app.delete(
    '/admin/public-data/:id',
    { ...operator, schema: { tags: adminTags, summary: '下架公开数据集（实例在下次开机时不再挂载）', params: idParams, response: { 200: emptyEnvelope, ...errors } } },
    async (request) => {
      await service.withdraw(deps.database.db, principalOf(request).userId, request.params.id);
      return ok(null);
    },
  );
};
