import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's Prometheus (`apt-get install prometheus`), for the monitoring tests; CI installs it. */
export const prometheusBinary = ['/usr/bin/prometheus'].find((path) => existsSync(path));
/** CI sets it: a missing Prometheus (or Docker engine) then fails the tests that need it instead of skipping them. */
export const prometheusRequired = process.env.SLG_REQUIRE_DOCKER_TESTS === '1';

/** Polls `check` every half second for up to 60 s. */
export async function expectSoon(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${what}: not within 60 s`);
}

export interface ScrapeTarget {
  job: string;
  /** host:port */
  target: string;
  /** Default /metrics. */
  path?: string;
}

/** A port for a test's Prometheus (chosen before it starts, when the platform must know PROMETHEUS_URL first). */
export function prometheusPort(): number {
  // Fixed test ports stay below Linux's ephemeral range (32768-60999), where any `listen(0)` or outgoing
  // connection of a test running beside could take them: custom services 23000-23999, Docker SSH
  // 26000-27999, the fake cluster's NodePorts 28000-28999, Prometheus 29000-29899.
  return 29_000 + Math.floor(Math.random() * 900);
}

/** A real Prometheus scraping `targets` every second on `port`, ready when this resolves. */
export async function startPrometheus(port: number, targets: readonly ScrapeTarget[]): Promise<{ url: string; stop: () => void }> {
  if (!prometheusBinary) throw new Error('没有找到 prometheus：CI 必须安装 Debian 的 prometheus 软件包');
  const url = `http://127.0.0.1:${port}`;
  const directory = mkdtempSync(join(tmpdir(), 'slg-prometheus-'));
  writeFileSync(
    join(directory, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      'scrape_configs:',
      ...targets.map(({ job, target, path }) => `  - { job_name: ${job}, metrics_path: "${path ?? '/metrics'}", static_configs: [{ targets: ["${target}"] }] }`),
    ].join('\n'),
  );
  const child = spawn(prometheusBinary, [`--config.file=${join(directory, 'prometheus.yml')}`, `--storage.tsdb.path=${join(directory, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], {
    stdio: 'ignore',
  });
  const stop = () => void child.kill('SIGTERM');
  try {
    await expectSoon(async () => (await fetch(`${url}/-/ready`)).status === 200, 'Prometheus ready');
  } catch (error) {
    stop();
    throw error;
  }
  return { url, stop };
}
