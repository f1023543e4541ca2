/**
 * 数据集 over HTTP (issue 22): the seeded public datasets, sharing a folder of 文件存储 as a snapshot,
 * the operator's review, who may see what, favourites, edits and deletion, and datasets in instances
 * (mounted by the simulated driver; the real Docker mount is in the driver contract test and the e2e).
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { mkdtemp, mkdir, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes, type Page } from '@slg/shared';
import type { AdminDatasetView, DatasetView } from '@slg/shared/views/datasets';
import type { StorageListingView } from '@slg/shared/views/storage';
import { call, createTestApp, loginToken, rechargeThroughSandbox, registerUser, settleMachines, type TestApp } from '../../../test/helpers.js';
import { datasets, instances, simMachines, users, wallets } from '../../db/schema/index.js';
import { SessionService } from '../auth/sessions.js';
import { makeOperator, userIdOf } from '../invoices/test-factories.js';
import { fileStorageKey } from '../storage/keys.js';
import { ensurePublicDatasets } from './public-seed.js';
import { removeUnusedSnapshots } from './mounts.js';

let t: TestApp;
let root: string;
let operatorPhone: string;
const ZONE = 'bj-a';
const HOST = 'bj-a-4090-01';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'slg-datasets-'));
  t = await createTestApp({ env: { STORAGE_ROOT: root, SIM_CREATE_SECONDS: '2', SIM_START_SECONDS: '1', SIM_STOP_SECONDS: '1' } });
  await ensurePublicDatasets(t.deps);
  operatorPhone = (await registerUser(t)).telephone;
  await makeOperator(t.deps.database.db, operatorPhone);
});
afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});

const db = () => t.deps.database.db;

interface Account {
  token: string;
  userId: number;
}

async function mainAccount(): Promise<Account> {
  const { telephone, jwtToken } = await registerUser(t);
  return { token: jwtToken, userId: await userIdOf(db(), telephone) };
}

async function subAccount(main: Account, fileStorage: 'ALL' | 'NONE'): Promise<Account> {
  const [sub] = await db()
    .insert(users)
    .values({
      accountType: 2,
      parentId: main.userId,
      username: `ds_${process.pid}_${main.userId}_${fileStorage}`,
      nickName: '数据',
      permissions: { CONTAINER: 'ALL', ELASTIC: 'NONE', MIRROR: 'NONE', FILE_STORAGE: fileStorage, INVOICE: 'NONE', MODEL_DEPLOY: 'NONE' },
    })
    .returning({ id: users.id });
  if (!sub) throw new Error('no sub-account');
  await db().insert(wallets).values({ accountId: sub.id, balanceFen: 0 });
  const session = await db().transaction((tx) => new SessionService(t.deps).start(tx, sub.id));
  return { token: session.jwtToken, userId: sub.id };
}

const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)])).toString();
const api = <T = unknown>(account: Account | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  call<T>(t.app, { method, url: `/api/v1${url}`, ...(account ? { token: account.token } : {}), ...(payload ? { payload } : {}) });
const operator = async (): Promise<Account> => ({ token: await loginToken(t, operatorPhone), userId: await userIdOf(db(), operatorPhone) });

/** A store in ZONE with these files (paths relative to it), written on the backend as an instance would. */
async function storeWith(account: Account, files: Record<string, string>): Promise<string> {
  expect((await api(account, 'POST', '/storage/init', { zoneId: ZONE })).status).toBe(200);
  const directory = join(root, fileStorageKey(account.userId, ZONE));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(directory, path, '..'), { recursive: true });
    await writeFile(join(directory, path), content);
  }
  return directory;
}

async function share(account: Account, body: Record<string, unknown>) {
  return api<{ id: number }>(account, 'POST', '/share-data', { description: '测试数据', zoneId: ZONE, ...body });
}

async function shareFolder(account: Account, name: string, files: Record<string, string> = { 'data/a.txt': 'alpha', 'data/sub/b.txt': 'beta' }): Promise<number> {
  await storeWith(account, files);
  const shared = await share(account, { name, path: '/data', tags: ['测试'], license: 'CC0-1.0' });
  expect(shared.status, JSON.stringify(shared.body)).toBe(200);
  return shared.body.result.id;
}

