import type { DatabaseHandle } from '../src/db/client.js';

/** What a scenario may use to set itself up before it is measured. */
export interface BenchContext {
  /** Address of the server under test, e.g. http://127.0.0.1:41234. */
  baseUrl: string;
  /** The bench's own connection to the run's database (the app server has its own pool), to seed data. */
  database: DatabaseHandle;
  /** Access token of a main account registered and signed in through the public API (one per run). */
  signedInToken(): Promise<string>;
}

/** The request autocannon repeats, and the one status every answer must carry. */
export interface HttpRequestPlan {
  path: string;
  headers?: Record<string, string>;
  expectStatus: number;
}

export interface Targets {
  /** Requests per second as a share of bare Fastify's, at least. */
  minRatio?: number;
  /** p99 latency in milliseconds, below. */
  maxP99Ms?: number;
}

/**
 * One HTTP load: a path repeated by `connections` clients for the run's duration. More kinds (e.g. a
 * timed batch job such as one metering pass) get their own `kind` beside this one.
 */
export interface HttpScenario {
  kind: 'http';
  /** Short id for the command line and the JSON file. */
  name: string;
  title: string;
  /** `bare` is the yardstick process; `app` the real server (src/main.ts). */
  server: 'bare' | 'app';
  targets?: Targets;
  /** Runs once before the warm-up (data to seed, a token to fetch, an ETag to learn). */
  prepare(context: BenchContext): Promise<HttpRequestPlan>;
}

export type Scenario = HttpScenario;

export const BARE = 'bare';

const bearer = async (context: BenchContext) => ({ authorization: `Bearer ${await context.signedInToken()}` });

async function etagOf(context: BenchContext, path: string): Promise<string> {
  const response = await fetch(`${context.baseUrl}${path}`);
  const etag = response.headers.get('etag');
  if (response.status !== 200 || !etag) throw new Error(`${path} 未返回 ETag（状态 ${response.status}）`);
  return etag;
}

const DICTIONARY_TARGETS: Targets = { minRatio: 0.3 };
/** What a browser sends with every request; the dictionaries answer precompressed bodies to it. */
const BROWSER_ENCODINGS = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const AUTHENTICATED_TARGETS: Targets = { minRatio: 0.1, maxP99Ms: 20 };

export const SCENARIOS: readonly Scenario[] = [
  {
    kind: 'http',
    name: BARE,
    title: 'bare Fastify "hello"',
    server: 'bare',
    prepare: async () => ({ path: '/', expectStatus: 200 }),
  },
  {
    kind: 'http',
    name: 'meta-gpu',
    title: 'GET /api/v1/meta/gpu',
    server: 'app',
    targets: DICTIONARY_TARGETS,
    prepare: async () => ({ path: '/api/v1/meta/gpu', headers: BROWSER_ENCODINGS, expectStatus: 200 }),
  },
  {
    kind: 'http',
    name: 'meta-gpu-304',
    title: 'GET /api/v1/meta/gpu (If-None-Match → 304)',
    server: 'app',
    targets: DICTIONARY_TARGETS,
    prepare: async (context) => ({
      path: '/api/v1/meta/gpu',
      headers: { ...BROWSER_ENCODINGS, 'if-none-match': await etagOf(context, '/api/v1/meta/gpu') },
      expectStatus: 304,
    }),
  },
  {
    kind: 'http',
    name: 'meta-zone',
    title: 'GET /api/v1/meta/zone',
    server: 'app',
    targets: DICTIONARY_TARGETS,
    prepare: async () => ({ path: '/api/v1/meta/zone', headers: BROWSER_ENCODINGS, expectStatus: 200 }),
  },
  {
    kind: 'http',
    name: 'userinfo',
    title: 'GET /api/v1/user/userinfo (bearer)',
    server: 'app',
    targets: AUTHENTICATED_TARGETS,
    prepare: async (context) => ({ path: '/api/v1/user/userinfo', headers: await bearer(context), expectStatus: 200 }),
  },
  {
    kind: 'http',
    name: 'account',
    title: 'GET /api/v1/account/ (bearer)',
    server: 'app',
    targets: AUTHENTICATED_TARGETS,
    prepare: async (context) => ({ path: '/api/v1/account/', headers: await bearer(context), expectStatus: 200 }),
  },
];
