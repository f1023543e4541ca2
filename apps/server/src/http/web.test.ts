import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { gpuModels } from '../db/schema/index.js';

// A built console as the web build leaves it: hashed assets with `.br` / `.gz` beside them. Each
// variant has its own content so the test can tell which file was sent.
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;
const SCRIPT_BR = brotliCompressSync(Buffer.from(`${SCRIPT}//br`));
const SCRIPT_GZ = gzipSync(Buffer.from(`${SCRIPT}//gz`));
// An inline script of the build itself (the console's colour-mode boot).
const BOOT_SCRIPT = "document.documentElement.dataset.theme='light'";
// Long enough (> 1 KB) that compressing the page is worth it.
const PAGE_FILLER = `<p>${'算力港 GPU 云 '.repeat(120)}</p>`;

let t: TestApp;
beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'slg-web-'));
  mkdirSync(join(dist, 'assets'));
  mkdirSync(join(dist, '.vite'));
  writeFileSync(
    join(dist, 'index.html'),
    `<!doctype html><html><head><title>placeholder</title><!--slg-config--><!--slg-meta--><script>${BOOT_SCRIPT}</script><script type="module" src="/assets/app-1.js"></script></head><body><div id="root">${PAGE_FILLER}</div></body></html>`,
  );
  writeFileSync(join(dist, 'index.html.br'), 'the raw template, never served');
  writeFileSync(join(dist, 'assets', 'app-1.js'), SCRIPT);
  writeFileSync(join(dist, 'assets', 'app-1.js.br'), SCRIPT_BR);
  writeFileSync(join(dist, 'assets', 'app-1.js.gz'), SCRIPT_GZ);
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dist, '.vite', 'manifest.json'), '{}');
  t = await createTestApp({ serveWeb: true, env: { WEB_DIST_DIR: dist, APP_TITLE: '算力港<测试>', PUBLIC_URL: 'https://gpu.example.com' } });
});
afterAll(async () => {
  await t.close();
});

function pageText(response: { headers: Record<string, unknown>; rawPayload: Buffer }): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(response.rawPayload).toString('utf8');
  return response.rawPayload.toString('utf8');
}

