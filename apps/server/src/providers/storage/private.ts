import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

/**
 * Where files for the platform's eyes only live (business licences, student cards, ID images): bytes
 * by key, nothing else. The database row (`private_uploads`) holds who owns a file, its name, type,
 * size and hash; the store knows none of that and is never served publicly — files go out only
 * through routes that checked the caller.
 *
 * Contract, for every implementation:
 * - `put(key, bytes)` stores the bytes under a key the caller made with `newStorageKey()`: all or
 *   nothing (a reader never sees half a file), and a key is written once (a second put of the same key
 *   is refused).
 * - `get(key)` streams the bytes back, or null when nothing is stored under the key.
 * - `delete(key)` removes them; deleting a missing key is not an error.
 *
 * `local` (LocalPrivateStorage) writes under `${DATA_DIR}/private/`. An object store (Aliyun OSS,
 * Tencent COS, S3, MinIO) fits the same three calls: PutObject with `If-None-Match: *` into a private
 * bucket (no public-read ACL, no CDN), GetObject streamed, DeleteObject; the key is the object name.
 */
export interface PrivateStorage {
  readonly name: string;
  put(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Readable | null>;
  delete(key: string): Promise<void>;
}

/** A storage key: a month folder and 128 random bits, e.g. `2026-06/9f…e1`. Never derived from the file name. */
export function newStorageKey(now: Date): string {
  return `${now.toISOString().slice(0, 7)}/${randomBytes(16).toString('hex')}`;
}

/** What `newStorageKey` makes (the local store refuses anything else, so no key reaches outside its root). */
export const STORAGE_KEY_PATTERN = /^\d{4}-\d{2}\/[0-9a-f]{32}$/;
