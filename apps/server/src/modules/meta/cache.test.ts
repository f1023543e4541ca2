import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createTestApp, registerUser, type TestApp } from '../../../test/helpers.js';
import { secondReplica, type Replica } from '../../../test/replica.js';
import { dbOf } from '../../deps.js';
import { gpuModels, zones } from '../../db/schema/meta.js';
import { DictionaryCache, etagMatches } from './cache.js';
import { DICTIONARY_MAX_AGE_MS } from './routes.js';

let t: TestApp;
let replicaB: Replica;

beforeAll(async () => {
  t = await createTestApp();
  replicaB = await secondReplica(t);
});

afterAll(async () => {
  await replicaB.close();
  await t.close();
});

const get = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
const ids = (body: string) => (JSON.parse(body) as { result: { id: string }[] }).result.map((item) => item.id);

describe('dictionary answers carry an ETag', () => {
  it('sends a weak ETag that browsers must revalidate, and 304 with no body when it still matches', async () => {
    for (const url of ['/api/v1/meta/gpu', '/api/v1/meta/zone', '/api/v1/meta/cpu', '/api/v1/meta/images/public', '/api/v1/meta/instance_status']) {
      const first = await get(t.app, url);
      expect(first.statusCode, url).toBe(200);
      const etag = String(first.headers.etag);
      expect(etag, url).toMatch(/^W\/"[\w-]{27}"$/);
      expect(first.headers['cache-control']).toBe('no-cache');
      expect(first.headers.vary).toContain('accept-encoding');
      expect(first.headers['content-type']).toBe('application/json; charset=utf-8');

      const again = await get(t.app, url, { 'if-none-match': etag });
      expect(again.statusCode, url).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
    }
  });

  it('answers 200 to an unknown tag and 304 to a list that holds the current one', async () => {
    const { etag } = (await get(t.app, '/api/v1/meta/gpu')).headers;
    expect((await get(t.app, '/api/v1/meta/gpu', { 'if-none-match': 'W/"something-else"' })).statusCode).toBe(200);
    expect((await get(t.app, '/api/v1/meta/gpu', { 'if-none-match': `"old", ${String(etag)}` })).statusCode).toBe(304);
    // The strong form of the same tag matches too (weak comparison, RFC 9110 §13.1.2).
    expect((await get(t.app, '/api/v1/meta/gpu', { 'if-none-match': String(etag).slice(2) })).statusCode).toBe(304);
  });

  it('compares tags the RFC 9110 weak way', () => {
    expect(etagMatches('W/"a"', 'W/"a"')).toBe(true);
    expect(etagMatches('"a"', 'W/"a"')).toBe(true);
    expect(etagMatches('*', 'W/"a"')).toBe(true);
    expect(etagMatches('W/"b", W/"a"', 'W/"a"')).toBe(true);
    expect(etagMatches('W/"ab"', 'W/"a"')).toBe(false);
    expect(etagMatches(undefined, 'W/"a"')).toBe(false);
  });

  it('sends the body precompressed in the encoding the client prefers, under the same tag', async () => {
    const url = '/api/v1/meta/images/public';
    const plain = await get(t.app, url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get(t.app, url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    const gzip = await get(t.app, url, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain.body);
    expect(new Set([plain.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(1);
  });

  it('answers HEAD with the same validator', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: '/api/v1/meta/zone' });
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe((await get(t.app, '/api/v1/meta/zone')).headers.etag);
  });

  it('serves a caller with a signed-out bearer token like anyone else', async () => {
    const user = await registerUser(t);
    await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { authorization: `Bearer ${user.jwtToken}` } });
    const response = await get(t.app, '/api/v1/meta/gpu', { authorization: `Bearer ${user.jwtToken}` });
    expect(response.statusCode).toBe(200);
  });
});