async function approve(id: number) {
  return api<AdminDatasetView>(await operator(), 'POST', `/admin/share-data/${id}/approve`);
}

async function download(account: Account | null, id: number, path: string) {
  return t.app.inject({ method: 'GET', url: `/api/v1/datasets/${id}/file?${q({ path })}`, headers: account ? { authorization: `Bearer ${account.token}` } : {} });
}

const uniqueName = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

describe('公开数据', () => {
  it('lists the seeded public datasets to anyone, with their size and mount path, and serves their files', async () => {
    const listing = await api<Page<DatasetView>>(null, 'GET', '/public-data/list?pageSize=50');
    expect(listing.status).toBe(200);
    const names = listing.body.result.list.map((dataset) => dataset.name);
    expect(names).toEqual(expect.arrayContaining(['gb2312-hanzi', 'primes-1e6', 'iso3166-regions']));
    const primes = listing.body.result.list.find((dataset) => dataset.name === 'primes-1e6');
    expect(primes).toMatchObject({ kind: 'PUBLIC', status: 'PASS', mountPath: '/root/slg-pub/primes-1e6', fileCount: 2, ownerName: null, favorited: false });
    expect(primes?.sizeBytes).toBeGreaterThan(500_000);

    const files = await api<StorageListingView>(null, 'GET', `/datasets/${primes?.id}/files`);
    expect(files.body.result.items.map((item) => item.name)).toEqual(['primes.txt', 'README.md']);
    const head = await t.app.inject({ method: 'GET', url: `/api/v1/datasets/${primes?.id}/file?${q({ path: '/primes.txt' })}`, headers: { range: 'bytes=0-9' } });
    expect(head.statusCode).toBe(206);
    expect(head.body).toBe('2\n3\n5\n7\n11');
    expect(head.headers['content-disposition']).toContain('attachment');

    const hanzi = listing.body.result.list.find((dataset) => dataset.name === 'gb2312-hanzi');
    const csv = (await download(null, hanzi?.id ?? 0, '/gb2312-hanzi.csv')).body.split('\n');
    expect(csv).toHaveLength(6765);
    expect(csv[1]).toBe('1601,B0A1,U+554A,啊,一级');
  });

  it('seeding twice registers nothing new and an operator’s withdrawal stays', async () => {
    const count = async () => (await db().select({ id: datasets.id }).from(datasets).where(eq(datasets.kind, 'PUBLIC'))).length;
    const before = await count();
    await ensurePublicDatasets(t.deps);
    expect(await count()).toBe(before);
  });
});

