import { rentedBy } from './scope.js';
import { randomInt } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { AppDeps } from '../../deps.js';
import type { Transaction } from '../../db/client.js';
import { instancePorts, instances } from '../../db/schema/index.js';
import {} from '../../db/scope.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../core/errors.js';
import { DriverError } from '../../compute/driver.js';
import type { Principal } from '../../core/principal.js';
import { RentalService } from './service.js';

/** Custom service ports one instance may expose. */
export const MAX_PORTS_PER_INSTANCE = 5;
/** Ports the platform itself uses inside an instance (SSH). */
export const RESERVED_PORTS: readonly number[] = [22];

export const PORT_PROTOCOLS = { http: 1, tcp: 2 } as const;
export type PortProtocol = (typeof PORT_PROTOCOLS)[keyof typeof PORT_PROTOCOLS];
const PROTOCOL_NAMES: Record<PortProtocol, string> = { 1: 'HTTP', 2: 'TCP' };

export interface PortView {
  port: number;
  protocol: PortProtocol;
  protocolName: string;
  /** Where the service is reached from outside: an https URL (HTTP) or host:port (TCP). */
  address: string;
  createdAt: string;
}

type PortRow = typeof instancePorts.$inferSelect;
type ServiceInstance = Pick<typeof instances.$inferSelect, 'instanceId' | 'sshHost'>;

/**
 * 自定义服务 (`POST /rental/map_port`): a port a service listens on inside the instance, reached from
 * outside through the zone's gateway — HTTP at `https://<instance>-<port>.<zone>.<gateway>`, TCP at a
 * gateway port unique in the zone — or, on Docker hosts, at that public port of the instance's host. The instance row is locked while its ports change, so the limit
 * holds under bursts; a gateway port is claimed by a unique index (a collision picks another).
 */
export class PortService {
  private readonly rental: RentalService;

  constructor(private readonly deps: AppDeps) {
    this.rental = new RentalService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  private gatewayHost(zoneId: string): string {
    return `${zoneId}.${this.deps.config.compute.sshHost}`;
  }

  /**
   * Where a service is reached: behind the zone's gateway (HTTP by host name, TCP by gateway port),
   * or, where the driver binds services on the instance's own host, at that host's public port.
   */
  toView(instance: ServiceInstance, row: PortRow): PortView {
    const protocol = row.protocol as PortProtocol;
    const http = protocol === PORT_PROTOCOLS.http;
    const publicPort = row.publicPort ?? 0;
    let address: string;
    if (this.deps.compute.driver.serviceRouting === 'host-port') {
      const host = instance.sshHost ?? this.gatewayHost(row.zoneId);
      address = http ? `http://${host}:${publicPort}` : `${host}:${publicPort}`;
    } else {
      address = http ? `https://${instance.instanceId}-${row.port}.${this.gatewayHost(row.zoneId)}` : `${this.gatewayHost(row.zoneId)}:${publicPort}`;
    }
    return { port: row.port, protocol, protocolName: PROTOCOL_NAMES[protocol], address, createdAt: row.createdAt.toISOString() };
  }

  async list(principal: Principal, instanceId: string): Promise<PortView[]> {
    const rows = await this.db
      .select({ port: instancePorts, sshHost: instances.sshHost })
      .from(instancePorts)
      .innerJoin(instances, eq(instances.id, instancePorts.instanceRowId))
      .where(and(rentedBy(principal), eq(instances.instanceId, instanceId), isNull(instances.releasedAt)))
      .orderBy(asc(instancePorts.port));
    if (rows.length === 0) await this.rental.get(principal, instanceId);
    return rows.map((row) => this.toView({ instanceId, sshHost: row.sshHost }, row.port));
  }

  private assertPort(port: number): void {
    if (RESERVED_PORTS.includes(port)) throw new AppError('VALIDATION', `端口 ${port} 为SSH保留端口，请使用其他端口`);
  }

  /** A free public port of the zone (a gateway port, or a port of the instance's host), claimed by the unique index (savepoint per try). */
  async insertWithPublicPort(tx: Transaction, values: Omit<typeof instancePorts.$inferInsert, 'publicPort' | 'protocol'>, protocol: PortProtocol): Promise<PortRow> {
    for (let attempt = 0; ; attempt += 1) {
      // Reached on a public port (of the zone's gateway, or of the instance's host) from the driver's range, unique in the zone.
      const { min, max } = this.deps.compute.driver.publicPortRange;
      const publicPort = randomInt(min, max + 1);
      try {
        return await tx.transaction(async (savepoint) => {
          const [row] = await savepoint
            .insert(instancePorts)
            .values({ ...values, protocol, publicPort })
            .onConflictDoUpdate({
              target: [instancePorts.instanceRowId, instancePorts.port],
              set: { protocol, publicPort, updatedAt: this.deps.now() },
            })
            .returning();
          if (!row) throw new Error('port insert returned nothing');
          return row;
        });
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 9) throw error;
      }
    }
  }

