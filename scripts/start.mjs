#!/usr/bin/env node
// npm start: build the console when its build is missing or older than its sources, then run the
// server (which migrates, seeds and serves console + API on PORT).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleSourcesChangedAt } from './console-sources.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const builtIndex = join(root, 'apps/web/dist/index.html');
const sourcesTime = consoleSourcesChangedAt(root);
if (!existsSync(builtIndex) || statSync(builtIndex).mtimeMs < sourcesTime) {
  console.log('构建控制台前端（apps/web）…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// node_modules/.bin first: the `node` package there is the Node 24 the platform runs on, whatever
// Node started this script (npm start puts it first already; `node scripts/start.mjs` does not).
const bin = join(root, 'node_modules/.bin');
const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
const server = spawn(join(bin, 'tsx'), ['apps/server/src/main.ts'], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
