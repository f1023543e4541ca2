/**
 * 文件存储 over HTTP (issue 22): initialisation, sub-accounts, the file operations, uploads (PUT and
 * tus with pause and resume), downloads with Range, the quota under parallel uploads, arrears, the
 * measurement and deletion of a store. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set (the
 * parallel uploads are real HTTP requests to a listening app; they prove most there).
 */
import { mkdtemp, mkdir, readdir, readFile, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_STORAGE_GB_BYTES } from '@slg/shared';
import type { FileStorageView, StorageEntryView, StorageListingView } from '@slg/shared/views/storage';
import { call, createTestApp, listenLocally, registerUser, type TestApp } from '../../../test/helpers.js';
import { fileStorages, orders, users, wallets } from '../../db/schema/index.js';
import { SessionService } from '../auth/sessions.js';
import { fileStorageKey } from './keys.js';
import { listMarkers, stagingDirs } from './quota.js';
import { measureFileStorages, removeFileStorageFiles } from './usage.js';

let t: TestApp;
let root: string;
const ZONE = 'bj-a';
const GB = FILE_STORAGE_GB_BYTES;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'slg-storage-'));
  t = await createTestApp({ env: { STORAGE_ROOT: root } });
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
  const { jwtToken } = await registerUser(t);
  const info = await call<{ userId: number }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: jwtToken });
  return { token: jwtToken, userId: info.body.result.userId };
}

let subCounter = 0;
async function subAccount(main: Account, level: 'ALL' | 'NONE'): Promise<Account> {
  const [sub] = await db()
    .insert(users)
    .values({
      accountType: 2,
      parentId: main.userId,
      username: `fs_${process.pid}_${++subCounter}`,
      nickName: '存储',
      permissions: { CONTAINER: 'NONE', ELASTIC: 'NONE', MIRROR: 'NONE', FILE_STORAGE: level, INVOICE: 'NONE', MODEL_DEPLOY: 'NONE' },
    })
    .returning({ id: users.id });
  if (!sub) throw new Error('no sub-account');
  await db().insert(wallets).values({ accountId: sub.id, balanceFen: 0 });
  const session = await db().transaction((tx) => new SessionService(t.deps).start(tx, sub.id));
  return { token: session.jwtToken, userId: sub.id };
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
const dirOf = (ownerId: number, zoneId = ZONE) => join(root, fileStorageKey(ownerId, zoneId));

async function init(account: Account, zoneId = ZONE) {
  return call<FileStorageView>(t.app, { method: 'POST', url: '/api/v1/storage/init', token: account.token, payload: { zoneId } });
}

async function put(account: Account, path: string, content: Buffer | string, zoneId = ZONE) {
  return call<StorageEntryView>(t.app, {
    method: 'PUT',
    url: `/api/v1/storage/file?${q({ zoneId, path })}`,
    token: account.token,
    headers: { 'content-type': 'application/octet-stream' },
    payload: typeof content === 'string' ? Buffer.from(content) : content,
  });
}

async function list(account: Account, path = '/', zoneId = ZONE) {
  return call<StorageListingView>(t.app, { method: 'GET', url: `/api/v1/storage/files?${q({ zoneId, path })}`, token: account.token });
}

async function view(account: Account, zoneId = ZONE) {
  return (await call<FileStorageView>(t.app, { method: 'GET', url: `/api/v1/storage?${q({ zoneId })}`, token: account.token })).body.result;
}

async function storeRow(ownerId: number, zoneId = ZONE) {
  const [row] = await db()
    .select()
    .from(fileStorages)
    .where(and(eq(fileStorages.ownerId, ownerId), eq(fileStorages.zoneId, zoneId), isNull(fileStorages.deletedAt)));
  if (!row) throw new Error('no store');
  return row;
}

async function storeRowOf(account: Account) {
  return storeRow(account.userId);
}

async function download(account: Account, path: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: `/api/v1/storage/file?${q({ zoneId: ZONE, path })}`, headers: { authorization: `Bearer ${account.token}`, ...headers } });
}

const tusMetadata = (entries: Record<string, string>) =>
  Object.entries(entries)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

async function tusCreate(account: Account, length: number, metadata: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/storage/tus',
    headers: { authorization: `Bearer ${account.token}`, 'tus-resumable': '1.0.0', 'upload-length': String(length), 'upload-metadata': tusMetadata(metadata) },
  });
}

