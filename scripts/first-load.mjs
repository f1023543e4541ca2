#!/usr/bin/env node
// First-load JavaScript per route, read from the console build's Vite manifest: the entry chunk, the
// route's layout and page chunks, and every chunk they import statically (what the browser must fetch
// before the page can render). Sizes are as served: the `.br` / `.gz` files the build writes beside
// each asset (compressed here when a file has none). Lazy chunks (`dynamicImports`) are not counted.
//
//   node scripts/first-load.mjs [--dist apps/web/dist] [--json] [--max-kb 200]
//
// With --max-kb it exits 1 when a route's brotli first-load JavaScript is above the limit.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The routes measured and the modules that render them (as named in apps/web/src/router). A module
 * that is missing from the manifest is an error, so a renamed page cannot silently drop out.
 */
export const MEASURED_ROUTES = {
  '/login': ['src/layouts/DefaultLayout.tsx', 'src/pages/login/index.tsx'],
  '/home': ['src/layouts/DeskLayout.tsx', 'src/pages/desk/home/index.tsx'],
  '/ctrl-overview/overview': ['src/layouts/DashboardLayout.tsx', 'src/pages/ctrl-overview/overview/index.tsx'],
};

function readManifest(dist) {
  const file = join(dist, '.vite', 'manifest.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: build the console first (vite build writes it)`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

function compressedSizes(dist, file) {
  const path = join(dist, file);
  const raw = readFileSync(path);
  const brFile = `${path}.br`;
  const gzFile = `${path}.gz`;
  return {
    raw: raw.length,
    br: existsSync(brFile)
      ? readFileSync(brFile).length
      : brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length,
    gzip: existsSync(gzFile) ? readFileSync(gzFile).length : gzipSync(raw, { level: 9 }).length,
  };
}

/** The manifest keys a route needs before it renders: the entry, the route modules and their static imports. */
function firstLoadKeys(manifest, modules) {
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entryKey) throw new Error('the manifest has no entry chunk');
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    let chunk = manifest[key];
    if (!chunk) {
      // A module merged into a code-splitting group (vite.config.ts: the console's `shell`) has no key
      // of its own; it loads with that group's chunk.
      if (!existsSync(join(root, 'apps/web', key))) throw new Error(`${key} is not in the build manifest`);
      const groupKey = Object.keys(manifest).find((candidate) => manifest[candidate].name === 'shell');
      if (!groupKey) throw new Error(`${key} is not in the build manifest and no shell chunk exists`);
      key = groupKey;
      if (seen.has(key)) return;
      chunk = manifest[key];
    }
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entryKey);
  for (const module of modules) visit(module);
  return [...seen];
}

export function measureFirstLoad(dist = join(root, 'apps/web/dist')) {
  const manifest = readManifest(dist);
  const routes = {};
  for (const [route, modules] of Object.entries(MEASURED_ROUTES)) {
    const files = firstLoadKeys(manifest, modules)
      .map((key) => manifest[key].file)
      .filter((file) => file.endsWith('.js'));
    const css = [
      ...new Set(firstLoadKeys(manifest, modules).flatMap((key) => manifest[key].css ?? [])),
    ];
    const js = { files: files.length, raw: 0, br: 0, gzip: 0 };
    for (const file of files) {
      const sizes = compressedSizes(dist, file);
      js.raw += sizes.raw;
      js.br += sizes.br;
      js.gzip += sizes.gzip;
    }
    const styles = { files: css.length, raw: 0, br: 0, gzip: 0 };
    for (const file of css) {
      const sizes = compressedSizes(dist, file);
      styles.raw += sizes.raw;
      styles.br += sizes.br;
      styles.gzip += sizes.gzip;
    }
    routes[route] = { js, css: styles, chunks: files };
  }
  return routes;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

export function printFirstLoad(routes, log = console.log) {
  log('首屏 JavaScript（按路由，取自构建清单；br/gzip 为实际发送的预压缩大小）');
  for (const [route, { js, css }] of Object.entries(routes)) {
    log(
      `  ${route.padEnd(26)} JS ${String(js.files).padStart(2)} 个文件  br ${kb(js.br).padStart(9)}  gzip ${kb(js.gzip).padStart(9)}  原始 ${kb(js.raw).padStart(9)}   CSS br ${kb(css.br)}`,
    );
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : undefined;
  };
  const dist = resolve(option('--dist') ?? join(root, 'apps/web/dist'));
  const routes = measureFirstLoad(dist);
  if (args.includes('--json')) console.log(JSON.stringify(routes, null, 2));
  else printFirstLoad(routes);
  const maxKb = option('--max-kb');
  if (maxKb) {
    const over = Object.entries(routes).filter(([, { js }]) => js.br > Number(maxKb) * 1024);
    for (const [route, { js }] of over) console.error(`${route}: 首屏 JS ${kb(js.br)}（br）超过 ${maxKb} KB`);
    if (over.length) process.exit(1);
  }
}
