import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCodes, PRIVATE_UPLOAD_MAX_BYTES } from '@slg/shared';
import { call, createTestApp, loginToken, type TestApp } from '../../../test/helpers.js';
import { auditLogs, privateUploads } from '../../db/schema/index.js';
import { LocalPrivateStorage } from '../../providers/storage/local.js';
import { newStorageKey } from '../../providers/storage/private.js';
import { makeOperator } from '../invoices/test-factories.js';
import { JPEG, mainAccount, PDF, PNG, subAccountToken, upload, uploaded, type Account } from '../verification/test-factories.js';
import { displayNameOf, PRIVATE_UPLOADS_PER_DAY } from './service.js';

let t: TestApp;
let dataDir: string;
let owner: Account;
let operator: Account;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'slg-uploads-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
  owner = await mainAccount(t);
  operator = await mainAccount(t);
  await makeOperator(t.deps.database.db, operator.telephone);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const db = () => t.deps.database.db;
const read = (token: string | undefined, id: number, prefix = '/api/v1/user/upload/private') =>
  t.app.inject({ method: 'GET', url: `${prefix}/${id}`, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('POST /user/upload/private', () => {
  it('stores JPEG, PNG and PDF by their bytes and answers id, name, type and size', async () => {
    for (const [content, type, name] of [
      [JPEG, 'image/jpeg', '营业执照.jpg'],
      [PNG, 'image/png', 'card.png'],
      [PDF, 'application/pdf', 'licence.pdf'],
    ] as const) {
      // The browser's content type is not believed: the bytes decide.
      const answer = await upload(t, owner.token, 'LICENCE', { filename: name, contentType: 'application/octet-stream', content });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.result).toMatchObject({ fileName: name, contentType: type, size: content.length, purpose: 'LICENCE' });
      const [row] = await db().select().from(privateUploads).where(eq(privateUploads.id, answer.body.result.id));
      expect(row).toMatchObject({ ownerId: owner.id, creatorId: owner.id, purpose: 'LICENCE', sizeBytes: content.length });
      // Stored under DATA_DIR/private/ by a random key, never by the file's name.
      expect(row?.storageKey).toMatch(/^\d{4}-\d{2}\/[0-9a-f]{32}$/);
      const path = join(dataDir, 'private', row?.storageKey ?? '');
      expect(readFileSync(path).equals(content)).toBe(true);
      expect(statSync(path).mode & 0o777).toBe(0o600);
    }
  });

  it('refuses a file whose bytes are not JPEG, PNG or PDF, whatever it claims to be', async () => {
    for (const content of [Buffer.from('GIF89a....'), Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), Buffer.from('MZ\x90\x00')]) {
      const answer = await upload(t, owner.token, 'LICENCE', { filename: 'licence.png', contentType: 'image/png', content });
      expect(answer.status).toBe(415);
      expect(answer.body.rspmsg).toBe('仅支持 JPG、PNG 图片或 PDF 文件');
    }
  });

  it('refuses an empty file, a missing file and a missing or unknown purpose with Chinese messages', async () => {
    const empty = await upload(t, owner.token, 'LICENCE', { content: Buffer.alloc(0) });
    expect(empty.status).toBe(400);
    expect(empty.body.rspmsg).toBe('文件内容为空，请重新选择');
    const noFile = await upload(t, owner.token, 'LICENCE');
    expect(noFile.status).toBe(400);
    expect(noFile.body.rspmsg).toBe('请选择要上传的文件');
    for (const purpose of [undefined, 'AVATAR', '']) {
      const answer = await upload(t, owner.token, purpose, { content: JPEG });
      expect(answer.status).toBe(400);
      expect(answer.body.rspmsg).toContain('请选择文件用途');
    }
    const json = await call(t.app, { method: 'POST', url: '/api/v1/user/upload/private', token: owner.token, payload: { purpose: 'LICENCE' } });
    expect(json.status).toBe(415);
  });

  it('refuses more than 5 MB with 413, also above the multipart limit of 10 MB, and keeps nothing', async () => {
    const before = (await db().select().from(privateUploads).where(eq(privateUploads.ownerId, owner.id))).length;
    for (const size of [PRIVATE_UPLOAD_MAX_BYTES + 1, 11 * 1024 * 1024]) {
      const content = Buffer.alloc(size, 0x20);
      JPEG.copy(content);
      const answer = await upload(t, owner.token, 'LICENCE', { content });
      expect(answer.status).toBe(413);
      expect(answer.body.rspmsg).toBe('文件不能超过5MB，请压缩后重新上传');
      expect(answer.body.rspcode).toBe(ErrorCodes.PAYLOAD_TOO_LARGE.code);
    }
    // Exactly 5 MB is fine.
    const limit = Buffer.alloc(PRIVATE_UPLOAD_MAX_BYTES, 0x20);
    PDF.copy(limit);
    expect((await upload(t, owner.token, 'ID_CARD', { content: limit })).status).toBe(200);
    expect((await db().select().from(privateUploads).where(eq(privateUploads.ownerId, owner.id))).length).toBe(before + 1);
  });

  it('is for main accounts: a sub-account is refused (403) and uploads nothing', async () => {
    const sub = await subAccountToken(t, owner.id);
    const answer = await upload(t, sub, 'LICENCE', { content: JPEG });
    expect(answer.status).toBe(403);
    expect(answer.body.rspmsg).toBe('子账号不能上传认证材料，请使用主账号操作');
    expect((await call(t.app, { method: 'POST', url: '/api/v1/user/upload/private' })).status).toBe(401);
  });
});