async function tusPatch(account: Account, location: string, offset: number, bytes: Buffer) {
  return t.app.inject({
    method: 'PATCH',
    url: location,
    headers: { authorization: `Bearer ${account.token}`, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    payload: bytes,
  });
}

async function tusHead(account: Account, location: string) {
  return t.app.inject({ method: 'HEAD', url: location, headers: { authorization: `Bearer ${account.token}`, 'tus-resumable': '1.0.0' } });
}

describe('initialisation', () => {
  it('is free and idempotent: one NEW_STORAGE usage order of 0, one row, the directory', async () => {
    const main = await mainAccount();
    const before = await view(main);
    expect(before).toMatchObject({ zoneId: ZONE, initialized: false, usedBytes: 0, quotaBytes: 0, mountPath: '/root/slg-fs', writesBlocked: false });
    expect(before.freeBytes).toBe(20 * GB);

    const first = await init(main);
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({ initialized: true, usedBytes: 0, quotaBytes: 200 * GB, writesBlocked: false });
    const again = await Promise.all([init(main), init(main), init(main)]);
    for (const answer of again) expect(answer.body.result).toEqual(first.body.result);

    const stores = await db().select().from(fileStorages).where(eq(fileStorages.ownerId, main.userId));
    expect(stores).toHaveLength(1);
    const store = stores[0]!;
    expect(store).toMatchObject({ creatorId: main.userId, quotaGb: 200, usedBytes: 0 });
    expect(store.billedUntil.getTime()).toBeLessThanOrEqual(t.deps.now().getTime());
    const storeOrders = await db().select().from(orders).where(and(eq(orders.ownerId, main.userId), eq(orders.type, 'NEW_STORAGE')));
    expect(storeOrders).toHaveLength(1);
    expect(storeOrders[0]).toMatchObject({ id: store.orderId, status: 'PLACED', billingType: 'USAGE', originalAmountFen: 0, paidFen: 0, walletId: main.userId });
    expect((await stat(dirOf(main.userId))).isDirectory()).toBe(true);

    const regions = await call<FileStorageView[]>(t.app, { method: 'GET', url: '/api/v1/storage/list', token: main.token });
    expect(regions.body.result.length).toBeGreaterThan(1);
    expect(regions.body.result.filter((item) => item.initialized).map((item) => item.zoneId)).toEqual([ZONE]);
  });

  it('refuses an unknown region and a malformed one in Chinese', async () => {
    const main = await mainAccount();
    const unknown = await init(main, 'nowhere');
    expect(unknown.status).toBe(404);
    expect(unknown.body.rspmsg).toBe('地区不存在或未开放');
    const malformed = await init(main, '../x');
    expect(malformed.status).toBe(400);
    expect(malformed.body.rspmsg).toBe('地区ID格式不正确');
    const files = await list(main, '/', 'bj-b');
    expect(files.status).toBe(404);
    expect(files.body.rspmsg).toBe('该地区的文件存储尚未初始化，请先初始化');
  });
});

describe('sub-accounts', () => {
  it('with FILE_STORAGE = ALL work on the main account’s store; NONE is refused', async () => {
    const main = await mainAccount();
    const all = await subAccount(main, 'ALL');
    const none = await subAccount(main, 'NONE');

    const initialised = await init(all, 'bj-b');
    expect(initialised.status).toBe(200);
    const store = await storeRow(main.userId, 'bj-b');
    expect(store.creatorId).toBe(all.userId);
    const [order] = await db().select().from(orders).where(eq(orders.id, store.orderId!));
    expect(order).toMatchObject({ ownerId: main.userId, creatorId: all.userId, walletId: main.userId });

    expect((await put(all, '/from-sub.txt', 'sub', 'bj-b')).status).toBe(200);
    expect((await list(main, '/', 'bj-b')).body.result.items.map((item) => item.name)).toEqual(['from-sub.txt']);
    expect((await readFile(join(dirOf(main.userId, 'bj-b'), 'from-sub.txt'), 'utf8'))).toBe('sub');

    for (const [method, url] of [
      ['GET', `/api/v1/storage?${q({ zoneId: 'bj-b' })}`],
      ['GET', `/api/v1/storage/files?${q({ zoneId: 'bj-b' })}`],
      ['GET', `/api/v1/storage/file?${q({ zoneId: 'bj-b', path: '/from-sub.txt' })}`],
      ['DELETE', `/api/v1/storage/files?${q({ zoneId: 'bj-b', path: '/from-sub.txt' })}`],
    ] as const) {
      const refused = await call(t.app, { method, url, token: none.token });
      expect(refused.status, url).toBe(403);
      expect(refused.body.rspmsg).toBe('没有权限访问该资源');
    }
    expect((await put(none, '/x.txt', 'x', 'bj-b')).status).toBe(403);
    expect((await tusCreate(none, 1, { zoneId: 'bj-b', path: '/', filename: 'x' })).statusCode).toBe(403);
  });

  it('are offered FILE_STORAGE with ALL or NONE only', async () => {
    const main = await mainAccount();
    const options = await call<{ authorityType: string; levels: { level: string }[] }[]>(t.app, { method: 'GET', url: '/api/v1/subuser/authority/permissions', token: main.token });
    expect(options.body.result.find((option) => option.authorityType === 'FILE_STORAGE')?.levels.map((level) => level.level)).toEqual(['ALL', 'NONE']);
  });
});

describe('files', () => {
  let main: Account;
  beforeAll(async () => {
    main = await mainAccount();
    await init(main);
  });

  it('makes folders, uploads, lists (folders first), renames, moves and deletes', async () => {
    const made = await call<StorageEntryView>(t.app, { method: 'POST', url: '/api/v1/storage/dir', token: main.token, payload: { zoneId: ZONE, path: '/数据集/images' } });
    expect(made.status).toBe(200);
    expect(made.body.result).toMatchObject({ name: 'images', type: 'dir', size: 0 });
    const twice = await call(t.app, { method: 'POST', url: '/api/v1/storage/dir', token: main.token, payload: { zoneId: ZONE, path: '/数据集/images' } });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ rspcode: 40026, rspmsg: '名称已存在，请重新输入' });

    const uploaded = await put(main, '/数据集/说明.txt', '你好，算力港');
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.result).toMatchObject({ name: '说明.txt', type: 'file', size: Buffer.byteLength('你好，算力港') });
    expect((await put(main, '/b.bin', Buffer.alloc(10, 1))).status).toBe(200);
    expect((await put(main, '/a.bin', Buffer.alloc(3, 1))).status).toBe(200);
    // Parents are made as needed.
    expect((await put(main, '/deep/er/file.txt', 'deep')).status).toBe(200);
    // `curl -T` sends no Content-Type at all.
    const untyped = await t.app.inject({ method: 'PUT', url: `/api/v1/storage/file?${q({ zoneId: ZONE, path: '/deep/untyped.txt' })}`, headers: { authorization: `Bearer ${main.token}` }, payload: 'plain' });
    expect(untyped.statusCode, untyped.body).toBe(200);
    expect(await readFile(join(dirOf(main.userId), 'deep', 'untyped.txt'), 'utf8')).toBe('plain');

    const top = await list(main);
    expect(top.status).toBe(200);
    expect(top.body.result.items.map((item) => `${item.type}:${item.name}`)).toEqual(['dir:deep', 'dir:数据集', 'file:a.bin', 'file:b.bin']);
    expect(top.body.result.items.find((item) => item.name === 'b.bin')).toMatchObject({ size: 10 });
    expect(Number.isNaN(Date.parse(top.body.result.items[0]!.modifiedAt))).toBe(false);
    // `a/b`, `/a/b` and `/a//b/` name the same folder.
    for (const path of ['数据集', '/数据集', '/数据集//', '数据集/']) {
      expect((await list(main, path)).body.result.items.map((item) => item.name), path).toEqual(['images', '说明.txt']);
    }

    // Re-upload replaces the file.
    expect((await put(main, '/a.bin', Buffer.alloc(5, 2))).body.result.size).toBe(5);
    expect(await readFile(join(dirOf(main.userId), 'a.bin'))).toEqual(Buffer.alloc(5, 2));

    const rename = (from: string, to: string) => call(t.app, { method: 'PUT', url: '/api/v1/storage/rename', token: main.token, payload: { zoneId: ZONE, from, to } });
    expect((await rename('/a.bin', '/b.bin')).body).toMatchObject({ rspcode: 40026, rspmsg: '名称已存在，请重新输入' });
    expect((await rename('/a.bin', '/c.bin')).status).toBe(200);
    expect((await rename('/c.bin', '/数据集/images/c.bin')).status).toBe(200);
    expect((await rename('/数据集', '/数据集/images/x')).body.rspmsg).toBe('不能把文件夹移动到它自己的子文件夹中');
    expect((await rename('/nothing', '/x')).status).toBe(404);
    expect((await rename('/deep', '/nowhere/deep')).status).toBe(404);
    expect((await list(main, '/数据集/images')).body.result.items.map((item) => item.name)).toEqual(['c.bin']);

    const remove = (path: string) => call(t.app, { method: 'DELETE', url: `/api/v1/storage/files?${q({ zoneId: ZONE, path })}`, token: main.token });
    for (const path of ['/', '', '//']) {
      const refused = await remove(path);
      expect(refused.status, path).toBe(400);
      expect(refused.body.rspmsg).toBe('不能删除存储根目录');
    }
    expect((await remove('/数据集')).status).toBe(200);
    expect((await remove('/b.bin')).status).toBe(200);
    expect((await remove('/b.bin')).status).toBe(404);
    expect((await list(main)).body.result.items.map((item) => item.name)).toEqual(['deep']);
    // Deletions come off the usage at once.
    expect((await view(main)).usedBytes).toBe(4 + 5);
  });

  it('lists one page at a time in the same order as the whole listing, stating only that page', async () => {
    const account = await mainAccount();
    await init(account);
    const folder = join(dirOf(account.userId), 'paged');
    await mkdir(join(folder, 'z-dir'), { recursive: true });
    await mkdir(join(folder, '中文目录'));
    for (const name of ['b.txt', 'a10.txt', 'a2.txt', '数据.csv']) await writeFile(join(folder, name), name);
    await symlink('/etc/passwd', join(folder, 'link'));
    execFileSync('mkfifo', [join(folder, 'pipe')]);
    const whole = (await list(account, '/paged')).body.result.items.map((item) => item.name);
    expect(whole).toEqual(['z-dir', '中文目录', 'a2.txt', 'a10.txt', 'b.txt', 'link', '数据.csv']);
    const pageOf = async (page: number, pageSize: number) =>
      (await call<StorageListingView>(t.app, { method: 'GET', url: `/api/v1/storage/files?${q({ zoneId: ZONE, path: '/paged', page: String(page), pageSize: String(pageSize) })}`, token: account.token })).body.result;
    const pages = await Promise.all([1, 2, 3].map((page) => pageOf(page, 3)));
    expect(pages.flatMap((page) => page.items.map((item) => item.name))).toEqual(whole);
    expect(pages[0]).toMatchObject({ total: 7, page: 1, pageSize: 3 });
    expect(pages[1]?.items.find((item) => item.name === 'a10.txt')).toMatchObject({ type: 'file', size: 7 });
    expect(pages[2]?.items.map((item) => [item.name, item.size])).toEqual([['数据.csv', 10]]);
    expect(pages[0]?.items[0]).toMatchObject({ name: 'z-dir', type: 'dir', size: 0 });
    expect((await pageOf(5, 3)).items).toEqual([]);
    const named = await call<StorageListingView>(t.app, { method: 'GET', url: `/api/v1/storage/files?${q({ zoneId: ZONE, path: '/paged', page: '1', pageSize: '10', name: 'A1' })}`, token: account.token });
    expect(named.body.result).toMatchObject({ total: 1, items: [expect.objectContaining({ name: 'a10.txt' })] });
    expect((await call(t.app, { method: 'GET', url: `/api/v1/storage/files?${q({ zoneId: ZONE, path: '/paged', pageSize: '5000' })}`, token: account.token })).status).toBe(400);
  });

  it('downloads with Content-Disposition, nosniff and Range', async () => {
    const content = Buffer.from('0123456789abcdef');
    expect((await put(main, '/下载/报告 final.bin', content)).status).toBe(200);
    const whole = await download(main, '/下载/报告 final.bin');
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload).toEqual(content);
    expect(whole.headers['content-type']).toBe('application/octet-stream');
    expect(whole.headers['x-content-type-options']).toBe('nosniff');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-disposition']).toBe(`attachment; filename="__ final.bin"; filename*=UTF-8''${encodeURIComponent('报告 final.bin')}`);

    const part = await download(main, '/下载/报告 final.bin', { range: 'bytes=2-5' });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('2345');
    expect(part.headers['content-range']).toBe('bytes 2-5/16');
    expect((await download(main, '/下载/报告 final.bin', { range: 'bytes=10-' })).body).toBe('abcdef');
    expect((await download(main, '/下载/报告 final.bin', { range: 'bytes=-3' })).body).toBe('def');
    expect((await download(main, '/下载/报告 final.bin', { range: 'bytes=12-99' })).body).toBe('cdef');
    const beyond = await download(main, '/下载/报告 final.bin', { range: 'bytes=16-' });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe('bytes */16');
    expect(beyond.json().rspmsg).toMatch(/超出文件大小/);
    // A stale If-Range sends the whole file.
    expect((await download(main, '/下载/报告 final.bin', { range: 'bytes=0-0', 'if-range': '"other"' })).statusCode).toBe(200);
    // Folders and missing files are refused in the envelope.
    const folder = await download(main, '/下载');
    expect(folder.statusCode).toBe(409);
    expect(folder.json().rspmsg).toMatch(/文件夹不能直接下载/);
    expect((await download(main, '/下载/none')).statusCode).toBe(404);
  });

  it('gives a download link the browser follows without the token, with Range; forged or expired links are refused', async () => {
    await put(main, '/linked/大文件.bin', '0123456789');
    const link = await call<{ url: string; expiresAt: string }>(t.app, { method: 'POST', url: '/api/v1/storage/download-url', token: main.token, payload: { zoneId: ZONE, path: '/linked/大文件.bin' } });
    expect(link.status).toBe(200);
    const whole = await t.app.inject({ method: 'GET', url: link.body.result.url });
    expect(whole.statusCode).toBe(200);
    expect(whole.body).toBe('0123456789');
    expect(whole.headers['content-disposition']).toContain("filename*=UTF-8''%E5%A4%A7%E6%96%87%E4%BB%B6.bin");
    const part = await t.app.inject({ method: 'GET', url: link.body.result.url, headers: { range: 'bytes=2-4' } });
    expect([part.statusCode, part.body]).toEqual([206, '234']);
    const [payload = '', signature = ''] = link.body.result.url.split('token=').pop()?.split('.') ?? [];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), path: '/linked/other.bin' })).toString('base64url');
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/storage/download?token=${forged}.${signature}` })).statusCode).toBe(404);
    // A folder, or another account's path, gets no link.
    expect((await call(t.app, { method: 'POST', url: '/api/v1/storage/download-url', token: main.token, payload: { zoneId: ZONE, path: '/linked' } })).status).toBe(409);
    const other = await mainAccount();
    await init(other);
    expect((await call(t.app, { method: 'POST', url: '/api/v1/storage/download-url', token: other.token, payload: { zoneId: ZONE, path: '/linked/大文件.bin' } })).status).toBe(404);
    t.clock.advance(301);
    const expired = await t.app.inject({ method: 'GET', url: link.body.result.url });
    expect(expired.statusCode).toBe(404);
    expect(expired.json()).toMatchObject({ rspmsg: '下载链接无效或已过期，请回到页面重新下载' });
  });

  it('refuses a PUT with fewer bytes than its Content-Length', async () => {
    const short = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/storage/file?${q({ zoneId: ZONE, path: '/short.bin' })}`,
      headers: { authorization: `Bearer ${main.token}`, 'content-type': 'application/octet-stream', 'content-length': '10' },
      payload: 'abc',
    });
    expect(short.statusCode).toBe(400);
    expect((await list(main)).body.result.items.map((item) => item.name)).not.toContain('short.bin');
    expect(await listMarkers(root)).toEqual([]);
    expect(await readdir(stagingDirs(root).incoming)).toEqual([]);
  });
});

