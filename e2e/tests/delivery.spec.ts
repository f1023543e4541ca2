import { expect, test, type Page, type Response } from '@playwright/test';

/**
 * What the browser downloads to show the first page, measured on the real build as served: the
 * encoded bytes of every script fetched until the page has rendered and the network is idle. Byte
 * counts, not timings: they only change when the code does.
 *
 * Budgets (brotli): issue 17's 120 KB, the budget scripts/first-load.mjs checks on the build (npm
 * test). This test also sees what the page fetches after its first render.
 */
const FIRST_LOAD_BUDGET_KB: Record<string, number> = {
  '/home': 120,
  '/login': 120,
};

interface Download {
  url: string;
  bytes: number;
  encoding: string | undefined;
}

async function scriptsForFirstRender(page: Page, path: string, rendered: () => Promise<void>): Promise<Download[]> {
  const scripts: Promise<Download>[] = [];
  page.on('response', (response: Response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(
      response.request().sizes().then(async (sizes) => ({
        url: new URL(response.url()).pathname,
        bytes: sizes.responseBodySize,
        encoding: await response.headerValue('content-encoding').then((value) => value ?? undefined),
      })),
    );
  });
  await page.goto(path);
  await rendered();
  await page.waitForLoadState('networkidle');
  return Promise.all(scripts);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

test.describe('first load', () => {
  const pages: { path: string; rendered: (page: Page) => Promise<void> }[] = [
    { path: '/home', rendered: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible() },
    { path: '/login', rendered: (page) => expect(page.getByRole('button', { name: '登录', exact: true })).toBeVisible() },
  ];

  for (const { path, rendered } of pages) {
    test(`${path} downloads at most ${FIRST_LOAD_BUDGET_KB[path]} KB of JavaScript, brotli-compressed`, async ({ page }) => {
      const scripts = await scriptsForFirstRender(page, path, () => rendered(page));
      const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
      const largest = [...scripts].sort((a, b) => b.bytes - a.bytes).slice(0, 5);
      test.info().annotations.push({
        type: 'first-load',
        description: `${path}: ${scripts.length} scripts, ${kb(total)}; largest ${largest.map((s) => `${s.url} ${kb(s.bytes)}`).join(', ')}`,
      });
      expect(scripts.length).toBeGreaterThan(0);
      // Every script above the build's 1 KB compression threshold arrives brotli-compressed.
      for (const script of scripts) if (script.bytes > 1024) expect(script.encoding, script.url).toBe('br');
      expect(total, `${path}: ${scripts.length} scripts, largest ${largest.map((s) => `${s.url} ${kb(s.bytes)}`).join(', ')}`).toBeLessThanOrEqual(
        (FIRST_LOAD_BUDGET_KB[path] ?? 0) * 1024,
      );
    });
  }
});

test('the console page and hashed assets are served compressed and cached as they should be', async ({ request }) => {
  for (const method of ['GET', 'HEAD'] as const) {
    const page = await request.fetch('/', { method, headers: { 'accept-encoding': 'br, gzip' } });
    expect(page.status(), method).toBe(200);
    expect(page.headers()['content-encoding'], method).toBe('br');
    expect(page.headers()['cache-control'], method).toBe('no-cache');
  }
  const html = await (await request.get('/')).text();
  const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(entry).toBeTruthy();
  for (const method of ['GET', 'HEAD'] as const) {
    const asset = await request.fetch(entry ?? '', { method, headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status(), method).toBe(200);
    expect(asset.headers()['content-encoding'], method).toBe('gzip');
    expect(asset.headers()['cache-control'], method).toBe('public, max-age=31536000, immutable');
  }
});
