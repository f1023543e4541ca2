/**
 * Idempotency-Key under a crash (PostgreSQL only: it needs a database that outlives the process).
 *
 * The real server process (`tsx src/main.ts`) takes a burst of keyed money-moving requests — new
 * recharges and operator confirmations of bank transfers (which credit the wallet) — and is killed with
 * SIGKILL while they are in flight. After a restart every key is replayed with its body: each answers
 * 200 (no key wedged by the dead process), each key made at most one recharge, each transfer was
 * credited once, and the ledger balances. In-process: the same key with another body is refused with
 * 409, and a twin arriving while the first is still running gets the first answer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf, type DatabaseHandle } from '../src/db/client.js';
import { idempotencyKeys, ledgerTransactions, recharges, wallets } from '../src/db/schema/index.js';
import { unbalancedTransactions, walletsOutOfBalance } from '../src/modules/billing/ledger.js';
import { call, createTestApp, eventually, registerUser, type TestApp } from './helpers.js';

const serverUrl = process.env.DATABASE_URL;
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const JWT_SECRET = 'crash-test-secret-that-is-long-enough-for-hs256';
const BANK_ACCOUNT = '招商银行北京分行|算力港科技有限公司|110900000010101';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

interface RunningServer {
  base: string;
  process: ChildProcess;
  /** The process's last output, for a failure message. */
  output: () => string;
}

async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  let output = '';
  // Node itself with tsx as a loader: the tsx CLI would run the server in a child process of its own,
  // which a SIGKILL of the CLI leaves running (the kill would interrupt nothing, and leak a server).
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const base = `http://127.0.0.1:${port}`;
  // Bounded polling until the database answers through the server (migrations ran, port open).
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${output}`);
    const response = await fetch(`${base}/readyz`);
    if (response.status !== 200) throw new Error(`not ready: ${response.status}`);
  }, 3000);
  return { base, process: child, output: () => output };
}

async function killHard(server: RunningServer): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGKILL');
  await exited;
}

interface Reply {
  status: number;
  body: { rspcode: number; rspmsg: string; result: { rechargeId: string; status: string } | null };
}

async function post(base: string, path: string, options: { token: string; key: string; body: unknown }): Promise<Reply> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${options.token}`, 'idempotency-key': options.key },
    body: JSON.stringify(options.body),
  });
  return { status: response.status, body: (await response.json()) as Reply['body'] };
}