describe('serving the console', () => {
  it('serves index.html with the runtime config and the app title for client-side routes', async () => {
    for (const url of ['/', '/ctrl-overview/overview', '/login?redirect=%2Fx', '/index.html']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.body).toContain('window.__SLG_CONFIG__={"appTitle":"算力港\\u003c测试>","publicUrl":"https://gpu.example.com"}');
      expect(page.body).toContain('<title>算力港&#60;测试&#62;</title>');
      expect(page.body).not.toContain('placeholder');
    }
  });

  it('carries the zones, GPU models and public images as JSON, and a changed list within a second', async () => {
    const listsOf = (body: string) => {
      const json = /<script type="application\/json" id="slg-meta">([^<]*)<\/script>/.exec(body)?.[1];
      return JSON.parse(json ?? 'null') as Record<string, { id: string; name: string }[]>;
    };
    const first = await t.app.inject({ method: 'GET', url: '/home', headers: { 'accept-encoding': 'br' } });
    const lists = listsOf(pageText(first));
    for (const path of ['zone', 'gpu', 'images/public']) {
      const api = await t.app.inject({ method: 'GET', url: `/api/v1/meta/${path}` });
      expect(lists[path], path).toEqual(JSON.parse(api.body).result);
    }
    await t.deps.database.db.update(gpuModels).set({ name: 'RTX 4090 <新>' }).where(eq(gpuModels.id, 'rtx4090'));
    t.clock.advance(2);
    const changed = await t.app.inject({ method: 'GET', url: '/home' });
    // `<` inside the JSON is escaped, so no list text can close the script element.
    expect(changed.body).toContain('RTX 4090 \\u003c新>');
    expect(listsOf(changed.body).gpu?.find((gpu) => gpu.id === 'rtx4090')?.name).toBe('RTX 4090 <新>');
    await t.deps.database.db.update(gpuModels).set({ name: 'RTX 4090' }).where(eq(gpuModels.id, 'rtx4090'));
  });

  it('allows exactly the inline scripts of the page in the content security policy', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    const scripts = [...page.body.matchAll(/<script>([^<]*)<\/script>/g)].map((match) => match[1] ?? '');
    expect(scripts).toHaveLength(2);
    const hashes = scripts.map((script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    const scriptSrc = /script-src ([^;]*)/.exec(String(page.headers['content-security-policy']))?.[1]?.split(' ');
    expect(scriptSrc).toEqual(["'self'", ...hashes]);
  });

  it('sends the page brotli-compressed when accepted, gzip otherwise, plain when neither', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/home' });
    const cases = [
      { accept: 'gzip, deflate, br, zstd', encoding: 'br' },
      { accept: 'gzip, deflate', encoding: 'gzip' },
      { accept: 'br;q=0, gzip', encoding: 'gzip' },
      { accept: 'identity', encoding: undefined },
      { accept: undefined, encoding: undefined },
    ];
    for (const { accept, encoding } of cases) {
      const page = await t.app.inject({ method: 'GET', url: '/home', headers: accept ? { 'accept-encoding': accept } : {} });
      expect(page.statusCode, accept).toBe(200);
      expect(page.headers['content-encoding'], accept).toBe(encoding);
      expect(page.headers.vary, accept).toContain('accept-encoding');
      expect(pageText(page), accept).toBe(plain.body);
      if (encoding) expect(page.rawPayload.length, accept).toBeLessThan(Buffer.byteLength(plain.body) / 2);
    }
  });

  it('sends the precompressed asset the browser accepts with its encoding, and caches hashed assets for a year', async () => {
    const cases = [
      { accept: 'gzip, deflate, br', encoding: 'br', body: `${SCRIPT}//br` },
      { accept: 'gzip, deflate', encoding: 'gzip', body: `${SCRIPT}//gz` },
      { accept: 'identity', encoding: undefined, body: SCRIPT },
      { accept: undefined, encoding: undefined, body: SCRIPT },
    ];
    for (const { accept, encoding, body } of cases) {
      const asset = await t.app.inject({ method: 'GET', url: '/assets/app-1.js', headers: accept ? { 'accept-encoding': accept } : {} });
      expect(asset.statusCode, accept).toBe(200);
      expect(asset.headers['content-type'], accept).toContain('javascript');
      expect(asset.headers['content-encoding'], accept).toBe(encoding);
      expect(asset.headers.vary, accept).toContain('accept-encoding');
      expect(asset.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
      expect(pageText(asset), accept).toBe(body);
    }
  });

  it('answers HEAD wherever GET is answered, with the GET headers and no body', async () => {
    for (const url of ['/', '/ctrl-overview/overview', '/assets/app-1.js', '/favicon.svg']) {
      const get = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      const head = await t.app.inject({ method: 'HEAD', url, headers: { 'accept-encoding': 'br' } });
      expect(head.statusCode, url).toBe(200);
      expect(head.headers['content-type'], url).toBe(get.headers['content-type']);
      expect(head.headers['content-encoding'], url).toBe(get.headers['content-encoding']);
      expect(head.headers['content-length'], url).toBe(String(get.rawPayload.length));
      expect(head.rawPayload.length, url).toBe(0);
    }
  });

  it('answers missing files with 404, never with the page, and serves neither the build manifest nor the raw template', async () => {
    for (const url of ['/assets/app-0-old.js', '/assets/app-0-old.js.br', '/logo.png', '/api/v1/nope', '/.vite/manifest.json', '/index.html.br']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const missing = await t.app.inject({ method, url, headers: { 'accept-encoding': 'br, gzip' } });
        expect(missing.statusCode, `${method} ${url}`).toBe(404);
        expect(missing.headers['content-type'], `${method} ${url}`).toContain('application/json');
      }
    }
  });
});
