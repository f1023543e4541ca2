import { Readable } from 'node:stream';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorCodes, FILE_STORAGE_MAX_QUOTA_GB, LISTING_DEFAULT_PAGE_SIZE, LISTING_MAX_PAGE_SIZE } from '@slg/shared';
import { AppError } from '../../core/errors.js';
import { fileStorageSchema, storageEntrySchema, storageListingSchema } from '@slg/shared/views/storage';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { emptyEnvelope, envelopeOf, errorEnvelope, failure, ok } from '../../http/envelope.js';
import { text } from '../../http/fields.js';
import { pathProblem, type PathUse } from './paths.js';
import { FileStorageService, MAX_UPLOAD_BYTES, type ListingPage } from './service.js';
import { TUS_ID_PATTERN, TusUploads } from './tus.js';
import { DOWNLOAD_LINK_SECONDS, signDownload, verifyDownload, type DownloadTarget } from './download-links.js';
import { linkedDatasetDownload } from '../datasets/service.js';

export const storageErrors = {
  400: errorEnvelope,
  401: errorEnvelope,
  403: errorEnvelope,
  404: errorEnvelope,
  409: errorEnvelope,
  413: errorEnvelope,
  415: errorEnvelope,
  429: errorEnvelope,
  503: errorEnvelope,
};

/** Optional paging of a listing: with `page` or `pageSize` only that page is listed (and stated). */
export const listingPageQuery = z.object({
  page: z.coerce.number({ error: '页码必须是数字' }).int('页码必须是整数').min(1, '页码从1开始').optional(),
  pageSize: z.coerce.number({ error: '每页条数必须是数字' }).int('每页条数必须是整数').min(1, '每页条数至少为1').max(LISTING_MAX_PAGE_SIZE, `每页条数不能超过${LISTING_MAX_PAGE_SIZE}`).optional(),
  name: text('名称').max(255, '名称过长').optional().describe('分页时只列出名称中含有它的条目（不区分大小写）'),
});

/** The paging a listing query asks for, if any. */
export function listingPageOf(query: z.infer<typeof listingPageQuery>): ListingPage | undefined {
  if (query.page === undefined && query.pageSize === undefined) return undefined;
  return { page: query.page ?? 1, pageSize: query.pageSize ?? LISTING_DEFAULT_PAGE_SIZE, name: query.name?.trim() };
}

export const zoneIdField = text('地区').regex(/^[a-z0-9][a-z0-9-]{0,31}$/, '地区ID格式不正确');

