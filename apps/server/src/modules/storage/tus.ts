import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, isNull } from 'drizzle-orm';
import { ErrorCodes, type ErrorCodeName } from '@slg/shared';
import { ERRORS, Server } from '@tus/server';
import { FileStore } from '@tus/file-store';
import type { AppDeps } from '../../deps.js';
import { fileStorages } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { failure } from '../../http/envelope.js';
import { formatStorePath, parseStorePath } from './paths.js';
import { stagingDirs, WRITES_BLOCKED_MESSAGE, type Reservation } from './quota.js';
import { MAX_UPLOAD_BYTES, type FileStorageService, type UploadTarget } from './service.js';

/**
 * The request body as the web stream `handleWeb` takes, passing the socket's chunks on as they are:
 * `Readable.toWeb` copies every chunk and pauses the socket at each 16 KiB (1 GiB cost seconds of
 * garbage collection). Pulled one chunk at a time; an aborted request errors the stream.
 */
function webBodyOf(stream: Readable): ReadableStream<Uint8Array> {
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/** What the store gathers before a write: the body arrives in 64 KiB pieces, and a write per piece costs more than copying them. */
const WRITE_BATCH_BYTES = 8 * 1024 ** 2;

/**
 * @tus/file-store, writing a PATCH's bytes in WRITE_BATCH_BYTES writes at their offset (its own write
 * streams each piece as it comes: 1 GiB was 16,000 writes). What arrived before the client went away
 * (a pause) is written too: the file's size is the offset an upload resumes from.
 */
class BatchedFileStore extends FileStore {
  /** Batches between writes, reused: a new 8 MiB buffer per PATCH is garbage the collector must chase. */
  private readonly spare: Buffer[] = [];

  constructor(private readonly folder: string) {
    super({ directory: folder });
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    if (!/^[0-9a-f]{32}$/.test(id)) throw ERRORS.FILE_NOT_FOUND;
    const handle = await open(join(this.folder, id), 'r+');
    const batch = this.spare.pop() ?? Buffer.allocUnsafe(WRITE_BATCH_BYTES);
    let used = 0;
    let position = offset;
    const flush = async () => {
      for (let done = 0; done < used; ) {
        const { bytesWritten } = await handle.write(batch, done, used - done, position);
        done += bytesWritten;
        position += bytesWritten;
      }
      used = 0;
    };
    try {
      for await (const piece of readable as AsyncIterable<Buffer>) {
        for (let taken = 0; taken < piece.length; ) {
          const count = Math.min(piece.length - taken, WRITE_BATCH_BYTES - used);
          piece.copy(batch, used, taken, taken + count);
          used += count;
          taken += count;
          if (used === WRITE_BATCH_BYTES) await flush();
        }
      }
      await flush();
      return position;
    } catch {
      await flush().catch(() => undefined);
      throw ERRORS.FILE_WRITE_ERROR;
    } finally {
      await handle.close();
      if (this.spare.length < 4) this.spare.push(batch);
    }
  }
}

/**
 * The tus endpoint of the console's uploads (docs/api-storage.md "tus"): resumable uploads, protocol
 * 1.0.0 with the creation, creation-with-upload and termination extensions, at /api/v1/storage/tus.
 * Fastify does what every API route does (Bearer sign-in, FILE_STORAGE, rate limit, security
 * headers, the route schemas' checks of the tus headers); @tus/server with its FileStore then speaks
 * the protocol, given the request as a web Request (`handleWeb`) so that its answer comes back here
 * and every refusal goes out in the API's envelope with a Chinese message.
 *
 * POST reserves the whole Upload-Length against the quota before the upload exists (413 in the
 * envelope when it does not fit); the partial file lives under `${STORAGE_ROOT}/.tus/<id>`, outside
 * the user's tree, counted through its reservation. HEAD answers the offset to resume from, PATCH
 * appends at that offset; when the last byte arrives the file moves into the target folder
 * (replacing a file of the same name: a re-upload) and the reservation becomes usage. DELETE
 * abandons an upload and gives its reservation back. Uploads are the main account's: any caller with
 * FILE_STORAGE of that account may resume them; others get 404.
 */

export const TUS_PATH = '/api/v1/storage/tus';
export const TUS_ID_PATTERN = /^[0-9a-f]{32}$/;

/** The upload metadata the server adds (the client's own keys are kept beside them). */
const META = { store: 'slgStore', owner: 'slgOwner', folder: 'slgFolder', name: 'slgName' } as const;

interface TusCall {
  principal: Principal;
  /** The id of the upload a POST creates. */
  id?: string;
  target?: UploadTarget;
  /** An error of a hook, to answer instead of what tus makes of it. */
  failure?: unknown;
}

interface StoredUpload {
  id: string;
  size: number;
  metadata: Record<string, string | null>;
}

/** `Upload-Metadata`: comma-separated `key base64value` pairs; null when malformed. */
export function parseUploadMetadata(header: string): Map<string, string> | null {
  const result = new Map<string, string>();
  if (header.trim() === '') return result;
  for (const pair of header.split(',')) {
    const parts = pair.trim().split(' ');
    const [key, value] = parts;
    if (!key || parts.length > 2 || !/^[\x21-\x7e]+$/.test(key) || result.has(key)) return null;
    if (value !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return null;
    result.set(key, value === undefined ? '' : Buffer.from(value, 'base64').toString('utf8'));
  }
  return result;
}

const TUS_MESSAGES: [RegExp, string][] = [
  [/Upload-Offset conflict/, '上传偏移量与服务器记录不一致：请先用 HEAD 请求查询当前偏移量（Upload-Offset），再从那里继续'],
  [/no longer exists|was not found/, '上传任务不存在或已过期，请重新上传'],
  [/size exceeded|Maximum size/, '上传的数据超过了创建时声明的文件大小（Upload-Length）'],
  [/Upload-Offset header required/, '缺少 Upload-Offset 请求头'],
  [/Content-Type header required/, '续传请求的 Content-Type 必须是 application/offset+octet-stream'],
  [/Upload-Length or Upload-Defer-Length/, '请在 Upload-Length 请求头中给出文件大小（字节）'],
  [/Upload-Metadata is invalid/, 'Upload-Metadata 格式不正确：应为逗号分隔的「键 Base64值」'],
  [/Tus-Resumable/, '缺少 Tus-Resumable 请求头（本服务支持 tus 1.0.0）'],
  [/^Invalid /, 'tus 请求头格式不正确'],
  [/lock/, '该上传正在由另一个请求写入，请稍后再试'],
  [/receiving the file/, '上传中断：已收到的部分已保存，可从断点继续上传'],
];

const CODE_OF_STATUS: Record<number, ErrorCodeName> = {
  400: 'VALIDATION',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'STATE_CONFLICT',
  410: 'NOT_FOUND',
  412: 'VALIDATION',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/** A refusal by @tus/server in the API's terms: its status (a 5xx of a broken transfer as 400), a code and a Chinese message. */
export function tusRefusal(status: number, body: string): { status: number; code: number; message: string } {
  const message = TUS_MESSAGES.find(([pattern]) => pattern.test(body))?.[1];
  if (/receiving the file/.test(body)) return { status: 400, code: ErrorCodes.VALIDATION.code, message: message as string };
  if (/lock/.test(body)) return { status: 423, code: ErrorCodes.STATE_CONFLICT.code, message: message as string };
  if (status >= 500) return { status, code: ErrorCodes.INTERNAL.code, message: '上传失败，请重试' };
  const name = CODE_OF_STATUS[status] ?? 'VALIDATION';
  return { status, code: ErrorCodes[name].code, message: message ?? `上传请求被拒绝（${status}）` };
}

function hookRefusal(error: unknown): { status_code: number; body: string } {
  return error instanceof AppError ? { status_code: error.status, body: error.message } : { status_code: 500, body: 'hook failed' };
}

export class TusUploads {
  private tus: Promise<{ server: Server; directory: string }> | undefined;
  private readonly calls = new WeakMap<Request, TusCall>();

  constructor(
    private readonly deps: AppDeps,
    private readonly storage: FileStorageService,
  ) {}

  /** The tus server, made once on first use (its directory under STORAGE_ROOT with it). */
  private ready(): Promise<{ server: Server; directory: string }> {
    this.tus ??= this.make().catch((error: unknown) => {
      this.tus = undefined;
      throw error;
    });
    return this.tus;
  }

  private async make(): Promise<{ server: Server; directory: string }> {
    const directory = stagingDirs(this.deps.config.storageRoot).tus;
    try {
      await mkdir(directory, { recursive: true });
    } catch (error) {
      throw new AppError('SERVICE_UNAVAILABLE', `文件存储暂不可用（${(error as NodeJS.ErrnoException).code ?? '目录无法创建'}）`);
    }
    const server = new Server({
      path: TUS_PATH,
      datastore: new BatchedFileStore(directory),
      relativeLocation: true,
      // Same origin only: the console is served by this server.
      allowedOrigins: () => false,
      maxSize: MAX_UPLOAD_BYTES,
      namingFunction: (request) => {
        const id = this.calls.get(request)?.id;
        if (!id) throw new Error('tus upload created outside TusUploads.create');
        return id;
      },
      onUploadCreate: async (request, upload) => {
        const call = this.calls.get(request);
        if (!call?.target) throw new Error('tus upload created outside TusUploads.create');
        const { store, parent, name } = call.target;
        return {
          metadata: {
            ...upload.metadata,
            [META.store]: String(store.id),
            [META.owner]: String(store.ownerId),
            [META.folder]: formatStorePath(parent),
            [META.name]: name,
          },
        };
      },
      onUploadFinish: async (request, upload) => {
        const call = this.calls.get(request);
        try {
          await this.finish({ id: upload.id, size: upload.size ?? 0, metadata: upload.metadata ?? {} });
        } catch (error) {
          if (call) call.failure = error;
          throw hookRefusal(error);
        }
        return {};
      },
    });
    return { server, directory };
  }

  private reservationOf(upload: StoredUpload): Reservation {
    return { storeId: Number(upload.metadata[META.store]), bytes: upload.size, key: `tus-${upload.id}` };
  }

  /** The last byte arrived: the file moves into the store (or, refused, is dropped with its reservation). */
  private async finish(upload: StoredUpload): Promise<void> {
    const { directory } = await this.ready();
    const file = join(directory, upload.id);
    try {
      await this.storage.land(this.reservationOf(upload), file, {
        parent: parseStorePath(upload.metadata[META.folder] ?? '/', 'create'),
        name: upload.metadata[META.name] ?? '',
      });
    } catch (error) {
      await unlink(file).catch(() => undefined);
      throw error;
    } finally {
      await unlink(`${file}.json`).catch(() => undefined);
    }
  }

  /** An upload of the caller's main account, or 404 (also for another account's: ids are not to be probed). */
  private async owned(principal: Principal, id: string): Promise<StoredUpload> {
    const { directory } = await this.ready();
    let stored: { size?: number; metadata?: Record<string, string | null> };
    try {
      stored = JSON.parse(await readFile(join(directory, `${id}.json`), 'utf8')) as typeof stored;
    } catch {
      throw new AppError('NOT_FOUND', '上传任务不存在或已过期，请重新上传');
    }
    const metadata = stored.metadata ?? {};
    if (metadata[META.owner] !== String(principal.ownerId) || typeof stored.size !== 'number') throw new AppError('NOT_FOUND', '上传任务不存在或已过期，请重新上传');
    return { id, size: stored.size, metadata };
  }

  private async forward(request: FastifyRequest, call: TusCall, withBody: boolean): Promise<Response> {
    const { server } = await this.ready();
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || name === 'host' || name === 'connection') continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const stream = request.body instanceof Readable ? request.body : null;
    const body = withBody && stream ? webBodyOf(stream) : null;
    const webRequest = new Request(new URL(request.url, 'http://localhost'), { method: request.method, headers, body, ...(body ? { duplex: 'half' } : {}) } as RequestInit);
    this.calls.set(webRequest, call);
    return server.handleWeb(webRequest);
  }

  /** POST: checks the target, reserves Upload-Length, creates the upload (and takes its first bytes, with creation-with-upload). */
  async create(request: FastifyRequest, reply: FastifyReply, principal: Principal, length: number, metadataHeader: string | undefined): Promise<FastifyReply> {
    const metadata = parseUploadMetadata(metadataHeader ?? '');
    if (!metadata) throw new AppError('VALIDATION', 'Upload-Metadata 格式不正确：应为逗号分隔的「键 Base64值」');
    const zoneId = metadata.get('zoneId');
    if (!zoneId || !/^[a-z0-9][a-z0-9-]{0,31}$/.test(zoneId)) throw new AppError('VALIDATION', '请在上传元数据中给出正确的地区（zoneId）');
    const fileName = metadata.get('filename') ?? metadata.get('name');
    if (fileName === undefined) throw new AppError('VALIDATION', '请在上传元数据中给出文件名（filename）');
    const target = await this.storage.uploadTarget(principal, zoneId, metadata.get('path') ?? '/', fileName);
    const id = randomBytes(16).toString('hex');
    const reservation = await this.storage.reservations.reserve(target.store.id, length, `tus-${id}`);
    const call: TusCall = { principal, id, target };
    let response: Response;
    try {
      response = await this.forward(request, call, true);
    } catch (error) {
      await this.abandon(id, reservation);
      throw error;
    }
    if (response.status >= 300 && !call.failure) await this.abandon(id, reservation);
    return this.answer(reply, response, call);
  }

  /** PATCH: appends at Upload-Offset (only while the store takes writes). */
  async append(request: FastifyRequest, reply: FastifyReply, principal: Principal, id: string): Promise<FastifyReply> {
    const upload = await this.owned(principal, id);
    const [store] = await this.deps.database.db
      .select({ blocked: fileStorages.writesBlockedAt })
      .from(fileStorages)
      .where(and(eq(fileStorages.id, Number(upload.metadata[META.store])), isNull(fileStorages.deletedAt)));
    if (!store) throw new AppError('NOT_FOUND', '该地区的文件存储已删除');
    if (store.blocked) throw new AppError('FORBIDDEN', WRITES_BLOCKED_MESSAGE);
    const call: TusCall = { principal };
    return this.answer(reply, await this.forward(request, call, true), call);
  }

  /** HEAD: the offset to resume from. */
  async offset(request: FastifyRequest, reply: FastifyReply, principal: Principal, id: string): Promise<FastifyReply> {
    await this.owned(principal, id);
    const call: TusCall = { principal };
    return this.answer(reply, await this.forward(request, call, false), call);
  }

  /** DELETE: abandons an upload; its reservation is given back. */
  async terminate(request: FastifyRequest, reply: FastifyReply, principal: Principal, id: string): Promise<FastifyReply> {
    const upload = await this.owned(principal, id);
    const call: TusCall = { principal };
    const response = await this.forward(request, call, false);
    if (response.status < 300) await this.abandon(id, this.reservationOf(upload));
    return this.answer(reply, response, call);
  }

  private async abandon(id: string, reservation: Reservation): Promise<void> {
    const { directory } = await this.ready();
    await this.storage.reservations.release(reservation);
    await unlink(join(directory, id)).catch(() => undefined);
    await unlink(join(directory, `${id}.json`)).catch(() => undefined);
  }

  /** Sends tus's answer: its headers, and a refusal as the envelope. */
  private async answer(reply: FastifyReply, response: Response, call: TusCall): Promise<FastifyReply> {
    if (call.failure) {
      await response.body?.cancel();
      throw call.failure;
    }
    response.headers.forEach((value, name) => {
      if (/^(content-length|content-type|access-control-|connection$)/i.test(name)) return;
      void reply.header(name, value);
    });
    if (response.status >= 400) {
      const refusal = tusRefusal(response.status, await response.text());
      return reply.status(refusal.status).send(failure(refusal.code, refusal.message));
    }
    await response.body?.cancel();
    return reply.status(response.status).send();
  }
}
