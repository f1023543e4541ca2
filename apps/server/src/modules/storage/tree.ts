import { constants, existsSync, lstatSync, type Stats } from 'node:fs';
import { copyFile, lstat, mkdir, open, readdir, readlink, realpath, rename, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join, resolve as resolvePath, sep } from 'node:path';
import { AppError } from '../../core/errors.js';

/**
 * The files of one store, on the server's filesystem, safe against what users do inside their
 * instances (docs/api-storage.md "Paths"). The store's directory is mounted read-write into every
 * instance of its region, so its users can put anything there while the server works on it: a symlink
 * to `/etc` or to another user's store, a folder swapped for a symlink between two system calls, a FIFO
 * that blocks whoever opens it. The server may read and write every store, so each operation must stay
 * inside this one:
 * - reads resolve the path (`realpath`) and refuse what lands outside the store; then the file or
 *   folder is opened and what was opened is checked again through `/proc/self/fd/N` (the kernel's name
 *   of the open file), so a swap between the two steps cannot point the server elsewhere;
 * - writes never use a path twice: the parent folder is opened and checked as above, and the entry is
 *   created, renamed or removed through `/proc/self/fd/N/<name>`, which resolves in that open folder
 *   (the `*at()` system calls Node lacks) and never follows the last component;
 * - deletion walks folders opened with O_NOFOLLOW, one open folder per level, so a folder turned into a
 *   symlink mid-deletion is removed as a link and never entered;
 * - nothing is opened that could block (O_NONBLOCK) or is not a regular file or folder.
 * Symlinks that stay inside the store are followed for reading and as parent folders; listings show a
 * symlink as a file of size 0 without following it. Where `/proc/self/fd` does not exist (not Linux) the
 * checks are the `realpath` ones only.
 */

export const PROC_FD = '/proc/self/fd';
let procFd: boolean | undefined;
export function hasProcFd(): boolean {
  procFd ??= existsSync(PROC_FD);
  return procFd;
}

/** Deeper folders are refused (each level holds one open folder while it is deleted or measured). */
export const MAX_TREE_DEPTH = 256;
/** A listing stops here (`truncated`); a folder this large is for the instance's shell, not the console. */
export const MAX_LISTED_ENTRIES = 10_000;

export const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK;
export const FILE_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

export interface TreeEntry {
  name: string;
  type: 'file' | 'dir';
  size: number;
  modifiedAt: string;
}

const errno = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

export const OUTSIDE_MESSAGE = '该路径经符号链接指向文件存储之外，已拒绝访问';
const notFound = (what = '文件或文件夹') => new AppError('NOT_FOUND', `${what}不存在`);
const outside = () => new AppError('FORBIDDEN', OUTSIDE_MESSAGE);
export const tooDeep = () => new AppError('VALIDATION', `文件夹层级过深（超过${MAX_TREE_DEPTH}层），请在实例中处理`);

/** A folder held open; `path` reaches it through the open descriptor (or, without /proc, its real path). */
export class OpenDir {
  constructor(
    private readonly handle: FileHandle,
    readonly path: string,
  ) {}

  static async open(path: string, flags: number, realPathForFallback: string): Promise<OpenDir> {
    const handle = await open(path, flags);
    return new OpenDir(handle, hasProcFd() ? `${PROC_FD}/${handle.fd}` : realPathForFallback);
  }

  entry(name: string): string {
    return `${this.path}/${name}`;
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }

  /** Where the open folder really is (the kernel's name of the descriptor). */
  async location(): Promise<string | null> {
    if (!hasProcFd()) return null;
    return readlink(`${PROC_FD}/${this.handle.fd}`);
  }
}

function inside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** What a failed open or resolution means to the user. */
function refusalOf(error: unknown, what: string): AppError | undefined {
  switch (errno(error)) {
    case 'ENOENT':
      return notFound(what);
    case 'ENOTDIR':
      return new AppError('STATE_CONFLICT', `路径中的某一级不是文件夹`);
    case 'ELOOP':
      return new AppError('VALIDATION', '路径中的符号链接层级过多或指向自身');
    case 'ENAMETOOLONG':
      return new AppError('VALIDATION', '路径过长');
    case 'EACCES':
    case 'EPERM':
      return new AppError('FORBIDDEN', '没有权限访问该路径（请检查实例中设置的文件权限）');
    default:
      return undefined;
  }
}

