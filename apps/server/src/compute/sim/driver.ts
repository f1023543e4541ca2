import { randomInt } from 'node:crypto';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { hosts, publicImages, simImages, simMachines } from '../../db/schema/index.js';
import { SimCopies } from './copies.js';
import { DriverError, type ObservedCopy, type ComputeDriver, type ImageState, type MachineMounts, type MachineSpec, type MachineState, type ObservedImage, type ObservedMachine, DEFAULT_PUBLIC_PORT_RANGE } from '../driver.js';

export interface SimDriverOptions {
  db: Database;
  now: () => Date;
  /** Seconds each transition takes, and `job`: how long a machine's command runs before it exits. */
  seconds: { create: number; start: number; stop: number; destroy: number; reinstall: number; saveImage: number; job: number };
  /** The SSH gateway name; each zone answers on `<zone>.<sshHost>`. */
  sshHost: string;
  /** How fast data copies between machines (GB per second; default SIM_COPY_GB_PER_SECOND). */
  copyGbPerSecond?: number;
}

type SimState = 'creating' | 'stopped' | 'starting' | 'running' | 'stopping' | 'deleting' | 'deleted' | 'reinstalling';

/** What a transition in progress becomes once its time has passed. */
const SETTLES_TO: Partial<Record<SimState, SimState>> = {
  creating: 'running',
  starting: 'running',
  stopping: 'stopped',
  deleting: 'deleted',
  reinstalling: 'stopped',
};

/** A saved image holds its base image plus what was installed on the system disk: 0.4–3.0 GB more, fixed per image. */
function savedImageGrowthGb(imageUid: string): number {
  let hash = 0;
  for (const char of imageUid) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_003;
  return 0.4 + (hash % 27) / 10;
}

