import { removeUnusedSnapshots } from '../modules/datasets/mounts.js';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { claimJobRun } from './leases.js';
import { Reconciler } from '../modules/rental/reconciler.js';
import type { AppDeps } from '../deps.js';
import { RechargeService } from '../modules/billing/recharges.js';
import { PackageService } from '../modules/rental/packages.js';
import { InstanceBillingJobs } from '../modules/rental/billing-jobs.js';
import { DiskService, meterOpenDisks } from '../modules/rental/disks.js';
import { CopyDataService } from '../modules/rental/copy-data.js';
import { StockAlertService } from '../modules/subscriptions/service.js';
import { ReminderService } from '../modules/reminders/service.js';
import { pruneAttemptWindows } from '../modules/security/attempts.js';
import { LONGEST_ATTEMPT_WINDOW_SECONDS } from '../modules/security/rules.js';
import { SpentHumanChecks } from '../providers/captcha/spent.js';
import { KubernetesDriver } from '../compute/kubernetes/driver.js';
import { ElasticController } from '../modules/elastic/controller.js';
import { TimePackService } from '../modules/elastic/time-packs.js';
import { ElasticService } from '../modules/elastic/service.js';
import { FileStorageBilling } from '../modules/storage/billing.js';
import { measureFileStorages, removeFileStorageFiles } from '../modules/storage/usage.js';

export interface PeriodicJob {
  name: string;
  everyMs: number;
  /**
   * Runs in one process per interval, whatever the number of replicas (a lease in job_leases); jobs
   * without it are safe to run everywhere at once.
   */
  exclusive?: boolean;
  run: () => Promise<unknown>;
}

/** The housekeeping every API process runs; each job is safe to run on several replicas at once. */
export function platformJobs(deps: AppDeps): PeriodicJob[] {
  const recharges = new RechargeService(deps);
  const spentHumanChecks = new SpentHumanChecks(deps.database.db);
  const instanceBilling = new InstanceBillingJobs(deps);
  const cluster = deps.compute.driver instanceof KubernetesDriver ? deps.compute.driver : null;
  return [
    // On Kubernetes the market's hosts are the cluster's labelled nodes: new ones join, sizes follow, removed ones go off the market.
    ...(cluster ? [{ name: 'sync-cluster-nodes', everyMs: 60_000, exclusive: true, run: () => cluster.syncHosts() }] : []),
    { name: 'expire-stale-recharges', everyMs: 60_000, run: () => recharges.expireStale() },
    // Running instances whose host failed, became unreachable or stopped them stop billing.
    { name: 'watch-instances', everyMs: 15_000, exclusive: true, run: () => new Reconciler(deps).watch() },
    // 弹性部署: containers that exited or lost their host are seen, then every deployment brought to what it wants.
    {
      name: 'elastic-deployments',
      everyMs: 2_000,
      exclusive: true,
      run: async () => {
        await new Reconciler(deps).watch(500, 'elastic');
        const pass = await new ElasticController(deps).tick();
        // Containers that came up get the deployment's ports.
        await new ElasticService(deps).exposeContainerPorts();
        return pass;
      },
    },
    // 时长包 past their validity expire.
    { name: 'expire-time-packs', everyMs: 60_000, exclusive: true, run: () => new TimePackService(deps).expire() },
    // Every open run settled up to now, then wallets below zero power off their pay-as-you-go instances.
    { name: 'meter-instances', everyMs: 60_000, exclusive: true, run: () => instanceBilling.meterAndEnforce() },
    // Data disks above the free 50 GB settled up to now; released instances' disk meters closed at their release.
    { name: 'meter-disks', everyMs: 10 * 60_000, exclusive: true, run: () => meterOpenDisks(deps.database.db, deps.now()) },
    // Data disks resized in the database whose machine never confirmed the size (a crash in between) are set again.
    { name: 'sync-disks', everyMs: 30_000, exclusive: true, run: () => new DiskService(deps).syncPending() },
    // 跨实例拷贝: running copies' progress recorded, finished ones marked done or failed; cancelled ones the machines still run stopped again.
    { name: 'copy-data', everyMs: 3_000, exclusive: true, run: () => new CopyDataService(deps).observeRunning() },
    // Scheduled power-offs fire within 15 seconds of their time.
    { name: 'scheduled-power-off', everyMs: 15_000, exclusive: true, run: () => instanceBilling.powerOffScheduled() },
    // Packages at their end: renewed from the balance when asked, else powered off and pay-as-you-go.
    { name: 'expire-packages', everyMs: 60_000, exclusive: true, run: () => new PackageService(deps).expirePackages() },
    // Reminders 3 and 1 days before, then the release of instances powered off for 15 days.
    { name: 'release-powered-off-instances', everyMs: 10 * 60_000, exclusive: true, run: () => instanceBilling.releasePoweredOff() },
    // 文件存储: usage measured on the backend, whole days above the free 20 GB settled, then arrears (writes blocked at 15 days, reminders, deletion at 30).
    { name: 'file-storage', everyMs: 10 * 60_000, exclusive: true, run: () => runFileStorageJob(deps) },
    // Stock alerts (到货提醒) whose GPUs are free fire once: a console notice and an SMS.
    { name: 'fire-stock-alerts', everyMs: 30_000, exclusive: true, run: () => new StockAlertService(deps).fireAlerts() },
    // 提醒设置: balances that crossed below their threshold (once per crossing), packages ending within the days asked.
    { name: 'fire-reminders', everyMs: 60_000, exclusive: true, run: () => new ReminderService(deps).fire() },
    {
      // Attempt windows idle past every rule's window, and solved human checks past their expiry.
      name: 'prune-abuse-records',
      everyMs: 10 * 60_000,
      run: async () => {
        await pruneAttemptWindows(deps.database.db, deps.now(), LONGEST_ATTEMPT_WINDOW_SECONDS);
        await spentHumanChecks.prune(deps.now());
      },
    },
  ];
}

