import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { ComputeRuntime } from '../deps.js';
import { SimDriver } from './sim/driver.js';

/** The configured driver, with a wake signal the process's reconciler loop listens to. */
export function createComputeRuntime(config: Config, db: Database, now: () => Date): ComputeRuntime & { onWake(listener: () => void): void } {
  const listeners: (() => void)[] = [];
  const driver = new SimDriver({ db, now, seconds: config.compute.simSeconds, sshHost: config.compute.sshHost });
  return {
    driver,
    wake: () => listeners.forEach((listener) => listener()),
    onWake: (listener) => {
      listeners.push(listener);
    },
  };
}
