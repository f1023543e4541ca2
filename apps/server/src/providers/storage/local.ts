import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { link, mkdir, open, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { STORAGE_KEY_PATTERN, type PrivateStorage } from './private.js';

/**
 * Private files on the local disk under `root` (`${DATA_DIR}/private/`): directories 0700, files 0600,
 * written to a temporary file, flushed, then linked into place — a crash leaves at most a stray `.tmp`,
 * never a half file under a real key, and an existing key is never overwritten (link fails with EEXIST).
 */
export class LocalPrivateStorage implements PrivateStorage {
  readonly name = 'local';

  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!STORAGE_KEY_PATTERN.test(key)) throw new Error(`invalid private storage key: ${key}`);
    return join(this.root, key);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    const temporary = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      // link + unlink rather than rename: rename would silently replace an existing file.
      await link(temporary, target);
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
  }

  async get(key: string): Promise<Readable | null> {
    const path = this.pathOf(key);
    try {
      if (!(await stat(path)).isFile()) return null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return createReadStream(path);
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
