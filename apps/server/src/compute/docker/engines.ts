import Docker from 'dockerode';
import { eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { hosts } from '../../db/schema/index.js';
import { openText } from '../../lib/crypto.js';
import { DriverError } from '../driver.js';

/** The purpose a host's TLS client material is sealed under (`sealText(secret, DOCKER_TLS_PURPOSE, json)`). */
export const DOCKER_TLS_PURPOSE = 'docker-tls';

/** What a `tcp://` engine needs to trust and be trusted: PEM texts. */
export interface DockerTls {
  ca: string;
  cert: string;
  key: string;
}

/** Every object the Docker driver makes carries the instance id under this label; lookups go by it, never by an error code. */
export const INSTANCE_LABEL = 'slg.io/instance-id';

/** How long one call to an engine may take before the host counts as not answering. */
const ENGINE_TIMEOUT_MS = 60_000;

export interface Engine {
  hostId: string;
  docker: Docker;
  /** The address users reach the host's published ports (SSH) at. */
  publicAddress: string;
  gpuTotal: number;
  cpuPerGpu: number;
  memoryGbPerGpu: number;
}

/** Builds a client for a `unix:///path` or `tcp://host:port` engine URL (TLS when client material is given). */
export function dockerClient(url: string, tls?: DockerTls | null, timeout = ENGINE_TIMEOUT_MS): Docker {
  const parsed = new URL(url);
  if (parsed.protocol === 'unix:') return new Docker({ socketPath: parsed.pathname, timeout });
  if (parsed.protocol !== 'tcp:' && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new DriverError(`Docker 引擎地址格式不正确：${url}`, false);
  const secure = Boolean(tls) || parsed.protocol === 'https:';
  return new Docker({
    host: parsed.hostname,
    port: Number(parsed.port || (secure ? 2376 : 2375)),
    protocol: secure ? 'https' : 'http',
    ...(tls ? { ca: tls.ca, cert: tls.cert, key: tls.key } : {}),
    timeout,
  });
}

/** The host name users reach a `tcp://` engine's host at; null for a local socket. */
export function engineHostName(url: string): string | null {
  const parsed = new URL(url);
  return parsed.protocol === 'unix:' ? null : parsed.hostname;
}

interface EngineFault {
  statusCode?: number;
  code?: string;
  message?: string;
  json?: { message?: string } | null;
}

function asFault(error: unknown): EngineFault {
  return typeof error === 'object' && error !== null ? (error as EngineFault) : { message: String(error) };
}

/** The engine's answer code (404, 409, 304…), or undefined when it did not answer at all. */
export function statusOf(error: unknown): number | undefined {
  return asFault(error).statusCode;
}

/** The engine's own words for a refusal. */
export function engineMessage(error: unknown): string {
  const fault = asFault(error);
  return (fault.json?.message ?? fault.message ?? '').trim();
}

/** True when the engine did not answer (refused, reset, timed out): the host counts as unreachable. */
export function isUnanswered(error: unknown): boolean {
  const fault = asFault(error);
  if (fault.statusCode !== undefined) return false;
  return ['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'].includes(fault.code ?? '') || /timeout/i.test(fault.message ?? '');
}

export const UNREACHABLE_REASON = '主机失联：Docker 引擎无应答';

/**
 * Turns what an engine threw into the contract's DriverError: no answer is retryable (the reconciler
 * tries again, then shows 失联); a refusal is not, with the engine's words after `what`.
 */
export function driverErrorOf(error: unknown, what: string): DriverError {
  if (error instanceof DriverError) return error;
  if (isUnanswered(error)) return new DriverError(UNREACHABLE_REASON, true);
  const status = statusOf(error);
  const busy = status === 429 || status === 502 || status === 503 || status === 504;
  return new DriverError(`${what}：${engineMessage(error) || `Docker 引擎返回 ${status ?? '错误'}`}`, busy);
}

/** How long a process keeps a host's client before reading its row again (an operator may change the engine's address). */
const ENGINE_CACHE_MS = 60_000;

/** One Docker client per host, from `hosts.docker_url` (and its sealed TLS material), re-read every minute. */
export class DockerEngines {
  private readonly cache = new Map<string, { engine: Engine; loadedAt: number }>();

  constructor(
    private readonly db: Database,
    private readonly secret: string,
    private readonly defaultPublicAddress: string,
  ) {}

  async engine(hostId: string): Promise<Engine> {
    const cached = this.cache.get(hostId);
    if (cached && Date.now() - cached.loadedAt < ENGINE_CACHE_MS) return cached.engine;
    const [host] = await this.db
      .select({ dockerUrl: hosts.dockerUrl, tls: hosts.dockerTlsSealed, publicAddress: hosts.publicAddress, gpuTotal: hosts.gpuTotal, cpuPerGpu: hosts.cpuPerGpu, memoryGbPerGpu: hosts.memoryGbPerGpu })
      .from(hosts)
      .where(eq(hosts.id, hostId));
    if (!host) throw new DriverError(`主机 ${hostId} 不存在`, false);
    if (!host.dockerUrl) throw new DriverError(`主机 ${hostId} 未配置 Docker 引擎地址`, false);
    const tls = host.tls ? (JSON.parse(openText(this.secret, DOCKER_TLS_PURPOSE, host.tls)) as DockerTls) : null;
    const engine: Engine = {
      hostId,
      docker: dockerClient(host.dockerUrl, tls),
      publicAddress: host.publicAddress ?? engineHostName(host.dockerUrl) ?? this.defaultPublicAddress,
      gpuTotal: host.gpuTotal,
      cpuPerGpu: host.cpuPerGpu,
      memoryGbPerGpu: host.memoryGbPerGpu,
    };
    this.cache.set(hostId, { engine, loadedAt: Date.now() });
    return engine;
  }

  /** Every host with an engine (for images, which may sit on any of them). */
  async all(): Promise<Engine[]> {
    const rows = await this.db.select({ id: hosts.id }).from(hosts).where(isNotNull(hosts.dockerUrl));
    return Promise.all(rows.map((row) => this.engine(row.id)));
  }
}
