import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.js';
import { RechargeService } from '../modules/billing/recharges.js';
import { pruneAttemptWindows } from '../modules/security/attempts.js';
import { LONGEST_ATTEMPT_WINDOW_SECONDS } from '../modules/security/rules.js';
import { SpentHumanChecks } from '../providers/captcha/spent.js';

export interface PeriodicJob {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
}

/** The housekeeping every API process runs; each job is safe to run on several replicas at once. */
export function platformJobs(deps: AppDeps): PeriodicJob[] {
  const recharges = new RechargeService(deps);
  const spentHumanChecks = new SpentHumanChecks(deps.database.db);
  return [
    { name: 'expire-stale-recharges', everyMs: 60_000, run: () => recharges.expireStale() },
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

/** Runs jobs on their intervals without overlapping runs of the same job; returns a stop function. */
export function startJobs(jobs: PeriodicJob[], log: FastifyBaseLogger): () => void {
  const timers = jobs.map((job) => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      job
        .run()
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
