import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const API_TARGET = 'http://localhost:3000';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text assets worth compressing; images and fonts in binary formats are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|map|wasm|ico)$/i;
/** Below this size the headers of a compressed answer cost about what compression saves. */
const MIN_COMPRESS_BYTES = 1024;

async function* servedFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // `.vite/` holds the build manifest, which is read by scripts, never served.
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.')) yield* servedFiles(path);
    }
    else yield path;
  }
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every compressible
 * asset of the build, so the server sends the variant the browser accepts without compressing per
 * request (@fastify/static `preCompressed`).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'slg-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const jobs: Promise<void>[] = [];
      for await (const file of servedFiles(outDir)) {
        if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_COMPRESS_BYTES) continue;
        jobs.push(
          readFile(file).then(async (content) => {
            const [br, gz] = await Promise.all([
              brotli(content, {
                params: {
                  [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
                  [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
                  [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
                },
              }),
              gzipAsync(content, { level: zlibConstants.Z_BEST_COMPRESSION }),
            ]);
            await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
          }),
        );
      }
      await Promise.all(jobs);
    },
  };
}

/**
 * Puts the entry stylesheet (styles/global.css, a few KB) into index.html instead of linking it: a
 * linked stylesheet blocks the first paint until it has downloaded, and on a slow connection it
 * competes with the scripts fetched at the same time. The page itself is sent compressed.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'slg-inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        return html.replace(/<link rel="stylesheet"(?: crossorigin)? href="\/([^"]+\.css)">/g, (link, file: string) => {
          const asset = bundle[file];
          if (!asset || asset.type !== 'asset') return link;
          // The file stays in the bundle (nothing else references it); `</style` cannot appear in CSS that builds.
          return `<style>${String(asset.source).replace(/<\/style/gi, '<\\/style')}</style>`;
        });
      },
    },
  };
}

/**
 * React Router's package exports only its development build (warnings, invariant messages, about twice
 * the code); its production build ships beside it. A production bundle takes that one.
 */
function reactRouterProductionAliases() {
  const require = createRequire(import.meta.url);
  const dist = join(dirname(require.resolve('react-router/package.json')), 'dist/production');
  return [
    { find: /^react-router$/, replacement: join(dist, 'index.mjs') },
    { find: /^react-router\/dom$/, replacement: join(dist, 'dom-export.mjs') },
  ];
}

/**
 * Few files on the way to the first paint: a phone on a slow network pays a round trip for each file
 * it cannot fetch at once. `app` is everything the entry needs; `shell` is the console's own small UI
 * kit (ui/, the layouts, the account forms and their icons), shared by every layout and the public,
 * sign-in and overview pages. Each page stays a chunk of its own, and antd stays with the pages that
 * use it.
 */
const SHELL_MODULES = [
  /[\\/]src[\\/](ui|layouts|forms|hooks|session|stores)[\\/]/,
  /[\\/]src[\\/]router[\\/]menus\./,
  /[\\/]src[\\/]api[\\/](?!download)[a-zA-Z]+\.ts$/,
  /[\\/]src[\\/]components[\\/](Logo|PageLoading|ColorModeSwitch|colorModeButton|AuthShell|AuthForm|TelephoneField|SmsCodeField|SmsCodeButton|NewPasswordFields|texts)\./,
  /[\\/]packages[\\/]shared[\\/]/,
  /[\\/]node_modules[\\/]@ant-design[\\/]icons-svg[\\/]/,
];

export default defineConfig(({ command, mode }) => {
  // `npm start` and the E2E server run with NODE_ENV=development (the server's SMS outbox) and build the
  // console in that environment; Vite would then bundle React's development build, 4× larger and
  // slower. A production-mode build is always a production bundle.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  const production = command === 'build' && mode === 'production';
  return {
    plugins: [react(), inlineEntryCss(), precompress()],
    resolve: production ? { alias: reactRouterProductionAliases() } : undefined,
    server: {
      port: 5173,
      proxy: {
        '/api': { target: API_TARGET, changeOrigin: true },
        '/sandbox-pay': { target: API_TARGET, changeOrigin: true },
        // The dev WeChat stand-in's authorise page (WECHAT_LOGIN_PROVIDER=dev).
        '/dev-oauth': { target: API_TARGET, changeOrigin: true },
      },
    },
    preview: { port: 4173 },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // dist/.vite/manifest.json: scripts/first-load.mjs reads which chunks each route loads first.
      manifest: true,
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              { name: 'app', tags: ['$initial'], priority: 20 },
              { name: 'shell', test: (id: string) => SHELL_MODULES.some((pattern) => pattern.test(id)), priority: 10 },
            ],
          },
        },
      },
    },
  };
});
