import { join } from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { seedDictionaries } from './db/seed/seed.js';
import { ensurePublicDatasets } from './modules/datasets/public-seed.js';
import { ensureTestModel } from './modules/models/service.js';
import { createSmsProvider } from './providers/sms/index.js';
import { createPaymentGateways } from './providers/payments/index.js';
import { buildApp } from './app.js';
import { platformJobs, startJobs } from './jobs/scheduler.js';
import { applyOperatorTelephones } from './modules/users/service.js';
import type { AppDeps } from './deps.js';
import { createComputeRuntime } from './compute/index.js';
import { KubernetesDriver } from './compute/kubernetes/driver.js';
import { Reconciler } from './modules/rental/reconciler.js';
import { startReconcileLoop } from './compute/loop.js';
import { seedSimFleet } from './compute/sim/fleet.js';
import { probeNvidia, registerDockerEngine } from './compute/docker/register.js';
import { zones } from './db/schema/index.js';
import { createMetricsSource } from './modules/monitoring/index.js';
import { createTelemetry } from './modules/monitoring/platform-sample.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: join(config.dataDir, 'pglite') });
  await database.migrate();
  await seedDictionaries(database.db);
  await applyOperatorTelephones(database.db, config.operatorTelephones);
  const now = () => new Date();
  await ensurePublicDatasets({ database, config, now });
  await ensureTestModel({ database, config, now });
  if (config.computeDriver === 'sim') {
    const zoneRows = await database.db.select({ id: zones.id, name: zones.name }).from(zones);
    await seedSimFleet(database.db, new Map(zoneRows.map((zone) => [zone.id, zone.name])));
  }
  const { docker } = config.compute;
  if (config.computeDriver === 'docker' && docker.engineUrl) {
    const hostId = await registerDockerEngine(database.db, { ...docker, engineUrl: docker.engineUrl }, await probeNvidia());
    console.log(`Docker 主机 ${hostId}（${docker.engineUrl}）已登记为市场上的主机`);
  }
  const compute = createComputeRuntime(config, database.db, now);
  if (compute.driver instanceof KubernetesDriver) {
    // The market's hosts before the first user comes; the job keeps them in step afterwards.
    const synced = await compute.driver.syncHosts().catch((error: unknown) => {
      console.error(`Kubernetes 集群无法访问（KUBECONFIG 或服务账号），主机将在集群可访问后同步：${error instanceof Error ? error.message : String(error)}`);
      return null;
    });
    if (synced) {
      console.log(`Kubernetes 集群的 ${synced.registered.length} 个节点已同步为主机${synced.takenOff.length > 0 ? `，${synced.takenOff.length} 台不在集群中的主机已下架` : ''}`);
      for (const skipped of synced.skipped) console.warn(`节点 ${skipped.node} 未能登记为主机：${skipped.reason}`);
    }
  }
  const deps: AppDeps = { config, database, sms: createSmsProvider(config, now), payments: createPaymentGateways(config), compute,
    metrics: createMetricsSource(config, database.db),
    telemetry: createTelemetry(database.db, now, { processMetrics: true }),
    now,
  };
  const app = await buildApp(deps, { serveWeb: true });

  const stopJobs = startJobs(platformJobs(deps), app.log, deps);
  const stopReconciling = startReconcileLoop(new Reconciler(deps), compute.onWake, app.log, { passDuration: deps.telemetry.reconcilePassDuration });
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    stopJobs();
    stopReconciling();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `${config.appTitle} 已启动: ${config.publicUrl}（数据库 ${database.kind === 'pglite' ? `PGlite ${join(config.dataDir, 'pglite')}` : 'PostgreSQL'}，短信 ${config.smsProvider}）`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`配置错误：${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
