import { rentedBy } from './scope.js';
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { copyPathProblem, normalizeCopyPath } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import { copyTasks, instances, zones } from '../../db/schema/index.js';
import { ownedBy, ownershipFor } from '../../db/scope.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../core/errors.js';
import { DriverError, type ObservedCopy } from '../../compute/driver.js';
import { assertAllowed } from './state-machine.js';
import type { Principal } from '../../core/principal.js';
import { RentalService } from './service.js';

export type CopyStatus = 'running' | 'done' | 'failed' | 'cancelled';

export interface CopyTaskView {
  taskId: string;
  /** What the instance the list was asked for is in this copy (the source for the answer of a start). */
  role: 'source' | 'target';
  fromInstanceId: string;
  fromInstanceName: string;
  toInstanceId: string;
  toInstanceName: string;
  /** The other instance of the copy, seen from `role`. */
  peerInstanceId: string;
  peerInstanceName: string;
  path: string;
  status: CopyStatus;
  statusReason: string | null;
  /** 0–100; 100 only once done. */
  progress: number;
  totalGb: number;
  copiedGb: number;
  createdAt: string;
  finishedAt: string | null;
}

export interface CopyDataInput {
  fromInstanceId: string;
  toInstanceId: string;
  path: string;
}

/** Tasks the job observes per pass, oldest first. */
const OBSERVE_BATCH = 200;
/** Tasks `GET /rental/copy_data` lists per instance. */
export const COPY_HISTORY_LIMIT = 20;
/** A task the driver never started (the process died before asking) is asked again until it is this old. */
const START_RETRY_MS = 15 * 60_000;
/**
 * A cancelled task is observed this long after its cancel, and stopped again on the machines while they
 * still report it running: the driver may have failed when asked, or a start racing the cancel may
 * have reached the machines after it.
 */
const CANCEL_FOLLOW_MS = 6 * 3_600_000;
const CANCELLED_REASON = '已取消';
/** Why a task that already ended cannot be cancelled, by its status. */
const NOT_CANCELLABLE: Readonly<Record<string, string>> = {
  done: '拷贝任务已完成，无法取消（数据已全部拷贝到目标实例）',
  failed: '拷贝任务已失败结束，无需取消',
  cancelled: '拷贝任务已取消，请勿重复操作',
};

type TaskRow = typeof copyTasks.$inferSelect;
interface TaskWithEnds {
  task: TaskRow;
  fromInstanceId: string;
  fromInstanceName: string;
  toInstanceId: string;
  toInstanceName: string;
}

const fromInstance = alias(instances, 'copy_from');
const toInstance = alias(instances, 'copy_to');

/** Progress a running copy shows: below 100 until the platform has seen it done. */
function runningProgress(observed: ObservedCopy): number {
  if (observed.totalGb <= 0) return 0;
  return Math.min(99, Math.max(0, Math.floor((observed.copiedGb / observed.totalGb) * 100)));
}

/** Re-raises a state refusal about one end of the copy with that end named (`实例…` → `源实例…`). */
function namingEnd<T>(end: '源' | '目标', check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof AppError && error.message.startsWith('实例')) throw new AppError(error.codeName, `${end}${error.message}`);
    throw error;
  }
}

/**
 * 跨实例拷贝 (`POST /rental/copy_data`): a path of one instance's data disk copied to the same path on
 * another of the caller's instances in the same region, by the machines, disk to disk. The task row is
 * written first (a partial unique index lets one copy run into an instance at a time), then the driver
 * is asked after the commit; the `copy-data` job follows its progress until it is done or failed.
 * A cancel is decided by the row alone (running → cancelled, the same conditional update that ends a
 * task, so a cancel racing the end has exactly one winner), then the machines are told to stop; the
 * job tells them again while they report a cancelled task still running.
 */
export class CopyDataService {
  private readonly rental: RentalService;

