import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { DatasetMount } from '../../compute/driver.js';
import type { Executor } from '../../db/client.js';
import { datasets, instances } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { removeDirectory } from '../storage/tree.js';
import { visibleTo } from './visibility.js';
import { SHARED_SNAPSHOTS_DIR } from './keys.js';

/**
 * Datasets in machines (docs/api-datasets.md "In instances"): every create and power-on mounts the
 * public datasets and the shared ones the instance named that its owner may still see (approved, or
 * the owner's own), each read-only at /root/slg-pub/<name>. A name appears once: public ones first.
 */
export interface DatasetCatalogue {
  publicMounts: DatasetMount[];
  shared: Map<number, { name: string; source: string; ownerId: number | null; status: string }>;
}

/** What this pass's machines may mount, in one query. */
export async function datasetCatalogue(executor: Executor, wanted: readonly { datasetIds: readonly number[] }[]): Promise<DatasetCatalogue> {
  const ids = [...new Set(wanted.flatMap((instance) => instance.datasetIds))];
  const rows = await executor
    .select({ id: datasets.id, kind: datasets.kind, name: datasets.name, snapshot: datasets.snapshot, ownerId: datasets.ownerId, status: datasets.status })
    .from(datasets)
    .where(and(isNull(datasets.deletedAt), ids.length > 0 ? or(eq(datasets.kind, 'PUBLIC'), inArray(datasets.id, ids)) : eq(datasets.kind, 'PUBLIC')));
  const publicMounts = rows
    .filter((row) => row.kind === 'PUBLIC')
    .map((row) => ({ name: row.name, source: row.snapshot }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const shared = new Map(rows.filter((row) => row.kind === 'SHARED').map((row) => [row.id, { name: row.name, source: row.snapshot, ownerId: row.ownerId, status: row.status }]));
  return { publicMounts, shared };
}

/** The datasets one machine mounts. */
export function datasetMountsFor(instance: { ownerId: number; datasetIds: readonly number[] }, catalogue: DatasetCatalogue): DatasetMount[] {
  const mounts = [...catalogue.publicMounts];
  const names = new Set(mounts.map((mount) => mount.name));
  for (const id of instance.datasetIds) {
    const dataset = catalogue.shared.get(id);
    if (!dataset || names.has(dataset.name)) continue;
    if (dataset.status !== 'PASS' && dataset.ownerId !== instance.ownerId) continue;
    names.add(dataset.name);
    mounts.push({ name: dataset.name, source: dataset.source });
  }
  return mounts;
}

/** A snapshot younger than this is left alone: it may belong to a share that is still copying. */
const SNAPSHOT_GRACE_MS = 60 * 60_000;

/**
 * Removes the snapshots under `.datasets/` that nothing needs any more: no live dataset has it, and no
 * machine that is not released was asked to mount it. Returns how many went.
 */
export async function removeUnusedSnapshots(executor: Executor, storageRoot: string, now: Date): Promise<number> {
  const folder = join(storageRoot, SHARED_SNAPSHOTS_DIR);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return 0;
  }
  if (names.length === 0) return 0;
  const current = await executor.select({ snapshot: datasets.snapshot }).from(datasets).where(and(eq(datasets.kind, 'SHARED'), isNull(datasets.deletedAt)));
  const mounted = await executor
    .select({ source: sql<string>`jsonb_array_elements_text(${instances.datasetSources})` })
    .from(instances)
    .where(and(isNull(instances.releasedAt), isNotNull(instances.datasetSources), sql`jsonb_array_length(${instances.datasetSources}) > 0`));
  const needed = new Set([...current.map((row) => row.snapshot), ...mounted.map((row) => row.source)]);
  let removed = 0;
  for (const name of names) {
    const key = `${SHARED_SNAPSHOTS_DIR}/${name}`;
    if (needed.has(key)) continue;
    const stats = await stat(join(folder, name)).catch(() => null);
    if (!stats || now.getTime() - stats.mtimeMs < SNAPSHOT_GRACE_MS) continue;
    await removeDirectory(join(folder, name));
    removed += 1;
  }
  return removed;
}

/**
 * The datasets an instance may name at create or clone: visible to the caller and shared (public ones
 * are mounted anyway). Ones that are not are refused, or with `dropUnusable` (a clone inheriting its
 * source's) left out.
 */
export async function usableDatasetIds(executor: Executor, principal: Principal, ids: readonly number[], dropUnusable = false): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await executor
    .select({ id: datasets.id, name: datasets.name, kind: datasets.kind })
    .from(datasets)
    .where(and(inArray(datasets.id, unique), isNull(datasets.deletedAt), visibleTo(principal)));
  const found = new Map(rows.map((row) => [row.id, row]));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length > 0 && !dropUnusable) throw new AppError('NOT_FOUND', `数据集 ${missing.join('、')} 不存在或未通过审核`);
  const publicNames = new Set(
    (await executor.select({ name: datasets.name }).from(datasets).where(and(eq(datasets.kind, 'PUBLIC'), isNull(datasets.deletedAt)))).map((row) => row.name),
  );
  const names = new Set<string>();
  for (const row of rows) {
    if (row.kind === 'PUBLIC') continue;
    if (publicNames.has(row.name)) throw new AppError('VALIDATION', `数据集「${row.name}」与同名的公开数据集都挂载在 /root/slg-pub/${row.name}，不能同时挂载`);
    if (names.has(row.name)) throw new AppError('VALIDATION', `所选数据集中有两个都叫「${row.name}」，挂载路径会冲突，请只选其中一个`);
    names.add(row.name);
  }
  return rows.filter((row) => row.kind === 'SHARED').map((row) => row.id);
}
