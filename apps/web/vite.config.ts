import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';

const API_TARGET = 'http://localhost:3000';
const WEB_ROOT = dirname(fileURLToPath(import.meta.url));

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text assets worth compressing; images and fonts in binary formats are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|map|wasm|ico)$/i;
/**
 * Below this size the headers of a compressed answer (`Content-Encoding`, `Vary`: about 40 bytes) cost
 * about what compression saves; a 500-byte chunk still shrinks by a third.
 */
const MIN_COMPRESS_BYTES = 256;

async function* servedFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // `.vite/` holds the chunk map, which is read by scripts, never served.
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

/** Where scripts/first-load.mjs reads which chunk holds each module (never served: see servedFiles). */
const CHUNK_MAP_FILE = '.vite/chunk-map.json';

/**
 * Writes `.vite/chunk-map.json`: the entry chunk, each chunk's static imports and stylesheets, and the
 * chunk that holds each of the console's own modules. Vite's manifest names a chunk by the module it
 * was built from, so a module merged into a code-splitting group (a layout in its group's chunk) has no
 * entry there; this map has one for every module, so scripts/first-load.mjs follows any chunking.
 */
function chunkMap(): Plugin {
  let root = '';
  return {
    name: 'slg-chunk-map',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const map: { entry?: string; chunks: Record<string, { imports: string[]; css: string[] }>; modules: Record<string, string> } = {
        chunks: {},
        modules: {},
      };
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        if (output.isEntry) map.entry = output.fileName;
        map.chunks[output.fileName] = { imports: output.imports, css: [...(output.viteMetadata?.importedCss ?? [])] };
        for (const id of output.moduleIds) {
          const path = relative(root, id);
          if (!path.startsWith('..') && !path.includes('node_modules')) map.modules[path.split(sep).join('/')] = output.fileName;
        }
      }
      this.emitFile({ type: 'asset', fileName: CHUNK_MAP_FILE, source: JSON.stringify(map) });
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

/** The icon shapes ui/icons/ draws, imported `?raw` from @ant-design/icons-svg. */
const ICON_SVG = /[\\/]@ant-design[\\/]icons-svg[\\/]inline-svg[\\/].+\.svg\?raw$/;

/**
 * Optimises the icons' SVG files with svgo as they are bundled: whole units in their 1024-unit grid
 * (a unit is a fiftieth of a pixel at 48 px, so nothing visible moves) and shorter path commands. The
 * icons on a page's first screen weigh about a third less (1.6 KB brotli less on /home).
 */
function optimizeIconSvg(): Plugin {
  return {
    name: 'slg-optimize-icon-svg',
    enforce: 'pre',
    async load(id) {
      if (!ICON_SVG.test(id)) return null;
      const file = id.slice(0, -'?raw'.length);
      const { optimize } = await import('svgo');
      const { data } = optimize(await readFile(file, 'utf8'), { path: file, multipass: true, floatPrecision: 0 });
      return `export default ${JSON.stringify(data)};`;
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

/** The layout of the sign-in pages: the smallest, all of it shared with the other layouts. */
const SIGN_IN_LAYOUT = 'src/layouts/DefaultLayout.tsx';
/** The frame of the sign-in, sign-up and password pages (which use DefaultLayout). */
const SIGN_IN_FRAME = 'src/components/AuthShell.tsx';

/** The layouts, with the chunk their own code goes to. */
const LAYOUT_CHUNKS: Record<string, string> = {
  'src/layouts/DefaultLayout.tsx': 'shell',
  'src/layouts/DeskLayout.tsx': 'desk',
  'src/layouts/DashboardLayout.tsx': 'dashboard',
};

/** A statement that only imports names or passes exports on. */
const REEXPORT_STATEMENT = /^(import\s*\{[^}]*\}\s*from\s*["'][^"']+["']|export\s*(\*|\{[^}]*\})(\s*from\s*["'][^"']+["'])?)$/;

/**
 * Whether a module (its code without comments) only passes on other modules' exports (an index such
 * as `@slg/shared`'s or React Query's): who imports it needs only the modules whose names it uses.
 */
function isReexportIndex(code: string | null): boolean {
  if (!code) return false;
  const statements = code
    .split(';')
    .map((statement) => statement.trim())
    .filter(Boolean);
  return statements.length > 0 && statements.every((statement) => REEXPORT_STATEMENT.test(statement));
}

/**
 * For each module, the lazily loaded modules (layouts, pages, dialogs loaded on demand) whose static
 * imports reach it: the chunks that need it. Through an index, only the importers that name one of
 * the module's exports count.
 */
function lazyRootsFinder(graph: Rolldown.ChunkingContext): (id: string) => Set<string> {
  const memo = new Map<string, Set<string>>();
  const throughIndexMemo = new Map<string, Set<string>>();
  const codes = new Map<string, string | null>();
  /** A module's code without comments (a comment naming an export is no use of it). */
  const codeOf = (id: string): string | null => {
    if (!codes.has(id)) {
      const code = graph.getModuleInfo(id)?.code;
      codes.set(id, code ? code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1') : null);
    }
    return codes.get(id) ?? null;
  };

  function throughIndex(index: string, module: string, names: RegExp): Set<string> {
    const key = `${index}\0${module}`;
    const known = throughIndexMemo.get(key);
    if (known) return known;
    const roots = new Set<string>();
    throughIndexMemo.set(key, roots);
    for (const importer of graph.getModuleInfo(index)?.importers ?? []) {
      const code = codeOf(importer);
      let found: Set<string> = new Set();
      if (isReexportIndex(code)) found = throughIndex(importer, module, names);
      else if (code && names.test(code)) found = rootsOf(importer);
      for (const root of found) roots.add(root);
    }
    return roots;
  }

  function rootsOf(id: string): Set<string> {
    const known = memo.get(id);
    if (known) return known;
    const roots = new Set<string>();
    memo.set(id, roots); // a cycle adds nothing
    const info = graph.getModuleInfo(id);
    if (!info) return roots;
    if (info.dynamicImporters.length > 0 || info.isEntry) {
      roots.add(id);
      return roots;
    }
    const exported = info.exports.filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default').map((name) => name.replace(/\$/g, '\\$'));
    const names = new RegExp(`\\b(${exported.join('|')})\\b`);
    for (const importer of info.importers) {
      let found: Set<string>;
      if (!isReexportIndex(codeOf(importer))) found = rootsOf(importer);
      else found = exported.length ? throughIndex(importer, id, names) : new Set();
      for (const root of found) roots.add(root);
    }
    return roots;
  }
  return rootsOf;
}

/**
 * React Router's production build defines its components with top-level `forwardRef` / `createContext`
 * calls that count as side effects (no pure annotation, a `displayName` assignment after each), so
 * every component it has — `<Form>` and its submission helpers among them — stays in the bundle whether
 * or not it is used. Annotating the calls and dropping the name assignments (they only label components
 * in React DevTools) lets the unused ones go (1 KB brotli). If the package changes its layout, the
 * patterns stop matching and the bundle is as before.
 */
function treeShakeReactRouter(): Plugin {
  return {
    name: 'slg-tree-shake-react-router',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]react-router[\\/]dist[\\/]production[\\/][^\\/]+\.mjs$/ },
      handler(code) {
        return code
          .replace(/^[\w$]+\.displayName = "[^"\n]*";$/gm, '')
          .replace(/^(var [\w$]+ = )(React\d*\.(?:forwardRef|createContext)\()/gm, '$1/* @__PURE__ */ $2');
      },
    },
  };
}

/**
 * Few files and few bytes on the way to the first paint: a phone pays a round trip for each file and
 * about 5 ms for each KB. `app` is everything the entry needs. What the layouts draw at once goes by who
 * else needs it:
 * - `shell`: what the sign-in pages need too (DefaultLayout, all of whose code is shared, and the pages
 *   framed by AuthShell): buttons, the colour-mode menu, tooltips;
 * - `kit`: what several layouts, or a layout and some pages, share beyond that (the header menus, React
 *   Query's hooks, the balance);
 * - `desk`, `dashboard`: what only that layout uses (the console's sidebar, bell and account menu).
 * Everything else — the pages, their API modules, their forms, antd, what a layout loads on demand —
 * stays with the code that uses it (Rolldown's automatic chunks): the sign-in page downloads neither the
 * console's sidebar nor React Query's hooks, and no page downloads another page's API module.
 *
 * Groups with a higher priority form first, and a group takes along every module its modules import,
 * so the shared groups come first.
 */
function layoutGroups(root: string): Rolldown.CodeSplittingGroup[] {
  const pathOf = (id: string) => relative(root, id).split(sep).join('/');
  let analysis: { rootsOf: (id: string) => Set<string>; ownerOf: (rootId: string) => string; signInRoots: Set<string> } | undefined;

  function analyse(graph: Rolldown.ChunkingContext) {
    const rootsOf = lazyRootsFinder(graph);
    const owners = new Map<string, string>();
    /** A layout, or what a layout alone loads on demand (the bell's panel), counts as that layout. */
    const ownerOf = (rootId: string): string => {
      const known = owners.get(rootId);
      if (known) return known;
      const path = pathOf(rootId);
      owners.set(rootId, path); // a cycle counts as its own
      const info = graph.getModuleInfo(rootId);
      if (path in LAYOUT_CHUNKS || !info || info.isEntry) return path;
      const loaders = new Set(info.dynamicImporters.flatMap((importer) => [...rootsOf(importer)].map(ownerOf)));
      const [only] = loaders;
      const owner = loaders.size === 1 && only && only in LAYOUT_CHUNKS ? only : path;
      owners.set(rootId, owner);
      return owner;
    };
    const signInRoots = new Set([SIGN_IN_LAYOUT, ...[...rootsOf(join(root, SIGN_IN_FRAME))].map(pathOf)]);
    return { rootsOf, ownerOf, signInRoots };
  }

  function chunkOf(id: string, graph: Rolldown.ChunkingContext): string | null {
    analysis ??= analyse(graph);
    const { rootsOf, ownerOf, signInRoots } = analysis;
    const direct = [...rootsOf(id)].map(pathOf);
    if (!direct.some((path) => path in LAYOUT_CHUNKS)) return null;
    if (direct.some((path) => signInRoots.has(path))) return 'shell';
    const owners = new Set([...rootsOf(id)].map(ownerOf));
    const [only] = owners;
    return owners.size === 1 && only ? (LAYOUT_CHUNKS[only] ?? null) : 'kit';
  }

  const group = (name: string, priority: number): Rolldown.CodeSplittingGroup => ({
    debugName: name,
    name: (id, graph) => (chunkOf(id, graph) === name ? name : null),
    priority,
  });
  const ownChunks = [...new Set(Object.values(LAYOUT_CHUNKS))].filter((name) => name !== 'shell');
  return [group('shell', 15), group('kit', 12), ...ownChunks.map((name) => group(name, 10))];
}

/**
 * The account forms' kit (fields, validation rules, SMS codes, the sign-in frame): used by the sign-in,
 * sign-up and password pages and by the personal centre, never by a layout. One chunk rather than a
 * few small ones per combination of pages that share them.
 */
const ACCOUNT_FORMS = /[\\/]src[\\/](forms|hooks)[\\/]|[\\/]src[\\/]components[\\/](AuthShell|AuthForm|TelephoneField|SmsCodeField|SmsCodeButton|NewPasswordFields)\.|[\\/]src[\\/]ui[\\/](fields|Checkbox)\./;

/**
 * `@slg/shared` only declares things (schemas, dictionaries, checks). Its index re-exports every module,
 * and a module behind such an index counts as needed wherever the index is imported: the ID-number
 * checks would load with the entry because the session code imports one constant. Marked free of side
 * effects, each of its modules lands in the chunk of the code that uses it. Other modules keep the
 * default (their package.json `sideEffects`).
 */
const SIDE_EFFECT_FREE = [{ test: /[\\/]packages[\\/]shared[\\/]src[\\/]/, sideEffects: false }];

export default defineConfig(({ command, mode }) => {
  // `npm start` and the E2E server run with NODE_ENV=development (the server's SMS outbox) and build the
  // console in that environment; Vite would then bundle React's development build, 4× larger and
  // slower. A production-mode build is always a production bundle.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  const production = command === 'build' && mode === 'production';
  return {
    plugins: [react(), optimizeIconSvg(), treeShakeReactRouter(), inlineEntryCss(), chunkMap(), precompress()],
    resolve: production ? { alias: reactRouterProductionAliases() } : undefined,
    server: {
      port: 5173,
      proxy: {
        '/api': { target: API_TARGET, changeOrigin: true, ws: true },
        // The OpenAI-compatible API (模型对话 streams from /v1/chat/completions).
        '^/v1/': { target: API_TARGET, changeOrigin: true },
        '/sandbox-pay': { target: API_TARGET, changeOrigin: true },
        // The dev WeChat stand-in's authorise page (WECHAT_LOGIN_PROVIDER=dev).
        '/dev-oauth': { target: API_TARGET, changeOrigin: true },
      },
    },
    preview: { port: 4173 },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // Every browser the console supports (module scripts) preloads modules itself.
      modulePreload: { polyfill: false },
      rolldownOptions: {
        treeshake: { moduleSideEffects: SIDE_EFFECT_FREE },
        output: {
          codeSplitting: {
            groups: [
              { name: 'app', tags: ['$initial'], priority: 20 },
              ...layoutGroups(WEB_ROOT),
              { name: 'forms', test: ACCOUNT_FORMS, priority: 5 },
            ],
          },
        },
      },
    },
  };
});
