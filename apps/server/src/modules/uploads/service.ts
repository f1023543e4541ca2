import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, count, eq, gte } from 'drizzle-orm';
import { detectPrivateUploadType, PRIVATE_UPLOAD_MAX_BYTES, PRIVATE_UPLOAD_MESSAGES, type PrivateUploadPurpose, type PrivateUploadType } from '@slg/shared';
import type { UploadView } from '@slg/shared/views/verification';
import type { AppDeps } from '../../deps.js';
import type { Executor } from '../../db/client.js';
import { privateUploads, users } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import { createPrivateStorage, newStorageKey, type PrivateStorage } from '../../providers/storage/index.js';
import { recordAudit } from '../../core/audit.js';
import type { Principal } from '../../core/principal.js';
import { UPLOAD_TEXTS } from './texts.js';

/** Uploads an account may make in 24 hours: plenty for a few tries at each document, not a free disk. */
export const PRIVATE_UPLOADS_PER_DAY = 20;
const FILE_NAME_MAX = 128;
const EXTENSIONS: Record<PrivateUploadType, string> = { 'image/jpeg': '.jpg', 'image/png': '.png', 'application/pdf': '.pdf' };

export type PrivateUploadRow = typeof privateUploads.$inferSelect;

/**
 * What the uploader gets back (and what an operator sees of the file beside a verification): the schema
 * in packages/shared (views/verification), which the console reads too.
 */
export type PrivateUploadView = UploadView;

export function uploadViewOf(row: PrivateUploadRow): PrivateUploadView {
  return {
    id: row.id,
    // The column is text; uploads are written with a PrivateUploadPurpose, and the answer's schema checks it.
    purpose: row.purpose as PrivateUploadPurpose,
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.sizeBytes,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The name a file keeps for display and download: the last path segment of what the browser sent,
 * without control or quoting characters, at most 128 characters, ending in the extension of what the
 * bytes really are (a PDF named 执照.jpg becomes 执照.jpg.pdf, never served as an image).
 */
export function displayNameOf(sent: string | undefined, type: PrivateUploadType): string {
  const extension = EXTENSIONS[type];
  const base = [...((sent ?? '').split(/[\\/]/).pop() ?? '')]
    .filter((character) => character.charCodeAt(0) >= 0x20 && character !== '\u007f' && !'"<>|?*:'.includes(character))
    .join('')
    .trim();
  const alreadyRight = base.toLowerCase().endsWith(extension) || (type === 'image/jpeg' && base.toLowerCase().endsWith('.jpeg'));
  const stem = alreadyRight ? base : `${base}${extension}`;
  if (stem === extension || stem === '') return `upload${extension}`;
  const characters = [...stem];
  if (characters.length <= FILE_NAME_MAX) return stem;
  return `${characters.slice(0, FILE_NAME_MAX - extension.length).join('')}${extension}`;
}

/**
 * 证件材料: files for verification, kept in private storage and readable only by the account that
 * uploaded them and by operators (who leave an audit record each time they open one).
 */
export class PrivateUploadService {
  private readonly storage: PrivateStorage;

  constructor(
    private readonly deps: Pick<AppDeps, 'database' | 'now' | 'config'>,
    storage?: PrivateStorage,
  ) {
    this.storage = storage ?? createPrivateStorage(deps.config);
  }

  private get db() {
    return this.deps.database.db;
  }

  /**
   * Stores a file for the caller's account. The type comes from the bytes (JPEG, PNG, PDF), never from
   * the browser's content type or the name. The daily cap is decided under the account row's lock;
   * the bytes are written before the row commits and removed again when it does not.
   */
  async upload(principal: Principal, input: { purpose: PrivateUploadPurpose; fileName: string | undefined; bytes: Buffer }): Promise<PrivateUploadView> {
    if (input.bytes.length === 0) throw new AppError('VALIDATION', PRIVATE_UPLOAD_MESSAGES.empty);
    if (input.bytes.length > PRIVATE_UPLOAD_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', PRIVATE_UPLOAD_MESSAGES.tooLarge);
    const type = detectPrivateUploadType(input.bytes);
    if (!type) throw new AppError('UNSUPPORTED_MEDIA_TYPE', PRIVATE_UPLOAD_MESSAGES.type);
    const now = this.deps.now();
    const key = newStorageKey(now);
    let written = false;
    try {
      const row = await this.db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, principal.ownerId)).for('update');
        const [today] = await tx
          .select({ n: count() })
          .from(privateUploads)
          .where(and(eq(privateUploads.ownerId, principal.ownerId), gte(privateUploads.createdAt, new Date(now.getTime() - 24 * 3600_000))));
        if ((today?.n ?? 0) >= PRIVATE_UPLOADS_PER_DAY) throw new AppError('RATE_LIMITED', UPLOAD_TEXTS.dailyLimit(PRIVATE_UPLOADS_PER_DAY));
        await this.storage.put(key, input.bytes);
        written = true;
        const [inserted] = await tx
          .insert(privateUploads)
          .values({
            ownerId: principal.ownerId,
            creatorId: principal.userId,
            purpose: input.purpose,
            fileName: displayNameOf(input.fileName, type),
            contentType: type,
            sizeBytes: input.bytes.length,
            sha256: createHash('sha256').update(input.bytes).digest('hex'),
            storageKey: key,
            createdAt: now,
          })
          .returning();
        if (!inserted) throw new Error('private upload insert returned nothing');
        return inserted;
      });
      return uploadViewOf(row);
    } catch (error) {
      if (written) await this.storage.delete(key).catch(() => undefined);
      throw error;
    }
  }

  /** An upload of the caller's account: the same 404 for one that does not exist and one of another account. */
  async ownRow(executor: Executor, principal: Principal, id: number): Promise<PrivateUploadRow> {
    const [row] = await executor
      .select()
      .from(privateUploads)
      .where(and(eq(privateUploads.id, id), eq(privateUploads.ownerId, principal.ownerId)));
    if (!row) throw new AppError('NOT_FOUND', UPLOAD_TEXTS.notFound);
    return row;
  }

  /** The caller's own file, to stream back. */
  async open(principal: Principal, id: number): Promise<{ row: PrivateUploadRow; content: Readable }> {
    const row = await this.ownRow(this.db, principal, id);
    return { row, content: await this.contentOf(row) };
  }

  /** Any file, for an operator reviewing a verification; each opening is audited. */
  async openForOperator(actorId: number, id: number): Promise<{ row: PrivateUploadRow; content: Readable }> {
    const [row] = await this.db.select().from(privateUploads).where(eq(privateUploads.id, id));
    if (!row) throw new AppError('NOT_FOUND', UPLOAD_TEXTS.notFound);
    const content = await this.contentOf(row);
    await recordAudit(
      this.db,
      { actorId, action: 'private_upload.read', targetType: 'private_upload', targetId: id, detail: { ownerId: row.ownerId, purpose: row.purpose } },
      this.deps.now(),
    );
    return { row, content };
  }

  private async contentOf(row: PrivateUploadRow): Promise<Readable> {
    const content = await this.storage.get(row.storageKey);
    if (!content) throw new AppError('NOT_FOUND', UPLOAD_TEXTS.fileMissing);
    return content;
  }
}