/** What a simulated command exits with: N for exactly `exit N` (0–255), 0 for anything else. */
export function simExitCode(command: string): number {
  const match = /^exit (\d{1,3})$/.exec(command);
  const code = match ? Number(match[1]) : 0;
  return code <= 255 ? code : 0;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A simulated data centre: every machine is a row of `sim_machines` that moves through realistic
 * transitions taking configurable seconds. Faults are injected per host (`hosts.sim_fault`): `error`
 * makes its machines fail and refuses new work, `unreachable` makes them unobservable. The platform
 * sees the simulation only through the ComputeDriver contract, as it would see Kubernetes.
 *
 * Commands (elastic containers) are not run: a machine with a command stops by itself SIM_JOB_SECONDS
 * after it came up, exiting with 0 — except a command that is exactly `exit N` (N 0–255), which exits
 * with N, so tests can make a job fail. Its logs are a few lines made up from the machine's state.
 */
export class SimDriver implements ComputeDriver {
  readonly name = 'sim' as const;
  readonly serviceRouting = 'zone-gateway' as const;
  readonly publicPortRange = DEFAULT_PUBLIC_PORT_RANGE;
  readonly mountsFileStorage = true;

  private readonly copies: SimCopies;

  constructor(private readonly options: SimDriverOptions) {
    this.copies = new SimCopies(options.db, options.now, options.copyGbPerSecond);
  }

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
    const source = spec.cloneFrom ? await this.machine(spec.cloneFrom.instanceId) : undefined;
    if (spec.cloneFrom && (!source || source.state === 'deleted' || source.state === 'deleting')) throw new DriverError('源实例的磁盘已不存在，无法克隆', false);
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
        command: spec.command ?? null,
        fileStorage: spec.fileStorage ?? null,
        datasets: [...(spec.datasets ?? [])],
        // A fresh data disk holds a little already (caches, the user's first files): 1–5 GB; a clone's holds what its source's did.
        dataDiskUsedGb: source && spec.cloneFrom?.copyData ? source.dataDiskUsedGb : randomInt(1, 6),
        updatedAt: this.options.now(),
      })
      .onConflictDoNothing();
  }

  /** The store and datasets asked for are recorded (nothing to mount in a simulation) for the run this start begins. */
  async start(instanceId: string, gpuNum: number, mounts: MachineMounts): Promise<void> {
    const machine = await this.machine(instanceId);
    if (!machine || machine.state === 'deleted' || machine.state === 'deleting') throw new DriverError('容器不存在', false);
    await this.assertHostWorks(machine.hostId);
    if (machine.state !== 'stopped') return;
    await this.db
      .update(simMachines)
      .set({ state: 'starting', gpuNum, fileStorage: mounts.fileStorage, datasets: [...mounts.datasets], exitCode: null, readyAt: this.later(this.options.seconds.start), updatedAt: this.options.now() })
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

  /** The simulated gateway needs a host that answers; a machine not created yet gets the route when it is. */
  async exposePort(instanceId: string): Promise<void> {
    const machine = await this.machine(instanceId);
    if (!machine) return;
    if (machine.state === 'deleted' || machine.state === 'deleting') throw new DriverError('容器不存在', false);
    await this.assertHostWorks(machine.hostId);
  }

  async unexposePort(instanceId: string): Promise<void> {
    const machine = await this.machine(instanceId);
    if (!machine || machine.state === 'deleted') return;
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
          when 'stopping' then 'stopped' when 'deleting' then 'deleted' when 'reinstalling' then 'stopped' else ${simMachines.state} end`,
        runningSince: sql`case when ${simMachines.state} in ('creating', 'starting') then ${simMachines.readyAt} else ${simMachines.runningSince} end`,
        updatedAt: now,
      })
      .where(and(inArray(simMachines.instanceId, ids), lte(simMachines.readyAt, now), inArray(simMachines.state, Object.keys(SETTLES_TO))));
    await this.db.delete(simMachines).where(and(inArray(simMachines.instanceId, ids), eq(simMachines.state, 'deleted')));
    await this.endCommands(ids, now);

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
        image: machine.imageId,
        fileStorage: machine.fileStorage,
        ...(machine.state === 'running' ? { datasets: machine.datasets.map((dataset) => dataset.name) } : {}),
        ...(machine.state === 'stopped' && machine.exitCode !== null ? { exitCode: machine.exitCode } : {}),
      });
    }
    for (const id of ids) if (!observed.has(id)) observed.set(id, { state: 'absent' });
    return observed;
  }
  /** Machines whose command has run SIM_JOB_SECONDS end: stopped, with the command's exit code. */
  private async endCommands(ids: string[], now: Date): Promise<void> {
    const ended = await this.db
      .select({ instanceId: simMachines.instanceId, command: simMachines.command })
      .from(simMachines)
      .where(
        and(
          inArray(simMachines.instanceId, ids),
          eq(simMachines.state, 'running'),
          sql`${simMachines.command} is not null`,
          lte(simMachines.runningSince, new Date(now.getTime() - this.options.seconds.job * 1000)),
        ),
      );
    for (const machine of ended) {
      await this.db
        .update(simMachines)
        .set({ state: 'stopped', exitCode: simExitCode(machine.command ?? ''), runningSince: null, updatedAt: now })
        .where(and(eq(simMachines.instanceId, machine.instanceId), eq(simMachines.state, 'running')));
    }
  }

  /** What a simulated machine's main process printed: made up from its state, the same at every call. */
  async logs(instanceId: string, lines: number): Promise<string> {
    const machine = await this.machine(instanceId);
    if (!machine || machine.state === 'deleted') throw new DriverError('容器不存在', false);
    const [host] = await this.db.select({ fault: hosts.simFault, reason: hosts.simFaultReason }).from(hosts).where(eq(hosts.id, machine.hostId));
    if (host?.fault === 'unreachable') throw new DriverError(host.reason ?? '主机失联', true);
    // A machine that never came up printed nothing.
    if (machine.state === 'creating' || lines <= 0) return '';
    const output = [
      '[sim] sshd started',
      ...(machine.command !== null ? [`[sim] running: ${machine.command}`] : []),
      ...(machine.exitCode !== null ? [`[sim] exited with code ${machine.exitCode}`] : []),
    ];
    return `${output.slice(-lines).join('\n')}\n`;
  }

  async reinstall(instanceId: string, image: string, requestedAt: Date): Promise<void> {
    const machine = await this.machine(instanceId);
    if (!machine || machine.state === 'deleted' || machine.state === 'deleting') throw new DriverError('容器不存在', false);
    if (machine.imageId === image && (machine.state === 'reinstalling' || (machine.state === 'stopped' && machine.readyAt.getTime() > requestedAt.getTime()))) return;
    await this.assertHostWorks(machine.hostId);
    if (UUID_PATTERN.test(image)) {
      const [saved] = await this.db.select({ state: simImages.state }).from(simImages).where(eq(simImages.uid, image));
      if (saved?.state !== 'ready') throw new DriverError('镜像不存在或未保存完成', false);
    }
    // A machine still up is stopped first: its system disk is rebuilt either way, and it ends stopped.
    await this.db
      .update(simMachines)
      .set({ state: 'reinstalling', imageId: image, runningSince: null, exitCode: null, readyAt: this.later(this.options.seconds.reinstall), updatedAt: this.options.now() })
      .where(eq(simMachines.instanceId, instanceId));
  }

  /** The size of what a machine's system disk was built from: a saved image's, or the public image's. */
  private async baseImageSizeGb(image: string): Promise<number> {
    if (UUID_PATTERN.test(image)) {
      const [saved] = await this.db.select({ sizeGb: simImages.sizeGb }).from(simImages).where(eq(simImages.uid, image));
      if (saved) return saved.sizeGb;
    }
    const [known] = await this.db.select({ sizeGb: publicImages.sizeGb }).from(publicImages).where(eq(publicImages.id, image));
    return known?.sizeGb ?? 10;
  }

  async saveImage(instanceId: string, imageUid: string): Promise<void> {
    const [existing] = await this.db.select({ uid: simImages.uid }).from(simImages).where(eq(simImages.uid, imageUid));
    if (existing) return;
    const machine = await this.machine(instanceId);
    if (!machine || machine.state === 'deleted' || machine.state === 'deleting') throw new DriverError('容器不存在', false);
    if (machine.state !== 'stopped') throw new DriverError('实例未关机，无法保存镜像', false);
    await this.assertHostWorks(machine.hostId);
    const sizeGb = Math.round(((await this.baseImageSizeGb(machine.imageId)) + savedImageGrowthGb(imageUid)) * 10) / 10;
    await this.db
      .insert(simImages)
      .values({ uid: imageUid, instanceId, state: 'saving', sizeGb, readyAt: this.later(this.options.seconds.saveImage), updatedAt: this.options.now() })
      .onConflictDoNothing();
  }

  async observeImages(imageUids: readonly string[]): Promise<Map<string, ObservedImage>> {
    const observed = new Map<string, ObservedImage>();
    if (imageUids.length === 0) return observed;
    const uids = [...imageUids];
    const now = this.options.now();
    // A save whose machine's host fails is lost; one whose time has come is in the registry.
    await this.db
      .update(simImages)
      .set({ state: 'failed', updatedAt: now })
      .where(
        and(
          inArray(simImages.uid, uids),
          eq(simImages.state, 'saving'),
          sql`exists (select 1 from ${simMachines} join ${hosts} on ${hosts.id} = ${simMachines.hostId}
            where ${simMachines.instanceId} = ${simImages.instanceId} and ${hosts.simFault} = 'error')`,
        ),
      );
    await this.db
      .update(simImages)
      .set({ state: 'ready', updatedAt: now })
      .where(and(inArray(simImages.uid, uids), eq(simImages.state, 'saving'), lte(simImages.readyAt, now)));
    const rows = await this.db.select().from(simImages).where(inArray(simImages.uid, uids));
    for (const row of rows) {
      const state = row.state as ImageState;
      if (state === 'ready') observed.set(row.uid, { state, sizeGb: row.sizeGb });
      else if (state === 'failed') observed.set(row.uid, { state, reason: '主机故障，镜像未能保存' });
      else observed.set(row.uid, { state });
    }
    for (const uid of uids) if (!observed.has(uid)) observed.set(uid, { state: 'absent' });
    return observed;
  }

  async resizeDataDisk(instanceId: string, sizeGb: number): Promise<void> {
    const machine = await this.machine(instanceId);
    if (!machine || machine.state === 'deleted' || machine.state === 'deleting') throw new DriverError('容器不存在', false);
    if (machine.dataDiskGb === sizeGb) return;
    await this.assertHostWorks(machine.hostId);
    const shrinking = sizeGb < machine.dataDiskGb;
    // One conditional update: a shrink never lands on a running machine nor below what is used.
    const resized = await this.db
      .update(simMachines)
      .set({ dataDiskGb: sizeGb, updatedAt: this.options.now() })
      .where(
        and(
          eq(simMachines.instanceId, instanceId),
          sql`${simMachines.dataDiskUsedGb} <= ${sizeGb}`,
          ...(shrinking ? [eq(simMachines.state, 'stopped')] : []),
        ),
      )
      .returning({ instanceId: simMachines.instanceId });
    if (resized.length > 0) return;
    const now = await this.machine(instanceId);
    if (!now) throw new DriverError('容器不存在', false);
    if (now.dataDiskUsedGb > sizeGb) throw new DriverError(`数据盘已使用 ${now.dataDiskUsedGb} GB，不能缩容到 ${sizeGb} GB`, false);
    throw new DriverError('实例未关机，不能缩容数据盘', false);
  }

  async dataDiskUsage(instanceIds: readonly string[]): Promise<Map<string, number>> {
    const usage = new Map<string, number>();
    if (instanceIds.length === 0) return usage;
    const rows = await this.db
      .select({ instanceId: simMachines.instanceId, usedGb: simMachines.dataDiskUsedGb })
      .from(simMachines)
      .where(and(inArray(simMachines.instanceId, [...instanceIds]), sql`${simMachines.state} <> 'deleted'`));
    for (const row of rows) usage.set(row.instanceId, row.usedGb);
    return usage;
  }

  async deleteImage(imageUid: string): Promise<void> {
    await this.db.delete(simImages).where(eq(simImages.uid, imageUid));
  }

  async copyData(taskUid: string, fromInstanceId: string, toInstanceId: string, path: string): Promise<void> {
    await this.copies.start(taskUid, fromInstanceId, toInstanceId, path);
  }

  async observeCopies(taskUids: readonly string[]): Promise<Map<string, ObservedCopy>> {
    return this.copies.observe(taskUids);
  }

  async cancelCopy(taskUid: string): Promise<void> {
    await this.copies.cancel(taskUid);
  }
}
