import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { MetricsSource } from './metrics-source.js';
import { PrometheusMetricsSource } from './prometheus-source.js';
import { SimulatedMetricsSource } from './sim-source.js';

export type { MetricsSource } from './metrics-source.js';

/**
 * Prometheus when PROMETHEUS_URL is set (the series of the driver's machines: the Docker host exporter's,
 * or a cluster's cAdvisor, kubelet and DCGM exporter by pod), else series computed from the instances'
 * own history.
 */
export function createMetricsSource(config: Pick<Config, 'prometheusUrl' | 'computeDriver'>, db: Database): MetricsSource {
  if (!config.prometheusUrl) return new SimulatedMetricsSource(db);
  return new PrometheusMetricsSource({ baseUrl: config.prometheusUrl, style: config.computeDriver === 'kubernetes' ? 'kubernetes' : 'docker' });
}