  constructor(private readonly deps: AppDeps) {
    this.rental = new RentalService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  private get driver() {
    return this.deps.compute.driver;
  }

  async start(principal: Principal, input: CopyDataInput): Promise<CopyTaskView> {
    const problem = copyPathProblem(input.path);
    if (problem) throw new AppError('VALIDATION', problem);
    const path = normalizeCopyPath(input.path);
    if (input.fromInstanceId === input.toInstanceId) throw new AppError('VALIDATION', '源实例和目标实例不能是同一个实例');
    const task = await this.insertTask(principal, input, path);
    try {
      await this.driver.copyData(task.uid, input.fromInstanceId, input.toInstanceId, path);
    } catch (error) {
      if (!(error instanceof DriverError)) throw error;
      await this.finish(task.id, { state: 'failed', totalGb: 0, copiedGb: 0, reason: error.message });
      if (error.retryable) throw new AppError('SERVICE_UNAVAILABLE', `跨实例拷贝失败：${error.message}，请稍后再试`);
      throw new AppError('STATE_CONFLICT', `跨实例拷贝失败：${error.message}`);
    }
    // The size is known as soon as the machines started: the answer carries it.
    await this.refresh([await this.withEnds(task.id)]).catch(() => undefined);
    return this.toView(await this.withEnds(task.id), 'source');
  }

  /** Both instances locked in one statement (id order, so opposite copies never deadlock), checked, then the task written. */
  private async insertTask(principal: Principal, input: CopyDataInput, path: string): Promise<TaskRow> {
    try {
      return await this.db.transaction(async (tx) => {
        const locked = await tx
          .select()
          .from(instances)
          .where(and(rentedBy(principal), inArray(instances.instanceId, [input.fromInstanceId, input.toInstanceId]), isNull(instances.releasedAt)))
          .orderBy(asc(instances.id))
          .for('update');
        const source = locked.find((row) => row.instanceId === input.fromInstanceId);
        const target = locked.find((row) => row.instanceId === input.toInstanceId);
        if (!source) throw new AppError('NOT_FOUND', '源实例不存在');
        if (!target) throw new AppError('NOT_FOUND', '目标实例不存在');
        namingEnd('源', () => assertAllowed(source, 'copy_data'));
        namingEnd('目标', () => assertAllowed(target, 'copy_data'));
        if (source.zoneId !== target.zoneId) {
          const names = await tx.select({ id: zones.id, name: zones.name }).from(zones).where(inArray(zones.id, [source.zoneId, target.zoneId]));
          const nameOf = (zoneId: string) => names.find((zone) => zone.id === zoneId)?.name ?? zoneId;
          throw new AppError('VALIDATION', `不支持跨地区拷贝：源实例在${nameOf(source.zoneId)}，目标实例在${nameOf(target.zoneId)}，请选择同一地区的实例`);
        }
        // Data still arriving on the source would be copied half-written.
        const [incoming] = await tx
          .select({ id: copyTasks.id })
          .from(copyTasks)
          .where(and(eq(copyTasks.toInstanceRowId, source.id), eq(copyTasks.status, 'running')));
        if (incoming) throw new AppError('STATE_CONFLICT', '源实例正在接收其他实例拷贝来的数据，请等拷贝完成后再从它拷贝');
        // A move releases its source once the clone runs (clone.ts, under the source's lock like this).
        const [moving] = await tx
          .select({ sourceRowId: instances.cloneSourceRowId, cloneId: instances.instanceId })
          .from(instances)
          .where(
            and(
              inArray(instances.cloneSourceRowId, [source.id, target.id]),
              eq(instances.cloneReleasesSource, true),
              eq(instances.operation, 'create'),
              isNull(instances.releasedAt),
            ),
          )
          .limit(1);
        if (moving) {
          const end = moving.sourceRowId === source.id ? '源' : '目标';
          throw new AppError('STATE_CONFLICT', `${end}实例正在迁移到实例 ${moving.cloneId}，迁移完成后将被释放，不能跨实例拷贝`);
        }
        const now = this.deps.now();
        const [task] = await tx
          .insert(copyTasks)
          .values({
            uid: randomUUID(),
            ...ownershipFor(principal, 'CONTAINER'),
            fromInstanceRowId: source.id,
            toInstanceRowId: target.id,
            path,
            status: 'running',
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        if (!task) throw new Error('copy task insert returned nothing');
        return task;
      });
    } catch (error) {
      // copy_tasks_running_target_key: one running copy into an instance at a time.
      if (isUniqueViolation(error)) throw new AppError('STATE_CONFLICT', '目标实例正在接收另一个拷贝任务，请等待其完成后再拷贝');
      throw error;
    }
  }

  /**
   * `DELETE /rental/copy_data`: stops a running copy. What was copied stays on the target; the rest is
   * not copied. 404 for a task the caller cannot see, 409 for one that already ended.
   */
  async cancel(principal: Principal, taskUid: string): Promise<CopyTaskView> {
    const now = this.deps.now();
    const [cancelled] = await this.db
      .update(copyTasks)
      .set({ status: 'cancelled', statusReason: CANCELLED_REASON, finishedAt: now, updatedAt: now })
      .where(and(ownedBy(principal, 'CONTAINER', copyTasks), eq(copyTasks.uid, taskUid), eq(copyTasks.status, 'running')))
      .returning();
    if (!cancelled) {
      const [task] = await this.db
        .select({ status: copyTasks.status })
        .from(copyTasks)
        .where(and(ownedBy(principal, 'CONTAINER', copyTasks), eq(copyTasks.uid, taskUid)));
      if (!task) throw new AppError('NOT_FOUND', '拷贝任务不存在');
      throw new AppError('STATE_CONFLICT', NOT_CANCELLABLE[task.status] ?? '拷贝任务已结束，无法取消');
    }
    // The cancel stands once the row says so; should the machines not answer now, the job stops them.
    await this.stopOnMachines([cancelled]).catch((error: unknown) => {
      if (!(error instanceof DriverError)) throw error;
    });
    return this.toView(await this.withEnds(cancelled.id), 'source');
  }

  /**
   * Tells the machines to stop cancelled copies they still report running, and records what each had
   * copied when it stopped. Returns how many were stopped or recorded; a copy the driver cannot stop
   * now is left for the next pass.
   */
  private async stopOnMachines(tasks: TaskRow[]): Promise<number> {
    if (tasks.length === 0) return 0;
    const observed = await this.driver.observeCopies(tasks.map((task) => task.uid));
    let changed = 0;
    for (const task of tasks) {
      let seen = observed.get(task.uid);
      if (seen?.state === 'running') {
        try {
          await this.driver.cancelCopy(task.uid);
        } catch (error) {
          if (error instanceof DriverError) continue;
          throw error;
        }
        changed += 1;
        seen = (await this.driver.observeCopies([task.uid])).get(task.uid);
      }
      if ((seen?.state === 'cancelled' || seen?.state === 'done') && (await this.recordStopped(task.id, seen))) changed += 1;
    }
    return changed;
  }

  /** What a cancelled copy had moved when the machines stopped it (one that landed before the cancel: all of it). */
  private async recordStopped(taskId: number, observed: ObservedCopy): Promise<boolean> {
    const copiedGb = observed.state === 'done' ? observed.totalGb : observed.copiedGb;
    const updated = await this.db
      .update(copyTasks)
      .set({ totalGb: observed.totalGb, copiedGb, progress: runningProgress({ ...observed, copiedGb }), updatedAt: this.deps.now() })
      .where(
        and(
          eq(copyTasks.id, taskId),
          eq(copyTasks.status, 'cancelled'),
          sql`(${copyTasks.totalGb}, ${copyTasks.copiedGb}) is distinct from (${observed.totalGb}::real, ${copiedGb}::real)`,
        ),
      )
      .returning({ id: copyTasks.id });
    return updated.length > 0;
  }

  /** The instance's recent copies, as source or target, newest first. */
  async list(principal: Principal, instanceId: string): Promise<CopyTaskView[]> {
    const instance = await this.rental.get(principal, instanceId);
    const rows = await this.selectWithEnds()
      .where(
        and(
          eq(copyTasks.ownerId, principal.ownerId),
          or(eq(copyTasks.fromInstanceRowId, instance.rentalId), eq(copyTasks.toInstanceRowId, instance.rentalId)),
        ),
      )
      .orderBy(desc(copyTasks.createdAt), desc(copyTasks.id))
      .limit(COPY_HISTORY_LIMIT);
    return rows.map((row) => this.toView(row, row.fromInstanceId === instanceId ? 'source' : 'target'));
  }

  /**
   * The `copy-data` job: observes the running copies in one call and records where they stand, then
   * stops the recently cancelled ones the machines still report running. Returns how many changed.
   */
  async observeRunning(): Promise<number> {
    const running = await this.selectWithEnds().where(eq(copyTasks.status, 'running')).orderBy(asc(copyTasks.createdAt)).limit(OBSERVE_BATCH);
    const changed = await this.refresh(running);
    const since = new Date(this.deps.now().getTime() - CANCEL_FOLLOW_MS);
    const cancelled = await this.db
      .select()
      .from(copyTasks)
      .where(and(eq(copyTasks.status, 'cancelled'), gte(copyTasks.finishedAt, since)))
      .orderBy(desc(copyTasks.finishedAt))
      .limit(OBSERVE_BATCH);
    return changed + (await this.stopOnMachines(cancelled));
  }

  private async refresh(tasks: TaskWithEnds[]): Promise<number> {
    if (tasks.length === 0) return 0;
    const observed = await this.driver.observeCopies(tasks.map((item) => item.task.uid));
    let changed = 0;
    for (const item of tasks) {
      const seen = observed.get(item.task.uid) ?? { state: 'absent', totalGb: 0, copiedGb: 0 };
      if (seen.state === 'absent') {
        if (await this.restart(item)) changed += 1;
      } else if (seen.state === 'running') {
        if (await this.progress(item.task.id, seen)) changed += 1;
      } else if (await this.finish(item.task.id, seen)) {
        changed += 1;
      }
    }
    return changed;
  }

  /**
   * A copy the machines do not know: the process died between writing the task and asking the driver
   * (ask again — it is keyed by the task), or the driver lost a copy it had reported (failed).
   */
  private async restart(item: TaskWithEnds): Promise<boolean> {
    const { task } = item;
    const neverSeen = task.totalGb === 0 && task.copiedGb === 0;
    if (!neverSeen) return this.finish(task.id, { state: 'failed', totalGb: task.totalGb, copiedGb: task.copiedGb, reason: '拷贝任务已丢失，请重新拷贝' });
    try {
      await this.driver.copyData(task.uid, item.fromInstanceId, item.toInstanceId, task.path);
      return false;
    } catch (error) {
      if (!(error instanceof DriverError)) throw error;
      const expired = this.deps.now().getTime() - task.createdAt.getTime() > START_RETRY_MS;
      if (error.retryable && !expired) return false;
      return this.finish(task.id, { state: 'failed', totalGb: 0, copiedGb: 0, reason: error.message });
    }
  }

  private async progress(taskId: number, observed: ObservedCopy): Promise<boolean> {
    const updated = await this.db
      .update(copyTasks)
      .set({ totalGb: observed.totalGb, copiedGb: observed.copiedGb, progress: runningProgress(observed), updatedAt: this.deps.now() })
      .where(
        and(
          eq(copyTasks.id, taskId),
          eq(copyTasks.status, 'running'),
          sql`(${copyTasks.totalGb}, ${copyTasks.copiedGb}) is distinct from (${observed.totalGb}::real, ${observed.copiedGb}::real)`,
        ),
      )
      .returning({ id: copyTasks.id });
    return updated.length > 0;
  }

  /** Done, failed or cancelled (stopped on the machines themselves), once: only a task still running changes. */
  private async finish(taskId: number, observed: ObservedCopy): Promise<boolean> {
    const now = this.deps.now();
    const done = observed.state === 'done';
    const cancelled = observed.state === 'cancelled';
    const updated = await this.db
      .update(copyTasks)
      .set({
        status: done ? 'done' : cancelled ? 'cancelled' : 'failed',
        statusReason: done ? null : cancelled ? CANCELLED_REASON : (observed.reason ?? '拷贝失败'),
        totalGb: observed.totalGb,
        copiedGb: done ? observed.totalGb : observed.copiedGb,
        ...(done ? { progress: 100 } : cancelled ? { progress: runningProgress(observed) } : {}),
        finishedAt: now,
        updatedAt: now,
      })
      .where(and(eq(copyTasks.id, taskId), eq(copyTasks.status, 'running')))
      .returning({ id: copyTasks.id });
    return updated.length > 0;
  }

  private selectWithEnds() {
    return this.db
      .select({
        task: copyTasks,
        fromInstanceId: fromInstance.instanceId,
        fromInstanceName: fromInstance.name,
        toInstanceId: toInstance.instanceId,
        toInstanceName: toInstance.name,
      })
      .from(copyTasks)
      .innerJoin(fromInstance, eq(fromInstance.id, copyTasks.fromInstanceRowId))
      .innerJoin(toInstance, eq(toInstance.id, copyTasks.toInstanceRowId));
  }

  private async withEnds(taskId: number): Promise<TaskWithEnds> {
    const [row] = await this.selectWithEnds().where(eq(copyTasks.id, taskId));
    if (!row) throw new Error(`copy task ${taskId} vanished`);
    return row;
  }

  private toView(row: TaskWithEnds, role: 'source' | 'target'): CopyTaskView {
    const { task } = row;
    const source = role === 'source';
    return {
      taskId: task.uid,
      role,
      fromInstanceId: row.fromInstanceId,
      fromInstanceName: row.fromInstanceName,
      toInstanceId: row.toInstanceId,
      toInstanceName: row.toInstanceName,
      peerInstanceId: source ? row.toInstanceId : row.fromInstanceId,
      peerInstanceName: source ? row.toInstanceName : row.fromInstanceName,
      path: task.path,
      status: task.status as CopyStatus,
      statusReason: task.statusReason,
      progress: task.progress,
      totalGb: task.totalGb,
      copiedGb: task.copiedGb,
      createdAt: task.createdAt.toISOString(),
      finishedAt: task.finishedAt?.toISOString() ?? null,
    };
  }
}