describe('DictionaryCache', () => {
  function counted(initial: string[]) {
    let nowMs = Date.parse('2026-06-01T02:00:00Z');
    let rows = initial;
    let loads = 0;
    let release: (() => void) | null = null;
    let gate: Promise<void> | null = null;
    const cache = new DictionaryCache(
      async () => {
        loads += 1;
        if (gate) await gate;
        return { names: [...rows] };
      },
      () => new Date(nowMs),
      1000,
    );
    return {
      cache,
      loads: () => loads,
      advance: (ms: number) => (nowMs += ms),
      setRows: (next: string[]) => (rows = next),
      hold: () => (gate = new Promise<void>((resolve) => (release = resolve))),
      release: () => {
        gate = null;
        release?.();
      },
    };
  }

  it('loads once per maximum age; requests in between cost no load', async () => {
    const c = counted(['a']);
    const first = await c.cache.get('names');
    for (let i = 0; i < 10; i += 1) expect(await c.cache.get('names')).toBe(first);
    c.advance(999);
    await c.cache.get('names');
    expect(c.loads()).toBe(1);
    c.advance(1);
    await c.cache.get('names');
    expect(c.loads()).toBe(2);
  });

  it('shares one reload among the requests that arrive while it runs', async () => {
    const c = counted(['a']);
    c.hold();
    const waiting = Array.from({ length: 10 }, () => c.cache.get('names'));
    c.release();
    const answers = await Promise.all(waiting);
    expect(c.loads()).toBe(1);
    expect(new Set(answers).size).toBe(1);
  });

  it('keeps the representation (and its ETag) when a reload finds the same content, and replaces it when not', async () => {
    const c = counted(['a']);
    const first = await c.cache.get('names');
    c.advance(1000);
    expect(await c.cache.get('names')).toBe(first);
    c.setRows(['a', 'b']);
    c.advance(1000);
    const changed = await c.cache.get('names');
    expect(changed.etag).not.toBe(first.etag);
    expect(JSON.parse(changed.identity.toString('utf8'))).toEqual(['a', 'b']);
  });

  it('reloads when the clock was set back instead of trusting the copy until the clock catches up', async () => {
    const c = counted(['a']);
    await c.cache.get('names');
    c.advance(-3_600_000);
    await c.cache.get('names');
    expect(c.loads()).toBe(2);
  });
});

describe('an operator edit of a dictionary table', () => {
  it('reaches every replica within the maximum age, and only then', async () => {
    // The window is one second: on a loaded machine real time alone could close it between two requests.
    t.clock.freeze();
    const db = dbOf(t.deps);
    const url = '/api/v1/meta/gpu';
    const before = await get(t.app, url);
    const onB = await get(replicaB.app, url);
    const oldTag = String(before.headers.etag);
    expect(onB.headers.etag).toBe(oldTag);
    expect(ids(before.body)).toContain('rtx3090');
    const zoneTag = String((await get(t.app, '/api/v1/meta/zone')).headers.etag);

    await db.update(gpuModels).set({ enabled: false }).where(eq(gpuModels.id, 'rtx3090'));
    try {
      // Within the window both replicas answer from memory: the old tag still gets 304 (no query).
      expect((await get(t.app, url, { 'if-none-match': oldTag })).statusCode).toBe(304);
      expect((await get(replicaB.app, url, { 'if-none-match': oldTag })).statusCode).toBe(304);

      t.clock.advance(DICTIONARY_MAX_AGE_MS / 1000);

      for (const app of [t.app, replicaB.app]) {
        const after = await get(app, url, { 'if-none-match': oldTag });
        expect(after.statusCode).toBe(200);
        expect(ids(after.body)).not.toContain('rtx3090');
        const newTag = String(after.headers.etag);
        expect(newTag).not.toBe(oldTag);
        expect((await get(app, url, { 'if-none-match': newTag })).statusCode).toBe(304);
        // A dictionary that did not change keeps its tag, so browsers keep their copy.
        expect((await get(app, '/api/v1/meta/zone', { 'if-none-match': zoneTag })).statusCode).toBe(304);
      }
    } finally {
      await db.update(gpuModels).set({ enabled: true }).where(eq(gpuModels.id, 'rtx3090'));
      t.clock.advance(DICTIONARY_MAX_AGE_MS / 1000);
    }
    expect(ids((await get(t.app, url)).body)).toContain('rtx3090');
  });

  it('is picked up by concurrent requests that arrive after the window, all with the new version', async () => {
    const db = dbOf(t.deps);
    await get(t.app, '/api/v1/meta/zone');
    await db.update(zones).set({ name: '北京一区' }).where(eq(zones.id, 'bj-a'));
    try {
      t.clock.advance(DICTIONARY_MAX_AGE_MS / 1000);
      const answers = await Promise.all(Array.from({ length: 20 }, () => get(t.app, '/api/v1/meta/zone')));
      for (const answer of answers) {
        expect(answer.statusCode).toBe(200);
        expect((JSON.parse(answer.body) as { result: { id: string; name: string }[] }).result.find((zone) => zone.id === 'bj-a')?.name).toBe('北京一区');
      }
      expect(new Set(answers.map((answer) => answer.headers.etag)).size).toBe(1);
    } finally {
      await db.update(zones).set({ name: '北京A区' }).where(eq(zones.id, 'bj-a'));
      t.clock.advance(DICTIONARY_MAX_AGE_MS / 1000);
    }
  });
});
