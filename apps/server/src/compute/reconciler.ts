import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { USAGE_CHARGING_RULE_ID, type GpuMode, type InstanceOperation } from '@slg/shared';
import type { AppDeps } from '../deps.js';
import type { Transaction } from '../db/client.js';
import { gpuModels, hosts, instanceEvents, instances } from '../db/schema/index.js';
import { settleRun, type InstanceRow } from '../modules/rental/metering.js';
import { openRootPassword } from '../modules/rental/password.js';
import { hourlyRateFen } from '../modules/rental/pricing.js';
import { priceSourceOf } from '../modules/rental/views.js';
import { authorizedKeysByCreator } from '../modules/ssh-keys/repository.js';
import { DriverError, type MachineSpec, type ObservedMachine } from './driver.js';
import { gpusKeptWhenOff, RUNNING_STATUSES, statusAfter } from './state-machine.js';

export interface ReconcilerOptions {
  /** Instances taken per pass. */
  batch: number;
  /** How long a process holds an instance it works on before another may take it over. */
  leaseSeconds: number;
  /** An operation still not done after this long fails (the instance shows why). */
  operationTimeoutSeconds: number;
}

const DEFAULTS: ReconcilerOptions = { batch: 50, leaseSeconds: 30, operationTimeoutSeconds: 15 * 60 };

/** What the machine must be doing for each operation to be done. */
const TARGET_STATE = { create: 'running', power_on: 'running', power_off: 'stopped', release: 'absent' } as const;

const EVENT_OF: Record<InstanceOperation, string> = { create: 'CREATE', power_on: 'POWER_ON', power_off: 'POWER_OFF', release: 'RELEASE' };
const DONE_TEXT: Record<InstanceOperation, string> = {
  create: '创建完成，开始按量计费',
  power_on: '开机完成，开始计费',
  power_off: '关机完成',
  release: '释放完成，数据已删除',
};

type Outcome = { kind: 'done'; observed: ObservedMachine } | { kind: 'wait'; retryInSeconds: number } | { kind: 'failed'; reason: string; unreachable: boolean };

/**
 * Brings the machines to what the database wants (DESIGN §7). Each pass claims instances with an
 * operation (a lease taken by one conditional UPDATE … FOR UPDATE SKIP LOCKED, so several processes
 * never work on one instance and a crashed process's claims lapse), calls the driver — every call
 * idempotent — observes, and commits the transition once the machine got there. After a restart the
 * next pass simply continues: nothing stays half-done. It also watches running instances, so a host
 * that fails stops their billing.
 */
export class Reconciler {
  private readonly options: ReconcilerOptions;

