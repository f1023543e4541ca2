import { rentedBy } from './scope.js';
import { and, eq, isNull } from 'drizzle-orm';
import { Client, type ClientChannel } from 'ssh2';
import type { AppDeps } from '../../deps.js';
import { instances, revokedSessions } from '../../db/schema/index.js';
import {} from '../../db/scope.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { openText, sealText } from '../../lib/crypto.js';
import { openRootPassword } from './password.js';
import { RUNNING_STATUSES } from './state-machine.js';

/** The purpose terminal tickets are sealed under (AES-256-GCM with the server's secret). */
const TICKET_PURPOSE = 'instance-terminal-ticket';
/** A ticket opens one terminal within this many seconds of being issued. */
export const TICKET_SECONDS = 60;
/** How often an open terminal checks that its console session still exists. */
export const SESSION_CHECK_MS = 30_000;
/** A terminal nobody typed in or looked at for this long is closed. */
export const IDLE_CLOSE_MS = 30 * 60_000;

export const TERMINAL_TEXTS = {
  simulated: '模拟的实例没有终端：终端、Jupyter 与 TensorBoard 只在真实机器（Docker 驱动）上可用',
  notRunning: '实例未在运行，开机后才能打开终端',
  expired: '终端链接已失效，请从控制台重新打开',
  loginRefused: '无法以 root 密码登录实例：密码可能已在实例内修改，请在控制台修改密码后重试',
  unreachable: '无法连接实例的 SSH 服务，请稍后再试',
  sessionEnded: '控制台已退出登录，终端已关闭',
  idle: '终端长时间无操作，已关闭',
  stopped: '实例已不在运行，终端已关闭',
} as const;

/** What a terminal ticket and a tools cookie hold, sealed with the server's secret. */
export interface ToolClaims {
  /** The instance id. */
  i: string;
  /** The user who asked. */
  u: number;
  /** The console session it belongs to ('' for an API token). */
  s: string;
  /** Expiry, unix ms. */
  e: number;
}

export interface TerminalTarget {
  instanceId: string;
  host: string;
  port: number;
  password: string;
  sessionId: string;
}

/**
 * 终端: a shell of a running instance in the browser. The console asks for a ticket (the caller's
 * scope and the instance's state checked like every instance action), then opens a WebSocket with it;
 * the server logs into the instance over SSH as root with the platform's copy of the password and
 * relays the shell. A terminal closes when the shell ends, when the console session that opened it is
 * signed out, after 30 minutes without input, and when the instance stops.
 */
export class TerminalService {
  constructor(private readonly deps: AppDeps) {}

  /** Real machines have a shell; simulated ones do not, and nothing pretends. */
  get available(): boolean {
    return this.deps.compute.driver.name !== 'sim';
  }

  async ticket(principal: Principal, instanceId: string): Promise<{ ticket: string; expiresAt: string }> {
    await this.assertOpenable(principal, instanceId);
    const { sealed, expires } = this.seal(principal, instanceId, TICKET_PURPOSE, TICKET_SECONDS);
    return { ticket: sealed, expiresAt: new Date(expires).toISOString() };
  }

  /** Claims for the caller on an instance, sealed under `purpose`, valid `seconds`. */
  seal(principal: Principal, instanceId: string, purpose: string, seconds: number): { sealed: string; expires: number } {
    const expires = this.deps.now().getTime() + seconds * 1000;
    const claims: ToolClaims = { i: instanceId, u: principal.userId, s: principal.sessionId, e: expires };
    return { sealed: sealText(this.deps.config.jwtSecret, purpose, JSON.stringify(claims)), expires };
  }

  /** The claims sealed under `purpose`, when genuine, unexpired and of a session still signed in; else null. */
  async unseal(sealed: string, purpose: string): Promise<ToolClaims | null> {
    let claims: ToolClaims;
    try {
      claims = JSON.parse(openText(this.deps.config.jwtSecret, purpose, sealed)) as ToolClaims;
    } catch {
      return null;
    }
    if (claims.e < this.deps.now().getTime() || !(await this.sessionAlive(claims.s))) return null;
    return claims;
  }