describe('tus uploads', () => {
  let main: Account;
  beforeAll(async () => {
    main = await mainAccount();
    await init(main);
  });

  it('creates, pauses and resumes from HEAD’s offset, and lands the file in its folder', async () => {
    const content = Buffer.from('hello, resumable world!');
    const created = await tusCreate(main, content.length, { zoneId: ZONE, path: '/上传', filename: '问候.txt' });
    expect(created.statusCode).toBe(201);
    const location = created.headers.location as string;
    expect(location).toMatch(/^\/api\/v1\/storage\/tus\/[0-9a-f]{32}$/);
    expect(created.headers['tus-resumable']).toBe('1.0.0');
    expect(created.headers['access-control-allow-origin']).toBeUndefined();
    // Reserved at once; the partial file is outside the user's tree.
    expect((await view(main)).usedBytes).toBe(content.length);
    expect((await list(main)).body.result.items).toEqual([]);

    const first = await tusPatch(main, location, 0, content.subarray(0, 7));
    expect(first.statusCode).toBe(204);
    expect(first.headers['upload-offset']).toBe('7');
    // The connection broke here; the client asks where to go on.
    const head = await tusHead(main, location);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe('7');
    expect(head.headers['upload-length']).toBe(String(content.length));
    expect(head.headers['cache-control']).toBe('no-store');

    const wrongOffset = await tusPatch(main, location, 3, content.subarray(3));
    expect(wrongOffset.statusCode).toBe(409);
    expect(wrongOffset.json()).toMatchObject({ rspcode: 40901, result: null });
    expect(wrongOffset.json().rspmsg).toMatch(/偏移量/);

    // A measurement in the middle keeps the reservation.
    await measureFileStorages(t.deps, t.deps.now());
    expect((await view(main)).usedBytes).toBe(content.length);

    const rest = await tusPatch(main, location, 7, content.subarray(7));
    expect(rest.statusCode).toBe(204);
    expect(rest.headers['upload-offset']).toBe(String(content.length));
    expect(await readFile(join(dirOf(main.userId), '上传', '问候.txt'))).toEqual(content);
    expect((await list(main, '/上传')).body.result.items).toMatchObject([{ name: '问候.txt', type: 'file', size: content.length }]);
    expect((await view(main)).usedBytes).toBe(content.length);
    expect(await listMarkers(root)).toEqual([]);
    // The upload is done: gone from tus.
    expect((await tusHead(main, location)).statusCode).toBe(404);
    await measureFileStorages(t.deps, t.deps.now());
    expect((await view(main)).usedBytes).toBe(content.length);
  });

  it('takes the whole file in the creation request (creation-with-upload) and replaces a file of the same name', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/v1/storage/tus',
      headers: {
        authorization: `Bearer ${main.token}`,
        'tus-resumable': '1.0.0',
        'upload-length': '3',
        'upload-metadata': tusMetadata({ zoneId: ZONE, path: '/上传', filename: '问候.txt' }),
        'content-type': 'application/offset+octet-stream',
      },
      payload: Buffer.from('new'),
    });
    expect(answer.statusCode).toBe(201);
    expect(answer.headers['upload-offset']).toBe('3');
    expect(await readFile(join(dirOf(main.userId), '上传', '问候.txt'), 'utf8')).toBe('new');
    await measureFileStorages(t.deps, t.deps.now());
    expect((await view(main)).usedBytes).toBe(3);
  });

  it('gives the reservation back when an upload is abandoned (DELETE)', async () => {
    const before = (await view(main)).usedBytes;
    const created = await tusCreate(main, 1000, { zoneId: ZONE, path: '/', filename: 'abandoned.bin' });
    expect((await view(main)).usedBytes).toBe(before + 1000);
    const location = created.headers.location as string;
    await tusPatch(main, location, 0, Buffer.alloc(10));
    const terminated = await t.app.inject({ method: 'DELETE', url: location, headers: { authorization: `Bearer ${main.token}`, 'tus-resumable': '1.0.0' } });
    expect(terminated.statusCode).toBe(204);
    expect((await view(main)).usedBytes).toBe(before);
    expect(await listMarkers(root)).toEqual([]);
    expect(await readdir(stagingDirs(root).tus)).toEqual([]);
  });

  it('refuses bad tus requests in the envelope with Chinese messages', async () => {
    const noVersion = await t.app.inject({ method: 'POST', url: '/api/v1/storage/tus', headers: { authorization: `Bearer ${main.token}`, 'upload-length': '1' } });
    expect(noVersion.statusCode).toBe(400);
    expect(noVersion.json().rspmsg).toMatch(/Tus-Resumable/);
    const deferred = await t.app.inject({
      method: 'POST',
      url: '/api/v1/storage/tus',
      headers: { authorization: `Bearer ${main.token}`, 'tus-resumable': '1.0.0', 'upload-defer-length': '1' },
    });
    expect(deferred.statusCode).toBe(400);
    expect((await tusCreate(main, 1, { zoneId: ZONE, path: '/' })).json().rspmsg).toMatch(/文件名/);
    expect((await tusCreate(main, 1, { zoneId: ZONE, path: '/../etc', filename: 'x' })).json().rspmsg).toMatch(/\.\./);
    expect((await tusCreate(main, 1, { zoneId: ZONE, path: '/', filename: 'a/b' })).json().rspmsg).toBe('文件名不能包含 /');
    expect((await tusCreate(main, 1, { zoneId: ZONE, path: '/', filename: 'x'.repeat(256) })).json().rspmsg).toMatch(/最多255字节/);
    const badMetadata = await t.app.inject({
      method: 'POST',
      url: '/api/v1/storage/tus',
      headers: { authorization: `Bearer ${main.token}`, 'tus-resumable': '1.0.0', 'upload-length': '1', 'upload-metadata': 'a b c,,' },
    });
    expect(badMetadata.statusCode).toBe(400);
    expect(badMetadata.json().rspmsg).toMatch(/Upload-Metadata/);
    const unknown = await tusHead(main, `/api/v1/storage/tus/${'0'.repeat(32)}`);
    expect(unknown.statusCode).toBe(404);
    expect(await listMarkers(root)).toEqual([]);
  });

  it('keeps other accounts out of an upload', async () => {
    const created = await tusCreate(main, 5, { zoneId: ZONE, path: '/', filename: 'mine.txt' });
    const location = created.headers.location as string;
    const other = await mainAccount();
    await init(other);
    expect((await tusHead(other, location)).statusCode).toBe(404);
    expect((await tusPatch(other, location, 0, Buffer.from('evil!'))).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: location, headers: { authorization: `Bearer ${other.token}`, 'tus-resumable': '1.0.0' } })).statusCode).toBe(404);
    expect((await tusPatch(main, location, 0, Buffer.from('mine!'))).statusCode).toBe(204);
    expect(await readFile(join(dirOf(main.userId), 'mine.txt'), 'utf8')).toBe('mine!');
    expect((await list(other)).body.result.items).toEqual([]);
  });
});

