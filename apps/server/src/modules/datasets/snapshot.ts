import { constants, createWriteStream } from 'node:fs';
import { copyFile, lstat, mkdir, open, readdir, utimes, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { SHARED_DATASET_MAX_BYTES, SHARED_DATASET_MAX_FILES } from '@slg/shared';
import { AppError } from '../../core/errors.js';
import { formatBytes } from '../storage/quota.js';
import { DIR_FLAGS, FILE_FLAGS, hasProcFd, MAX_TREE_DEPTH, OpenDir, PROC_FD, tooDeep, type StoreTree } from '../storage/tree.js';

/** What a snapshot holds. */
export interface SnapshotSize {
  bytes: number;
  files: number;
}

const errno = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/**
 * Copies the folder `segments` of a user's store into `destination` (a new folder): the snapshot a
 * shared dataset is, so later changes to the folder — or deleting it — do not reach the dataset.
 *
 * The store is mounted read-write in the user's instances while this runs, so the copy is as careful
 * as every other operation on it (tree.ts): the top folder is opened and checked to be inside the
 * store, every level below is opened with O_NOFOLLOW through the one above, every file is opened with
 * O_NOFOLLOW and copied from that open file (`/proc/self/fd/N`), never by its name. Symlinks, FIFOs,
 * sockets and devices are left out; a folder or file swapped for a symlink mid-copy is skipped.
 * Refused past SHARED_DATASET_MAX_BYTES or SHARED_DATASET_MAX_FILES (the caller removes what was copied).
 */
export async function snapshotFolder(tree: StoreTree, segments: readonly string[], destination: string): Promise<SnapshotSize> {
  const top = await tree.openDir(segments);
  const size: SnapshotSize = { bytes: 0, files: 0 };
  try {
    await mkdir(destination, { recursive: true });
    await copyLevel(top, destination, size, 1);
  } finally {
    await top.close();
  }
  return size;
}

async function copyLevel(dir: OpenDir, target: string, size: SnapshotSize, depth: number): Promise<void> {
  for (const name of await readdir(dir.path)) {
    const stats = await lstat(dir.entry(name)).catch(() => null);
    if (!stats) continue;
    if (stats.isDirectory()) {
      if (depth >= MAX_TREE_DEPTH) throw tooDeep();
      const child = await OpenDir.open(dir.entry(name), DIR_FLAGS | constants.O_NOFOLLOW, `${dir.path}/${name}`).catch((error: unknown) => {
        if (['ENOENT', 'ELOOP', 'ENOTDIR'].includes(errno(error) ?? '')) return null;
        throw error;
      });
      if (!child) continue;
      try {
        await mkdir(join(target, name));
        await copyLevel(child, join(target, name), size, depth + 1);
      } finally {
        await child.close();
      }
      continue;
    }
    if (stats.isFile()) await copyRegularFile(dir, name, join(target, name), size);
  }
}

async function copyRegularFile(dir: OpenDir, name: string, target: string, size: SnapshotSize): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(dir.entry(name), FILE_FLAGS | constants.O_NOFOLLOW);
  } catch (error) {
    if (['ENOENT', 'ELOOP', 'ENXIO'].includes(errno(error) ?? '')) return;
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return;
    size.files += 1;
    size.bytes += stats.size;
    if (size.files > SHARED_DATASET_MAX_FILES) throw new AppError('VALIDATION', `文件夹中的文件超过 ${SHARED_DATASET_MAX_FILES} 个，无法共享为数据集，请先打包或拆分`);
    if (size.bytes > SHARED_DATASET_MAX_BYTES) throw new AppError('VALIDATION', `文件夹超过 ${formatBytes(SHARED_DATASET_MAX_BYTES)}，无法共享为数据集`);
    // The open file itself: a reflink or copy_file_range where the filesystem has them.
    if (hasProcFd()) await copyFile(`${PROC_FD}/${handle.fd}`, target, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
    else await pipeline(handle.createReadStream({ autoClose: false }), createWriteStream(target, { flags: 'wx' }));
    await utimes(target, stats.atime, stats.mtime);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Files and bytes under a folder the platform owns (a public dataset's), without following symlinks. */
export async function measureFolder(directory: string): Promise<SnapshotSize> {
  const size: SnapshotSize = { bytes: 0, files: 0 };
  const walk = async (path: string, depth: number): Promise<void> => {
    for (const entry of await readdir(path, { withFileTypes: true })) {
      if (entry.isDirectory() && depth < MAX_TREE_DEPTH) await walk(join(path, entry.name), depth + 1);
      else if (entry.isFile()) {
        size.files += 1;
        size.bytes += (await lstat(join(path, entry.name))).size;
      }
    }
  };
  await walk(directory, 1);
  return size;
}
