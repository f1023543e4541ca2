import { rowsOf, type DatabaseHandle } from '../src/db/client.js';
import { MarketService, type MarketQuery } from '../src/modules/market/service.js';
import { meterOpenRuns } from '../src/modules/rental/metering.js';
import { sql } from 'drizzle-orm';
import { ElasticController } from '../src/modules/elastic/controller.js';
import { elasticDeployments } from '../src/db/schema/index.js';
import { holdJobLeases, seedElasticContainers, seedRunningInstances } from './compute.js';
import { seedMarketFleet } from './market-fleet.js';
import { benchDockerHost, createToSshScenario } from './docker.js';
import { kubernetesObserveScenario } from './kubernetes.js';
import { storageListScenario, storageUploadScenario } from './storage.js';
import { modelFirstTokenScenario, modelOverheadScenario, modelThroughputScenario } from './models.js';

/** What a scenario may use to set itself up before it is measured. */
export interface BenchContext {
  /** Address of the server under test, e.g. http://127.0.0.1:41234. */
  baseUrl: string;
  /** The bench's own connection to the run's database (the app server has its own pool), to seed data. */
  database: DatabaseHandle;
  /** The app server's 文件存储 root (its STORAGE_ROOT), on this machine. */
  storageRoot: string;
  /** The app server's MODELS_DIR (the test model is generated there at its start). */
  modelsDir: string;
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
  /** p95 duration of a timed operation in milliseconds, below. */
  maxP95Ms?: number;
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

/**
 * An operation timed in the bench process against the run's database (no HTTP): a query the cache in
 * front of it would hide, or a job's pass. The app server runs meanwhile (it migrated and seeded).
 */
export interface TimedScenario {
  kind: 'timed';
  name: string;
  title: string;
  server: 'app';
  targets: Targets;
  /** How many times the operation is timed (after one untimed warm-up run). */
  runs: number;
  /** Seeds what the operation needs and returns it (run `i` may vary its input by `i`), with what undoes it after the runs. */
  prepare(context: BenchContext): Promise<TimedOperation>;
}

export interface TimedOperation {
  run(run: number): Promise<void>;
  /** Not timed: removes what the runs made (machines on a real engine). */
  cleanup?(): Promise<void>;
}

export type Scenario = HttpScenario | TimedScenario;

/** The market of the bench: the seed fleet plus this many generated hosts. */
export const MARKET_HOSTS = 10_000;
/** Running instances one metering pass settles, and the wallets they belong to. */
export const METERED_INSTANCES = 10_000;
const METERED_WALLETS = 2_000;
/** Containers one placement pass places, and the wallets the elastic metering bench spreads its containers over. */
const PLACED_CONTAINERS = 1_000;
const ELASTIC_WALLETS = 2_000;

/** The filters people use, in turn: all, a model, a zone and a model, a GPU count, by free GPUs, a deep page. */
const MARKET_QUERIES: MarketQuery[] = [
  { page: 1, pageSize: 10, chargingRuleId: 1, sort: 'price' },
  { page: 1, pageSize: 10, chargingRuleId: 1, sort: 'price', gpuModelId: 'rtx4090' },
  { page: 1, pageSize: 10, chargingRuleId: 1, sort: 'price', gpuModelId: 'rtx4090', zoneId: 'bj-a' },
  { page: 1, pageSize: 10, chargingRuleId: 1, sort: 'price', gpuModelId: 'a800-80g', gpuNum: 4 },
  { page: 1, pageSize: 10, chargingRuleId: 3, sort: 'free' },
  { page: 50, pageSize: 20, chargingRuleId: 1, sort: 'price', gpuNum: 2 },
];

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
// Issue 17: an authenticated read (a session check against the database on every request) at 0.3× bare Fastify.
const AUTHENTICATED_TARGETS: Targets = { minRatio: 0.3, maxP99Ms: 10 };

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
  {
    kind: 'http',
    name: 'market',
    title: `GET /api/v1/comppower (${MARKET_HOSTS.toLocaleString('en')} hosts, gpuNum=2)`,
    server: 'app',
    targets: { maxP99Ms: 20 },
    prepare: async (context) => {
      await seedMarketFleet(context.database.db, MARKET_HOSTS);
      return { path: '/api/v1/comppower?gpuModelId=rtx4090&gpuNum=2&pageSize=10', headers: BROWSER_ENCODINGS, expectStatus: 200 };
    },
  },
  {
    kind: 'timed',
    name: 'market-query',
    title: `market query, uncached (${MARKET_HOSTS.toLocaleString('en')} hosts, 6 filter shapes)`,
    server: 'app',
    targets: { maxP95Ms: 20 },
    runs: 300,
    prepare: async (context) => {
      await seedMarketFleet(context.database.db, MARKET_HOSTS);
      const market = new MarketService({ database: context.database });
      return {
        run: async (run) => {
          await market.list(MARKET_QUERIES[run % MARKET_QUERIES.length] as MarketQuery);
        },
      };
    },
  },
  {
    kind: 'timed',
    name: 'metering',
    title: `one metering pass (${METERED_INSTANCES.toLocaleString('en')} running instances, ${METERED_WALLETS.toLocaleString('en')} wallets)`,
    server: 'app',
    targets: { maxP95Ms: 500 },
    runs: 5,
    prepare: async (context) => {
      await holdJobLeases(context.database.db, ['meter-instances', 'watch-instances', 'release-powered-off-instances'], 30);
      const start = new Date();
      await seedRunningInstances(context.database.db, METERED_INSTANCES, METERED_WALLETS, start);
      // A minute later each pass: every instance has a new fen to pay (198 fen/h is 3.3 a minute).
      let passes = 0;
      return {
        run: async () => {
          passes += 1;
          const settled = await meterOpenRuns(context.database.db, new Date(start.getTime() + passes * 60_000));
          if (settled.instances < METERED_INSTANCES) throw new Error(`计量只结算了 ${settled.instances} 个实例`);
        },
      };
    },
  },
  {
    kind: 'timed',
    name: 'elastic-placement',
    title: `placing ${PLACED_CONTAINERS.toLocaleString('en')} elastic containers over ${MARKET_HOSTS.toLocaleString('en')} hosts (one controller pass)`,
    server: 'app',
    targets: { maxP95Ms: 2000 },
    runs: 3,
    prepare: async (context) => {
      const db = context.database.db;
      await holdJobLeases(db, ['elastic-deployments', 'watch-instances', 'meter-instances'], 30);
      await seedMarketFleet(db, MARKET_HOSTS);
      const [owner] = rowsOf<{ id: number | string }>(
        await db.execute(sql`
          with account as (insert into users (nick_name) values ('elastic-placement-bench') returning id)
          insert into wallets (account_id, balance_fen) select id, 100000000 from account returning account_id as id`),
      );
      if (!owner) throw new Error('压测账号创建失败');
      const controller = new ElasticController({ database: context.database, now: () => new Date(), config: { jwtSecret: 'bench-secret-bench-secret-bench-secret' }, compute: { wake: () => undefined } });
      let runs = 0;
      return {
        run: async () => {
          runs += 1;
          const [deployment] = await db
            .insert(elasticDeployments)
            .values({ uid: crypto.randomUUID(), ownerId: Number(owner.id), creatorId: Number(owner.id), walletId: Number(owner.id), name: `placement-${runs}`, type: 'REPLICA_SET', status: 'RUNNING', imageId: 'pytorch-2.5.1-py3.12-cu124', gpuNum: 1, replicaNum: PLACED_CONTAINERS, parallelismNum: 1 })
            .returning({ id: elasticDeployments.id });
          if (!deployment) throw new Error('部署写入失败');
          const placed = await db.transaction((tx) => controller.reconcile(tx, deployment.id));
          if ((placed?.placed ?? 0) < PLACED_CONTAINERS) throw new Error(`只调度了 ${placed?.placed ?? 0} 个容器`);
        },
      };
    },
  },
  {
    kind: 'timed',
    name: 'elastic-metering',
    title: `one metering pass over ${METERED_INSTANCES.toLocaleString('en')} running elastic containers drawing time packs (${ELASTIC_WALLETS.toLocaleString('en')} wallets)`,
    server: 'app',
    targets: { maxP95Ms: 500 },
    runs: 5,
    prepare: async (context) => {
      await holdJobLeases(context.database.db, ['meter-instances', 'watch-instances', 'elastic-deployments', 'release-powered-off-instances'], 30);
      const start = new Date();
      await seedElasticContainers(context.database.db, METERED_INSTANCES, ELASTIC_WALLETS, start);
      let passes = 0;
      return {
        run: async () => {
          passes += 1;
          const settled = await meterOpenRuns(context.database.db, new Date(start.getTime() + passes * 60_000));
          const [drawn] = rowsOf<{ n: number | string }>(await context.database.db.execute(sql`select count(*) as n from instances where deployment_row_id is not null and run_pack_seconds > 0`));
          if (Number(drawn?.n ?? 0) < METERED_INSTANCES) throw new Error(`只有 ${drawn?.n ?? 0} 个容器抵扣了时长包（计量 ${settled.instances} 个实例）`);
        },
      };
    },
  },
  kubernetesObserveScenario,
  storageListScenario,
  storageUploadScenario,
  modelFirstTokenScenario,
  modelThroughputScenario,
  modelOverheadScenario,
  // Last: registering a Docker engine takes the run's other hosts off the market.
  ...(benchDockerHost ? [createToSshScenario] : []),
];
