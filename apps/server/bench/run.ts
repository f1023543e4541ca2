/**
 * `npm run bench`: requests/s and p99 latency of the server's hot paths against bare Fastify, on a
 * fresh PostgreSQL database (created here, dropped at the end). Each server runs in its own process
 * and autocannon runs in this one, so the load generator never shares an event loop with the server.
 *
 *   npm run bench                          every scenario
 *   npm run bench -- userinfo account      bare Fastify plus the named scenarios
 *   npm run bench -- --profile userinfo    also writes a CPU profile of the app and prints its hot spots
 *
 * BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 5), BENCH_CONNECTIONS (default 32).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../src/db/client.js';
import { summariseProfile, type ProfileWindow } from './profile.js';
import { BARE, SCENARIOS, type BenchContext, type HttpScenario, type Targets, type TimedScenario } from './scenarios.js';

const serverDir = dirname(dirname(fileURLToPath(import.meta.url)));
const repoRoot = dirname(dirname(serverDir));
const outputDir = join(repoRoot, '.bench');
const profileDir = join(outputDir, 'profiles');
/** The app server's 文件存储 root (STORAGE_ROOT), emptied before each run. */
const storageRoot = join(outputDir, 'storage');
const modelsDir = join(outputDir, 'models');

const durationSeconds = Number(process.env.BENCH_DURATION ?? 10);
const warmupSeconds = Number(process.env.BENCH_WARMUP ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const args = process.argv.slice(2);
const profile = args.includes('--profile');
const wanted = args.filter((arg) => !arg.startsWith('--'));
const unknown = wanted.filter((name) => !SCENARIOS.some((scenario) => scenario.name === name));
if (unknown.length > 0) {
  console.error(`未知的场景: ${unknown.join(', ')}（可选 ${SCENARIOS.map((scenario) => scenario.name).join(', ')}）`);
  process.exit(2);
}
// Bare Fastify always runs: every other figure is a ratio of it.
const selected = SCENARIOS.filter((scenario) => scenario.name === BARE || wanted.length === 0 || wanted.includes(scenario.name));

export interface ScenarioResult {
  name: string;
  title: string;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Timed operations only: the p95 and the slowest run. */
  latencyP95Ms?: number;
  maxMs?: number;
  ratioToBare: number | null;
  requests: number;
  /**
   * CPU time per request of the server process and of its PostgreSQL backends (Linux /proc; null
   * elsewhere). Unlike requests/s these barely move when other programs share the machine.
   */
  serverCpuMicrosPerRequest: number | null;
  postgresCpuMicrosPerRequest: number | null;
  /** Answers whose status was not the expected one, plus connection errors and timeouts. */
  failures: number;
  targets: Targets | null;
  meetsTargets: boolean | null;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

interface RunningServer {
  baseUrl: string;
  pid: number;
  /** Date.now() when the process was started, to find a scenario's samples in its CPU profile. */
  startedAtMs: number;
  stop(): Promise<void>;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU seconds a process has used so far, or null where /proc is missing. */
function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th overall.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

async function postgresBackends(database: DatabaseHandle, databaseName: string): Promise<number[]> {
  const result = (await database.db.execute(
    sql`select pid from pg_stat_activity where datname = ${databaseName} and pid <> pg_backend_pid()`,
  )) as unknown as { rows: { pid: number }[] };
  return result.rows.map((row) => row.pid);
}

function cpuSecondsByPid(pids: number[]): Map<number, number> | null {
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    const used = cpuSecondsOf(pid);
    if (used !== null) seconds.set(pid, used);
  }
  return pids.length > 0 && seconds.size === 0 ? null : seconds;
}

/**
 * CPU the backends used between two readings. A backend the pool opened meanwhile counts whole; one it
 * closed is left out (the pool closes only connections idle for 10 s, so they used next to nothing).
 */
function backendCpuSeconds(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let total = 0;
  for (const [pid, used] of after) total += used - (before.get(pid) ?? 0);
  return total;
}

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`服务进程已退出（${child.exitCode}）`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} 60 秒内未就绪`);
}

async function startServer(kind: 'bare' | 'app', databaseName: string): Promise<RunningServer> {
  const port = await freePort();
  const script = kind === 'bare' ? join(serverDir, 'bench', 'bare-server.ts') : join(serverDir, 'src', 'main.ts');
  const url = new URL(databaseUrl);
  url.pathname = `/${databaseName}`;
  const nodeArgs = ['--import', 'tsx'];
  if (profile && kind === 'app') nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`);
  const startedAtMs = Date.now();
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: serverDir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      // The real entry point as production runs it, except the development SMS outbox that lets the
      // bench register a user through the public API.
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: url.toString(),
      LOG_LEVEL: 'silent',
      STORAGE_ROOT: storageRoot,
      MODELS_DIR: modelsDir,
      // The model benches call the API many times a minute from one account.
      MODEL_REQUESTS_PER_MINUTE: '1000000',
      MODEL_TOKENS_PER_MINUTE: '1000000000',
      JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
      // The limiter stays on (its cost is part of every request) but must not refuse the load.
      RATE_LIMIT_PER_MINUTE: '1000000000',
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(kind === 'bare' ? baseUrl : `${baseUrl}/readyz`, child);
  if (child.pid === undefined) throw new Error('服务进程没有 pid');
  return {
    baseUrl,
    pid: child.pid,
    startedAtMs,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function registerAndSignIn(baseUrl: string): Promise<string> {
  const telephone = `139${String(Date.now() % 100_000_000).padStart(8, '0')}`;
  const sent = await fetch(`${baseUrl}/api/v1/smscode/phone?telephone=${telephone}&countryCode=86&type=register`);
  if (!sent.ok) throw new Error(`发送验证码失败: ${await sent.text()}`);
  const outbox = (await (await fetch(`${baseUrl}/api/dev/sms?telephone=${telephone}`)).json()) as { result: { code: string }[] };
  const code = outbox.result[0]?.code;
  if (!code) throw new Error('短信发件箱里没有验证码');
  const registered = await fetch(`${baseUrl}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ telephone, password: 'bench1234', code, countryCode: 86 }),
  });
  const body = (await registered.json()) as { result: { jwtToken?: string } | null };
  if (!registered.ok || !body.result?.jwtToken) throw new Error(`注册失败: ${JSON.stringify(body)}`);
  return body.result.jwtToken;
}

function load(baseUrl: string, plan: { path: string; headers?: Record<string, string> }, seconds: number) {
  return autocannon({ url: `${baseUrl}${plan.path}`, connections, duration: seconds, headers: plan.headers ?? {} });
}

interface MeasuredProcesses {
  serverPid: number;
  databaseName: string;
  /** Receives when the measured load ran (Date.now() values). */
  onMeasured(fromMs: number, toMs: number): void;
}

async function measure(
  scenario: HttpScenario,
  context: BenchContext,
  processes: MeasuredProcesses,
  bareRate: number | null,
): Promise<ScenarioResult> {
  const plan = await scenario.prepare(context);
  if (warmupSeconds > 0) await load(context.baseUrl, plan, warmupSeconds);
  const serverBefore = cpuSecondsOf(processes.serverPid);
  const postgresBefore = cpuSecondsByPid(await postgresBackends(context.database, processes.databaseName));
  const measuredFromMs = Date.now();
  const result = await load(context.baseUrl, plan, durationSeconds);
  processes.onMeasured(measuredFromMs, Date.now());
  const serverAfter = cpuSecondsOf(processes.serverPid);
  const postgresAfter = cpuSecondsByPid(await postgresBackends(context.database, processes.databaseName));
  const perRequest = (seconds: number | null) => (seconds === null || result.requests.total === 0 ? null : Math.round((seconds * 1e6) / result.requests.total));
  const statuses = result.statusCodeStats as unknown as Record<string, { count: number } | undefined>;
  const expected = statuses[String(plan.expectStatus)]?.count ?? 0;
  const answered = Object.values(statuses).reduce((sum, stat) => sum + (stat?.count ?? 0), 0);
  const failures = answered - expected + result.errors + result.timeouts;
  if (failures > 0) console.error(`${scenario.name}: ${failures} 个请求不是 ${plan.expectStatus}（${JSON.stringify(statuses)}，错误 ${result.errors}）`);
  const requestsPerSecond = Math.round(result.requests.average);
  const ratioToBare = bareRate ? Number((requestsPerSecond / bareRate).toFixed(3)) : null;
  const targets = scenario.targets ?? null;
  const meetsTargets = targets
    ? (targets.minRatio === undefined || (ratioToBare ?? 0) >= targets.minRatio) &&
      (targets.maxP99Ms === undefined || result.latency.p99 < targets.maxP99Ms)
    : null;
  return {
    name: scenario.name,
    title: scenario.title,
    requestsPerSecond,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    ratioToBare,
    requests: result.requests.total,
    serverCpuMicrosPerRequest: perRequest(serverBefore === null || serverAfter === null ? null : serverAfter - serverBefore),
    postgresCpuMicrosPerRequest: perRequest(backendCpuSeconds(postgresBefore, postgresAfter)),
    failures,
    targets,
    meetsTargets,
  };
}

/** The `index`-th fraction of sorted durations (nearest rank). */
function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? 0;
}

async function measureTimed(scenario: TimedScenario, context: BenchContext): Promise<ScenarioResult> {
  const operation = await scenario.prepare(context);
  const durations: number[] = [];
  let elapsedMs = 0;
  try {
    await operation.run(0);
    const startedAt = performance.now();
    for (let run = 1; run <= scenario.runs; run += 1) {
      const before = performance.now();
      await operation.run(run);
      durations.push(performance.now() - before);
    }
    elapsedMs = performance.now() - startedAt;
  } finally {
    await operation.cleanup?.();
  }
  const sorted = [...durations].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const p95 = round(percentile(sorted, 0.95));
  return {
    name: scenario.name,
    title: scenario.title,
    requestsPerSecond: Math.round((scenario.runs * 1000) / elapsedMs),
    latencyP50Ms: round(percentile(sorted, 0.5)),
    latencyP99Ms: round(percentile(sorted, 0.99)),
    latencyP95Ms: p95,
    maxMs: round(sorted[sorted.length - 1] ?? 0),
    ratioToBare: null,
    requests: scenario.runs,
    serverCpuMicrosPerRequest: null,
    postgresCpuMicrosPerRequest: null,
    failures: 0,
    targets: scenario.targets,
    meetsTargets: scenario.targets.maxP95Ms === undefined || p95 < scenario.targets.maxP95Ms,
  };
}

function describeTargets(targets: Targets | null): string {
  if (!targets) return '';
  const parts: string[] = [];
  if (targets.maxP95Ms !== undefined) parts.push(`p95 < ${targets.maxP95Ms} ms`);
  if (targets.minRatio !== undefined) parts.push(`≥ ${targets.minRatio}×`);
  if (targets.maxP99Ms !== undefined) parts.push(`p99 < ${targets.maxP99Ms} ms`);
  return parts.join(', ');
}

function printTimedTable(results: ScenarioResult[]): void {
  if (results.length === 0) return;
  console.log('');
  const rows = [
    ['timed operation', 'runs', 'p50 ms', 'p95 ms', 'max ms', 'target', ''],
    ...results.map((result) => [
      result.title,
      String(result.requests),
      String(result.latencyP50Ms),
      String(result.latencyP95Ms ?? ''),
      String(result.maxMs ?? ''),
      describeTargets(result.targets),
      result.meetsTargets ? 'ok' : 'MISSED',
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '));
}

function printTable(results: ScenarioResult[]): void {
  const rows = [
    ['scenario', 'req/s', 'p50 ms', 'p99 ms', '× bare', 'target', '', 'CPU µs/req: server', 'PostgreSQL'],
    ...results.map((result) => [
      result.title,
      String(result.requestsPerSecond),
      String(result.latencyP50Ms),
      String(result.latencyP99Ms),
      result.ratioToBare === null ? '' : result.ratioToBare.toFixed(3),
      describeTargets(result.targets),
      result.failures > 0 ? `${result.failures} failed` : result.meetsTargets === null ? '' : result.meetsTargets ? 'ok' : 'MISSED',
      String(result.serverCpuMicrosPerRequest ?? '?'),
      String(result.postgresCpuMicrosPerRequest ?? '?'),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '));
}

async function postgresVersion(database: DatabaseHandle): Promise<string> {
  const result = (await database.db.execute(sql`show server_version`)) as unknown as { rows: { server_version: string }[] };
  return result.rows[0]?.server_version ?? 'unknown';
}

async function main(): Promise<void> {
  const databaseName = `slg_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  await admin.end();
  if (profile) rmSync(profileDir, { recursive: true, force: true });
  rmSync(storageRoot, { recursive: true, force: true });

  const results: ScenarioResult[] = [];
  const profileWindows: { title: string; window: ProfileWindow }[] = [];
  let database: DatabaseHandle | null = null;
  let postgres = 'unknown';
  try {
    const url = new URL(databaseUrl);
    url.pathname = `/${databaseName}`;
    database = await openDatabase({ databaseUrl: url.toString() });
    for (const kind of ['bare', 'app'] as const) {
      const scenarios = selected.filter((scenario) => scenario.server === kind);
      if (scenarios.length === 0) continue;
      const server = await startServer(kind, databaseName);
      try {
        let token: Promise<string> | null = null;
        const context: BenchContext = {
          baseUrl: server.baseUrl,
          database,
          storageRoot,
          modelsDir,
          signedInToken: () => (token ??= registerAndSignIn(server.baseUrl)),
        };
        for (const scenario of scenarios) {
          const bareRate = results.find((result) => result.name === BARE)?.requestsPerSecond ?? null;
          console.error(`… ${scenario.title}`);
          const onMeasured = (fromMs: number, toMs: number) => {
            if (kind === 'app') profileWindows.push({ title: scenario.title, window: { fromMs: fromMs - server.startedAtMs, toMs: toMs - server.startedAtMs } });
          };
          if (scenario.kind === 'timed') results.push(await measureTimed(scenario, context));
          else results.push(await measure(scenario, context, { serverPid: server.pid, databaseName, onMeasured }, bareRate));
        }
      } finally {
        await server.stop();
      }
    }
    postgres = await postgresVersion(database);
  } finally {
    await database?.close();
    const dropper = new pg.Client({ connectionString: databaseUrl });
    await dropper.connect();
    await dropper.query(`drop database if exists ${databaseName} with (force)`);
    await dropper.end();
  }

  console.log(`\n${connections} connections, ${durationSeconds} s each after ${warmupSeconds} s warm-up; PostgreSQL ${postgres}\n`);
  const timedNames = new Set(selected.filter((scenario) => scenario.kind === 'timed').map((scenario) => scenario.name));
  printTable(results.filter((result) => !timedNames.has(result.name)));
  printTimedTable(results.filter((result) => timedNames.has(result.name)));
  mkdirSync(outputDir, { recursive: true });
  const report = {
    measuredAt: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, postgres },
    settings: { connections, durationSeconds, warmupSeconds },
    results,
  };
  writeFileSync(join(outputDir, 'server.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\n写入 ${join(outputDir, 'server.json')}`);

  if (profile) {
    // File names are CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile; thread 0 is the event loop.
    const mainThread = readdirSync(profileDir).find((name) => /\.\d+\.0\.\d+\.cpuprofile$/.test(name));
    if (mainThread) {
      console.log(`\nCPU profile of the app's main thread: ${join(profileDir, mainThread)}`);
      for (const { title, window } of profileWindows) console.log(`\n${title}\n${summariseProfile(join(profileDir, mainThread), window)}`);
    }
  }
  if (results.some((result) => result.failures > 0)) process.exitCode = 1;
}

await main();
