import { randomInt } from 'node:crypto';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { hosts, simMachines } from '../../db/schema/index.js';
import { DriverError, type ComputeDriver, type MachineSpec, type MachineState, type ObservedMachine } from '../driver.js';

export interface SimDriverOptions {
  db: Database;
  now: () => Date;
  /** Seconds each transition takes. */
  seconds: { create: number; start: number; stop: number; destroy: number };
  /** The SSH gateway name; each zone answers on `<zone>.<sshHost>`. */
  sshHost: string;
}

type SimState = 'creating' | 'stopped' | 'starting' | 'running' | 'stopping' | 'deleting' | 'deleted';

/** What a transition in progress becomes once its time has passed. */
const SETTLES_TO: Partial<Record<SimState, SimState>> = {
  creating: 'running',
  starting: 'running',
  stopping: 'stopped',
  deleting: 'deleted',
};

/**
 * A simulated data centre: every machine is a row of `sim_machines` that moves through realistic
 * transitions taking configurable seconds. Faults are injected per host (`hosts.sim_fault`): `error`
 * makes its machines fail and refuses new work, `unreachable` makes them unobservable. The platform
 * sees the simulation only through the ComputeDriver contract, as it would see Kubernetes.
 */
export class SimDriver implements ComputeDriver {
  readonly name = 'sim' as const;

  constructor(private readonly options: SimDriverOptions) {}

  private get db(): Database {
    return this.options.db;
  }

  private later(seconds: number): Date {
    return new Date(this.options.now().getTime() + seconds * 1000);
  }

  private async assertHostWorks(hostId: string): Promise<{ zoneId: string }> {
    const [host] = await this.db
      .select({ zoneId: hosts.zoneId, fault: hosts.simFault, reason: hosts.simFaultReason })
      .from(hosts)
      .where(eq(hosts.id, hostId));
    if (!host) throw new DriverError(`主机 ${hostId} 不存在`, false);
    if (host.fault === 'unreachable') throw new DriverError(host.reason ?? '主机失联', true);
    if (host.fault === 'error') throw new DriverError(host.reason ?? '主机故障', false);
    return { zoneId: host.zoneId };
  }

  private async machine(instanceId: string) {
    const [row] = await this.db.select().from(simMachines).where(eq(simMachines.instanceId, instanceId));
    return row;
  }

  async create(spec: MachineSpec): Promise<void> {
    await this.assertHostWorks(spec.hostId);
    await this.db
      .insert(simMachines)
      .values({
        instanceId: spec.instanceId,
        hostId: spec.hostId,
        state: 'creating',
        gpuNum: spec.gpuNum,
        imageId: spec.imageId,
        dataDiskGb: spec.dataDiskGb,
        readyAt: this.later(this.options.seconds.create),
        sshPort: randomInt(20_000, 60_000),
        authorizedKeys: [...spec.authorizedKeys],
        updatedAt: this.options.now(),
      })
      .onConflictDoNothing();
  }

  async start(instanceId: string, gpuNum: number): Promise<void> {
    const machine = await this.machine(instanceId);
    if (!machine || machine.state === 'deleted' || machine.state === 'deleting') throw new DriverError('容器不存在', false);
    await this.assertHostWorks(machine.hostId);
    if (machine.state !== 'stopped') return;
    await this.db
      .update(simMachines)
      .set({ state: 'starting', gpuNum, readyAt: this.later(this.options.seconds.start), updatedAt: this.options.now() })
      .where(and(eq(simMachines.instanceId, instanceId), eq(simMachines.state, 'stopped')));
  }

  async stop(instanceId: string): Promise<void> {
    const machine = await this.machine(instanceId);
    if (!machine || machine.state === 'deleted') throw new DriverError('容器不存在', false);
    if (machine.state !== 'running' && machine.state !== 'starting' && machine.state !== 'creating') return;
    await this.assertHostWorks(machine.hostId);
    await this.db
      .update(simMachines)
      .set({ state: 'stopping', runningSince: null, readyAt: this.later(this.options.seconds.stop), updatedAt: this.options.now() })
      .where(and(eq(simMachines.instanceId, instanceId), inArray(simMachines.state, ['running', 'starting', 'creating'])));
  }

  async destroy(instanceId: string): Promise<void> {
    const machine = await this.machine(instanceId);
    if (!machine || machine.state === 'deleted' || machine.state === 'deleting') return;
    const [host] = await this.db.select({ fault: hosts.simFault, reason: hosts.simFaultReason }).from(hosts).where(eq(hosts.id, machine.hostId));
    // A failing host can still delete what it holds; an unreachable one cannot be asked.
    if (host?.fault === 'unreachable') throw new DriverError(host.reason ?? '主机失联', true);
    await this.db
      .update(simMachines)
      .set({ state: 'deleting', runningSince: null, readyAt: this.later(this.options.seconds.destroy), updatedAt: this.options.now() })
      .where(eq(simMachines.instanceId, instanceId));
  }

  async setPassword(instanceId: string): Promise<void> {
    const machine = await this.machine(instanceId);
    if (!machine || machine.state !== 'running') throw new DriverError('实例未在运行，无法修改密码', false);
    await this.assertHostWorks(machine.hostId);
  }

  async observe(instanceIds: readonly string[]): Promise<Map<string, ObservedMachine>> {
    const observed = new Map<string, ObservedMachine>();
    if (instanceIds.length === 0) return observed;
    const ids = [...instanceIds];
    const now = this.options.now();
    // Transitions whose time has come finish now; a machine that came up runs since the moment it did.
    await this.db
      .update(simMachines)
      .set({
        state: sql`case ${simMachines.state} when 'creating' then 'running' when 'starting' then 'running'
          when 'stopping' then 'stopped' when 'deleting' then 'deleted' else ${simMachines.state} end`,
        runningSince: sql`case when ${simMachines.state} in ('creating', 'starting') then ${simMachines.readyAt} else ${simMachines.runningSince} end`,
        updatedAt: now,
      })
      .where(and(inArray(simMachines.instanceId, ids), lte(simMachines.readyAt, now), inArray(simMachines.state, Object.keys(SETTLES_TO))));
    await this.db.delete(simMachines).where(and(inArray(simMachines.instanceId, ids), eq(simMachines.state, 'deleted')));

    const rows = await this.db
      .select({ machine: simMachines, zoneId: hosts.zoneId, fault: hosts.simFault, reason: hosts.simFaultReason })
      .from(simMachines)
      .innerJoin(hosts, eq(hosts.id, simMachines.hostId))
      .where(inArray(simMachines.instanceId, ids));
    for (const { machine, zoneId, fault, reason } of rows) {
      if (fault === 'unreachable') {
        observed.set(machine.instanceId, { state: 'unreachable', reason: reason ?? '主机失联' });
        continue;
      }
      if (fault === 'error' && machine.state !== 'stopped') {
        observed.set(machine.instanceId, { state: 'error', reason: reason ?? '主机故障' });
        continue;
      }
      observed.set(machine.instanceId, {
        state: machine.state as MachineState,
        ...(machine.runningSince ? { runningSince: machine.runningSince } : {}),
        gpuNum: machine.gpuNum,
        ssh: { host: `${zoneId}.${this.options.sshHost}`, port: machine.sshPort },
      });
    }
    for (const id of ids) if (!observed.has(id)) observed.set(id, { state: 'absent' });
    return observed;
  }
}
