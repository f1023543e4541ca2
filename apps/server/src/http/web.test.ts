import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'slg-web-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><html><head><title>placeholder</title><!--slg-config--><script type="module" src="/assets/app-1.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dist, 'assets', 'app-1.js'), 'console.log(1)');
  t = await createTestApp({ serveWeb: true, env: { WEB_DIST_DIR: dist, APP_TITLE: '算力港<测试>', PUBLIC_URL: 'https://gpu.example.com' } });
});
afterAll(async () => {
  await t.close();
});

describe('serving the console', () => {
  it('serves index.html with the runtime config and the app title for client-side routes', async () => {
    for (const url of ['/', '/ctrl-overview/overview', '/login?redirect=%2Fx']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('window.__SLG_CONFIG__={"appTitle":"算力港\\u003c测试>","publicUrl":"https://gpu.example.com"}');
      expect(page.body).toContain('<title>算力港&#60;测试&#62;</title>');
      expect(page.body).not.toContain('placeholder');
    }
  });

  it('allows exactly the injected inline script in the content security policy', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
  });

  it('serves built files and answers missing files with 404, never with the page', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-1.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
    expect(asset.headers['cache-control']).toContain('immutable');
    for (const url of ['/assets/app-0-old.js', '/logo.png', '/api/v1/nope']) {
      const missing = await t.app.inject({ method: 'GET', url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.headers['content-type'], url).toContain('application/json');
    }
  });
});
