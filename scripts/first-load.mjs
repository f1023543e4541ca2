#!/usr/bin/env node
// First-load JavaScript per route, read from the console build (apps/web/dist/.vite/chunk-map.json,
// written by apps/web/vite.config.ts): the entry chunk, the chunks holding the route's layout and page,
// and every chunk they import statically (what the browser must fetch before the page can render; the
// build also preloads them together). Sizes are as served: the `.br` / `.gz` files the build writes
// beside each asset, or the file itself when it is too small to be compressed. Chunks loaded on demand
// (a dialog, a menu's panel) are not counted.
//
//   node scripts/first-load.mjs [--dist apps/web/dist] [--json] [--budget [KB]]
//
// With --budget it exits 1 when a route's brotli first-load JavaScript is above FIRST_LOAD_BUDGET_KB (or
// the KB given), or when the build is older than the console's sources (it would measure old code).
// `npm test` builds the console and runs it (scripts/test.mjs).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleSourcesChangedAt } from './console-sources.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Issue 17: at most this much JavaScript (brotli) before each measured route can render. */
export const FIRST_LOAD_BUDGET_KB = 120;

/**
 * The routes measured and the modules that render them (as named in apps/web/src/router). A module
 * that is missing from the build is an error, so a renamed page cannot silently drop out.
 */
export const MEASURED_ROUTES = {
  '/login': ['src/layouts/DefaultLayout.tsx', 'src/pages/login/index.tsx'],
  // The sections under the hero are a chunk of their own that the page fetches as soon as it renders
  // (at 1440×900 they are on the first screen): part of what the first load downloads.
  '/home': ['src/layouts/DeskLayout.tsx', 'src/pages/desk/home/index.tsx', 'src/pages/desk/home/components/BelowTheFold.tsx'],
  '/ctrl-overview/overview': ['src/layouts/DashboardLayout.tsx', 'src/pages/ctrl-overview/overview/index.tsx'],
};

function readChunkMap(dist) {
  const file = join(dist, '.vite', 'chunk-map.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: build the console first (npm run build)`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * A file's size as the server sends it: the `.br` / `.gz` the build wrote beside it, or the file itself
 * (the build compresses only files above 1 KB; smaller ones go out as they are).
 */
function servedSizes(dist, file) {
  const path = join(dist, file);
  const raw = statSync(path).size;
  const variant = (suffix) => (existsSync(`${path}${suffix}`) ? statSync(`${path}${suffix}`).size : raw);
  return { raw, br: variant('.br'), gzip: variant('.gz') };
}

/** The chunks a route needs before it renders: the entry, the chunks holding the route modules, and their static imports. */
function firstLoadChunks(map, modules) {
  if (!map.entry) throw new Error('the build has no entry chunk');
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of map.chunks[file]?.imports ?? []) visit(imported);
  };
  visit(map.entry);
  for (const module of modules) {
    const file = map.modules[module];
    if (!file) throw new Error(`${module} is not in the build (apps/web/dist/.vite/chunk-map.json)`);
    visit(file);
  }
  return [...seen];
}

function total(dist, files) {
  const sum = { files: files.length, raw: 0, br: 0, gzip: 0 };
  for (const file of files) {
    const sizes = servedSizes(dist, file);
    sum.raw += sizes.raw;
    sum.br += sizes.br;
    sum.gzip += sizes.gzip;
  }
  return sum;
}

export function measureFirstLoad(dist = join(root, 'apps/web/dist')) {
  const map = readChunkMap(dist);
  const routes = {};
  for (const [route, modules] of Object.entries(MEASURED_ROUTES)) {
    const chunks = firstLoadChunks(map, modules);
    const css = [...new Set(chunks.flatMap((file) => map.chunks[file]?.css ?? []))];
    routes[route] = { js: total(dist, chunks), css: total(dist, css), chunks };
  }
  return routes;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

export function printFirstLoad(routes, log = console.log) {
  log('首屏 JavaScript（按路由，取自构建；br/gzip 为实际发送的大小）');
  for (const [route, { js, css }] of Object.entries(routes)) {
    log(
      `  ${route.padEnd(26)} JS ${String(js.files).padStart(2)} 个文件  br ${kb(js.br).padStart(9)}  gzip ${kb(js.gzip).padStart(9)}  原始 ${kb(js.raw).padStart(9)}   CSS br ${kb(css.br)}`,
    );
  }
}

/** Routes whose first-load JavaScript (brotli) is above the budget. */
export function overBudget(routes, budgetKb = FIRST_LOAD_BUDGET_KB) {
  return Object.entries(routes)
    .filter(([, { js }]) => js.br > budgetKb * 1024)
    .map(([route, { js }]) => `${route} 首屏 JS ${kb(js.br)}（br）超过预算 ${budgetKb} KB`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name) => {
    const index = args.indexOf(name);
    const value = index >= 0 ? args[index + 1] : undefined;
    return value === undefined || value.startsWith('--') ? undefined : value;
  };
  const dist = resolve(option('--dist') ?? join(root, 'apps/web/dist'));
  const routes = measureFirstLoad(dist);
  if (args.includes('--json')) console.log(JSON.stringify(routes, null, 2));
  else printFirstLoad(routes);
  if (args.includes('--budget')) {
    const budgetKb = Number(option('--budget') ?? FIRST_LOAD_BUDGET_KB);
    if (!(budgetKb > 0)) throw new Error('--budget 需要正数（KB）');
    const builtAt = statSync(join(dist, '.vite', 'chunk-map.json')).mtimeMs;
    const sourcesAt = consoleSourcesChangedAt(root);
    const problems = overBudget(routes, budgetKb);
    if (builtAt < sourcesAt) problems.unshift('构建早于控制台源码的最后修改，结果不代表当前代码：先运行 npm run build');
    for (const problem of problems) console.error(problem);
    if (problems.length) process.exit(1);
    console.log(`首屏 JS 均在预算 ${budgetKb} KB（br）以内`);
  }
}