  /**
   * Exposes (or re-exposes with another protocol) a port; returns where it is reached. The row is
   * written first (the limit and the gateway port decided under the instance's lock), then the gateway
   * is asked, outside the transaction; a refusal puts the row back as it was.
   */
  async map(principal: Principal, input: { instanceId: string; port: number; protocol: PortProtocol }, mode: 'add' | 'update'): Promise<PortView> {
    this.assertPort(input.port);
    const { saved, previous, instance } = await this.db.transaction(async (tx) => {
      const instance = await this.rental.lockOwned(tx, principal, input.instanceId, 'map_port');
      const existing = await tx.select().from(instancePorts).where(eq(instancePorts.instanceRowId, instance.id));
      const current = existing.find((item) => item.port === input.port);
      if (mode === 'update' && !current) throw new AppError('NOT_FOUND', `端口 ${input.port} 尚未添加为自定义服务`);
      if (mode === 'add' && current) throw new AppError('STATE_CONFLICT', `端口 ${input.port} 已添加为${PROTOCOL_NAMES[current.protocol as PortProtocol]}服务，如需更换协议请修改`);
      if (current && current.protocol === input.protocol) return { saved: current, previous: current, instance };
      if (!current && existing.length >= MAX_PORTS_PER_INSTANCE) {
        throw new AppError('STATE_CONFLICT', `每个实例最多添加${MAX_PORTS_PER_INSTANCE}个自定义服务端口，请先删除不用的端口`);
      }
      const now = this.deps.now();
      const row = await this.insertWithPublicPort(tx, { instanceRowId: instance.id, zoneId: instance.zoneId, port: input.port, createdAt: now, updatedAt: now }, input.protocol);
      return { saved: row, previous: current ?? null, instance };
    });
    if (saved === previous) return this.toView(instance, saved);
    try {
      await this.call(() =>
        this.deps.compute.driver.exposePort(input.instanceId, { port: saved.port, protocol: saved.protocol === PORT_PROTOCOLS.http ? 'http' : 'tcp', publicPort: saved.publicPort }),
      );
    } catch (error) {
      await this.putBack(saved, previous);
      throw error;
    }
    return this.toView(instance, saved);
  }

  /** Undoes a change the gateway refused: the row as it was, or none. */
  private async putBack(saved: PortRow, previous: PortRow | null): Promise<void> {
    if (previous) {
      await this.db
        .update(instancePorts)
        .set({ protocol: previous.protocol, publicPort: previous.publicPort, updatedAt: previous.updatedAt })
        .where(and(eq(instancePorts.id, saved.id), eq(instancePorts.updatedAt, saved.updatedAt)));
    } else {
      await this.db.delete(instancePorts).where(and(eq(instancePorts.id, saved.id), eq(instancePorts.updatedAt, saved.updatedAt)));
    }
  }

  /** The gateway route goes first (idempotent), then the row: a refusal leaves both in place. */
  async remove(principal: Principal, input: { instanceId: string; port: number }): Promise<void> {
    const ports = await this.list(principal, input.instanceId);
    if (!ports.some((item) => item.port === input.port)) throw new AppError('NOT_FOUND', `端口 ${input.port} 不是该实例的自定义服务`);
    await this.call(() => this.deps.compute.driver.unexposePort(input.instanceId, input.port));
    await this.db.transaction(async (tx) => {
      const instance = await this.rental.lockOwned(tx, principal, input.instanceId, 'map_port');
      await tx.delete(instancePorts).where(and(eq(instancePorts.instanceRowId, instance.id), eq(instancePorts.port, input.port)));
    });
  }

  private async call(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (error instanceof DriverError) throw new AppError('SERVICE_UNAVAILABLE', `自定义服务设置失败：${error.message}，请稍后再试`);
      throw error;
    }
  }
}