  /** A tool may be opened on one of the caller's instances that runs on a real machine. */
  async assertOpenable(principal: Principal, instanceId: string): Promise<void> {
    if (!this.available) throw new AppError('STATE_CONFLICT', TERMINAL_TEXTS.simulated);
    const [instance] = await this.deps.database.db
      .select({ status: instances.status, operation: instances.operation, sshHost: instances.sshHost })
      .from(instances)
      .where(and(rentedBy(principal), eq(instances.instanceId, instanceId), isNull(instances.releasedAt)));
    if (!instance) throw new AppError('NOT_FOUND', '实例不存在');
    if (!RUNNING_STATUSES.includes(instance.status as never) || !instance.sshHost) throw new AppError('STATE_CONFLICT', TERMINAL_TEXTS.notRunning);
  }

  /** Where a ticket leads: the running instance's SSH address and root password; refused with the words the terminal shows. */
  async open(ticket: string): Promise<TerminalTarget> {
    const claims = await this.unseal(ticket, TICKET_PURPOSE);
    if (!claims) throw new AppError('FORBIDDEN', TERMINAL_TEXTS.expired);
    return this.targetOf(claims.i, claims.s);
  }

  /** The SSH address and root password of a running instance (refused while it does not run). */
  async targetOf(instanceId: string, sessionId: string): Promise<TerminalTarget> {
    const [instance] = await this.deps.database.db
      .select({ status: instances.status, sshHost: instances.sshHost, sshPort: instances.sshPort, rootPasswordEnc: instances.rootPasswordEnc })
      .from(instances)
      .where(and(eq(instances.instanceId, instanceId), isNull(instances.releasedAt)));
    if (!instance || !RUNNING_STATUSES.includes(instance.status as never) || !instance.sshHost || !instance.sshPort) throw new AppError('STATE_CONFLICT', TERMINAL_TEXTS.notRunning);
    return {
      instanceId,
      host: instance.sshHost,
      port: instance.sshPort,
      password: openRootPassword(this.deps.config.jwtSecret, instance.rootPasswordEnc),
      sessionId,
    };
  }

  /** Whether the console session is still signed in (an API token's '' has no session to end). */
  async sessionAlive(sessionId: string): Promise<boolean> {
    if (sessionId === '') return true;
    const [revoked] = await this.deps.database.db.select({ familyId: revokedSessions.familyId }).from(revokedSessions).where(eq(revokedSessions.familyId, sessionId));
    return !revoked;
  }

  /** Whether the instance still runs (checked with the session). */
  async stillRunning(instanceId: string): Promise<boolean> {
    const [instance] = await this.deps.database.db.select({ status: instances.status }).from(instances).where(and(eq(instances.instanceId, instanceId), isNull(instances.releasedAt)));
    return instance !== undefined && RUNNING_STATUSES.includes(instance.status as never);
  }
}

/** How long a machine that just started may take before its sshd answers. */
const SSH_START_MS = 15_000;

/**
 * Logs into the instance as root and opens a shell of this size; the client ends with the channel. A
 * machine that has just come up may not answer SSH yet: refused connections are tried again for 15 s.
 */
export async function openShell(target: TerminalTarget, size: { cols: number; rows: number }): Promise<{ client: Client; shell: ClientChannel }> {
  const deadline = Date.now() + SSH_START_MS;
  for (;;) {
    try {
      return await openShellOnce(target, size);
    } catch (error) {
      if (!(error instanceof AppError) || error.message !== TERMINAL_TEXTS.unreachable || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/**
 * Logs into the instance over SSH as root with the platform's copy of the password; a refused login
 * and an unreachable machine are told apart in words the user can act on. `onClose` runs when the
 * connection ends, whoever ends it.
 */
export function loginAsRoot(target: TerminalTarget, onClose?: () => void): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    client
      .on('ready', () => resolve(client))
      .on('error', (error: Error & { level?: string }) => {
        reject(new AppError('SERVICE_UNAVAILABLE', error.level === 'client-authentication' ? TERMINAL_TEXTS.loginRefused : TERMINAL_TEXTS.unreachable));
      })
      .on('close', () => onClose?.())
      .connect({ host: target.host, port: target.port, username: 'root', password: target.password, readyTimeout: 15_000, tryKeyboard: false, keepaliveInterval: 30_000 });
  });
}

async function openShellOnce(target: TerminalTarget, size: { cols: number; rows: number }): Promise<{ client: Client; shell: ClientChannel }> {
  const client = await loginAsRoot(target);
  return new Promise((resolve, reject) => {
    client.shell({ term: 'xterm-256color', cols: size.cols, rows: size.rows }, (error, shell) => {
      if (error) {
        client.end();
        reject(new AppError('SERVICE_UNAVAILABLE', TERMINAL_TEXTS.unreachable));
        return;
      }
      shell.on('close', () => client.end());
      resolve({ client, shell });
    });
  });
}
