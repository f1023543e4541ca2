import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.js';
import { RechargeService } from '../modules/billing/recharges.js';

export interface PeriodicJob {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
}

/** The housekeeping every API process runs; each job is safe to run on several replicas at once. */
export function platformJobs(deps: AppDeps): PeriodicJob[] {
  const recharges = new RechargeService(deps);
  return [{ name: 'expire-stale-recharges', everyMs: 60_000, run: () => recharges.expireStale() }];
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
