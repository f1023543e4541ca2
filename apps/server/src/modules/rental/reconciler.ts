import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { isPrivateImageId, USAGE_CHARGING_RULE_ID, type GpuMode, type InstanceOperation } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Transaction } from '../../db/client.js';
import { recordInstanceEvents } from './events.js';
import { gpuModels, hosts, instances, privateImages, publicImages } from '../../db/schema/index.js';
import { settleRun, type InstanceRow } from './metering.js';
import { openRootPassword } from './password.js';
import { hourlyRateFen } from './pricing.js';
import { priceSourceOf } from './views.js';
import { authorizedKeysByCreator } from '../ssh-keys/repository.js';
import { DriverError, type MachineMounts, type MachineSpec, type ObservedImage, type ObservedMachine } from '../../compute/driver.js';
import { gpusKeptWhenOff, RUNNING_STATUSES } from './state-machine.js';
import { beginRelease, OPERATIONS } from './lifecycle.js';
import { fileStorageFor, liveFileStorageKeys } from './file-storage.js';
import { datasetCatalogue, datasetMountsFor, type DatasetCatalogue } from '../datasets/mounts.js';

export interface ReconcilerOptions {
  /** Instances taken per pass. */
  batch: number;
  /** How long a process holds an instance it works on before another may take it over. */
  leaseSeconds: number;
  /** An operation still not done after this long fails (the instance shows why). */
  operationTimeoutSeconds: number;
}

const DEFAULTS: ReconcilerOptions = { batch: 50, leaseSeconds: 30, operationTimeoutSeconds: 15 * 60 };

/** What a pass reads once for every instance it claimed: the creators' SSH keys, the owners' live 文件存储. */
interface PassContext {
  keysByCreator: ReadonlyMap<number, string[]>;
  /** Keys (`<ownerId>/<zoneId>`) of the live stores of the owners whose machines this pass creates or starts. */
  fileStorages: ReadonlySet<string>;
  /** The datasets those machines may mount (public ones and the shared ones they named). */
  datasets: DatasetCatalogue;
}

type Outcome =
  | { kind: 'done'; observed: ObservedMachine; image?: ObservedImage }
  | { kind: 'wait'; retryInSeconds: number }
  | { kind: 'failed'; reason: string; unreachable: boolean };

