import { readFile } from 'node:fs/promises';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import pg from 'pg';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/db/client.js';
import { seedDictionaries } from '../src/db/seed/seed.js';
import { ConsoleSmsProvider } from '../src/providers/sms/console.js';
import { buildApp } from '../src/app.js';
import { createPaymentGateways } from '../src/providers/payments/index.js';
import type { AppDeps } from '../src/deps.js';
import { createComputeRuntime } from '../src/compute/index.js';
import { seedSimFleet } from '../src/compute/sim/fleet.js';
import { Reconciler } from '../src/modules/rental/reconciler.js';
import { zones } from '../src/db/schema/index.js';
import type { SmsProvider } from '../src/providers/sms/provider.js';
import type { GatewayName, PaymentGateway } from '../src/providers/payments/provider.js';
import { createTelemetry } from '../src/modules/monitoring/platform-sample.js';
import { createMetricsSource } from '../src/modules/monitoring/index.js';
import { AuthService } from '../src/modules/auth/service.js';
import { hashPassword } from '../src/modules/auth/passwords.js';

/** A clock tests can move forward, and stop (`freeze`) when they need exact durations. */
export class TestClock {
  // A fixed start (10:00 in China) so day-boundary rules never straddle midnight mid-test.
  private offsetMs = Date.parse('2026-06-01T02:00:00Z') - Date.now();
  private frozenMs: number | null = null;
  now = (): Date => new Date(this.frozenMs ?? Date.now() + this.offsetMs);
  advance(seconds: number): void {
    if (this.frozenMs !== null) this.frozenMs += seconds * 1000;
    else this.offsetMs += seconds * 1000;
  }
  /** From now on time moves only by `advance`, from the current whole second. */
  freeze(): void {
    this.frozenMs = Math.floor(this.now().getTime() / 1000) * 1000;
  }
  /** The wall clock itself (for tests that meet other programs' clocks, such as Prometheus's). */
  useRealTime(): void {
    this.offsetMs = 0;
    this.frozenMs = null;
  }
  /** Lets time run with real time again, from where the frozen clock stands. */
  thaw(): void {
    if (this.frozenMs === null) return;
    this.offsetMs = this.frozenMs - Date.now();
    this.frozenMs = null;
  }
}

let databaseCounter = 0;
let templateBlob: Promise<Blob | undefined> | undefined;

/** The migrated and seeded PGlite database the global setup dumped (test/setup/pglite-template.ts), read once per worker. */
function pgliteTemplate(): Promise<Blob | undefined> {
  templateBlob ??= (async () => {
    const path = inject('pgliteTemplate');
    return path ? new Blob([await readFile(path)]) : undefined;
  })();
  return templateBlob;
}

/**
 * A fresh, migrated, seeded database: in-memory PGlite, or a new database on the PostgreSQL server of
 * DATABASE_URL (created here and dropped on close), so every test file starts clean.
 */
async function freshDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const template = await pgliteTemplate();
    if (template) return { handle: await openDatabase({ pgliteTemplate: template }), drop: async () => {} };
    const handle = await openDatabase({});
    await handle.migrate();
    await seedDictionaries(handle.db);
    return { handle, drop: async () => {} };
  }
  const name = `slg_test_${process.pid}_${Date.now()}_${databaseCounter++}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString() });
  await handle.migrate();
  await seedDictionaries(handle.db);
  return {
    handle,
    drop: async () => {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  clock: TestClock;
  close(): Promise<void>;
}

export async function createTestApp(
  overrides: {
    env?: Record<string, string>;
    sms?: (clock: TestClock) => SmsProvider;
    serveWeb?: boolean;
    /** Gateways instead of the ones PAYMENT_PROVIDERS names (e.g. WeChat Pay over a fake network). */
    payments?: (clock: TestClock) => Map<GatewayName, PaymentGateway>;
  } = {},
): Promise<TestApp> {
  const config: Config = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '100000',
    // Suites register many phones from one address; the SMS abuse limits are tested with their own values.
    SMS_SENDS_PER_CLIENT_PER_HOUR: '100000',
    HUMAN_CHECK_AFTER_CLIENT_SENDS_PER_HOUR: '100000',
    HUMAN_CHECK_AFTER_PHONE_SENDS_PER_DAY: '100',
    // ALTCHA challenges tests can solve in milliseconds.
    ALTCHA_COST: '1',
    ALTCHA_COUNTER_MAX: '64',
    ...overrides.env,
  });
  const { handle, drop } = await freshDatabase();
  const clock = new TestClock();
  const zoneRows = await handle.db.select({ id: zones.id, name: zones.name }).from(zones);
  await seedSimFleet(handle.db, new Map(zoneRows.map((zone) => [zone.id, zone.name])));
  const deps: AppDeps = {
    config,
    database: handle,
    sms: overrides.sms ? overrides.sms(clock) : new ConsoleSmsProvider(clock.now),
    payments: overrides.payments ? overrides.payments(clock) : createPaymentGateways(config),
    compute: createComputeRuntime(config, handle.db, clock.now),
    metrics: createMetricsSource(config, handle.db),
    telemetry: createTelemetry(handle.db, clock.now, { processMetrics: false }),
    now: clock.now,
  };
  const app = await buildApp(deps, { logger: false, serveWeb: overrides.serveWeb ?? false });
  await app.ready();
  return {
    app,
    deps,
    clock,
    close: async () => {
      await app.close();
      await handle.close();
      await drop();
    },
  };
}

/** Serves the app on a free local port, for tests that need a real connection; returns its base URL. */
export async function listenLocally(test: TestApp): Promise<string> {
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  const address = test.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a port');
  return `http://127.0.0.1:${address.port}`;
}

