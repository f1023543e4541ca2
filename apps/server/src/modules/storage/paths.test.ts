/**
 * Paths of 文件存储 under attack: what the API refuses as text (`..`, NUL, backslashes, over-long
 * names), and what users can plant in their store from an instance — symlinks to `/etc`, to another
 * user's store, a symlinked parent folder, a FIFO — which no operation may follow out of the store.
 */
import { mkdtemp, mkdir, readdir, readFile, rm, stat, symlink, writeFile, lstat } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorageListingView } from '@slg/shared/views/storage';
import { AppError } from '../../core/errors.js';
import { call, createTestApp, registerUser, type TestApp } from '../../../test/helpers.js';
import { fileStorageKey } from './keys.js';
import { formatStorePath, parseStorePath, pathProblem, splitEntryPath } from './paths.js';
import { listMarkers } from './quota.js';
import { OUTSIDE_MESSAGE, StoreTree } from './tree.js';

const refusal = (action: () => unknown): string => {
  try {
    action();
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${error.message}`;
    throw error;
  }
  return 'accepted';
};

describe('parseStorePath', () => {
  it('reads paths relative to the store root; a leading / means that root', () => {
    expect(parseStorePath('', 'existing')).toEqual([]);
    expect(parseStorePath('/', 'existing')).toEqual([]);
    expect(parseStorePath('///', 'existing')).toEqual([]);
    expect(parseStorePath('/a/b', 'existing')).toEqual(['a', 'b']);
    expect(parseStorePath('a/b', 'existing')).toEqual(['a', 'b']);
    expect(parseStorePath('/a//b/', 'create')).toEqual(['a', 'b']);
    expect(parseStorePath('/数据集/图片 1.png', 'create')).toEqual(['数据集', '图片 1.png']);
    // An "absolute" path is inside the store: /etc/passwd is the store's own etc/passwd.
    expect(parseStorePath('/etc/passwd', 'existing')).toEqual(['etc', 'passwd']);
    expect(formatStorePath(['a', 'b'])).toBe('/a/b');
    expect(formatStorePath([])).toBe('/');
    // Dots inside a name are just a name.
    expect(parseStorePath('/...', 'create')).toEqual(['...']);
    expect(parseStorePath('/.hidden/..x', 'create')).toEqual(['.hidden', '..x']);
  });

  it('refuses traversal, NUL, lone surrogates and over-long names and paths in every use', () => {
    for (const use of ['existing', 'create'] as const) {
      for (const path of ['..', '/..', '/a/../../etc', 'a/..', '../x', '/a/./b', '.', '/x/.']) {
        expect(refusal(() => parseStorePath(path, use)), path).toBe('400 路径不能包含 . 或 .. ，请使用从存储根目录开始的完整路径');
      }
      expect(refusal(() => parseStorePath('/a\u0000b', use))).toBe('400 名称不能包含空字符（U+0000）');
      expect(refusal(() => parseStorePath('/a\ud800', use))).toBe('400 名称含有无效的字符编码（不成对的代理字符）');
      expect(refusal(() => parseStorePath(`/${'x'.repeat(256)}`, use))).toMatch(/^400 名称「x{24}…」过长：最多255字节/);
      // 85 CJK characters are 255 bytes; 86 are too many.
      expect(parseStorePath(`/${'文'.repeat(85)}`, use)).toHaveLength(1);
      expect(refusal(() => parseStorePath(`/${'文'.repeat(86)}`, use))).toMatch(/过长：最多255字节/);
      expect(refusal(() => parseStorePath(`/${'a/'.repeat(2049)}`, use))).toBe('400 路径过长：最多4096字节');
    }
  });

  it('holds what creates a name to more: no backslash, control characters or blank names', () => {
    for (const [path, message] of [
      ['/a\\b', '名称不能包含反斜杠（\\），文件夹请用 / 分隔'],
      ['/..\\..\\etc', '名称不能包含反斜杠（\\），文件夹请用 / 分隔'],
      ['/a\nb', '名称不能包含换行、制表符等控制字符'],
      ['/a\tb', '名称不能包含换行、制表符等控制字符'],
      ['/a\u007fb', '名称不能包含换行、制表符等控制字符'],
      ['/   ', '名称不能为空或只有空格'],
    ]) {
      expect(refusal(() => parseStorePath(path as string, 'create')), JSON.stringify(path)).toBe(`400 ${message}`);
      // What an instance may have made can still be addressed.
      expect(parseStorePath(path as string, 'existing')).toHaveLength(1);
    }
    expect(refusal(() => splitEntryPath('/', 'existing', '不能删除存储根目录'))).toBe('400 不能删除存储根目录');
    expect(pathProblem('/ok/名字', 'create')).toBeNull();
  });
});

describe('the store’s tree on disk', () => {
  let base: string;
  let outside: string;
  let tree: StoreTree;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'slg-tree-'));
    outside = join(base, 'outside');
    await mkdir(join(outside, 'sub'), { recursive: true });
    await writeFile(join(outside, 'secret.txt'), 'secret');
    tree = await StoreTree.open(join(base, 'store'));
    await mkdir(join(tree.root, 'real', 'inner'), { recursive: true });
    await writeFile(join(tree.root, 'real', 'inner', 'file.txt'), 'inside');
    await symlink('/etc', join(tree.root, 'etc-link'));
    await symlink(outside, join(tree.root, 'out'));
    await symlink('../outside/secret.txt', join(tree.root, 'secret-link'));
    await symlink('real/inner', join(tree.root, 'inner-link'));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const refused = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    return error instanceof AppError ? `${error.status} ${error.message}` : `not refused: ${String(error)}`;
  };

  it('lists a symlink as a file of size 0 and follows links only as far as the store', async () => {
    const listing = await tree.list([]);
    expect(listing.items.map((item) => `${item.type}:${item.name}:${item.size}`)).toEqual([
      'dir:real:0',
      'file:etc-link:0',
      'file:inner-link:0',
      'file:out:0',
      'file:secret-link:0',
    ]);
    expect((await tree.list(['inner-link'])).items.map((item) => item.name)).toEqual(['file.txt']);
    for (const segments of [['etc-link'], ['out'], ['out', 'sub'], ['etc-link', 'ssl']]) {
      expect(await refused(tree.list(segments)), segments.join('/')).toBe(`403 ${OUTSIDE_MESSAGE}`);
    }
    for (const segments of [['secret-link'], ['out', 'secret.txt'], ['etc-link', 'passwd']]) {
      expect(await refused(tree.openFile(segments)), segments.join('/')).toBe(`403 ${OUTSIDE_MESSAGE}`);
    }
    const opened = await tree.openFile(['inner-link', 'file.txt']);
    expect((await opened.handle.readFile()).toString()).toBe('inside');
    await opened.handle.close();
  });

  it('writes nothing through a symlinked parent that leads out', async () => {
    expect(await refused(tree.makeDir(['out'], 'planted'))).toBe(`403 ${OUTSIDE_MESSAGE}`);
    expect(await refused(tree.makeDir(['etc-link'], 'planted'))).toBe(`403 ${OUTSIDE_MESSAGE}`);
    expect(await refused(tree.makeDir(['out', 'sub', 'deeper'], 'planted'))).toBe(`403 ${OUTSIDE_MESSAGE}`);
    const staged = join(base, 'staged.bin');
    await writeFile(staged, 'payload');
    expect(await refused(tree.land(staged, ['out'], 'planted.txt'))).toBe(`403 ${OUTSIDE_MESSAGE}`);
    expect(await refused(tree.land(staged, ['out', 'new-folder'], 'planted.txt'))).toBe(`403 ${OUTSIDE_MESSAGE}`);
    expect(await refused(tree.rename({ parent: [], name: 'real' }, { parent: ['out'], name: 'real' }))).toBe(`403 ${OUTSIDE_MESSAGE}`);
    expect(await refused(tree.rename({ parent: ['out'], name: 'secret.txt' }, { parent: [], name: 'stolen.txt' }))).toBe(`403 ${OUTSIDE_MESSAGE}`);
    expect(await refused(tree.remove(['out'], 'secret.txt', { bytes: 0 }))).toBe(`403 ${OUTSIDE_MESSAGE}`);
    expect((await readdir(outside)).sort()).toEqual(['secret.txt', 'sub']);
    expect(await readdir(join(outside, 'sub'))).toEqual([]);
    // Landing through a symlink that stays inside is fine, and replaces a link of the file's name, not its target.
    await tree.land(staged, ['inner-link'], 'landed.txt');
    expect(await readFile(join(tree.root, 'real', 'inner', 'landed.txt'), 'utf8')).toBe('payload');
    await writeFile(staged, 'replaced');
    await tree.land(staged, [], 'secret-link');
    expect((await lstat(join(tree.root, 'secret-link'))).isFile()).toBe(true);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('deletes a symlink itself and a folder holding links out without touching their targets', async () => {
    await mkdir(join(tree.root, 'trap', 'nested'), { recursive: true });
    await symlink(outside, join(tree.root, 'trap', 'nested', 'to-outside'));
    await symlink(join(outside, 'secret.txt'), join(tree.root, 'trap', 'secret'));
    await writeFile(join(tree.root, 'trap', 'own.bin'), Buffer.alloc(10));
    const progress = { bytes: 0 };
    await tree.remove([], 'trap', progress);
    expect(progress.bytes).toBe(10 + Buffer.byteLength(outside) + Buffer.byteLength(join(outside, 'secret.txt')));
    await tree.remove([], 'out', { bytes: 0 });
    await expect(lstat(join(tree.root, 'out'))).rejects.toThrow();
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
    expect((await stat(join(outside, 'sub'))).isDirectory()).toBe(true);
  });

  it('never opens a FIFO for reading (it would block) and refuses it as not a regular file', async () => {
    const fifo = join(tree.root, 'pipe');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      return; // no mkfifo on this machine
    }
    expect(await refused(tree.openFile(['pipe']))).toBe('409 只能下载普通文件');
    expect((await tree.list([])).items.map((item) => item.name)).not.toContain('pipe');
  });
});

describe('attacks over HTTP', () => {
  let t: TestApp;
  let root: string;
  let token: string;
  let store: string;
  let neighbourStore: string;
  const ZONE = 'bj-a';

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'slg-paths-'));
    t = await createTestApp({ env: { STORAGE_ROOT: root } });
    const user = await registerUser(t);
    token = user.jwtToken;
    const neighbour = await registerUser(t);
    for (const who of [token, neighbour.jwtToken]) {
      expect((await call(t.app, { method: 'POST', url: '/api/v1/storage/init', token: who, payload: { zoneId: ZONE } })).status).toBe(200);
    }
    const ids = await Promise.all(
      [token, neighbour.jwtToken].map(async (who) => (await call<{ userId: number }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: who })).body.result.userId),
    );
    store = join(root, fileStorageKey(ids[0]!, ZONE));
    neighbourStore = join(root, fileStorageKey(ids[1]!, ZONE));
    await writeFile(join(neighbourStore, 'private.txt'), 'neighbour');
    // Planted from an instance: links out of the store, to the neighbour's store, a symlinked parent.
    await symlink('/etc', join(store, 'etc'));
    await symlink(`../../${ids[1]}/${ZONE}`, join(store, 'neighbour'));
    await symlink(join(root, '.reservations'), join(store, 'reservations'));
    await mkdir(join(store, 'mine'));
  });
  afterAll(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    call(t.app, { method, url, token, headers, ...(payload === undefined ? {} : { payload: payload as string }) });

  it('refuses traversal in every parameter with 400 and a Chinese message', async () => {
    const traversal = ['..', '../..', '/../../etc/passwd', '/mine/../../x', '%2e%2e', '/%2e%2e/%2e%2e/etc', 'mine/./x'];
    for (const raw of traversal) {
      const path = decodeURIComponent(raw);
      const answers = [
        await send('GET', `/api/v1/storage/files?${q({ zoneId: ZONE, path })}`),
        await send('GET', `/api/v1/storage/file?${q({ zoneId: ZONE, path })}`),
        await send('DELETE', `/api/v1/storage/files?${q({ zoneId: ZONE, path })}`),
        await send('POST', '/api/v1/storage/dir', { zoneId: ZONE, path }),
        await send('PUT', '/api/v1/storage/rename', { zoneId: ZONE, from: '/mine', to: path }),
        await send('PUT', '/api/v1/storage/rename', { zoneId: ZONE, from: path, to: '/x' }),
        await send('PUT', `/api/v1/storage/file?${q({ zoneId: ZONE, path: `${path}/x` })}`, 'x', { 'content-type': 'application/octet-stream' }),
      ];
      for (const answer of answers) {
        expect(answer.status, raw).toBe(400);
        expect(answer.body.rspmsg).toMatch(/[\u4e00-\u9fa5]/);
      }
    }
    // NUL arrives as %00.
    const nul = await send('GET', `/api/v1/storage/files?zoneId=${ZONE}&path=%2Fa%00b`);
    expect(nul.status).toBe(400);
    expect(nul.body.rspmsg).toMatch(/空字符/);
    const backslash = await send('POST', '/api/v1/storage/dir', { zoneId: ZONE, path: '/..\\..\\evil' });
    expect(backslash.body.rspmsg).toBe('名称不能包含反斜杠（\\），文件夹请用 / 分隔');
    const long = await send('POST', '/api/v1/storage/dir', { zoneId: ZONE, path: `/${'名'.repeat(86)}` });
    expect(long.status).toBe(400);
    expect(long.body.rspmsg).toMatch(/最多255字节/);
  });

  it('keeps symlinks planted in the store from reaching /etc, the neighbour or the server’s own files', async () => {
    const listing = await send('GET', `/api/v1/storage/files?${q({ zoneId: ZONE, path: '/' })}`);
    expect((listing.body.result as StorageListingView).items.map((item) => `${item.type}:${item.name}:${item.size}`)).toEqual([
      'dir:mine:0',
      'file:etc:0',
      'file:neighbour:0',
      'file:reservations:0',
    ]);
    const reads = [
      await send('GET', `/api/v1/storage/files?${q({ zoneId: ZONE, path: '/etc' })}`),
      await send('GET', `/api/v1/storage/file?${q({ zoneId: ZONE, path: '/etc/passwd' })}`),
      await send('GET', `/api/v1/storage/files?${q({ zoneId: ZONE, path: '/neighbour' })}`),
      await send('GET', `/api/v1/storage/file?${q({ zoneId: ZONE, path: '/neighbour/private.txt' })}`),
      await send('GET', `/api/v1/storage/files?${q({ zoneId: ZONE, path: '/reservations' })}`),
      await send('DELETE', `/api/v1/storage/files?${q({ zoneId: ZONE, path: '/neighbour/private.txt' })}`),
      await send('POST', '/api/v1/storage/dir', { zoneId: ZONE, path: '/neighbour/planted' }),
      await send('POST', '/api/v1/storage/dir', { zoneId: ZONE, path: '/etc/cron.d/planted' }),
      await send('PUT', '/api/v1/storage/rename', { zoneId: ZONE, from: '/neighbour/private.txt', to: '/stolen.txt' }),
      await send('PUT', '/api/v1/storage/rename', { zoneId: ZONE, from: '/mine', to: '/neighbour/mine' }),
      await send('PUT', `/api/v1/storage/file?${q({ zoneId: ZONE, path: '/neighbour/planted.txt' })}`, 'evil', { 'content-type': 'application/octet-stream' }),
      await send('PUT', `/api/v1/storage/file?${q({ zoneId: ZONE, path: '/etc/cron.d/planted' })}`, 'evil', { 'content-type': 'application/octet-stream' }),
    ];
    for (const answer of reads) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(403);
      expect(answer.body.rspmsg).toBe(OUTSIDE_MESSAGE);
    }
    const tus = await t.app.inject({
      method: 'POST',
      url: '/api/v1/storage/tus',
      headers: {
        authorization: `Bearer ${token}`,
        'tus-resumable': '1.0.0',
        'upload-length': '4',
        'upload-metadata': `zoneId ${Buffer.from(ZONE).toString('base64')},path ${Buffer.from('/neighbour').toString('base64')},filename ${Buffer.from('planted.txt').toString('base64')}`,
      },
    });
    expect(tus.statusCode).toBe(403);
    expect(await readdir(neighbourStore)).toEqual(['private.txt']);
    expect(await readFile(join(neighbourStore, 'private.txt'), 'utf8')).toBe('neighbour');
    expect(await listMarkers(root)).toEqual([]);
    // The link itself can be deleted; its target stays.
    expect((await send('DELETE', `/api/v1/storage/files?${q({ zoneId: ZONE, path: '/neighbour' })}`)).status).toBe(200);
    expect(await readdir(neighbourStore)).toEqual(['private.txt']);
  });

  it('turns a folder into a symlink between the check and the landing without the file leaving the store', async () => {
    // A PUT into /mine lands in the folder that was checked, or fails: never in what /mine points to later.
    const target = await mkdtemp(join(tmpdir(), 'slg-swap-'));
    try {
      const put = send('PUT', `/api/v1/storage/file?${q({ zoneId: ZONE, path: '/mine/race.txt' })}`, 'raced', { 'content-type': 'application/octet-stream' });
      await rm(join(store, 'mine'), { recursive: true, force: true });
      await symlink(target, join(store, 'mine'));
      const answer = await put;
      expect([200, 403, 404, 409]).toContain(answer.status);
      expect(await readdir(target)).toEqual([]);
    } finally {
      await rm(target, { recursive: true, force: true });
    }
  });
});