describe('quota', () => {
  it('refuses an upload that would pass it before any byte is written, and a quota below the usage', async () => {
    const main = await mainAccount();
    await init(main);
    const quota = await call<FileStorageView>(t.app, { method: 'PUT', url: '/api/v1/storage/quota', token: main.token, payload: { zoneId: ZONE, quotaGb: 1 } });
    expect(quota.status).toBe(200);
    expect(quota.body.result.quotaBytes).toBe(GB);
    for (const quotaGb of [0, 2049, 1.5, '10']) {
      const refused = await call(t.app, { method: 'PUT', url: '/api/v1/storage/quota', token: main.token, payload: { zoneId: ZONE, quotaGb } });
      expect(refused.status, String(quotaGb)).toBe(400);
      expect(refused.body.rspmsg).toMatch(/配额/);
    }

    // A store nearly full (a sparse file written from an "instance"), measured.
    await truncate(join(dirOf(main.userId), 'big.bin'), 0).catch(async () => writeFile(join(dirOf(main.userId), 'big.bin'), ''));
    await truncate(join(dirOf(main.userId), 'big.bin'), GB - 100);
    await measureFileStorages(t.deps, t.deps.now());
    expect((await view(main)).usedBytes).toBe(GB - 100);

    const refused = await put(main, '/too-big.bin', Buffer.alloc(101));
    expect(refused.status).toBe(413);
    expect(refused.body.rspcode).toBe(41300);
    expect(refused.body.rspmsg).toMatch(/^文件存储空间不足：本次上传 101 B/);
    const tus = await tusCreate(main, 101, { zoneId: ZONE, path: '/', filename: 'too-big.bin' });
    expect(tus.statusCode).toBe(413);
    expect(tus.json().rspmsg).toMatch(/文件存储空间不足/);
    expect((await list(main)).body.result.items.map((item) => item.name)).toEqual(['big.bin']);
    expect(await readdir(stagingDirs(root).incoming)).toEqual([]);
    expect(await listMarkers(root)).toEqual([]);
    expect((await view(main)).usedBytes).toBe(GB - 100);
    expect((await put(main, '/fits.bin', Buffer.alloc(100))).status).toBe(200);

    const below = await call(t.app, { method: 'DELETE', url: `/api/v1/storage/files?${q({ zoneId: ZONE, path: '/big.bin' })}`, token: main.token });
    expect(below.status).toBe(200);
    expect((await view(main)).usedBytes).toBe(100);
    await writeFile(join(dirOf(main.userId), 'instance.bin'), Buffer.alloc(10));
    await truncate(join(dirOf(main.userId), 'instance.bin'), 2 * GB);
    await measureFileStorages(t.deps, t.deps.now());
    const lower = await call(t.app, { method: 'PUT', url: '/api/v1/storage/quota', token: main.token, payload: { zoneId: ZONE, quotaGb: 2 } });
    expect(lower.status).toBe(400);
    expect(lower.body.rspmsg).toBe('配额不能低于已用容量：已用 2.00 GB，配额至少为 3 GB');
    // Over the quota (written from an instance): every upload is refused, a download still works.
    expect((await put(main, '/one.bin', 'x')).status).toBe(413);
    expect((await download(main, '/fits.bin')).statusCode).toBe(200);
  });

  it('refuses a declared Content-Length past the quota without reading the body', async () => {
    const main = await mainAccount();
    await init(main);
    const answer = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/storage/file?${q({ zoneId: ZONE, path: '/huge.bin' })}`,
      headers: { authorization: `Bearer ${main.token}`, 'content-type': 'application/octet-stream', 'content-length': String(201 * GB) },
      payload: Buffer.alloc(16),
    });
    expect(answer.statusCode).toBe(413);
    expect((await list(main)).body.result.items).toEqual([]);
  });
});

describe('bad input', () => {
  it('is refused below 500 in the envelope with a Chinese message, whatever the route', async () => {
    const main = await mainAccount();
    await init(main);
    expect((await put(main, '/exists.txt', 'x')).status).toBe(200);
    const weird = ['%00', '%ED%A0%80', '%C0%80', '%FF%FE', '%25', 'x'.repeat(5000), '..%2F..%2Fetc', '%5C', '%0A', 'NaN', '-1'];
    const requests: { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD'; url: string; headers?: Record<string, string>; payload?: string | Buffer }[] = [];
    for (const value of weird) {
      requests.push({ method: 'GET', url: `/api/v1/storage/files?zoneId=${ZONE}&path=${value}` });
      requests.push({ method: 'GET', url: `/api/v1/storage/file?zoneId=${ZONE}&path=${value}` });
      requests.push({ method: 'DELETE', url: `/api/v1/storage/files?zoneId=${ZONE}&path=${value}` });
      requests.push({ method: 'GET', url: `/api/v1/storage?zoneId=${value}` });
      requests.push({ method: 'PUT', url: `/api/v1/storage/file?zoneId=${ZONE}&path=${value}`, headers: { 'content-type': 'application/octet-stream' }, payload: 'x' });
      requests.push({ method: 'HEAD', url: `/api/v1/storage/tus/${value}`, headers: { 'tus-resumable': '1.0.0' } });
      requests.push({ method: 'PATCH', url: `/api/v1/storage/tus/${value}`, headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, payload: 'x' });
    }
    const unknownUpload = `/api/v1/storage/tus/${'a'.repeat(32)}`;
    for (const length of ['abc', '-1', '1e30', '99999999999999999', '', '3000000000000']) {
      requests.push({ method: 'POST', url: '/api/v1/storage/tus', headers: { 'tus-resumable': '1.0.0', 'upload-length': length } });
      requests.push({ method: 'PATCH', url: unknownUpload, headers: { 'tus-resumable': '1.0.0', 'upload-offset': length, 'content-type': 'application/offset+octet-stream' }, payload: 'x' });
      requests.push({ method: 'PUT', url: `/api/v1/storage/file?zoneId=${ZONE}&path=/a.bin`, headers: { 'content-length': length } });
    }
    for (const metadata of ['zoneId', 'zoneId !!!', `zoneId ${Buffer.from(ZONE).toString('base64')},filename ${Buffer.from('\u0000').toString('base64')}`, `zoneId ${Buffer.from(ZONE).toString('base64')},filename ${Buffer.from('exists.txt/').toString('base64')}`, 'a'.repeat(20_000)]) {
      requests.push({ method: 'POST', url: '/api/v1/storage/tus', headers: { 'tus-resumable': '2.0.0', 'upload-length': '1', 'upload-metadata': metadata } });
      requests.push({ method: 'POST', url: '/api/v1/storage/tus', headers: { 'tus-resumable': '1.0.0', 'upload-length': '1', 'upload-metadata': metadata } });
    }
    for (const contentType of ['application/json', 'text/plain', 'multipart/form-data; boundary=x', 'garbage']) {
      requests.push({ method: 'PUT', url: `/api/v1/storage/file?zoneId=${ZONE}&path=/typed.bin`, headers: { 'content-type': contentType }, payload: '{"a":1}' });
      requests.push({ method: 'PATCH', url: unknownUpload, headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': contentType }, payload: '{"a":1}' });
      requests.push({ method: 'POST', url: '/api/v1/storage/dir', headers: { 'content-type': contentType }, payload: '{"zoneId":1}' });
    }
    for (const body of [{ zoneId: ZONE, from: '/exists.txt', to: '' }, { zoneId: ZONE, from: '', to: '/x' }, { zoneId: ZONE, from: '/exists.txt' }, { zoneId: ZONE, quotaGb: 1e308 }, { zoneId: ZONE, path: [] }, { zoneId: ZONE, path: '/exists.txt/sub' }]) {
      for (const [method, url] of [
        ['PUT', '/api/v1/storage/rename'],
        ['PUT', '/api/v1/storage/quota'],
        ['POST', '/api/v1/storage/dir'],
        ['POST', '/api/v1/storage/init'],
      ] as const) {
        requests.push({ method, url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      }
    }
    const failures: string[] = [];
    for (const request of requests) {
      const response = await t.app.inject({ ...request, headers: { authorization: `Bearer ${main.token}`, ...(request.headers ?? {}) } });
      const label = `${request.method} ${request.url.slice(0, 80)} ${JSON.stringify(request.headers ?? {}).slice(0, 120)}`;
      if (response.statusCode >= 500) failures.push(`${label} → ${response.statusCode} ${response.body.slice(0, 200)}`);
      else if (response.statusCode >= 400 && request.method !== 'HEAD') {
        const body = response.json() as { rspmsg?: string };
        if (!/[\u4e00-\u9fa5]/.test(body.rspmsg ?? '')) failures.push(`${label} → ${response.statusCode} ${response.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await listMarkers(root)).toEqual([]);
    // Odd but valid names (`%`, `NaN`, `-1`) were stored as given; a body of any content type is the file.
    const names = (await list(main)).body.result.items.map((item) => item.name);
    expect(names).toEqual(expect.arrayContaining(['exists.txt', 'typed.bin', 'NaN', '-1', '%']));
    expect(await readFile(join(dirOf((await storeRowOf(main)).ownerId), 'typed.bin'), 'utf8')).toBe('{"a":1}');
  });
});

