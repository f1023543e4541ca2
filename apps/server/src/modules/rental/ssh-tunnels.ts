import type { Client, ClientChannel } from 'ssh2';
import { AppError } from '../../core/errors.js';
import { loginAsRoot, type TerminalTarget } from './terminal.js';

/** An SSH connection nobody forwarded through for this long is closed. */
const IDLE_MS = 5 * 60_000;

interface Pooled {
  ready: Promise<Client>;
  lastUsed: number;
}

/**
 * SSH connections to instances, one per instance and password, kept while they are used: each
 * request of 快捷工具 is a channel (`direct-tcpip`) to a port on the machine's loopback, where Jupyter
 * listens — reachable by no one but root inside the machine and this gateway.
 */
export class SshTunnels {
  private readonly pool = new Map<string, Pooled>();
  private readonly sweeper: NodeJS.Timeout;

  constructor() {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  private connect(key: string, target: TerminalTarget): Promise<Client> {
    const ready = loginAsRoot(target, () => this.pool.delete(key));
    ready.catch(() => this.pool.delete(key));
    this.pool.set(key, { ready, lastUsed: Date.now() });
    return ready;
  }

  /** A byte stream to `port` on the instance's loopback; refused (503) when the machine or the port does not answer. */
  async forward(target: TerminalTarget, port: number): Promise<ClientChannel> {
    const key = `${target.instanceId}\u0000${target.host}:${target.port}\u0000${target.password}`;
    const pooled = this.pool.get(key);
    if (pooled) pooled.lastUsed = Date.now();
    const client = await (pooled?.ready ?? this.connect(key, target));
    return new Promise((resolve, reject) => {
      client.forwardOut('127.0.0.1', 0, '127.0.0.1', port, (error, channel) => (error ? reject(new AppError('SERVICE_UNAVAILABLE', `实例内 ${port} 端口没有服务在监听`)) : resolve(channel)));
    });
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, pooled] of this.pool) {
      if (now - pooled.lastUsed < IDLE_MS) continue;
      this.pool.delete(key);
      void pooled.ready.then((client) => client.end()).catch(() => undefined);
    }
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const pooled of this.pool.values()) void pooled.ready.then((client) => client.end()).catch(() => undefined);
    this.pool.clear();
  }
}
