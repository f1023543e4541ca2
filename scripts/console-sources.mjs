// When the console's sources last changed: scripts/start.mjs rebuilds the console when its build is
// older, scripts/first-load.mjs refuses to measure such a build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Sources whose change changes the console build. */
const WEB_SOURCES = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/public', 'packages/shared/src'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** The newest modification time (ms) among the console's sources under the repository root `root`. */
export function consoleSourcesChangedAt(root) {
  return Math.max(...WEB_SOURCES.map((source) => newestMtime(join(root, source))));
}