/** A store path (see paths.ts): its rules checked here, so bad paths are refused at validation. */
export function pathField(label: string, use: PathUse) {
  return text(label)
    .max(8192, `${label}过长`)
    .superRefine((value, context) => {
      const problem = pathProblem(value, use);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .describe(`${label}：相对存储根目录，以 / 分隔，如 /data/a.txt（开头的 / 表示存储根目录）`);
}

const quotaField = z
  .number({ error: '配额必须是整数（GB）' })
  .int('配额必须是整数（GB）')
  .min(1, `配额为 1–${FILE_STORAGE_MAX_QUOTA_GB} GB`)
  .max(FILE_STORAGE_MAX_QUOTA_GB, `配额为 1–${FILE_STORAGE_MAX_QUOTA_GB} GB`);

const tusVersionField = z.literal('1.0.0', { error: '缺少 Tus-Resumable 请求头或版本不受支持（本服务支持 tus 1.0.0）' });
const byteCount = (label: string) => z.string({ error: `缺少 ${label} 请求头` }).regex(/^\d{1,16}$/, `${label} 必须是非负整数（字节）`);
const tusIdParams = z.object({ id: text('上传ID').regex(TUS_ID_PATTERN, '上传ID格式不正确') });

/** RFC 6266 / 5987: an ASCII fallback for old clients and the real (often Chinese) name in UTF-8. */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*!]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * `Range: bytes=a-b` (one range; `a-`, `-n` too) of a file of `size` bytes: the bytes to send, or
 * 'unsatisfiable' (416), or null to send the whole file (no range, several ranges, or one malformed,
 * which RFC 9110 says to ignore).
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/**
 * Sends an opened file as a download: attachment, nosniff, no caching, ETag and Last-Modified, one
 * byte range (206; 416 beyond the end; `If-Range` with another ETag sends the whole file).
 */
export async function sendDownload(request: FastifyRequest, reply: FastifyReply, opened: { handle: FileHandle; stats: Stats; name: string }): Promise<FastifyReply> {
  const { handle, stats, name } = opened;
  try {
    const etag = `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
    const ifRange = request.headers['if-range'];
    const range = ifRange === undefined || ifRange === etag ? parseRange(request.headers.range, stats.size) : null;
    void reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', attachmentDisposition(name))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('last-modified', stats.mtime.toUTCString());
    if (range === 'unsatisfiable') {
      await handle.close();
      return reply
        .status(416)
        .header('content-range', `bytes */${stats.size}`)
        .type('application/json; charset=utf-8')
        .send(failure(ErrorCodes.VALIDATION.code, `请求的范围超出文件大小（${stats.size} 字节）`));
    }
    if (range) {
      void reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${stats.size}`).header('content-length', String(range.end - range.start + 1));
      return reply.send(handle.createReadStream({ start: range.start, end: range.end }));
    }
    void reply.header('content-length', String(stats.size));
    return reply.send(stats.size === 0 ? (await handle.close(), Buffer.alloc(0)) : handle.createReadStream());
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

export const DOWNLOAD_LINK_INVALID = '下载链接无效或已过期，请回到页面重新下载';

export const downloadLinkSchema = z.object({ url: z.string().describe('下载地址（相对本站）'), expiresAt: z.string() });

/** A signed link to a file, as the API answers it. */
export function downloadLink(deps: AppDeps, target: DownloadTarget): z.infer<typeof downloadLinkSchema> {
  const { token, expiresAt } = signDownload(deps.config.jwtSecret, target, deps.now());
  return { url: `/api/v1/storage/download?token=${token}`, expiresAt: expiresAt.toISOString() };
}

/** The request body as the raw scope's parser left it: the stream (an empty one when no body came). */
function bodyStream(body: unknown): Readable {
  return body instanceof Readable ? body : Readable.from([]);
}

export const storageRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const storage = new FileStorageService(deps);
  const uploads = new TusUploads(deps, storage);
  const guarded = { preValidation: requireAuthority('FILE_STORAGE') };
  const tags = ['文件存储'];
  // Uploads come in many requests (a folder of files, 16 MB tus chunks): their own, larger budget.
  const uploadLimit = { rateLimit: { max: deps.config.rateLimitPerMinute * 10, timeWindow: '1 minute' } };

  app.get(
    '/storage',
    { ...guarded, schema: { tags, summary: '某地区的文件存储：是否已初始化、用量、配额、价格', querystring: z.object({ zoneId: zoneIdField }), response: { 200: envelopeOf(fileStorageSchema), ...storageErrors } } },
    async (request) => ok(await storage.view(principalOf(request), request.query.zoneId)),
  );

  app.get(
    '/storage/list',
    { ...guarded, schema: { tags, summary: '每个开放地区的文件存储（含未初始化的地区），用于切换地区', response: { 200: envelopeOf(z.array(fileStorageSchema)), ...storageErrors } } },
    async (request) => ok(await storage.list(principalOf(request))),
  );

  app.post(
    '/storage/init',
    {
      ...guarded,
      schema: {
        tags,
        summary: '初始化某地区的文件存储（免费，订单 NEW_STORAGE；已初始化时返回现有存储）：该地区的实例与容器在 /root/slg-fs 看到它',
        body: z.object({ zoneId: zoneIdField }),
        response: { 200: envelopeOf(fileStorageSchema), ...storageErrors },
      },
    },
    async (request) => ok(await storage.init(principalOf(request), request.body.zoneId)),
  );

  app.put(
    '/storage/quota',
    {
      ...guarded,
      schema: {
        tags,
        summary: `设置配额（1–${FILE_STORAGE_MAX_QUOTA_GB} GB，不能低于已用容量）：超过配额的上传在写入前被拒绝`,
        body: z.object({ zoneId: zoneIdField, quotaGb: quotaField }),
        response: { 200: envelopeOf(fileStorageSchema), ...storageErrors },
      },
    },
    async (request) => ok(await storage.setQuota(principalOf(request), request.body.zoneId, request.body.quotaGb)),
  );

  app.get(
    '/storage/files',
    {
      ...guarded,
      schema: {
        tags,
        summary: '列出文件夹：文件夹在前，再按名称排序（给出 page 或 pageSize 时分页）',
        querystring: listingPageQuery.extend({ zoneId: zoneIdField, path: pathField('路径', 'existing').default('/') }),
        response: { 200: envelopeOf(storageListingSchema), ...storageErrors },
      },
    },
    async (request) => ok(await storage.listFiles(principalOf(request), request.query.zoneId, request.query.path, listingPageOf(request.query))),
  );

  app.post(
    '/storage/dir',
    {
      ...guarded,
      schema: {
        tags,
        summary: '新建文件夹（缺少的上级文件夹一并创建；同名已存在时 40026）',
        body: z.object({ zoneId: zoneIdField, path: pathField('文件夹路径', 'create') }),
        response: { 200: envelopeOf(storageEntrySchema), ...storageErrors },
      },
    },
    async (request) => ok(await storage.makeDir(principalOf(request), request.body.zoneId, request.body.path)),
  );

  app.put(
    '/storage/rename',
    {
      ...guarded,
      schema: {
        tags,
        summary: '重命名或移动文件、文件夹（目标文件夹须已存在；目标已存在时 40026）',
        body: z.object({ zoneId: zoneIdField, from: pathField('原路径', 'existing'), to: pathField('新路径', 'create') }),
        response: { 200: emptyEnvelope, ...storageErrors },
      },
    },
    async (request) => {
      await storage.rename(principalOf(request), request.body.zoneId, request.body.from, request.body.to);
      return ok(null);
    },
  );

  app.delete(
    '/storage/files',
    {
      ...guarded,
      schema: {
        tags,
        summary: '删除文件或文件夹（连同其中全部内容；符号链接只删除链接本身；不能删除根目录）',
        querystring: z.object({ zoneId: zoneIdField, path: pathField('路径', 'existing') }),
        response: { 200: emptyEnvelope, ...storageErrors },
      },
    },
    async (request) => {
      await storage.remove(principalOf(request), request.query.zoneId, request.query.path);
      return ok(null);
    },
  );

  app.get(
    '/storage/file',
    {
      ...guarded,
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: '下载文件（支持 Range 断点续传；Content-Disposition: attachment）',
        querystring: z.object({ zoneId: zoneIdField, path: pathField('文件路径', 'existing') }),
      },
    },
    async (request, reply) => sendDownload(request, reply, await storage.openDownload(principalOf(request), request.query.zoneId, request.query.path)),
  );

  app.post(
    '/storage/download-url',
    {
      ...guarded,
      schema: {
        tags,
        summary: `下载链接：浏览器直接下载（支持断点续传），${DOWNLOAD_LINK_SECONDS / 60} 分钟内有效`,
        body: z.object({ zoneId: zoneIdField, path: pathField('文件路径', 'existing') }),
        response: { 200: envelopeOf(downloadLinkSchema), ...storageErrors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      // Refused now (a folder, a missing file) rather than when the browser follows the link.
      const opened = await storage.openDownload(principal, request.body.zoneId, request.body.path);
      await opened.handle.close();
      return ok(downloadLink(deps, { kind: 'store', ownerId: principal.ownerId, zoneId: request.body.zoneId, path: request.body.path }));
    },
  );

  app.get(
    '/storage/download',
    {
      config: { public: true },
      exposeHeadRoute: false,
      schema: { tags, summary: '按下载链接下载文件（链接由 download-url 给出，无需登录）', querystring: z.object({ token: text('下载链接').max(4096, '下载链接无效') }) },
    },
    async (request, reply) => {
      const target = verifyDownload(deps.config.jwtSecret, request.query.token, deps.now());
      if (!target) throw new AppError('NOT_FOUND', DOWNLOAD_LINK_INVALID);
      if (target.kind === 'store') return sendDownload(request, reply, await storage.openLinkedDownload(target.ownerId, target.zoneId, target.path));
      return sendDownload(request, reply, await linkedDatasetDownload(deps, target.datasetId, target.viewerOwnerId, target.path));
    },
  );

  // Raw bodies: PUT /storage/file and tus. Every content type is passed on unread as the request
  // stream (the file's bytes are whatever they are), so no body limit or parser applies here.
  await app.register(async (scope) => {
    const raw = scope.withTypeProvider<ZodTypeProvider>();
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    raw.put(
      '/storage/file',
      {
        ...guarded,
        config: uploadLimit,
        schema: {
          tags,
          summary: '上传文件（请求体即文件内容，Content-Type: application/octet-stream，必须带 Content-Length；同名文件被替换，缺少的文件夹自动创建；超过配额时在写入前拒绝）',
          consumes: ['application/octet-stream'],
          querystring: z.object({ zoneId: zoneIdField, path: pathField('文件路径', 'create') }),
          headers: z.looseObject({ 'content-length': byteCount('Content-Length') }),
          response: { 200: envelopeOf(storageEntrySchema), ...storageErrors },
        },
      },
      async (request) => {
        const length = Number(request.headers['content-length']);
        if (length > MAX_UPLOAD_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', '单个文件最大 2 TB');
        return ok(await storage.upload(principalOf(request), request.query.zoneId, request.query.path, length, bodyStream(request.body)));
      },
    );

    const tusHeaders = { 'tus-resumable': tusVersionField };
    raw.post(
      '/storage/tus',
      {
        ...guarded,
        config: uploadLimit,
        schema: {
          tags,
          summary: 'tus 1.0.0：创建上传。Upload-Length 为文件大小，Upload-Metadata 带 zoneId、path（目标文件夹）、filename；超过配额时 413。成功 201，Location 为上传地址',
          headers: z.looseObject({
            ...tusHeaders,
            'upload-length': byteCount('Upload-Length'),
            'upload-metadata': text('Upload-Metadata').max(16_384, 'Upload-Metadata 过长').optional(),
            'upload-defer-length': z.never({ error: '不支持延后声明文件大小（Upload-Defer-Length），请给出 Upload-Length' }).optional(),
            'upload-concat': z.never({ error: '不支持并行分段上传（Upload-Concat）' }).optional(),
          }),
          response: { 201: z.null().describe('已创建，Location 为上传地址'), ...storageErrors },
        },
      },
      async (request, reply) => {
        const length = Number(request.headers['upload-length']);
        if (length > MAX_UPLOAD_BYTES) return reply.status(413).send(failure(ErrorCodes.PAYLOAD_TOO_LARGE.code, '单个文件最大 2 TB'));
        return uploads.create(request, reply, principalOf(request), length, request.headers['upload-metadata']);
      },
    );

    raw.head(
      '/storage/tus/:id',
      { ...guarded, config: uploadLimit, schema: { tags, summary: 'tus：查询已上传的字节数（Upload-Offset）以便续传', params: tusIdParams, headers: z.looseObject(tusHeaders) } },
      async (request, reply) => uploads.offset(request, reply, principalOf(request), request.params.id),
    );

    raw.patch(
      '/storage/tus/:id',
      {
        ...guarded,
        config: uploadLimit,
        schema: {
          tags,
          summary: 'tus：从 Upload-Offset 处继续上传（Content-Type: application/offset+octet-stream）；最后一块到达时文件移入目标文件夹（同名文件被替换）',
          params: tusIdParams,
          headers: z.looseObject({ ...tusHeaders, 'upload-offset': byteCount('Upload-Offset') }),
          response: { 204: z.null().describe('已写入，Upload-Offset 为新的偏移量'), ...storageErrors },
        },
      },
      async (request, reply) => uploads.append(request, reply, principalOf(request), request.params.id),
    );

    raw.delete(
      '/storage/tus/:id',
      {
        ...guarded,
        config: uploadLimit,
        schema: {
          tags,
          summary: 'tus：放弃一个未完成的上传（已预留的配额归还）',
          params: tusIdParams,
          headers: z.looseObject(tusHeaders),
          response: { 204: z.null().describe('已放弃'), ...storageErrors },
        },
      },
      async (request, reply) => uploads.terminate(request, reply, principalOf(request), request.params.id),
    );
  });
};
