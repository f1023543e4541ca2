import type { Config } from './config.js';
import type { Database, DatabaseHandle } from './db/client.js';
import type { SmsProvider } from './providers/sms/provider.js';
import type { GatewayName, PaymentGateway } from './providers/payments/provider.js';
import type { ComputeDriver } from './compute/driver.js';
import type { MetricsSource } from './modules/monitoring/metrics-source.js';
import type { Telemetry } from './core/telemetry.js';

/** The machines, and a way to tell this process's reconciler that an instance wants something. */
export interface ComputeRuntime {
  driver: ComputeDriver;
  /** Asks for a reconciliation pass soon (a no-op where nothing runs the loop, as in API tests). */
  wake: () => void;
}

/** Everything a module needs from the outside world; tests build it with their own clock and providers. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  sms: SmsProvider;
  /** Configured payment gateways by name (sandbox outside production). */
  payments: ReadonlyMap<GatewayName, PaymentGateway>;
  compute: ComputeRuntime;
  /** Instance monitoring series: Prometheus (PROMETHEUS_URL) or computed from the sim fleet's history. */
  metrics: MetricsSource;
  /** The process's own series (`GET /metrics`). */
  telemetry: Telemetry;
  now: () => Date;
}

export function dbOf(deps: AppDeps): Database {
  return deps.database.db;
}