describe('共享数据: review and visibility', () => {
  it('is IN_REVIEW and hidden from others until the operator approves; then anyone reads it and favourites it once', async () => {
    const owner = await mainAccount();
    const other = await mainAccount();
    const name = uniqueName('images');
    const id = await shareFolder(owner, name);

    const mine = await api<Page<DatasetView>>(owner, 'GET', '/share-data/list/me');
    expect(mine.body.result.list[0]).toMatchObject({ id, name, status: 'IN_REVIEW', mine: true, zoneId: ZONE, sourcePath: '/data', fileCount: 2, sizeBytes: 9, tags: ['测试'], license: 'CC0-1.0' });
    // Not listed, not readable, not favourable for anyone else.
    expect((await api<Page<DatasetView>>(other, 'GET', `/share-data/list?${q({ name })}`)).body.result.total).toBe(0);
    expect((await api(other, 'GET', `/share-data/${id}`)).status).toBe(404);
    expect((await api(other, 'GET', `/datasets/${id}/files`)).status).toBe(404);
    expect((await download(other, id, '/a.txt')).statusCode).toBe(404);
    expect((await api(other, 'POST', `/share-data/favorites/${id}`)).status).toBe(404);
    // The owner reads their own.
    expect((await download(owner, id, '/a.txt')).body).toBe('alpha');

    // The queue shows it with its owner; approving it twice is refused the second time.
    const queue = await api<Page<AdminDatasetView>>(await operator(), 'GET', '/admin/share-data?pageSize=100');
    expect(queue.body.result.list.find((item) => item.id === id)).toMatchObject({ ownerId: owner.userId, status: 'IN_REVIEW' });
    const approved = await approve(id);
    expect(approved.status).toBe(200);
    expect(approved.body.result.status).toBe('PASS');
    expect((await approve(id)).status).toBe(409);
    expect((await api(owner, 'GET', '/share-data/list')).status).toBe(200);

    const listed = await api<Page<DatasetView>>(null, 'GET', `/share-data/list?${q({ name })}`);
    expect(listed.body.result.list).toHaveLength(1);
    expect(listed.body.result.list[0]).toMatchObject({ id, rejectReason: null, zoneId: null, sourcePath: null, mine: false });
    const files = await api<StorageListingView>(other, 'GET', `/datasets/${id}/files?${q({ path: '/sub' })}`);
    expect(files.body.result.items.map((item) => item.name)).toEqual(['b.txt']);
    expect((await download(other, id, '/sub/b.txt')).body).toBe('beta');

    for (let attempt = 0; attempt < 2; attempt += 1) expect((await api<DatasetView>(other, 'POST', `/share-data/favorites/${id}`)).body.result).toMatchObject({ favorited: true, favoriteCount: 1 });
    const favorites = await api<Page<DatasetView>>(other, 'GET', '/share-data/favorites');
    expect(favorites.body.result.list.map((dataset) => dataset.id)).toEqual([id]);
    for (let attempt = 0; attempt < 2; attempt += 1) expect((await api<DatasetView>(other, 'DELETE', `/share-data/favorites/${id}`)).body.result).toMatchObject({ favorited: false, favoriteCount: 0 });
    expect((await api<Page<DatasetView>>(other, 'GET', '/share-data/favorites')).body.result.total).toBe(0);

    // The owner is told.
    const notices = await api<Page<{ kind: string; title: string }>>(owner, 'GET', '/notifications?pageSize=50');
    expect(notices.body.result.list.some((notice) => notice.kind === 'DATASET_REVIEWED' && notice.title.includes('已通过审核'))).toBe(true);
  });

  it('a REJECTED dataset shows its reason to the owner only and stays unreadable to others', async () => {
    const owner = await mainAccount();
    const other = await mainAccount();
    const id = await shareFolder(owner, uniqueName('rejected'));
    const rejected = await api<AdminDatasetView>(await operator(), 'POST', `/admin/share-data/${id}/reject`, { reason: '包含个人信息' });
    expect(rejected.body.result).toMatchObject({ status: 'REJECTED', rejectReason: '包含个人信息' });
    expect((await api(await operator(), 'POST', `/admin/share-data/${id}/reject`, { reason: '再次' })).status).toBe(409);
    expect((await api(await operator(), 'POST', `/admin/share-data/${id}/reject`, { reason: ' ' })).body).toMatchObject({ rspmsg: '请填写驳回原因' });

    const mine = await api<DatasetView>(owner, 'GET', `/share-data/${id}`);
    expect(mine.body.result).toMatchObject({ status: 'REJECTED', rejectReason: '包含个人信息' });
    expect((await api(other, 'GET', `/share-data/${id}`)).status).toBe(404);
    expect((await api(other, 'GET', `/datasets/${id}/files`)).status).toBe(404);
    expect((await download(other, id, '/a.txt')).statusCode).toBe(404);
    expect((await download(null, id, '/a.txt')).statusCode).toBe(404);
  });

  it('download links follow visibility: a visitor’s link to a PASS dataset works, none is given for another’s REJECTED one, a deleted one stops', async () => {
    const owner = await mainAccount();
    const other = await mainAccount();
    const id = await shareFolder(owner, uniqueName('linked'));
    expect((await api(other, 'POST', `/datasets/${id}/download-url`, { path: '/a.txt' })).status).toBe(404);
    const own = await api<{ url: string }>(owner, 'POST', `/datasets/${id}/download-url`, { path: '/a.txt' });
    expect((await t.app.inject({ method: 'GET', url: own.body.result.url })).body).toBe('alpha');
    await approve(id);
    const visitor = await api<{ url: string }>(null, 'POST', `/datasets/${id}/download-url`, { path: '/sub/b.txt' });
    expect((await t.app.inject({ method: 'GET', url: visitor.body.result.url })).body).toBe('beta');
    await api(owner, 'DELETE', `/share-data/${id}`);
    expect((await t.app.inject({ method: 'GET', url: visitor.body.result.url })).statusCode).toBe(404);
  });

  it('only operators review', async () => {
    const owner = await mainAccount();
    const id = await shareFolder(owner, uniqueName('self'));
    expect((await api(owner, 'POST', `/admin/share-data/${id}/approve`)).status).toBe(403);
    expect((await api(owner, 'GET', '/admin/share-data')).status).toBe(403);
  });
});