describe.skipIf(!serverUrl)('Idempotency-Key after kill -9 (PostgreSQL, the real server process)', () => {
  const databaseName = `slg_crash_${process.pid}_${Date.now()}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'slg-crash-'));
  let databaseUrl: string;
  let database: DatabaseHandle;
  let env: Record<string, string>;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    await admin.end();
    const url = new URL(serverUrl as string);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      JWT_SECRET,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PAYMENT_PROVIDERS: 'sandbox,bank',
      BANK_TRANSFER_ACCOUNT: BANK_ACCOUNT,
      OPERATOR_TELEPHONES: '13900000042',
      RATE_LIMIT_PER_MINUTE: '100000',
      SMS_SENDS_PER_CLIENT_PER_HOUR: '100000',
      HUMAN_CHECK_AFTER_CLIENT_SENDS_PER_HOUR: '100000',
      HUMAN_CHECK_AFTER_PHONE_SENDS_PER_DAY: '100',
    };
  });

  afterAll(async () => {
    if (server) await killHard(server);
    await database?.close();
    const dropper = new pg.Client({ connectionString: serverUrl });
    await dropper.connect();
    await dropper.query(`drop database if exists ${databaseName} with (force)`);
    await dropper.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every replayed key 200 after a crash, with one effect per key and a balanced ledger', async () => {
    server = await startServer(env);
    const telephone = '13900000042';
    const sent = await fetch(`${server.base}/api/v1/smscode/phone?telephone=${telephone}&countryCode=86&type=register`);
    expect(sent.status, server.output()).toBe(200);
    const outbox = (await (await fetch(`${server.base}/api/dev/sms?telephone=${telephone}`)).json()) as { result: { code: string }[] };
    const code = outbox.result[0]?.code;
    const registered = await fetch(`${server.base}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ telephone, password: 'abc12345', code, countryCode: 86 }),
    });
    const { result: tokens } = (await registered.json()) as { result: { jwtToken: string } };
    const token = tokens.jwtToken;

    // Bank transfers waiting for the operator (this account is one), created before the crash.
    const opening = server;
    const transfers = await Promise.all(
      Array.from({ length: 30 }, async (_, index) => {
        const amount = 10_000 + index;
        const created = await post(opening.base, '/api/v1/payment/recharge', { token, key: `bank-open-${index}`, body: { amount, channel: 'BANK' } });
        expect(created.status).toBe(200);
        return { id: created.body.result?.rechargeId ?? '', amount };
      }),
    );

    // The burst: 60 new recharges and 30 confirmations (money credited), all keyed, all at once.
    const requests = [
      ...Array.from({ length: 60 }, (_, index) => ({
        path: '/api/v1/payment/recharge',
        key: `crash-recharge-${index}`,
        body: { amount: 100 + index, channel: 'WXPAY' },
      })),
      ...transfers.map((transfer, index) => ({
        path: `/api/v1/admin/recharge/${transfer.id}/confirm`,
        key: `crash-confirm-${index}`,
        body: { reference: `REF-${index}` },
      })),
    ];
    const firstRound = new Map<string, Reply>();
    let answered = 0;
    const running = server;
    const killed = new Promise<void>((resolve) => {
      void Promise.allSettled(
        requests.map(async (request) => {
          const reply = await post(running.base, request.path, { token, key: request.key, body: request.body });
          firstRound.set(request.key, reply);
          answered += 1;
          // Kill while most of the burst is still in flight.
          if (answered === 10) void killHard(running).then(resolve);
        }),
      ).then(() => resolve());
    });
    await killed;
    await killHard(running);
    const interrupted = requests.length - firstRound.size;
    expect(interrupted, 'the kill should interrupt requests in flight').toBeGreaterThan(0);
    for (const reply of firstRound.values()) expect(reply.status).toBeLessThan(500);

    // Restart on the same database and replay every key with its body.
    server = await startServer(env);
    const restarted = server;
    const replays = await Promise.all(
      requests.map(async (request) => ({ request, reply: await post(restarted.base, request.path, { token, key: request.key, body: request.body }) })),
    );
    for (const { request, reply } of replays) {
      expect(reply.status, `${request.key}: ${JSON.stringify(reply.body)}`).toBe(200);
      // A key answered before the crash gives the same answer again.
      const before = firstRound.get(request.key);
      if (before?.status === 200) expect(reply.body.result?.rechargeId).toBe(before.body.result?.rechargeId);
    }

    database = await openDatabase({ databaseUrl });
    const db = database.db;
    // One recharge per key: 60 keys, 60 distinct WXPAY recharges, each the one its replay names.
    const qrRecharges = await db.select({ id: recharges.id }).from(recharges).where(eq(recharges.channel, 'WXPAY'));
    expect(qrRecharges).toHaveLength(60);
    const named = new Set(replays.filter(({ request }) => request.key.startsWith('crash-recharge')).map(({ reply }) => reply.body.result?.rechargeId));
    expect(named.size).toBe(60);
    expect(new Set(qrRecharges.map((row) => row.id))).toEqual(named);
    // Every transfer credited exactly once.
    const transferIds = transfers.map((transfer) => transfer.id);
    const credits = await db
      .select({ rechargeId: ledgerTransactions.rechargeId, transactions: count() })
      .from(ledgerTransactions)
      .where(inArray(ledgerTransactions.rechargeId, transferIds))
      .groupBy(ledgerTransactions.rechargeId);
    expect(credits).toHaveLength(30);
    expect(credits.every((row) => row.transactions === 1)).toBe(true);
    const [wallet] = await db.select({ balance: wallets.balanceFen }).from(wallets);
    expect(wallet?.balance).toBe(transfers.reduce((total, transfer) => total + transfer.amount, 0));
    expect(await walletsOutOfBalance(db)).toEqual([]);
    expect(await unbalancedTransactions(db)).toEqual([]);
    // No claim was left behind without its answer.
    const [unanswered] = await db.select({ keys: count() }).from(idempotencyKeys).where(eq(idempotencyKeys.statusCode, 0));
    expect(unanswered?.keys).toBe(0);
  }, 90_000);
});

