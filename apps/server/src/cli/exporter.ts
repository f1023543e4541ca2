import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dockerClient } from '../compute/docker/engines.js';
import { HostExporter } from '../compute/docker/exporter.js';

/** The exporter's default port (free in Prometheus's list of exporter ports at the time of writing). */
export const DEFAULT_EXPORTER_PORT = 9417;

/**
 * `npm run exporter` on a Docker host: serves `GET /metrics` (HostExporter) for Prometheus to scrape.
 * DOCKER_HOST names the engine (default the local socket), EXPORTER_PORT and EXPORTER_HOST where it listens.
 */
export async function serveExporter(options: { engineUrl: string; port: number; host: string; diskUsageTtlMs?: number }): Promise<{ close: () => Promise<void>; port: number }> {
  const exporter = new HostExporter(dockerClient(options.engineUrl, null, 30_000), { diskUsageTtlMs: options.diskUsageTtlMs });
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '/').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('只有 /metrics\n');
      return;
    }
    exporter.render().then(
      (text) => response.writeHead(200, { 'content-type': exporter.series.registry.contentType }).end(text),
      (error: unknown) => response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end(`Docker 引擎无应答：${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  await new Promise<void>((done) => server.listen(options.port, options.host, done));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const engineUrl = process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock';
  const port = Number(process.env.EXPORTER_PORT ?? DEFAULT_EXPORTER_PORT);
  const host = process.env.EXPORTER_HOST ?? '0.0.0.0';
  serveExporter({ engineUrl, port, host }).then(
    (served) => console.log(`算力港主机指标 http://${host}:${served.port}/metrics（Docker 引擎 ${engineUrl}）`),
    (error: unknown) => {
      console.error(`启动指标服务失败：${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