function rethrow(error: unknown, what = '文件或文件夹'): never {
  throw refusalOf(error, what) ?? error;
}

export class StoreTree {
  private constructor(
    /** The store's directory, resolved (`realpath`). */
    readonly root: string,
  ) {}

  /** The tree of the store whose directory is `directory` (created when missing). */
  static async open(directory: string): Promise<StoreTree> {
    await mkdir(directory, { recursive: true });
    return new StoreTree(await realpath(directory));
  }

  /** Refuses (and closes) an open folder that is not inside the store. */
  private async verify(dir: OpenDir): Promise<void> {
    const location = (await dir.location()) ?? dir.path;
    if (!inside(this.root, location)) {
      await dir.close();
      throw outside();
    }
  }

  /** Resolves segments that must exist, following symlinks that stay inside the store. */
  private async resolve(segments: readonly string[], what: string): Promise<string> {
    let real: string;
    try {
      real = await realpath(join(this.root, ...segments));
    } catch (error) {
      if (errno(error) === 'ENOENT') throw await this.missing(segments, what);
      rethrow(error, what);
    }
    if (!inside(this.root, real)) throw outside();
    return real;
  }

  /**
   * Why a path does not resolve: a symlink on the way that leads out of the store is refused as such
   * (a plain 404 would tell whether the path it names exists on the server), anything else is missing.
   */
  private async missing(segments: readonly string[], what: string): Promise<AppError> {
    let current = this.root;
    for (const segment of segments) {
      const next = join(current, segment);
      const stats = await lstat(next).catch(() => null);
      if (!stats) break;
      if (stats.isSymbolicLink()) {
        const target = await readlink(next).catch(() => null);
        if (target === null || !inside(this.root, resolvePath(current, target))) return outside();
        const real = await realpath(next).catch(() => null);
        if (real === null) break;
        if (!inside(this.root, real)) return outside();
        current = real;
      } else {
        current = next;
      }
    }
    return notFound(what);
  }

  /** The folder at `segments`, open and checked to be inside the store. */
  async openDir(segments: readonly string[]): Promise<OpenDir> {
    const real = await this.resolve(segments, '文件夹');
    let dir: OpenDir;
    try {
      dir = await OpenDir.open(real, DIR_FLAGS, real);
    } catch (error) {
      if (errno(error) === 'ENOTDIR') throw new AppError('STATE_CONFLICT', '该路径是文件，不是文件夹');
      rethrow(error, '文件夹');
    }
    await this.verify(dir);
    return dir;
  }

  /**
   * The folder at `segments`, creating what is missing (`mkdir -p`), each level opened through the one
   * above it and checked. An existing level may be a symlink to a folder inside the store.
   */
  async ensureDir(segments: readonly string[]): Promise<OpenDir> {
    if (segments.length > MAX_TREE_DEPTH) throw tooDeep();
    let current = await this.openDir([]);
    try {
      for (const [index, name] of segments.entries()) {
        try {
          await mkdir(current.entry(name));
        } catch (error) {
          if (errno(error) !== 'EEXIST') rethrow(error);
        }
        let next: OpenDir;
        try {
          // Without /proc the real path is what gets checked (and used).
          const fallback = hasProcFd() ? '' : await this.resolve(segments.slice(0, index + 1), '文件夹');
          next = await OpenDir.open(current.entry(name), DIR_FLAGS, fallback);
        } catch (error) {
          if (errno(error) === 'ENOTDIR' || errno(error) === 'ENOENT') throw new AppError('STATE_CONFLICT', `「${name}」已存在且不是文件夹`);
          if (error instanceof AppError) throw error;
          rethrow(error, '文件夹');
        }
        await current.close();
        current = next;
        await this.verify(current);
      }
      return current;
    } catch (error) {
      await current.close();
      throw error;
    }
  }

  /** The entry `name` of an open folder, not followed (null when there is none). */
  async entryStat(dir: OpenDir, name: string): Promise<Stats | null> {
    try {
      return await lstat(dir.entry(name));
    } catch (error) {
      if (errno(error) === 'ENOENT') return null;
      rethrow(error);
    }
  }

  /** A folder's entries (the first MAX_LISTED_ENTRIES): folders first, then by name; symlinks as files of size 0, other special files left out. */
  async list(segments: readonly string[]): Promise<{ items: TreeEntry[]; truncated: boolean }> {
    const { items, total } = await this.listPage(segments, 1, MAX_LISTED_ENTRIES);
    return { items, truncated: total > MAX_LISTED_ENTRIES };
  }

