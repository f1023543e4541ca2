import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the platform's state looks like at a scrape: read from the database by whoever registers `sampleWith`. */
export interface PlatformSample {
  /** Instances with an operation the reconciler has not finished. */
  operationsPending: number;
  /** Seconds since the oldest of them began (0 with none): how far the reconciler is behind. */
  oldestOperationSeconds: number;
  /** Wallets whose balance is below zero. */
  walletsInArrears: number;
}

/** Request durations: fast reads take about a millisecond, slow writes up to seconds. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Jobs, passes and operations: from milliseconds (a quiet pass) to minutes (a slow image save). */
const WORK_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 180, 600];

/**
 * The platform's own series for Prometheus (`GET /metrics`, prom-client): request latency by route,
 * reconciler passes, operation durations and backlog, job runs and failures with their durations
 * (the metering pass is the job `meter-instances`), wallets in arrears, and Node's process metrics.
 * One per process; every process of a deployment is scraped on its own.
 */
export class Telemetry {
  readonly registry = new Registry();
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly reconcilePassDuration: Histogram;
  readonly operationDuration: Histogram<'operation' | 'outcome'>;
  readonly jobDuration: Histogram<'job'>;
  readonly jobRuns: Counter<'job' | 'outcome'>;
  private readonly operationsPending: Gauge;
  private readonly oldestOperationAge: Gauge;
  private readonly walletsInArrears: Gauge;
  private sampler: (() => Promise<PlatformSample>) | undefined;

  constructor(options: { processMetrics: boolean }) {
    const registers = [this.registry];
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
    this.httpRequestDuration = new Histogram({
      name: 'slg_http_request_duration_seconds',
      help: 'API request duration by route template (unmatched requests under route="unmatched")',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.reconcilePassDuration = new Histogram({ name: 'slg_reconcile_pass_duration_seconds', help: 'One reconciliation pass over instances with an operation', buckets: WORK_BUCKETS, registers });
    this.operationDuration = new Histogram({
      name: 'slg_operation_duration_seconds',
      help: 'From an instance operation being asked for to its end (done or failed)',
      labelNames: ['operation', 'outcome'],
      buckets: WORK_BUCKETS,
      registers,
    });
    this.jobDuration = new Histogram({ name: 'slg_job_duration_seconds', help: 'One run of a periodic job (meter-instances is the metering pass)', labelNames: ['job'], buckets: WORK_BUCKETS, registers });
    this.jobRuns = new Counter({ name: 'slg_job_runs_total', help: 'Runs of periodic jobs by outcome (ok, failed)', labelNames: ['job', 'outcome'], registers });
    this.operationsPending = new Gauge({ name: 'slg_operations_pending', help: 'Instances with an operation not finished yet (the reconciler queue)', registers });
    this.oldestOperationAge = new Gauge({ name: 'slg_oldest_operation_age_seconds', help: 'Age of the oldest unfinished instance operation (reconciler lag)', registers });
    this.walletsInArrears = new Gauge({ name: 'slg_wallets_in_arrears', help: 'Wallets with a balance below zero', registers });
  }

  /** Where the database-backed gauges come from (set once the modules exist). */
  sampleWith(sampler: () => Promise<PlatformSample>): void {
    this.sampler = sampler;
  }

  /** The exposition text of a scrape, the database-backed gauges read first (one read per scrape). */
  async render(): Promise<string> {
    if (this.sampler) {
      const sample = await this.sampler();
      this.operationsPending.set(sample.operationsPending);
      this.oldestOperationAge.set(sample.oldestOperationSeconds);
      this.walletsInArrears.set(sample.walletsInArrears);
    }
    return this.registry.metrics();
  }

  /** Times one run of `work` as a job: its duration and whether it failed; the failure is passed on. */
  async timeJob<T>(job: string, work: () => Promise<T>): Promise<T> {
    const stop = this.jobDuration.startTimer({ job });
    try {
      const result = await work();
      this.jobRuns.inc({ job, outcome: 'ok' });
      return result;
    } catch (error) {
      this.jobRuns.inc({ job, outcome: 'failed' });
      throw error;
    } finally {
      stop();
    }
  }
}

/** Who may scrape `/metrics`: the bearer of `token` when one is set, else only this machine (loopback). */
export function metricsAllowed(authorization: string | undefined, ip: string, token: string | undefined): boolean {
  if (token) {
    const offered = Buffer.from(authorization?.replace(/^Bearer\s+/i, '') ?? '');
    const expected = Buffer.from(token);
    return offered.length === expected.length && timingSafeEqual(offered, expected);
  }
  return ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1';
}