describe.skipIf(!serverUrl)('Idempotency-Key conflicts and twins (PostgreSQL)', () => {
  let test: TestApp;
  let token: string;

  beforeAll(async () => {
    test = await createTestApp();
    token = (await registerUser(test)).jwtToken;
  });

  afterAll(async () => {
    await test?.close();
  });

  const recharge = (key: string, amount: number) =>
    call<{ rechargeId: string }>(test.app, {
      method: 'POST',
      url: '/api/v1/payment/recharge',
      token,
      headers: { 'idempotency-key': key },
      payload: { amount, channel: 'WXPAY' },
    });

  it('refuses the same key with another body with 409 and a clear message, and keeps the first answer', async () => {
    const first = await recharge('same-key-other-body', 1000);
    expect(first.status).toBe(200);
    const other = await recharge('same-key-other-body', 2000);
    expect(other.status).toBe(409);
    expect(other.body.rspmsg).toBe('该 Idempotency-Key 已用于另一个内容不同的请求，请为新请求生成新的 Key');
    const again = await recharge('same-key-other-body', 1000);
    expect(again.body.result.rechargeId).toBe(first.body.result.rechargeId);
  });

  it('gives a twin that arrives while the first is still running the first answer, not a 409', async () => {
    const db = test.deps.database.db;
    const [{ name } = { name: '' }] = rowsOf<{ name: string }>(await db.execute(sql`select current_database() as name`));
    // Hold the first request inside its transaction: it waits to insert its recharge.
    const blocker = new pg.Client({ connectionString: new URL(`/${name}`, serverUrl).toString() });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('lock table recharges in exclusive mode');
    // Polled on the app's pool: inside the blocker's transaction pg_stat_activity would stay one snapshot.
    const waiting = async (expected: number) =>
      eventually(async () => {
        const [row] = rowsOf<{ waiting: number | string }>(
          await db.execute(sql`select count(*) as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`),
        );
        if (Number(row?.waiting) < expected) throw new Error(`only ${String(row?.waiting)} waiting`);
      }, 1000);
    try {
      const first = recharge('twin-key', 3000);
      await waiting(1);
      // The twin queues behind the first one's key (its insert waits on the unique index).
      const twin = recharge('twin-key', 3000);
      await waiting(2);
      await blocker.query('commit');
      const [firstAnswer, twinAnswer] = await Promise.all([first, twin]);
      expect(firstAnswer.status).toBe(200);
      expect(twinAnswer.status).toBe(200);
      expect(twinAnswer.body.result.rechargeId).toBe(firstAnswer.body.result.rechargeId);
      const [made] = await db.select({ recharges: count() }).from(recharges).where(eq(recharges.amountFen, 3000));
      expect(made?.recharges).toBe(1);
    } finally {
      await blocker.query('rollback').catch(() => undefined);
      await blocker.end();
    }
  });
});

describe.skipIf(Boolean(serverUrl))('Idempotency-Key after kill -9 (PGlite)', () => {
  it.skip('needs PostgreSQL: an embedded database dies with its process, so set DATABASE_URL to run it', () => {});
});
