import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { PRIVATE_UPLOAD_MAX_BYTES, PRIVATE_UPLOAD_MESSAGES, PRIVATE_UPLOAD_PURPOSES, type PrivateUploadPurpose } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import { principalOf, requireMainAccount, requireRole } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { AppError } from '../../core/errors.js';
import { uploadViewSchema } from '@slg/shared/views/verification';
import { PrivateUploadService, type PrivateUploadRow } from './service.js';
import { UPLOAD_TEXTS } from './texts.js';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 413: errorEnvelope, 415: errorEnvelope, 429: errorEnvelope };

const uploadIdParams = z.object({
  id: z.coerce.number({ error: '文件ID必须是数字' }).int('文件ID必须是整数').positive('文件ID必须是正整数').max(Number.MAX_SAFE_INTEGER, '文件ID不正确'),
});

const purposeField = z.enum(PRIVATE_UPLOAD_PURPOSES, { error: UPLOAD_TEXTS.purpose });

/** The file's bytes, counted as they arrive: more than the limit is refused without keeping the rest. */
async function readLimited(file: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    // Keep draining (the plugin stops the stream at its own, larger limit) but hold nothing more.
    if (size <= PRIVATE_UPLOAD_MAX_BYTES) chunks.push(bytes);
  }
  if (size > PRIVATE_UPLOAD_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', PRIVATE_UPLOAD_MESSAGES.tooLarge);
  return Buffer.concat(chunks);
}

/** `filename="…"` in ASCII for old clients and `filename*` in UTF-8 for the real (often Chinese) name. */
function dispositionOf(row: PrivateUploadRow): string {
  const ascii = row.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(row.fileName)}`;
}

function sendFile(reply: FastifyReply, row: PrivateUploadRow, content: Readable) {
  return reply
    .type(row.contentType)
    .header('content-length', String(row.sizeBytes))
    .header('content-disposition', dispositionOf(row))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(content);
}

async function readUpload(app: Parameters<FastifyPluginAsyncZod>[0], request: FastifyRequest) {
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', UPLOAD_TEXTS.multipartOnly);
  let purpose: unknown;
  let file: { bytes: Buffer; fileName: string } | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          await readLimited(part.file);
          throw new AppError('VALIDATION', UPLOAD_TEXTS.oneFile);
        }
        file = { bytes: await readLimited(part.file), fileName: part.filename };
      } else if (part.fieldname === 'purpose') {
        purpose = part.value;
      }
    }
  } catch (error) {
    if (error instanceof app.multipartErrors.RequestFileTooLargeError) throw new AppError('PAYLOAD_TOO_LARGE', PRIVATE_UPLOAD_MESSAGES.tooLarge);
    if (error instanceof app.multipartErrors.FilesLimitError) throw new AppError('VALIDATION', UPLOAD_TEXTS.oneFile);
    throw error;
  }
  const parsed = purposeField.safeParse(purpose);
  if (!parsed.success) throw new AppError('VALIDATION', UPLOAD_TEXTS.purpose);
  if (!file) throw new AppError('VALIDATION', UPLOAD_TEXTS.noFile);
  const result: { purpose: PrivateUploadPurpose; bytes: Buffer; fileName: string } = { purpose: parsed.data, ...file };
  return result;
}

/**
 * 证件材料 (POST /user/upload/private): main accounts only. Every purpose of an upload (licence,
 * student card, ID image) feeds a verification, and verification belongs to the main account, so a
 * sub-account has nothing to upload; it would only leave files nobody can use.
 */
export const uploadRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  const uploads = new PrivateUploadService(deps);
  const mainOnly = requireMainAccount(UPLOAD_TEXTS.mainAccountOnly);
  const tags = ['实名认证'];

  app.post(
    '/user/upload/private',
    {
      preValidation: mainOnly,
      config: { sessionOnly: true },
      schema: {
        tags,
        summary: `上传认证材料：multipart 字段 purpose（LICENCE / STUDENT_CARD / ID_CARD）与 file（JPG、PNG 或 PDF，≤${PRIVATE_UPLOAD_MAX_BYTES / 1024 / 1024}MB）`,
        consumes: ['multipart/form-data'],
        response: { 200: envelopeOf(uploadViewSchema), ...errors },
      },
    },
    async (request) => {
      const input = await readUpload(app, request);
      const view = await uploads.upload(principalOf(request), input);
      return ok({ ...view, purpose: input.purpose });
    },
  );

  app.get(
    '/user/upload/private/:id',
    {
      preValidation: mainOnly,
      schema: { tags, summary: '读取自己上传的认证材料（仅上传账号本人；不缓存）', params: uploadIdParams },
    },
    async (request, reply) => {
      const { row, content } = await uploads.open(principalOf(request), request.params.id);
      return sendFile(reply, row, content);
    },
  );

  app.get(
    '/admin/uploads/:id',
    {
      preValidation: requireRole('operator'),
      schema: { tags: ['运营'], summary: '查看认证材料（运营审核用；每次查看记入审计日志）', params: uploadIdParams },
    },
    async (request, reply) => {
      const { row, content } = await uploads.openForOperator(principalOf(request).userId, request.params.id);
      return sendFile(reply, row, content);
    },
  );
};
