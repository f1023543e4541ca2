import { randomBytes } from 'node:crypto';
import { mkdir, open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { LISTING_DEFAULT_PAGE_SIZE } from '@slg/shared';
import { rowsOf } from '../src/db/client.js';
import { fileStorageKey } from '../src/modules/storage/keys.js';
import type { BenchContext, TimedScenario } from './scenarios.js';

const ZONE = 'bj-a';
const LISTED_FILES = 10_000;
const UPLOAD_BYTES = 1024 ** 3;
/** What the console sends per PATCH (apps/web … file-storage/uploads.ts). */
const CHUNK_BYTES = 16 * 1024 ** 2;

/** Initialises the signed-in account's store in ZONE through the API; returns its directory and the auth header. */
async function initialisedStore(context: BenchContext): Promise<{ directory: string; headers: Record<string, string> }> {
  const headers = { authorization: `Bearer ${await context.signedInToken()}` };
  const response = await fetch(`${context.baseUrl}/api/v1/storage/init`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ zoneId: ZONE }) });
  if (!response.ok) throw new Error(`初始化文件存储失败: ${await response.text()}`);
  const [store] = rowsOf<{ owner_id: number | string }>(await context.database.db.execute(sql`select owner_id from file_storages where zone_id = ${ZONE} and deleted_at is null order by id desc limit 1`));
  if (!store) throw new Error('没有找到刚初始化的文件存储');
  return { directory: join(context.storageRoot, fileStorageKey(Number(store.owner_id), ZONE)), headers };
}

/**
 * `GET /storage/files` of a folder holding 10,000 files (made on the disk, as an instance would), as the
 * console's file manager asks for it: the first page of LISTING_DEFAULT_PAGE_SIZE, in the folder's
 * order (every name read and sorted, only the page's entries stated).
 */
export const storageListScenario: TimedScenario = {
  kind: 'timed',
  name: 'storage-list',
  title: `list a 文件存储 folder of ${LISTED_FILES.toLocaleString('en')} files, the console's first page (GET /api/v1/storage/files?page=1&pageSize=${LISTING_DEFAULT_PAGE_SIZE})`,
  server: 'app',
  targets: { maxP95Ms: 50 },
  runs: 30,
  prepare: async (context) => {
    const { directory, headers } = await initialisedStore(context);
    const folder = join(directory, 'many');
    await mkdir(folder, { recursive: true });
    for (let start = 0; start < LISTED_FILES; start += 500) {
      await Promise.all(Array.from({ length: Math.min(500, LISTED_FILES - start) }, (_, offset) => writeFile(join(folder, `sample-${String(start + offset).padStart(5, '0')}.jpg`), 'x')));
    }
    const url = `${context.baseUrl}/api/v1/storage/files?zoneId=${ZONE}&path=${encodeURIComponent('/many')}&page=1&pageSize=${LISTING_DEFAULT_PAGE_SIZE}`;
    return {
      run: async () => {
        const response = await fetch(url, { headers });
        const body = (await response.json()) as { result: { items: unknown[]; total?: number } | null };
        if (!response.ok || body.result?.total !== LISTED_FILES || body.result.items.length !== LISTING_DEFAULT_PAGE_SIZE) {
          throw new Error(`列目录失败（${response.status}，共 ${body.result?.total ?? 0} 项，本页 ${body.result?.items.length ?? 0} 项）`);
        }
      },
      cleanup: () => rm(folder, { recursive: true, force: true }),
    };
  },
};

/** Writes `bytes` to a new file in `directory` in CHUNK_BYTES writes and syncs it: the disk's write speed, bytes per ms. */
async function diskWriteSpeed(directory: string, chunk: Buffer, bytes: number): Promise<number> {
  const path = join(directory, `.bench-disk-${process.pid}`);
  const started = performance.now();
  const handle = await open(path, 'w');
  try {
    for (let written = 0; written < bytes; written += chunk.length) await handle.write(chunk, 0, Math.min(chunk.length, bytes - written));
    await handle.sync();
  } finally {
    await handle.close();
  }
  const elapsed = performance.now() - started;
  await rm(path, { force: true });
  return bytes / elapsed;
}

/**
 * 1 GiB uploaded through tus as the console does it (POST, then 16 MiB PATCHes), against the disk's own
 * write speed measured first on the same filesystem by this script (sequential writes, synced). The
 * target: the upload at 80 % of that speed or better, i.e. p95 below the disk's time / 0.8.
 */
export const storageUploadScenario: TimedScenario = {
  kind: 'timed',
  name: 'storage-upload',
  title: 'upload 1 GiB to 文件存储 through tus (16 MiB PATCHes), against the disk write speed',
  server: 'app',
  targets: { maxP95Ms: Number.POSITIVE_INFINITY },
  runs: 3,
  prepare: async (context) => {
    const { directory, headers } = await initialisedStore(context);
    const chunk = randomBytes(CHUNK_BYTES);
    const bytesPerMs = await diskWriteSpeed(directory, chunk, UPLOAD_BYTES);
    const diskMs = UPLOAD_BYTES / bytesPerMs;
    storageUploadScenario.targets.maxP95Ms = Math.round(diskMs / 0.8);
    console.error(`  磁盘顺序写入 ${(bytesPerMs / 1024).toFixed(0)} MB/s：1 GiB 需 ${diskMs.toFixed(0)} ms，目标 p95 < ${storageUploadScenario.targets.maxP95Ms} ms（≥ 80 %）`);
    const tus = { ...headers, 'tus-resumable': '1.0.0' };
    const metadata = (values: Record<string, string>) => Object.entries(values).map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`).join(',');
    return {
      run: async (run) => {
        const created = await fetch(`${context.baseUrl}/api/v1/storage/tus`, {
          method: 'POST',
          headers: { ...tus, 'upload-length': String(UPLOAD_BYTES), 'upload-metadata': metadata({ zoneId: ZONE, path: '/', filename: `upload-${run % 2}.bin` }) },
        });
        const location = created.headers.get('location');
        if (created.status !== 201 || !location) throw new Error(`创建上传失败（${created.status}）: ${await created.text()}`);
        for (let offset = 0; offset < UPLOAD_BYTES; offset += CHUNK_BYTES) {
          const patched = await fetch(new URL(location, context.baseUrl), {
            method: 'PATCH',
            headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
            body: chunk.subarray(0, Math.min(CHUNK_BYTES, UPLOAD_BYTES - offset)),
          });
          if (patched.status !== 204) throw new Error(`上传第 ${offset} 字节起失败（${patched.status}）: ${await patched.text()}`);
        }
      },
      cleanup: async () => {
        await Promise.all([0, 1].map((index) => rm(join(directory, `upload-${index}.bin`), { force: true })));
      },
    };
  },
};