describe('共享数据: the snapshot', () => {
  it('later changes to the folder, and deleting it, do not reach the dataset; escaping symlinks are not copied', async () => {
    const owner = await mainAccount();
    const directory = await storeWith(owner, { 'src/keep.txt': 'original', 'src/deep/x.bin': 'xyz' });
    await symlink('/etc/passwd', join(directory, 'src', 'passwd'));
    await symlink(join(root, '..'), join(directory, 'src', 'up'));
    const shared = await share(owner, { name: uniqueName('snap'), path: '/src' });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    const id = shared.body.result.id;
    expect((await api<StorageListingView>(owner, 'GET', `/datasets/${id}/files`)).body.result.items.map((item) => item.name)).toEqual(['deep', 'keep.txt']);

    await writeFile(join(directory, 'src', 'keep.txt'), 'changed');
    await writeFile(join(directory, 'src', 'new.txt'), 'new');
    expect((await download(owner, id, '/keep.txt')).body).toBe('original');
    expect((await api(owner, 'DELETE', `/storage/files?${q({ zoneId: ZONE, path: '/src' })}`)).status).toBe(200);
    expect((await download(owner, id, '/keep.txt')).body).toBe('original');
    expect((await download(owner, id, '/deep/x.bin')).body).toBe('xyz');
    expect((await api<DatasetView>(owner, 'GET', `/share-data/${id}`)).body.result).toMatchObject({ fileCount: 2, sizeBytes: 11 });
  });

  it('refuses paths that leave the store, files and folders that do not exist, in Chinese', async () => {
    const owner = await mainAccount();
    await storeWith(owner, { 'plain.txt': 'x' });
    expect((await share(owner, { name: uniqueName('up'), path: '../..' })).status).toBe(400);
    const notFolder = await share(owner, { name: uniqueName('file'), path: '/plain.txt' });
    expect(notFolder.status).toBe(409);
    expect(notFolder.body).toMatchObject({ rspmsg: '只能共享文件夹：该路径是文件' });
    const missing = await share(owner, { name: uniqueName('none'), path: '/nothing' });
    expect(missing.status).toBe(404);
    const noStore = await mainAccount();
    expect((await share(noStore, { name: uniqueName('nostore'), path: '/' })).body).toMatchObject({ rspmsg: '该地区的文件存储尚未初始化，请先初始化' });
    // Nothing half-made: no rows, no snapshot left behind.
    expect((await api<Page<DatasetView>>(owner, 'GET', '/share-data/list/me')).body.result.total).toBe(0);
  });
});

