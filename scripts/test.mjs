#!/usr/bin/env node
// npm test: every suite this machine can run. Unit and integration tests always (server on PGlite,
// or on PostgreSQL when DATABASE_URL is set), the console's first-load budget on a fresh build, and the
// end-to-end suite when Chromium is installed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(label, args) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync('npm', args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`\n${label} 失败`);
    process.exit(result.status ?? 1);
  }
}

run('shared', ['run', 'test', '-w', 'packages/shared']);
run('web', ['run', 'test', '-w', 'apps/web']);
run(`server (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, ['run', 'test', '-w', 'apps/server']);
// The console's first-load JavaScript budget, on a fresh build (the end-to-end server then serves it).
run('console build', ['run', 'build', '-w', 'apps/web']);
run('first-load budget', ['exec', '--', 'node', 'scripts/first-load.mjs', '--budget']);
if (existsSync(chromium)) {
  run('e2e (Chromium)', ['run', 'test', '-w', 'e2e']);
} else {
  console.log(`\n未找到 ${chromium}，跳过端到端测试（apt-get install -y chromium fonts-noto-cjk 后可运行）`);
}
