import type { FastifyBaseLogger } from 'fastify';
import type { Histogram } from 'prom-client';

/** What the loop drives: one pass of bringing the machines and the database together. */
export interface ReconcilePass {
  tick(): Promise<unknown>;
}

/**
 * Runs reconciliation passes every `intervalMs`, and at once when the process's API asked for
 * something (`wake`). Passes never overlap; a wake during a pass runs one more right after it.
 * Returns a stop function.
 */
export function startReconcileLoop(
  reconciler: ReconcilePass,
  onWake: (listener: () => void) => void,
  log: FastifyBaseLogger,
  options: { intervalMs?: number; passDuration?: Histogram } = {},
): () => void {
  const intervalMs = options.intervalMs ?? 1000;
  let running = false;
  let again = false;
  let stopped = false;
  const pass = async (): Promise<void> => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const stop = options.passDuration?.startTimer();
        await reconciler.tick();
        stop?.();
      } while (again && !stopped);
    } catch (error) {
      log.error({ err: error }, 'reconciliation pass failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void pass(), intervalMs);
  timer.unref();
  onWake(() => setImmediate(() => void pass()));
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