describe('共享数据: names, edits, deletion, sub-accounts', () => {
  it('names are unique per owner (40026), free across owners, and must be folder names', async () => {
    const owner = await mainAccount();
    const other = await mainAccount();
    const name = uniqueName('dup');
    await shareFolder(owner, name);
    const again = await share(owner, { name, path: '/data' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ rspcode: ErrorCodes.NAME_EXISTS.code, rspmsg: '名称已存在，请重新输入' });
    expect(await shareFolder(other, name)).toBeGreaterThan(0);
    for (const bad of ['.hidden', 'a/b', '', 'x'.repeat(65), 'a b']) {
      const refused = await share(owner, { name: bad, path: '/data' });
      expect(refused.status, bad).toBe(400);
    }
    expect((await share(owner, { name: uniqueName('lic'), path: '/data', license: 'GPL' })).status).toBe(400);
  });

  it('parallel shares under one name: exactly one is made, the rest get 40026 and leave no snapshot behind', async () => {
    const owner = await mainAccount();
    await storeWith(owner, { 'data/a.txt': 'alpha' });
    await mkdir(join(root, '.datasets'), { recursive: true });
    const before = await readdir(join(root, '.datasets'));
    const name = uniqueName('race');
    const results = await Promise.all(Array.from({ length: 6 }, () => share(owner, { name, path: '/data' })));
    expect(results.filter((result) => result.status === 200)).toHaveLength(1);
    expect(results.filter((result) => result.status === 409).every((result) => (result.body as { rspcode: number }).rspcode === ErrorCodes.NAME_EXISTS.code)).toBe(true);
    expect((await readdir(join(root, '.datasets'))).length - before.length).toBe(1);
  });

  it('an edit returns a PASS dataset to review (hidden again); a new path takes a new snapshot', async () => {
    const owner = await mainAccount();
    const other = await mainAccount();
    const id = await shareFolder(owner, uniqueName('edit'), { 'data/a.txt': 'alpha', 'v2/c.txt': 'gamma' });
    await approve(id);
    expect((await api(other, 'GET', `/share-data/${id}`)).status).toBe(200);

    const edited = await api<DatasetView>(owner, 'PUT', `/share-data/${id}`, { description: '新的描述', path: '/v2' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.result).toMatchObject({ status: 'IN_REVIEW', description: '新的描述', sourcePath: '/v2', fileCount: 1, reviewedAt: null });
    expect((await api(other, 'GET', `/share-data/${id}`)).status).toBe(404);
    expect((await download(owner, id, '/c.txt')).body).toBe('gamma');
    expect((await api(other, 'PUT', `/share-data/${id}`, { description: '别人的' })).status).toBe(404);
  });

  it('deleting removes it from every list and favourite at once', async () => {
    const owner = await mainAccount();
    const other = await mainAccount();
    const id = await shareFolder(owner, uniqueName('gone'));
    await approve(id);
    await api(other, 'POST', `/share-data/favorites/${id}`);
    expect((await api(other, 'DELETE', `/share-data/${id}`)).status).toBe(404);
    expect((await api(owner, 'DELETE', `/share-data/${id}`)).status).toBe(200);
    expect((await api(other, 'GET', `/share-data/${id}`)).status).toBe(404);
    expect((await api<Page<DatasetView>>(other, 'GET', '/share-data/favorites')).body.result.total).toBe(0);
    expect((await api<Page<DatasetView>>(owner, 'GET', '/share-data/list/me')).body.result.total).toBe(0);
  });

  it('sub-accounts share for their main account with FILE_STORAGE, and only read without it', async () => {
    const owner = await mainAccount();
    await storeWith(owner, { 'team/a.txt': 'team' });
    const withStorage = await subAccount(owner, 'ALL');
    const without = await subAccount(owner, 'NONE');
    const shared = await share(withStorage, { name: uniqueName('team'), path: '/team' });
    expect(shared.status).toBe(200);
    expect((await api<Page<DatasetView>>(owner, 'GET', '/share-data/list/me')).body.result.list[0]).toMatchObject({ id: shared.body.result.id, mine: true });
    expect((await share(without, { name: uniqueName('no'), path: '/team' })).status).toBe(403);
    expect((await api(without, 'GET', '/share-data/list/me')).status).toBe(403);
    expect((await api(without, 'GET', '/public-data/list')).status).toBe(200);
    expect((await api(without, 'GET', '/share-data/favorites')).status).toBe(200);
  });
});

describe('datasets in instances', () => {
  async function fundedAccount(): Promise<Account> {
    const account = await mainAccount();
    await rechargeThroughSandbox(t, account.token, 100_000);
    return account;
  }

  async function rent(account: Account, datasetIds?: number[]) {
    return api<{ instanceId: string }>(account, 'POST', '/rental', {
      hostId: HOST,
      gpuNum: 1,
      imageId: 'pytorch-2.5.1-py3.12-cu124',
      chargingRuleId: 1,
      ...(datasetIds ? { datasetIds } : {}),
    });
  }

  const machineDatasets = async (instanceId: string) => {
    const [machine] = await db().select({ datasets: simMachines.datasets }).from(simMachines).where(eq(simMachines.instanceId, instanceId));
    return machine?.datasets.map((mount) => mount.name).sort();
  };

  it('mounts the public datasets and the named shared ones the renter may see, read-only under /root/slg-pub', async () => {
    const sharer = await mainAccount();
    const renter = await fundedAccount();
    const passed = await shareFolder(sharer, uniqueName('passed'));
    const [passedRow] = await db().select().from(datasets).where(eq(datasets.id, passed));
    await approve(passed);
    const inReview = await shareFolder(sharer, uniqueName('waiting'));
    const own = await shareFolder(renter, uniqueName('own'));

    expect((await rent(renter, [inReview])).body).toMatchObject({ rspmsg: `数据集 ${inReview} 不存在或未通过审核` });
    const created = await rent(renter, [passed, own]);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { instanceId } = created.body.result;
    await settleMachines(t, 3);
    expect(await machineDatasets(instanceId)).toEqual(['gb2312-hanzi', 'iso3166-regions', 'primes-1e6', passedRow?.name, (await db().select().from(datasets).where(eq(datasets.id, own)))[0]?.name].sort());
    const [row] = await db().select({ sources: instances.datasetSources }).from(instances).where(eq(instances.instanceId, instanceId));
    expect(row?.sources).toContain(passedRow?.snapshot);

    // Rejected since: left out from the next start.
    await api(await operator(), 'POST', `/admin/share-data/${own}/reject`, { reason: '不适合公开' });
    expect((await api(renter, 'POST', '/rental/power_off', { instanceId })).status).toBe(200);
    await settleMachines(t, 2);
    expect((await api(renter, 'POST', '/rental/power_on', { instanceId })).status).toBe(200);
    await settleMachines(t, 2);
    // The renter owns it: their own rejected dataset still mounts for them.
    expect(await machineDatasets(instanceId)).toContain((await db().select().from(datasets).where(eq(datasets.id, own)))[0]?.name);
    expect(await machineDatasets(instanceId)).toContain(passedRow?.name);
  });

  it('refuses two datasets that would share a mount path, and a name a public dataset has', async () => {
    const renter = await fundedAccount();
    const first = await mainAccount();
    const second = await mainAccount();
    const name = uniqueName('twin');
    const a = await shareFolder(first, name);
    const b = await shareFolder(second, name);
    await approve(a);
    await approve(b);
    expect((await rent(renter, [a, b])).body).toMatchObject({ rspmsg: `所选数据集中有两个都叫「${name}」，挂载路径会冲突，请只选其中一个` });
    const clash = await shareFolder(first, 'primes-1e6');
    await approve(clash);
    expect((await rent(renter, [clash])).status).toBe(400);
    expect((await rent(renter, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])).status).toBe(400);
  });

  it('removes a deleted dataset’s snapshot once no machine that is not released has it', async () => {
    const owner = await fundedAccount();
    const id = await shareFolder(owner, uniqueName('cleanup'));
    const [row] = await db().select().from(datasets).where(eq(datasets.id, id));
    const snapshot = row?.snapshot ?? '';
    const created = await rent(owner, [id]);
    await settleMachines(t, 3);
    expect((await api(owner, 'DELETE', `/share-data/${id}`)).status).toBe(200);
    const old = new Date(t.deps.now().getTime() - 2 * 3_600_000);
    await utimes(join(root, snapshot), old, old);

    await removeUnusedSnapshots(db(), root, t.deps.now());
    expect(await readdir(join(root, '.datasets'))).toContain(snapshot.split('/')[1]);
    await db().update(instances).set({ releasedAt: t.deps.now() }).where(eq(instances.instanceId, created.body.result.instanceId));
    await removeUnusedSnapshots(db(), root, t.deps.now());
    expect(await readdir(join(root, '.datasets'))).not.toContain(snapshot.split('/')[1]);
  });
});