describe('arrears', () => {
  it('refuses writes while writes are blocked, still lets files be read and deleted', async () => {
    const main = await mainAccount();
    await init(main);
    expect((await put(main, '/keep.txt', 'keep')).status).toBe(200);
    expect((await put(main, '/drop.txt', 'drop')).status).toBe(200);
    const pending = await tusCreate(main, 4, { zoneId: ZONE, path: '/', filename: 'late.txt' });
    await db().update(fileStorages).set({ writesBlockedAt: t.deps.now() }).where(eq(fileStorages.ownerId, main.userId));
    expect((await view(main)).writesBlocked).toBe(true);

    const message = /欠费已满15天.*禁止写入/;
    const attempts = [
      await put(main, '/new.txt', 'x'),
      await call(t.app, { method: 'POST', url: '/api/v1/storage/dir', token: main.token, payload: { zoneId: ZONE, path: '/new' } }),
      await call(t.app, { method: 'PUT', url: '/api/v1/storage/rename', token: main.token, payload: { zoneId: ZONE, from: '/keep.txt', to: '/moved.txt' } }),
    ];
    for (const attempt of attempts) {
      expect(attempt.status).toBe(403);
      expect(attempt.body.rspmsg).toMatch(message);
    }
    const tus = await tusCreate(main, 1, { zoneId: ZONE, path: '/', filename: 'x' });
    expect(tus.statusCode).toBe(403);
    expect(tus.json().rspmsg).toMatch(message);
    const resumed = await tusPatch(main, pending.headers.location as string, 0, Buffer.from('late'));
    expect(resumed.statusCode).toBe(403);

    expect((await download(main, '/keep.txt')).body).toBe('keep');
    expect((await call(t.app, { method: 'DELETE', url: `/api/v1/storage/files?${q({ zoneId: ZONE, path: '/drop.txt' })}`, token: main.token })).status).toBe(200);
    expect((await list(main)).body.result.items.map((item) => item.name)).toEqual(['keep.txt']);

    await db().update(fileStorages).set({ writesBlockedAt: null }).where(eq(fileStorages.ownerId, main.userId));
    expect((await tusPatch(main, pending.headers.location as string, 0, Buffer.from('late'))).statusCode).toBe(204);
    expect((await put(main, '/new.txt', 'x')).status).toBe(200);
  });
});