  /**
   * One page of a folder, in the order of `list`, stating only the entries on the page: the type of
   * every entry (to sort folders first) comes from the folder itself (`d_type`), so a folder of any
   * size costs one readdir, one sort and `pageSize` lstat calls. `total` counts what the folder lists
   * (with `nameContains`: the entries whose name contains it, in any case).
   */
  async listPage(segments: readonly string[], page: number, pageSize: number, nameContains = ''): Promise<{ items: TreeEntry[]; total: number }> {
    const needle = nameContains.toLowerCase();
    const dir = await this.openDir(segments);
    try {
      const entries: Pick<TreeEntry, 'name' | 'type'>[] = [];
      for (const dirent of await readdir(dir.path, { withFileTypes: true })) {
        if (needle !== '' && !dirent.name.toLowerCase().includes(needle)) continue;
        let type: TreeEntry['type'] | null = dirent.isDirectory() ? 'dir' : dirent.isFile() || dirent.isSymbolicLink() ? 'file' : null;
        if (type === null && !dirent.isFIFO() && !dirent.isSocket() && !dirent.isBlockDevice() && !dirent.isCharacterDevice()) {
          // A filesystem that does not say (DT_UNKNOWN): ask.
          const stats = lstatSync(dir.entry(dirent.name), { throwIfNoEntry: false });
          type = stats?.isDirectory() ? 'dir' : stats?.isFile() || stats?.isSymbolicLink() ? 'file' : null;
        }
        if (type) entries.push({ name: dirent.name, type });
      }
      entries.sort(compareEntries);
      const items: TreeEntry[] = [];
      const shown = entries.slice((page - 1) * pageSize, page * pageSize);
      for (const [index, entry] of shown.entries()) {
        // lstat through the thread pool costs ~40 µs an entry; synchronously ~5 µs, so in slices of
        // LIST_SLICE with the event loop let go between them.
        if (index > 0 && index % LIST_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
        let stats: Stats | undefined;
        try {
          stats = lstatSync(dir.entry(entry.name), { throwIfNoEntry: false });
        } catch (error) {
          rethrow(error);
        }
        if (!stats) continue;
        items.push({ name: entry.name, type: entry.type, size: entry.type === 'dir' || stats.isSymbolicLink() ? 0 : stats.size, modifiedAt: stats.mtime.toISOString() });
      }
      return { items, total: entries.length };
    } finally {
      await dir.close();
    }
  }

  /** A regular file opened for reading (following symlinks that stay inside), with its stats. */
  async openFile(segments: readonly string[]): Promise<{ handle: FileHandle; stats: Stats }> {
    if (segments.length === 0) throw new AppError('VALIDATION', '请指定要下载的文件');
    const real = await this.resolve(segments, '文件');
    let handle: FileHandle;
    try {
      handle = await open(real, FILE_FLAGS | constants.O_NOFOLLOW);
    } catch (error) {
      rethrow(error, '文件');
    }
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) throw new AppError('STATE_CONFLICT', '文件夹不能直接下载，请在实例中打包后下载');
      if (!stats.isFile()) throw new AppError('STATE_CONFLICT', '只能下载普通文件');
      const location = hasProcFd() ? await readlink(`${PROC_FD}/${handle.fd}`) : real;
      if (!inside(this.root, location)) throw outside();
      return { handle, stats };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  /** A new folder (its parents created as needed); 40026 when the name exists. */
  async makeDir(parent: readonly string[], name: string): Promise<TreeEntry> {
    const dir = await this.ensureDir(parent);
    try {
      try {
        await mkdir(dir.entry(name));
      } catch (error) {
        if (errno(error) === 'EEXIST') throw new AppError('NAME_EXISTS');
        rethrow(error);
      }
      const stats = await this.entryStat(dir, name);
      return { name, type: 'dir', size: 0, modifiedAt: (stats?.mtime ?? new Date()).toISOString() };
    } finally {
      await dir.close();
    }
  }

  /**
   * Renames or moves an entry (a symlink is renamed itself). The target folder must exist; an existing
   * target is refused with 40026 (checked first; a target appearing in between is replaced if both are
   * files — there is no rename-without-replace in Node — or refused if it is a folder).
   */
  async rename(from: { parent: readonly string[]; name: string }, to: { parent: readonly string[]; name: string }): Promise<void> {
    const fromSegments = [...from.parent, from.name];
    const toSegments = [...to.parent, to.name];
    if (fromSegments.join('/') === toSegments.join('/')) return;
    if (fromSegments.every((segment, index) => toSegments[index] === segment)) throw new AppError('VALIDATION', '不能把文件夹移动到它自己的子文件夹中');
    const source = await this.openDir(from.parent);
    try {
      const target = await this.openDir(to.parent);
      try {
        if (!(await this.entryStat(source, from.name))) throw notFound();
        if (await this.entryStat(target, to.name)) throw new AppError('NAME_EXISTS');
        try {
          await rename(source.entry(from.name), target.entry(to.name));
        } catch (error) {
          const code = errno(error);
          if (code === 'EEXIST' || code === 'ENOTEMPTY' || code === 'EISDIR' || code === 'ENOTDIR') throw new AppError('NAME_EXISTS');
          if (code === 'EINVAL') throw new AppError('VALIDATION', '不能把文件夹移动到它自己的子文件夹中');
          rethrow(error);
        }
      } finally {
        await target.close();
      }
    } finally {
      await source.close();
    }
  }

  /**
   * Removes a file, a symlink (never its target) or a folder with everything in it; returns the bytes
   * removed so far through `progress` (also when it fails halfway).
   */
  async remove(parent: readonly string[], name: string, progress: { bytes: number }): Promise<void> {
    const dir = await this.openDir(parent);
    try {
      const stats = await this.entryStat(dir, name);
      if (!stats) throw notFound();
      if (stats.isDirectory()) await removeTree(dir, name, progress, 1);
      else await removeEntry(dir, name, stats, progress);
    } finally {
      await dir.close();
    }
  }

  /**
   * Moves a finished upload (a file outside the tree) to `parent/name`, creating missing folders;
   * replaces a file or symlink of that name, refuses a folder. Returns the size of what it replaced.
   */
  async land(file: string, parent: readonly string[], name: string): Promise<{ replacedBytes: number; modifiedAt: Date }> {
    const dir = await this.ensureDir(parent);
    try {
      const existing = await this.entryStat(dir, name);
      if (existing?.isDirectory()) throw new AppError('NAME_EXISTS', `已存在同名文件夹「${name}」，请换一个文件名`);
      const replacedBytes = existing && (existing.isFile() || existing.isSymbolicLink()) ? existing.size : 0;
      try {
        await rename(file, dir.entry(name));
      } catch (error) {
        const code = errno(error);
        if (code === 'EISDIR' || code === 'ENOTEMPTY' || code === 'EEXIST') throw new AppError('NAME_EXISTS', `已存在同名文件夹「${name}」，请换一个文件名`);
        if (code !== 'EXDEV') rethrow(error);
        // The staging area on another filesystem than the store (STORAGE_ROOT should be one): copy next to the target, then rename.
        const temporary = dir.entry(`.slg-upload-${randomUUID()}`);
        try {
          await copyFile(file, temporary, constants.COPYFILE_EXCL);
          await rename(temporary, dir.entry(name));
        } catch (copyError) {
          await unlink(temporary).catch(() => undefined);
          throw copyError;
        }
        await unlink(file).catch(() => undefined);
      }
      const landed = await this.entryStat(dir, name);
      return { replacedBytes, modifiedAt: landed?.mtime ?? new Date() };
    } finally {
      await dir.close();
    }
  }

  /** Bytes under the store (see `treeBytes`). */
  async bytes(): Promise<number> {
    return treeBytes(this.root);
  }
}

/** Entries a listing stats between two turns of the event loop (a few ms). */
const LIST_SLICE = 500;

const collator = new Intl.Collator('zh-CN', { numeric: true });
const asciiFirst = (name: string) => (name.charCodeAt(0) < 0x80 ? 0 : 1);

/** Folders first; then names as a file manager in Chinese sorts them: ASCII names, then the others by pinyin; numbers by value. */
export function compareEntries(a: Pick<TreeEntry, 'name' | 'type'>, b: Pick<TreeEntry, 'name' | 'type'>): number {
  if (a.type !== b.type) return a.type === 'dir' ? -1 : 1;
  return asciiFirst(a.name) - asciiFirst(b.name) || collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

async function removeEntry(dir: OpenDir, name: string, stats: Stats, progress: { bytes: number }): Promise<void> {
  try {
    await unlink(dir.entry(name));
    progress.bytes += stats.size;
  } catch (error) {
    if (errno(error) !== 'ENOENT') rethrow(error);
  }
}

/** Deletes folder `name` of `parent` depth-first, each level opened with O_NOFOLLOW through the one above. */
async function removeTree(parent: OpenDir, name: string, progress: { bytes: number }, depth: number): Promise<void> {
  if (depth > MAX_TREE_DEPTH) throw tooDeep();
  let dir: OpenDir;
  try {
    dir = await OpenDir.open(parent.entry(name), DIR_FLAGS | constants.O_NOFOLLOW, `${parent.path}/${name}`);
  } catch (error) {
    const code = errno(error);
    if (code === 'ENOENT') return;
    // Turned into a symlink or a file meanwhile: remove it as what it is now.
    if (code === 'ELOOP' || code === 'ENOTDIR') {
      const stats = await lstat(parent.entry(name)).catch(() => null);
      if (stats) await removeEntry(parent, name, stats, progress);
      return;
    }
    rethrow(error);
  }
  try {
    for (const child of await readdir(dir.path)) {
      const stats = await lstat(dir.entry(child)).catch((error: unknown) => {
        if (errno(error) === 'ENOENT') return null;
        throw error;
      });
      if (!stats) continue;
      if (stats.isDirectory()) await removeTree(dir, child, progress, depth + 1);
      else await removeEntry(dir, child, stats, progress);
    }
  } finally {
    await dir.close();
  }
  try {
    await rmdir(parent.entry(name));
  } catch (error) {
    const code = errno(error);
    if (code === 'ENOENT') return;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') throw new AppError('STATE_CONFLICT', `删除期间「${name}」中有新写入的文件，请重试`);
    rethrow(error);
  }
}

/**
 * Bytes held under `directory` (0 when it does not exist): the apparent size (`st_size`, as `du -b`
 * and the upload's Content-Length count) of every regular file and symlink, each inode once (hard
 * links); folders count nothing. Walked with lstat through folders opened O_NOFOLLOW, so no symlink is
 * ever followed and a folder swapped for one mid-walk is not entered. Levels past MAX_TREE_DEPTH are
 * not walked (deleting them is refused too).
 */
export async function treeBytes(directory: string): Promise<number> {
  let top: OpenDir;
  try {
    top = await OpenDir.open(directory, DIR_FLAGS | constants.O_NOFOLLOW, directory);
  } catch (error) {
    if (errno(error) === 'ENOENT' || errno(error) === 'ENOTDIR' || errno(error) === 'ELOOP') return 0;
    throw error;
  }
  const seen = new Set<string>();
  let total = 0;
  const walk = async (dir: OpenDir, depth: number): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(dir.path);
    } catch {
      return;
    }
    for (const name of names) {
      const stats = await lstat(dir.entry(name)).catch(() => null);
      if (!stats) continue;
      if (stats.isDirectory()) {
        if (depth >= MAX_TREE_DEPTH) continue;
        const child = await OpenDir.open(dir.entry(name), DIR_FLAGS | constants.O_NOFOLLOW, `${dir.path}/${name}`).catch(() => null);
        if (!child) continue;
        try {
          await walk(child, depth + 1);
        } finally {
          await child.close();
        }
        continue;
      }
      if (!stats.isFile() && !stats.isSymbolicLink()) continue;
      if (stats.nlink > 1) {
        const inode = `${stats.dev}:${stats.ino}`;
        if (seen.has(inode)) continue;
        seen.add(inode);
      }
      total += stats.size;
    }
  };
  try {
    await walk(top, 1);
  } finally {
    await top.close();
  }
  return total;
}

/** Removes a whole directory tree that is no store's any more (a store deleted in arrears), without following symlinks. */
export async function removeDirectory(directory: string): Promise<void> {
  const parentPath = join(directory, '..');
  let parent: OpenDir;
  try {
    parent = await OpenDir.open(parentPath, DIR_FLAGS | constants.O_NOFOLLOW, parentPath);
  } catch (error) {
    if (errno(error) === 'ENOENT') return;
    throw error;
  }
  try {
    const name = directory.split(sep).filter((part) => part !== '').pop();
    if (!name) throw new Error(`cannot remove ${directory}`);
    await removeTree(parent, name, { bytes: 0 }, 1);
  } finally {
    await parent.close();
  }
}