/**
 * The 文件存储 job: measures every live store, then settles and enforces arrears. A measurement that
 * fails (the backend unreachable) does not hold the money back: the pass settles on the last usage
 * measured (or raised by uploads), and the failure is reported after it. Then the dataset snapshots
 * nothing needs are removed.
 */
export async function runFileStorageJob(deps: AppDeps): Promise<unknown> {
  let failure: unknown = null;
  try {
    await measureFileStorages(deps, deps.now());
  } catch (error) {
    failure = error;
  }
  const pass = await new FileStorageBilling(deps, removeFileStorageFiles).run();
  // Snapshots of deleted or re-shared datasets that no machine has any more.
  const snapshotsRemoved = await removeUnusedSnapshots(deps.database.db, deps.config.storageRoot, deps.now());
  if (failure !== null) throw failure;
  return { ...pass, snapshotsRemoved };
}

/**
 * Runs jobs on their intervals without overlapping runs of the same job; an exclusive job first claims
 * its lease, so only one process runs each tick. Returns a stop function.
 */
export function startJobs(jobs: PeriodicJob[], log: FastifyBaseLogger, deps?: Pick<AppDeps, 'database' | 'now' | 'telemetry'>): () => void {
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const timers = jobs.map((job) => {
    let running = false;
    const runOnce = async () => {
      if (job.exclusive) {
        if (!deps) throw new Error(`exclusive job ${job.name} needs the database`);
        if (!(await claimJobRun(deps.database.db, job.name, holder, job.everyMs, deps.now()))) return;
      }
      await (deps ? deps.telemetry.timeJob(job.name, job.run) : job.run());
    };
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      runOnce()
        .catch((error: unknown) => log.error({ err: error, job: job.name }, 'job failed'))
        .finally(() => {
          running = false;
        });
    }, job.everyMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach((timer) => clearInterval(timer));
}