  constructor(
    private readonly deps: AppDeps,
    options: Partial<ReconcilerOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  private get db() {
    return this.deps.database.db;
  }

  private secondsFromNow(seconds: number): Date {
    return new Date(this.deps.now().getTime() + seconds * 1000);
  }

  /** One pass over instances with an operation; returns how many finished (done or failed). */
  async tick(): Promise<number> {
    const now = this.deps.now();
    const due = this.db
      .select({ id: instances.id })
      .from(instances)
      .where(and(isNotNull(instances.operation), or(isNull(instances.operationLeaseUntil), lt(instances.operationLeaseUntil, now))))
      .orderBy(asc(instances.operationStartedAt))
      .limit(this.options.batch)
      .for('update', { skipLocked: true });
    const claimed = await this.db
      .update(instances)
      .set({ operationLeaseUntil: this.secondsFromNow(this.options.leaseSeconds), operationAttempts: sql`${instances.operationAttempts} + 1` })
      .where(inArray(instances.id, due))
      .returning();
    // The SSH keys of every creator whose machine this pass creates, in one query: a machine gets the keys its creator has now.
    const keysByCreator = await authorizedKeysByCreator(
      this.db,
      claimed.filter((instance) => instance.operation === 'create').map((instance) => instance.creatorId),
    );
    let finished = 0;
    for (const instance of claimed) {
      if (await this.drive(instance, keysByCreator)) finished += 1;
    }
    return finished;
  }

  private async specOf(instance: InstanceRow, authorizedKeys: string[]): Promise<MachineSpec> {
    const [host] = await this.db.select({ cpuPerGpu: hosts.cpuPerGpu, memoryGbPerGpu: hosts.memoryGbPerGpu }).from(hosts).where(eq(hosts.id, instance.hostId));
    const gpuNum = instance.operationMode === 'nogpu' ? 0 : instance.gpuNum;
    return {
      instanceId: instance.instanceId,
      hostId: instance.hostId,
      gpuNum,
      imageId: instance.imageId,
      cpuCores: (host?.cpuPerGpu ?? 1) * instance.gpuNum,
      memoryGb: (host?.memoryGbPerGpu ?? 1) * instance.gpuNum,
      dataDiskGb: instance.dataDiskGb,
      rootPassword: openRootPassword(this.deps.config.jwtSecret, instance.rootPasswordEnc),
      authorizedKeys,
    };
  }

  /** Asks the driver for the operation (again: it is idempotent) and looks at where the machine is. */
  private async attempt(instance: InstanceRow, keysByCreator: ReadonlyMap<number, string[]>): Promise<Outcome> {
    const operation = instance.operation as InstanceOperation;
    const driver = this.deps.compute.driver;
    try {
      if (operation === 'create') await driver.create(await this.specOf(instance, keysByCreator.get(instance.creatorId) ?? []));
      if (operation === 'power_on') await driver.start(instance.instanceId, instance.operationMode === 'nogpu' ? 0 : instance.gpuNum);
      if (operation === 'power_off') await driver.stop(instance.instanceId);
      if (operation === 'release') await driver.destroy(instance.instanceId);
    } catch (error) {
      if (!(error instanceof DriverError)) throw error;
      if (!error.retryable) return { kind: 'failed', reason: error.message, unreachable: false };
      return this.timedOut(instance) ? { kind: 'failed', reason: error.message, unreachable: true } : { kind: 'wait', retryInSeconds: this.backoff(instance) };
    }
    const observed = (await driver.observe([instance.instanceId])).get(instance.instanceId) ?? { state: 'absent' };
    const target = TARGET_STATE[operation];
    if (observed.state === target) return { kind: 'done', observed };
    if (observed.state === 'error') return { kind: 'failed', reason: observed.reason ?? '主机故障', unreachable: false };
    if (observed.state === 'absent' && operation !== 'create') return { kind: 'failed', reason: '容器已不存在', unreachable: false };
    if (this.timedOut(instance)) {
      const unreachable = observed.state === 'unreachable';
      return { kind: 'failed', reason: unreachable ? (observed.reason ?? '主机失联') : '操作超时', unreachable };
    }
    return { kind: 'wait', retryInSeconds: 1 };
  }

  private timedOut(instance: InstanceRow): boolean {
    const started = instance.operationStartedAt?.getTime() ?? this.deps.now().getTime();
    return this.deps.now().getTime() - started > this.options.operationTimeoutSeconds * 1000;
  }

  private backoff(instance: InstanceRow): number {
    return Math.min(60, 2 ** Math.min(6, instance.operationAttempts));
  }

  /** Drives one claimed instance; returns whether its operation ended. */
  private async drive(claimed: InstanceRow, keysByCreator: ReadonlyMap<number, string[]>): Promise<boolean> {
    const outcome = await this.attempt(claimed, keysByCreator);
    return this.db.transaction(async (tx) => {
      // The instance, locked, still wanting what this pass worked on (a user may not change an
      // instance with an operation in flight, but the check costs nothing).
      const [instance] = await tx
        .select()
        .from(instances)
        .where(and(eq(instances.id, claimed.id), eq(instances.operation, claimed.operation ?? ''), eq(instances.operationStartedAt, claimed.operationStartedAt ?? new Date(0))))
        .for('update');
      if (!instance) return false;
      if (outcome.kind === 'wait') {
        await tx.update(instances).set({ operationLeaseUntil: this.secondsFromNow(outcome.retryInSeconds) }).where(eq(instances.id, instance.id));
        return false;
      }
      if (outcome.kind === 'failed') await this.fail(tx, instance, outcome.reason, outcome.unreachable);
      else await this.complete(tx, instance, outcome.observed);
      return true;
    });
  }

  private async event(tx: Transaction, instance: InstanceRow, type: string, toStatus: string | null, detail: string): Promise<void> {
    await tx.insert(instanceEvents).values({
      instanceRowId: instance.id,
      type,
      fromStatus: instance.status,
      toStatus,
      detail,
      actorId: null,
      createdAt: this.deps.now(),
    });
  }

  /** Gives an instance's GPUs (and, when released, its disk) back to its host. */
  private async returnToHost(tx: Transaction, instance: InstanceRow, options: { gpus: number; diskGb: number }): Promise<void> {
    if (options.gpus === 0 && options.diskGb === 0) return;
    await tx
      .update(hosts)
      .set({
        gpuAllocated: sql`${hosts.gpuAllocated} - ${options.gpus}`,
        dataDiskAllocatedGb: sql`${hosts.dataDiskAllocatedGb} - ${options.diskGb}`,
      })
      .where(eq(hosts.id, instance.hostId));
  }

  /** What a run costs per hour: nothing for a package (its time is prepaid), else the pay-as-you-go rate of the mode. */
  private async runRate(tx: Transaction, instance: InstanceRow, mode: GpuMode): Promise<number> {
    if (instance.chargingRuleId !== USAGE_CHARGING_RULE_ID) return 0;
    const [row] = await tx
      .select({ host: hosts, modelPrice: gpuModels.pricePerHourFen })
      .from(hosts)
      .innerJoin(gpuModels, eq(gpuModels.id, hosts.gpuModelId))
      .where(eq(hosts.id, instance.hostId));
    if (!row) throw new Error(`host ${instance.hostId} of ${instance.instanceId} is gone`);
    return hourlyRateFen(priceSourceOf(row.host, row.modelPrice), instance.gpuNum, mode, this.deps.config.compute.noGpuPriceFen);
  }

  private async complete(tx: Transaction, instance: InstanceRow, observed: ObservedMachine): Promise<void> {
    const operation = instance.operation as InstanceOperation;
    const now = this.deps.now();
    const cleared = { operation: null, operationMode: null, operationStartedAt: null, operationAttempts: 0, operationLeaseUntil: null, updatedAt: now };
    if (operation === 'create' || operation === 'power_on') {
      const mode: GpuMode = instance.operationMode === 'nogpu' ? 'nogpu' : 'gpu';
      const status = statusAfter(operation, mode);
      if (mode === 'nogpu' && instance.gpuHeld > 0) {
        // No-GPU mode needs none of them: a pay-as-you-go instance gives them back.
        await this.returnToHost(tx, instance, { gpus: instance.gpuHeld, diskGb: 0 });
      }
      await tx
        .update(instances)
        .set({
          ...cleared,
          status: status ?? instance.status,
          gpuMode: mode,
          gpuHeld: mode === 'nogpu' ? 0 : instance.gpuHeld,
          // Billing starts when the machine runs, never while it was being created.
          runStartedAt: observed.runningSince ?? now,
          runRateFen: await this.runRate(tx, instance, mode),
          runChargedFen: 0,
          sshHost: observed.ssh?.host ?? instance.sshHost,
          sshPort: observed.ssh?.port ?? instance.sshPort,
          poweredOffAt: null,
          statusReason: null,
        })
        .where(eq(instances.id, instance.id));
      await this.event(tx, instance, EVENT_OF[operation], status, mode === 'nogpu' ? `${DONE_TEXT[operation]}（无卡模式）` : DONE_TEXT[operation]);
      return;
    }
    if (operation === 'power_off') {
      const kept = gpusKeptWhenOff(instance);
      await this.returnToHost(tx, instance, { gpus: instance.gpuHeld - kept, diskGb: 0 });
      await tx
        .update(instances)
        .set({ ...cleared, status: 'PoweredOff', gpuHeld: kept, poweredOffAt: now })
        .where(eq(instances.id, instance.id));
      await this.event(tx, instance, instance.statusReason ? 'ARREARS_POWER_OFF' : 'POWER_OFF', 'PoweredOff', instance.statusReason ?? DONE_TEXT.power_off);
      return;
    }
    await this.returnToHost(tx, instance, { gpus: instance.gpuHeld, diskGb: instance.dataDiskGb });
    await tx
      .update(instances)
      .set({ ...cleared, gpuHeld: 0, releasedAt: now })
      .where(eq(instances.id, instance.id));
    await this.event(tx, instance, 'RELEASE', instance.status, DONE_TEXT.release);
  }

  /**
   * An operation that cannot complete: the instance shows Error (or OutOfConnection) with the reason.
   * Its billing is closed; GPUs of a machine that never came up go back to the host.
   */
  private async fail(tx: Transaction, instance: InstanceRow, reason: string, unreachable: boolean): Promise<void> {
    const operation = instance.operation as InstanceOperation;
    const now = this.deps.now();
    await settleRun(tx, instance, now, { close: true });
    const startFailed = operation === 'create' || operation === 'power_on';
    if (startFailed) await this.returnToHost(tx, instance, { gpus: instance.gpuHeld, diskGb: 0 });
    const status = unreachable ? 'OutOfConnection' : 'Error';
    await tx
      .update(instances)
      .set({
        status,
        statusReason: reason,
        gpuHeld: startFailed ? 0 : instance.gpuHeld,
        operation: null,
        operationMode: null,
        operationStartedAt: null,
        operationAttempts: 0,
        operationLeaseUntil: null,
        updatedAt: now,
      })
      .where(eq(instances.id, instance.id));
    await this.event(tx, instance, EVENT_OF[operation], status, `${DONE_TEXT[operation].slice(0, 2)}失败：${reason}`);
  }

  /**
   * Looks at running (and unreachable) instances without an operation: a machine that failed, became
   * unreachable or stopped by itself ends its metered run now; one that is reachable and running
   * again after OutOfConnection starts a new run. Returns how many changed.
   */
  async watch(batch = 500): Promise<number> {
    let changed = 0;
    // Every watched instance, a batch at a time in id order (one observe call per batch).
    for (let afterId = 0; ; ) {
      const watched = await this.db
        .select()
        .from(instances)
        .where(
          and(
            gt(instances.id, afterId),
            isNull(instances.operation),
            isNull(instances.releasedAt),
            inArray(instances.status, [...RUNNING_STATUSES, 'OutOfConnection']),
          ),
        )
        .orderBy(asc(instances.id))
        .limit(batch);
      if (watched.length === 0) return changed;
      changed += await this.watchBatch(watched);
      afterId = watched[watched.length - 1]?.id ?? afterId;
      if (watched.length < batch) return changed;
    }
  }

  private async watchBatch(watched: InstanceRow[]): Promise<number> {
    const observed = await this.deps.compute.driver.observe(watched.map((instance) => instance.instanceId));
    let changed = 0;
    for (const seen of watched) {
      const machine = observed.get(seen.instanceId) ?? { state: 'absent' as const };
      const running = (RUNNING_STATUSES as readonly string[]).includes(seen.status);
      if (running && machine.state === 'running') continue;
      // Unreachable still, or on its way somewhere: look again next time.
      if (!running && !['running', 'stopped', 'error', 'absent'].includes(machine.state)) continue;
      const moved = await this.db.transaction(async (tx) => {
        const [instance] = await tx
          .select()
          .from(instances)
          .where(and(eq(instances.id, seen.id), eq(instances.status, seen.status), isNull(instances.operation)))
          .for('update');
        if (!instance) return false;
        const now = this.deps.now();
        if (!running && machine.state !== 'running') {
          // The host answers again and the machine is not running: it is off (GPUs back to the
          // host) or broken, and the user can act on it again.
          const stopped = machine.state === 'stopped';
          const reason = stopped ? '主机恢复连接，实例已关机' : machine.state === 'absent' ? '主机恢复连接，容器已不存在' : `主机恢复连接，${machine.reason ?? '实例故障'}`;
          const kept = gpusKeptWhenOff(instance);
          await this.returnToHost(tx, instance, { gpus: instance.gpuHeld - kept, diskGb: 0 });
          await tx
            .update(instances)
            .set({ status: stopped ? 'PoweredOff' : 'Error', statusReason: reason, gpuHeld: kept, poweredOffAt: stopped ? now : instance.poweredOffAt, updatedAt: now })
            .where(eq(instances.id, instance.id));
          await this.event(tx, instance, 'POWER_OFF', stopped ? 'PoweredOff' : 'Error', reason);
          return true;
        }
        if (!running) {
          const mode: GpuMode = instance.gpuMode === 'nogpu' ? 'nogpu' : 'gpu';
          await tx
            .update(instances)
            .set({ status: statusAfter('power_on', mode) ?? 'PoweredOn', statusReason: null, runStartedAt: now, runRateFen: await this.runRate(tx, instance, mode), runChargedFen: 0, updatedAt: now })
            .where(eq(instances.id, instance.id));
          await this.event(tx, instance, 'POWER_ON', statusAfter('power_on', mode), '主机恢复连接，实例继续运行并重新开始计费');
          return true;
        }
        await settleRun(tx, instance, now, { close: true });
        if (machine.state === 'unreachable' || machine.state === 'error') {
          const status = machine.state === 'unreachable' ? 'OutOfConnection' : 'Error';
          const reason = `${machine.reason ?? (status === 'Error' ? '主机故障' : '主机失联')}，已停止计费`;
          await tx.update(instances).set({ status, statusReason: reason, updatedAt: now }).where(eq(instances.id, instance.id));
          await this.event(tx, instance, 'POWER_OFF', status, reason);
          return true;
        }
        // Stopped (or gone) without being asked: the run ends and the GPUs go back (a package keeps its own).
        const kept = gpusKeptWhenOff(instance);
        await this.returnToHost(tx, instance, { gpus: instance.gpuHeld - kept, diskGb: 0 });
        const reason = machine.state === 'absent' ? '容器已不存在' : '实例已自行停止';
        await tx
          .update(instances)
          .set({ status: machine.state === 'absent' ? 'Error' : 'PoweredOff', statusReason: reason, gpuHeld: kept, poweredOffAt: now, updatedAt: now })
          .where(eq(instances.id, instance.id));
        await this.event(tx, instance, 'POWER_OFF', machine.state === 'absent' ? 'Error' : 'PoweredOff', reason);
        return true;
      });
      if (moved) changed += 1;
    }
    return changed;
  }
}