describe('reading an upload back', () => {
  it('streams the file to its owner only, never cached; anyone else gets 404', async () => {
    const id = await uploaded(t, owner.token, 'LICENCE', PDF);
    const mine = await read(owner.token, id);
    expect(mine.statusCode).toBe(200);
    expect(mine.rawPayload.equals(PDF)).toBe(true);
    expect(mine.headers['content-type']).toBe('application/pdf');
    expect(mine.headers['cache-control']).toBe('private, no-store');
    expect(mine.headers['x-content-type-options']).toBe('nosniff');
    expect(mine.headers['content-disposition']).toContain("filename*=UTF-8''licence.jpg.pdf");

    const stranger = await mainAccount(t);
    const theirs = await read(stranger.token, id);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ rspmsg: '文件不存在' });
    expect((await read(owner.token, 987654321)).statusCode).toBe(404);
    expect((await read(undefined, id)).statusCode).toBe(401);
    // The owner's sub-account does not read the main account's documents either.
    expect((await read(await subAccountToken(t, owner.id), id)).statusCode).toBe(403);
    // An operator route is no back door for a user.
    expect((await read(stranger.token, id, '/api/v1/admin/uploads')).statusCode).toBe(403);
  });

  it('keeps a Chinese file name', async () => {
    const answer = await upload(t, owner.token, 'LICENCE', { filename: '营业执照 副本.png', content: PNG });
    expect(answer.body.result.fileName).toBe('营业执照 副本.png');
    const mine = await read(owner.token, answer.body.result.id);
    expect(mine.headers['content-disposition']).toBe(`inline; filename="____ __.png"; filename*=UTF-8''${encodeURIComponent('营业执照 副本.png')}`);
  });

  it('lets an operator read any upload, with an audit record per read', async () => {
    const id = await uploaded(t, owner.token, 'STUDENT_CARD', PNG);
    const answer = await read(operator.token, id, '/api/v1/admin/uploads');
    expect(answer.statusCode).toBe(200);
    expect(answer.rawPayload.equals(PNG)).toBe(true);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const audit = await db().select().from(auditLogs).where(eq(auditLogs.targetId, String(id)));
    expect(audit.map((row) => [row.action, row.actorId])).toEqual([['private_upload.read', operator.id]]);
    expect(audit[0]?.detail).toMatchObject({ ownerId: owner.id, purpose: 'STUDENT_CARD' });
    expect((await read(operator.token, 987654321, '/api/v1/admin/uploads')).statusCode).toBe(404);
  });

  it('answers 404 when the bytes are gone from storage', async () => {
    const id = await uploaded(t, owner.token, 'LICENCE');
    const [row] = await db().select().from(privateUploads).where(eq(privateUploads.id, id));
    rmSync(join(dataDir, 'private', row?.storageKey ?? 'missing'));
    const answer = await read(owner.token, id);
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ rspmsg: '文件已不存在，请重新上传' });
  });
});

describe('LocalPrivateStorage', () => {
  it('puts, gets and deletes by key, never overwrites, and refuses keys outside its root', async () => {
    const root = join(dataDir, 'unit');
    const storage = new LocalPrivateStorage(root);
    const key = newStorageKey(new Date('2026-06-01T00:00:00Z'));
    expect(key).toMatch(/^2026-06\/[0-9a-f]{32}$/);
    await storage.put(key, Buffer.from('first'));
    await expect(storage.put(key, Buffer.from('second'))).rejects.toThrow();
    const stream = await storage.get(key);
    expect(stream ? await text(stream) : null).toBe('first');
    // No temporary file is left behind.
    expect(readdirSync(join(root, '2026-06'))).toEqual([key.split('/')[1]]);
    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    expect(existsSync(join(root, key))).toBe(false);
    for (const bad of ['../escape', '/etc/passwd', '2026-06/../../x', '2026-06/ABC']) {
      await expect(storage.put(bad, Buffer.from('x'))).rejects.toThrow('invalid private storage key');
    }
  });

  it('names files by what they are', () => {
    expect(displayNameOf('C:\\fakepath\\执照.jpg', 'image/jpeg')).toBe('执照.jpg');
    expect(displayNameOf('photo.JPEG', 'image/jpeg')).toBe('photo.JPEG');
    expect(displayNameOf('执照.jpg', 'application/pdf')).toBe('执照.jpg.pdf');
    expect(displayNameOf('', 'image/png')).toBe('upload.png');
    expect(displayNameOf('a"b<c>.png', 'image/png')).toBe('abc.png');
    expect([...displayNameOf(`${'长'.repeat(300)}.png`, 'image/png')].length).toBe(128);
  });
});

// Last: it moves the clock a day on, past every token of the suite.
describe('the daily cap', () => {
  it('allows 20 uploads per account in 24 hours', async () => {
    const busy = await mainAccount(t);
    for (let index = 0; index < PRIVATE_UPLOADS_PER_DAY; index += 1) await uploaded(t, busy.token, 'STUDENT_CARD', PNG);
    const refused = await upload(t, busy.token, 'STUDENT_CARD', { content: PNG });
    expect(refused.status).toBe(429);
    expect(refused.body.rspmsg).toBe('24小时内最多上传20个证件文件，请稍后再试');
    t.clock.advance(24 * 3600 + 1);
    expect((await upload(t, await loginToken(t, busy.telephone), 'STUDENT_CARD', { content: PNG })).status).toBe(200);
  });
});
