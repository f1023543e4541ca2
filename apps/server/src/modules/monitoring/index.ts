import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { MetricsSource } from './metrics-source.js';
import { PrometheusMetricsSource } from './prometheus-source.js';
import { SimulatedMetricsSource } from './sim-source.js';

export type { MetricsSource } from './metrics-source.js';

/** Prometheus when PROMETHEUS_URL is set, else series computed from the instances' own history. */
export function createMetricsSource(config: Pick<Config, 'prometheusUrl'>, db: Database): MetricsSource {
  return config.prometheusUrl ? new PrometheusMetricsSource({ baseUrl: config.prometheusUrl }) : new SimulatedMetricsSource(db);
}