export interface EnvelopeBody<T = unknown> {
  rspcode: number;
  code: number;
  rspmsg: string;
  result: T;
}

export async function call<T = unknown>(
  app: FastifyInstance,
  options: InjectOptions & { token?: string },
): Promise<{ status: number; body: EnvelopeBody<T>; response: LightMyRequestResponse }> {
  const { token, ...rest } = options;
  const response = await app.inject({
    ...rest,
    headers: { ...(rest.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: response.statusCode, body: response.json() as EnvelopeBody<T>, response };
}

let phoneCounter = 0;
/** A phone number unique within the run (tests on one PostgreSQL database never collide). */
export function uniquePhone(): string {
  phoneCounter += 1;
  const tail = String((process.pid * 1000 + phoneCounter) % 100_000_000).padStart(8, '0');
  return `139${tail}`;
}

/** Sends a code and reads it back from the console outbox. */
export async function sendCode(app: FastifyInstance, telephone: string, type: string): Promise<string> {
  const sent = await call(app, { method: 'GET', url: `/api/v1/smscode/phone?telephone=${telephone}&countryCode=86&type=${type}` });
  if (sent.status !== 200) throw new Error(`send code failed: ${JSON.stringify(sent.body)}`);
  const outbox = await call<{ code: string; type: string }[]>(app, { method: 'GET', url: `/api/dev/sms?telephone=${telephone}` });
  const latest = outbox.body.result.find((message) => message.type === type);
  if (!latest) throw new Error('no code in outbox');
  return latest.code;
}

export const TEST_PASSWORD = 'abc12345';

const passwordHashes = new Map<string, Promise<string>>();

/**
 * A main account with a password, signed in: the rows registration writes (AuthService's account and
 * wallet, a session), written directly — registering through SMS codes is what the auth tests test,
 * and an argon2 hash per account was most of every other test's setup. `registerThroughApi` takes the
 * real path.
 */
export async function registerUser(
  test: TestApp,
  telephone = uniquePhone(),
  password = TEST_PASSWORD,
): Promise<{ telephone: string; jwtToken: string; refreshToken: string }> {
  let passwordHash = passwordHashes.get(password);
  if (!passwordHash) {
    passwordHash = hashPassword(password);
    passwordHashes.set(password, passwordHash);
  }
  const hashed = await passwordHash;
  const auth = new AuthService(test.deps);
  const tokens = await test.deps.database.db.transaction(async (tx) => {
    const userId = await auth.createMainAccount(tx, { telephone, passwordHash: hashed });
    return auth.sessions.start(tx, userId);
  });
  return { telephone, ...tokens };
}

/** Registers a main account through the API (SMS code, then /auth/register) and returns its tokens. */
export async function registerThroughApi(
  test: TestApp,
  telephone = uniquePhone(),
  password = TEST_PASSWORD,
): Promise<{ telephone: string; jwtToken: string; refreshToken: string }> {
  const code = await sendCode(test.app, telephone, 'register');
  const registered = await call<{ jwtToken: string; refreshToken: string }>(test.app, {
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { telephone, password, code, countryCode: 86 },
  });
  if (registered.status !== 200) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  // The next code to this phone must not trip the 60 s resend limit.
  test.clock.advance(61);
  return { telephone, ...registered.body.result };
}

/** Logs in with the password and returns a fresh access token (tests move the clock past the token lifetime). */
export async function loginToken(test: TestApp, telephone: string, password = TEST_PASSWORD): Promise<string> {
  const login = await call<{ jwtToken: string }>(test.app, {
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { telephone, password, countryCode: 86 },
  });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return login.body.result.jwtToken;
}

/** Polls until `check` passes (for effects the server finishes asynchronously); bounded, no fixed sleeps. */
/** Lets the simulated machines finish what they were asked: a reconciler pass, the clock `seconds` on, another pass. */
export async function settleMachines(test: TestApp, seconds: number): Promise<void> {
  await new Reconciler(test.deps).tick();
  test.clock.advance(seconds);
  await new Reconciler(test.deps).tick();
}

export async function eventually(check: () => Promise<void>, attempts = 200): Promise<void> {
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    try {
      await check();
      return;
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  throw lastError;
}

/** Recharges through the sandbox gateway exactly as a payer would, and waits for the credit. */
export async function rechargeThroughSandbox(test: TestApp, token: string, amount: number): Promise<string> {
  const created = await call<{ rechargeId: string }>(test.app, {
    method: 'POST',
    url: '/api/v1/payment/recharge',
    token,
    payload: { amount, channel: 'WXPAY' },
  });
  if (created.status !== 200) throw new Error(`recharge failed: ${JSON.stringify(created.body)}`);
  const { rechargeId } = created.body.result;
  const paid = await test.app.inject({ method: 'POST', url: `/sandbox-pay/${rechargeId}/pay` });
  if (paid.statusCode !== 200) throw new Error(`sandbox pay failed: ${paid.statusCode}`);
  await eventually(async () => {
    const status = await call<{ status: string }>(test.app, { method: 'GET', url: `/api/v1/payment/recharge/${rechargeId}`, token });
    if (status.body.result.status !== 'SUCCESS') throw new Error(`recharge ${rechargeId} is ${status.body.result.status}`);
  });
  return rechargeId;
}