describe('measurement and removal', () => {
  it('measures what instances wrote (symlinks not followed, hard links once), and removes a store’s files', async () => {
    const main = await mainAccount();
    await init(main);
    const dir = dirOf(main.userId);
    await mkdir(join(dir, 'a', 'b'), { recursive: true });
    await writeFile(join(dir, 'a', 'one.bin'), Buffer.alloc(1000));
    await writeFile(join(dir, 'a', 'b', 'two.bin'), Buffer.alloc(234));
    const { link } = await import('node:fs/promises');
    await link(join(dir, 'a', 'one.bin'), join(dir, 'a', 'b', 'hard.bin'));
    // A link out of the store: its own few bytes, never what it points to.
    const outside = await mkdtemp(join(tmpdir(), 'slg-outside-'));
    await writeFile(join(outside, 'secret.bin'), Buffer.alloc(50_000));
    await symlink(outside, join(dir, 'escape'));
    const now = t.deps.now();
    await measureFileStorages(t.deps, now);
    const row = await storeRow(main.userId);
    expect(row.usedBytes).toBe(1000 + 234 + Buffer.byteLength(outside));
    expect(row.measuredAt).toEqual(now);

    await removeFileStorageFiles(t.deps, main.userId, ZONE);
    await expect(stat(dir)).rejects.toThrow();
    expect((await readFile(join(outside, 'secret.bin'))).length).toBe(50_000);
    await rm(outside, { recursive: true, force: true });
    // A store deleted in arrears is not measured any more.
    await db().update(fileStorages).set({ deletedAt: t.deps.now() }).where(eq(fileStorages.id, row.id));
    await measureFileStorages(t.deps, t.deps.now());
  });

  it('drops what abandoned uploads left behind', async () => {
    const main = await mainAccount();
    await init(main);
    const created = await tusCreate(main, 500, { zoneId: ZONE, path: '/', filename: 'idle.bin' });
    expect(created.statusCode).toBe(201);
    const id = (created.headers.location as string).split('/').pop() as string;
    // Idle for more than a day.
    const { utimes } = await import('node:fs/promises');
    const old = new Date(Date.now() - 25 * 3600_000);
    await utimes(join(stagingDirs(root).tus, id), old, old);
    await measureFileStorages(t.deps, t.deps.now());
    expect((await view(main)).usedBytes).toBe(0);
    expect(await listMarkers(root)).toEqual([]);
    expect((await tusHead(main, created.headers.location as string)).statusCode).toBe(404);
  });
});