/** A reset to another image than the instance runs is a switch (更换镜像): same operation, its own event. */
function isImageSwitch(instance: InstanceRow): boolean {
  return instance.operation === 'reset' && instance.operationArg !== null && instance.operationArg !== instance.imageId;
}

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
    // The 文件存储 of every machine this pass creates or starts, in one query: a start mounts the store its owner has now.
    const starting = claimed.filter((instance) => instance.operation === 'create' || instance.operation === 'power_on');
    const mounts = this.deps.compute.driver.mountsFileStorage;
    const fileStorages = mounts ? await liveFileStorageKeys(this.db, starting) : new Set<string>();
    const datasets = mounts && starting.length > 0 ? await datasetCatalogue(this.db, starting) : { publicMounts: [], shared: new Map() };
    const context: PassContext = { keysByCreator, fileStorages, datasets };
    let finished = 0;
    for (const instance of claimed) {
      if (await this.drive(instance, context)) finished += 1;
    }
    return finished;
  }

  private async specOf(instance: InstanceRow, authorizedKeys: string[], mounts: MachineMounts): Promise<MachineSpec> {
    const [host] = await this.db.select({ cpuPerGpu: hosts.cpuPerGpu, memoryGbPerGpu: hosts.memoryGbPerGpu }).from(hosts).where(eq(hosts.id, instance.hostId));
    const gpuNum = instance.operationMode === 'nogpu' ? 0 : instance.gpuNum;
    return {
      instanceId: instance.instanceId,
      hostId: instance.hostId,
      gpuNum,
      // A private image is known to the driver by its uid.
      imageId: (await this.imageRefOf(instance.imageId)) ?? instance.imageId,
      cpuCores: (host?.cpuPerGpu ?? 1) * instance.gpuNum,
      memoryGb: (host?.memoryGbPerGpu ?? 1) * instance.gpuNum,
      dataDiskGb: instance.dataDiskGb,
      rootPassword: openRootPassword(this.deps.config.jwtSecret, instance.rootPasswordEnc),
      authorizedKeys,
      ...mounts,
      ...(instance.deploymentRowId !== null ? { command: instance.command, env: instance.env ?? {} } : {}),
      ...(instance.cloneSourceRowId ? { cloneFrom: { instanceId: await this.instanceIdOf(instance.cloneSourceRowId), copyData: instance.cloneCopyData } } : {}),
    };
  }

  /**
   * What the driver knows an image by: a public image by its id, a private one by its uid (the key
   * `saveImage` stored it under). Deleted private images still resolve: the registry then refuses.
   */
  private async imageRefOf(imageId: string): Promise<string | null> {
    if (!isPrivateImageId(imageId)) return imageId;
    const [image] = await this.db.select({ uid: privateImages.uid }).from(privateImages).where(eq(privateImages.imageId, imageId));
    return image?.uid ?? null;
  }

  private async instanceIdOf(rowId: number): Promise<string> {
    const [row] = await this.db.select({ instanceId: instances.instanceId }).from(instances).where(eq(instances.id, rowId));
    return row?.instanceId ?? '';
  }

  /**
   * A move (clone with `releaseSource`) ran: the source is released now, as a user's release would,
   * if it is still off and idle; otherwise it stays and its events say why.
   */
  private async releaseCloneSource(tx: Transaction, clone: InstanceRow): Promise<void> {
    if (!clone.cloneSourceRowId) return;
    const [source] = await tx.select().from(instances).where(eq(instances.id, clone.cloneSourceRowId)).for('update');
    if (!source || source.releasedAt) return;
    const now = this.deps.now();
    if (!['PoweredOff', 'Error'].includes(source.status) || source.operation !== null) {
      await this.event(tx, source, 'RELEASE', source.status, `迁移到实例 ${clone.instanceId} 已完成，但本实例状态已变化，未自动释放`);
      return;
    }
    await beginRelease(tx, [source], now, { detail: `已迁移到实例 ${clone.instanceId}，释放原实例，系统盘与数据盘数据将被删除`, actorId: null });
  }

  /** Asks the driver for the operation (again: it is idempotent) and looks at where the machine is. */
  private async attempt(instance: InstanceRow, context: PassContext): Promise<Outcome> {
    const operation = instance.operation as InstanceOperation;
    const driver = this.deps.compute.driver;
    // Reset rebuilds from an image and save_image writes one: both need the driver's name for it.
    const imageRef = operation === 'reset' || operation === 'save_image' ? await this.imageRefOf(instance.operationArg ?? '') : null;
    if ((operation === 'reset' || operation === 'save_image') && imageRef === null) return { kind: 'failed', reason: '镜像不存在', unreachable: false };
    try {
      if (operation === 'create' || operation === 'power_on') {
        const mounts: MachineMounts = { fileStorage: fileStorageFor(instance, context.fileStorages), datasets: datasetMountsFor(instance, context.datasets) };
        // Recorded before the machine is asked: a snapshot a machine may have is never cleaned up.
        const sources = mounts.datasets.map((mount) => mount.source);
        if (sources.join('\n') !== instance.datasetSources.join('\n')) {
          await this.db.update(instances).set({ datasetSources: sources }).where(eq(instances.id, instance.id));
        }
        if (operation === 'create') await driver.create(await this.specOf(instance, context.keysByCreator.get(instance.creatorId) ?? [], mounts));
        else await driver.start(instance.instanceId, instance.operationMode === 'nogpu' ? 0 : instance.gpuNum, mounts);
      }
      if (operation === 'power_off') await driver.stop(instance.instanceId);
      if (operation === 'release') await driver.destroy(instance.instanceId);
      if (operation === 'reset' && imageRef) await driver.reinstall(instance.instanceId, imageRef, instance.operationStartedAt ?? this.deps.now());
      if (operation === 'save_image' && imageRef) await driver.saveImage(instance.instanceId, imageRef);
    } catch (error) {
      if (!(error instanceof DriverError)) throw error;
      if (!error.retryable) return { kind: 'failed', reason: error.message, unreachable: false };
      return this.timedOut(instance) ? { kind: 'failed', reason: error.message, unreachable: true } : { kind: 'wait', retryInSeconds: this.backoff(instance) };
    }
    if (operation === 'save_image' && imageRef) return this.imageOutcome(instance, imageRef);
    const observed = (await driver.observe([instance.instanceId])).get(instance.instanceId) ?? { state: 'absent' };
    const target = OPERATIONS[operation].machineTarget;
    // A reset is done once the machine is stopped on the image asked for (it reports reinstalling until then).
    if (observed.state === target && (operation !== 'reset' || observed.image === imageRef)) return { kind: 'done', observed };
    if (observed.state === 'error') return { kind: 'failed', reason: observed.reason ?? '主机故障', unreachable: false };
    if (observed.state === 'absent' && operation !== 'create') return { kind: 'failed', reason: '容器已不存在', unreachable: false };
    if (this.timedOut(instance)) {
      const unreachable = observed.state === 'unreachable';
      return { kind: 'failed', reason: unreachable ? (observed.reason ?? '主机失联') : '操作超时', unreachable };
    }
    return { kind: 'wait', retryInSeconds: 1 };
  }

  /** Where a save stands: ready is done (with the size), failed or lost fails, saving waits. */
  private async imageOutcome(instance: InstanceRow, imageUid: string): Promise<Outcome> {
    const image = (await this.deps.compute.driver.observeImages([imageUid])).get(imageUid) ?? { state: 'absent' };
    if (image.state === 'ready') return { kind: 'done', observed: { state: 'stopped' }, image };
    if (image.state === 'failed') return { kind: 'failed', reason: image.reason ?? '镜像保存失败', unreachable: false };
    if (image.state === 'absent') return { kind: 'failed', reason: '镜像保存失败：镜像仓库中没有该镜像', unreachable: false };
    if (this.timedOut(instance)) return { kind: 'failed', reason: '操作超时', unreachable: false };
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
  private async drive(claimed: InstanceRow, context: PassContext): Promise<boolean> {
    const outcome = await this.attempt(claimed, context);
    const ended = await this.db.transaction(async (tx) => {
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
      else await this.complete(tx, instance, outcome.observed, outcome.image);
      return true;
    });
    if (ended && claimed.operation && claimed.operationStartedAt) {
      const seconds = Math.max(0, (this.deps.now().getTime() - claimed.operationStartedAt.getTime()) / 1000);
      this.deps.telemetry.operationDuration.observe({ operation: claimed.operation, outcome: outcome.kind }, seconds);
    }
    return ended;
  }

  private async event(tx: Transaction, instance: InstanceRow, type: string, toStatus: string | null, detail: string): Promise<void> {
    await recordInstanceEvents(tx, [{ instanceRowId: instance.id, type, fromStatus: instance.status, toStatus, detail, actorId: null }], this.deps.now());
  }

  /** How the instance list names an image: a public image's name, a private image's name, else its id. */
  private async imageNameOf(tx: Transaction, imageId: string): Promise<string> {
    if (isPrivateImageId(imageId)) {
      const [image] = await tx.select({ name: privateImages.name }).from(privateImages).where(eq(privateImages.imageId, imageId));
      return image?.name ?? imageId;
    }
    const [image] = await tx.select({ name: publicImages.name }).from(publicImages).where(eq(publicImages.id, imageId));
    return image?.name ?? imageId;
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

  private async complete(tx: Transaction, instance: InstanceRow, observed: ObservedMachine, image?: ObservedImage): Promise<void> {
    const operation = instance.operation as InstanceOperation;
    const now = this.deps.now();
    const cleared = { operation: null, operationMode: null, operationArg: null, operationStartedAt: null, operationAttempts: 0, operationLeaseUntil: null, updatedAt: now };
    if (operation === 'reset') {
      // From Error the machine may still hold GPUs: it ends stopped, so they go as at a power-off.
      const kept = gpusKeptWhenOff(instance);
      await this.returnToHost(tx, instance, { gpus: instance.gpuHeld - kept, diskGb: 0 });
      const imageId = instance.operationArg ?? instance.imageId;
      await tx
        .update(instances)
        .set({ ...cleared, status: 'PoweredOff', imageId, gpuHeld: kept, poweredOffAt: instance.poweredOffAt ?? now, statusReason: null })
        .where(eq(instances.id, instance.id));
      const detail = isImageSwitch(instance) ? `更换镜像完成：系统盘已按「${await this.imageNameOf(tx, imageId)}」重建，数据盘保留` : OPERATIONS.reset.doneText;
      await this.event(tx, instance, isImageSwitch(instance) ? 'SWITCH_IMAGE' : 'RESET_SYSTEM', 'PoweredOff', detail);
      return;
    }
    if (operation === 'save_image') {
      const sizeGb = image?.sizeGb ?? 0;
      const [saved] = await tx
        .update(privateImages)
        .set({ status: 'ready', sizeGb, statusReason: null, updatedAt: now })
        .where(and(eq(privateImages.imageId, instance.operationArg ?? ''), eq(privateImages.status, 'saving')))
        .returning({ name: privateImages.name });
      await tx.update(instances).set(cleared).where(eq(instances.id, instance.id));
      await this.event(tx, instance, 'SAVE_IMAGE', instance.status, `${OPERATIONS.save_image.doneText}：${saved?.name ?? instance.operationArg ?? ''}（${sizeGb} GB）`);
      return;
    }
    if (operation === 'create' || operation === 'power_on') {
      const mode: GpuMode = instance.operationMode === 'nogpu' ? 'nogpu' : 'gpu';
      const status = OPERATIONS[operation].statusAfter(mode);
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
          firstRunAt: instance.firstRunAt ?? observed.runningSince ?? now,
          runRateFen: await this.runRate(tx, instance, mode),
          runChargedFen: 0,
          sshHost: observed.ssh?.host ?? instance.sshHost,
          sshPort: observed.ssh?.port ?? instance.sshPort,
          // What the machine's run has, as the driver sees it (a store initialised after this start asked, or a driver that mounts none: not mounted).
          fileStorageMounted: Boolean(observed.fileStorage),
          poweredOffAt: null,
          statusReason: null,
        })
        .where(eq(instances.id, instance.id));
      await this.event(tx, instance, OPERATIONS[operation].event, status, mode === 'nogpu' ? `${OPERATIONS[operation].doneText}（无卡模式）` : OPERATIONS[operation].doneText);
      if (operation === 'create' && instance.cloneReleasesSource) await this.releaseCloneSource(tx, instance);
      return;
    }
    if (operation === 'power_off') {
      const kept = gpusKeptWhenOff(instance);
      await this.returnToHost(tx, instance, { gpus: instance.gpuHeld - kept, diskGb: 0 });
      await tx
        .update(instances)
        .set({ ...cleared, status: 'PoweredOff', gpuHeld: kept, poweredOffAt: now })
        .where(eq(instances.id, instance.id));
      await this.event(tx, instance, instance.statusReason ? 'ARREARS_POWER_OFF' : 'POWER_OFF', 'PoweredOff', instance.statusReason ?? OPERATIONS.power_off.doneText);
      return;
    }
    await this.returnToHost(tx, instance, { gpus: instance.gpuHeld, diskGb: instance.dataDiskGb });
    await tx
      .update(instances)
      .set({ ...cleared, gpuHeld: 0, releasedAt: now })
      .where(eq(instances.id, instance.id));
    await this.event(tx, instance, 'RELEASE', instance.status, OPERATIONS.release.doneText);
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
    // A save that failed leaves a sound stopped machine: only the image failed.
    const saveFailed = operation === 'save_image';
    const status = unreachable ? 'OutOfConnection' : saveFailed ? 'PoweredOff' : 'Error';
    const failedText = `${isImageSwitch(instance) ? '更换镜像失败' : OPERATIONS[operation].failedText}：${reason}`;
    if (saveFailed) {
      await tx
        .update(privateImages)
        .set({ status: 'failed', statusReason: reason, updatedAt: now })
        .where(and(eq(privateImages.imageId, instance.operationArg ?? ''), eq(privateImages.status, 'saving')));
    }
    await tx
      .update(instances)
      .set({
        status,
        statusReason: saveFailed ? failedText : reason,
        gpuHeld: startFailed ? 0 : instance.gpuHeld,
        operation: null,
        operationMode: null,
        operationArg: null,
        operationStartedAt: null,
        operationAttempts: 0,
        operationLeaseUntil: null,
        updatedAt: now,
      })
      .where(eq(instances.id, instance.id));
    await this.event(tx, instance, isImageSwitch(instance) ? 'SWITCH_IMAGE' : OPERATIONS[operation].event, status, failedText);
  }

  /**
   * Looks at running (and unreachable) instances without an operation: a machine that failed, became
   * unreachable or stopped by itself ends its metered run now; one that is reachable and running
   * again after OutOfConnection starts a new run. Returns how many changed.
   */
  async watch(batch = 500, only: 'all' | 'elastic' = 'all'): Promise<number> {
    let changed = 0;
    // Every watched instance, a batch at a time in id order (one observe call per batch).
    for (let afterId = 0; ; ) {
      const watched = await this.db
        .select()
        .from(instances)
        .where(
          and(
            gt(instances.id, afterId),
            only === 'elastic' ? isNotNull(instances.deploymentRowId) : undefined,
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
            .set({ status: OPERATIONS.power_on.statusAfter(mode) ?? 'PoweredOn', statusReason: null, runStartedAt: now, runRateFen: await this.runRate(tx, instance, mode), runChargedFen: 0, updatedAt: now })
            .where(eq(instances.id, instance.id));
          await this.event(tx, instance, 'POWER_ON', OPERATIONS.power_on.statusAfter(mode), '主机恢复连接，实例继续运行并重新开始计费');
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
        const exited = machine.state === 'stopped' && machine.exitCode !== undefined;
        const reason = machine.state === 'absent' ? '容器已不存在' : exited ? `容器命令已退出（退出码 ${machine.exitCode}）` : '实例已自行停止';
        await tx
          .update(instances)
          .set({
            status: machine.state === 'absent' ? 'Error' : 'PoweredOff',
            statusReason: reason,
            gpuHeld: kept,
            poweredOffAt: now,
            ...(exited ? { exitCode: machine.exitCode } : {}),
            updatedAt: now,
          })
          .where(eq(instances.id, instance.id));
        await this.event(tx, instance, 'POWER_OFF', machine.state === 'absent' ? 'Error' : 'PoweredOff', reason);
        return true;
      });
      if (moved) changed += 1;
    }
    return changed;
  }
}