describe('parallel uploads over HTTP', () => {
  let base: string;
  let server: TestApp;
  let serverRoot: string;
  beforeAll(async () => {
    // Its own database, so its own storage root (owner ids of the two databases meet).
    serverRoot = await mkdtemp(join(tmpdir(), 'slg-storage-http-'));
    server = await createTestApp({ env: { STORAGE_ROOT: serverRoot } });
    base = await listenLocally(server);
  });
  afterAll(async () => {
    await server.close();
    await rm(serverRoot, { recursive: true, force: true });
  });
  const serverDirOf = (ownerId: number) => join(serverRoot, fileStorageKey(ownerId, ZONE));

  it('refuses a PUT without Content-Length (chunked) before reading it', async () => {
    const owner = await account();
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('chunked'));
        controller.close();
      },
    });
    const response = await fetch(`${base}/api/v1/storage/file?${q({ zoneId: ZONE, path: '/chunked.bin' })}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/octet-stream' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { rspmsg: string }).rspmsg).toBe('缺少 Content-Length 请求头');
    expect(await readdir(serverDirOf(owner.userId))).toEqual([]);
  });

  const usedOf = async (owner: Account) =>
    (await call<FileStorageView>(server.app, { method: 'GET', url: `/api/v1/storage?${q({ zoneId: ZONE })}`, token: owner.token })).body.result.usedBytes;

  async function account(): Promise<Account> {
    const { jwtToken } = await registerUser(server);
    const info = await call<{ userId: number }>(server.app, { method: 'GET', url: '/api/v1/user/userinfo', token: jwtToken });
    const created = await call(server.app, { method: 'POST', url: '/api/v1/storage/init', token: jwtToken, payload: { zoneId: ZONE } });
    expect(created.status).toBe(200);
    return { token: jwtToken, userId: info.body.result.userId };
  }

  /** Room for exactly `files` files of `size` bytes under a 1 GB quota (a sparse filler, measured). */
  async function nearlyFull(owner: Account, files: number, size: number): Promise<void> {
    await call(server.app, { method: 'PUT', url: '/api/v1/storage/quota', token: owner.token, payload: { zoneId: ZONE, quotaGb: 1 } });
    const filler = join(serverDirOf(owner.userId), 'filler.bin');
    await writeFile(filler, '');
    await truncate(filler, GB - files * size);
    await measureFileStorages(server.deps, server.deps.now());
  }

  it('20 parallel PUT uploads never pass the quota', async () => {
    const owner = await account();
    await nearlyFull(owner, 7, 1000);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        fetch(`${base}/api/v1/storage/file?${q({ zoneId: ZONE, path: `/p/${index}.bin` })}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/octet-stream' },
          body: Buffer.alloc(1000, index),
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as { rspmsg: string } })),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(7);
    const refused = answers.filter((answer) => answer.status === 413);
    expect(refused).toHaveLength(13);
    for (const answer of refused) expect(answer.body.rspmsg).toMatch(/文件存储空间不足/);
    expect(await readdir(join(serverDirOf(owner.userId), 'p'))).toHaveLength(7);
    expect(await usedOf(owner)).toBe(GB);
    await measureFileStorages(server.deps, server.deps.now());
    expect(await usedOf(owner)).toBe(GB);
  });

  it('measurements running during a burst of uploads never let it pass the quota', async () => {
    const owner = await account();
    await nearlyFull(owner, 7, 1000);
    let uploading = true;
    const measuring = (async () => {
      let passes = 0;
      while (uploading || passes < 2) {
        await measureFileStorages(server.deps, server.deps.now());
        passes += 1;
      }
      return passes;
    })();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        fetch(`${base}/api/v1/storage/file?${q({ zoneId: ZONE, path: `/m/${index}.bin` })}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/octet-stream' },
          body: Buffer.alloc(1000, index),
        }).then((response) => response.status),
      ),
    );
    uploading = false;
    expect(await measuring).toBeGreaterThanOrEqual(2);
    const stored = await readdir(join(serverDirOf(owner.userId), 'm')).catch(() => []);
    // A measurement may count an upload twice for a moment (refusing one more than needed), never less.
    expect(answers.filter((status) => status === 200).length).toBe(stored.length);
    expect(stored.length).toBeLessThanOrEqual(7);
    expect(answers.filter((status) => status !== 200).every((status) => status === 413)).toBe(true);
    await measureFileStorages(server.deps, server.deps.now());
    expect(await usedOf(owner)).toBe(GB - 7000 + stored.length * 1000);
  });

  it('20 parallel tus uploads never pass the quota, and a measurement in between loses no reservation', async () => {
    const owner = await account();
    await nearlyFull(owner, 5, 2000);
    const headers = { authorization: `Bearer ${owner.token}`, 'tus-resumable': '1.0.0' };
    const creations = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        fetch(`${base}/api/v1/storage/tus`, {
          method: 'POST',
          headers: { ...headers, 'upload-length': '2000', 'upload-metadata': tusMetadata({ zoneId: ZONE, path: '/t', filename: `${index}.bin` }) },
        }),
      ),
    );
    const created = creations.filter((response) => response.status === 201);
    expect(created).toHaveLength(5);
    expect(creations.filter((response) => response.status === 413)).toHaveLength(15);
    await measureFileStorages(server.deps, server.deps.now());
    expect(await usedOf(owner)).toBe(GB);
    const patched = await Promise.all(
      created.map((response) =>
        fetch(`${base}${response.headers.get('location')}`, {
          method: 'PATCH',
          headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
          body: Buffer.alloc(2000, 7),
        }),
      ),
    );
    expect(patched.map((response) => response.status)).toEqual([204, 204, 204, 204, 204]);
    expect(await readdir(join(serverDirOf(owner.userId), 't'))).toHaveLength(5);
    await measureFileStorages(server.deps, server.deps.now());
    expect(await usedOf(owner)).toBe(GB);
  });
});
