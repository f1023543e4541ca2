import { and, eq, inArray, lte, notInArray, sql } from 'drizzle-orm';
import { DATA_DISK_MOUNT_PATH } from '@slg/shared';
import type { Database } from '../../db/client.js';
import { hosts, simImages, simMachines } from '../../db/schema/index.js';
import { DriverError, type ObservedCopy } from '../driver.js';

/** How fast the simulated storage network copies, unless the driver is told otherwise. */
export const SIM_COPY_GB_PER_SECOND = 1;

/**
 * A copy job is a row of `sim_images`, the simulated storage's table of jobs keyed by a uid (saved
 * images are the other kind): `uid` is the task uid, `instanceId` the target machine, `sizeGb` what it
 * moves, `readyAt` when the last byte lands. Its states never meet an image's (`saving`, `ready`,
 * `failed`).
 */
const COPY = {
  copying: 'copying',
  copied: 'copied',
  targetGone: 'copy_lost',
  hostFailed: 'copy_host_failed',
  noSpace: 'copy_no_space',
  /** Stopped by `cancel` at its `updatedAt`: what had moved by then landed on the target. */
  cancelled: 'copy_cancelled',
} as const;

const TARGET_GONE = '目标实例的数据盘已不存在';
const FAILURE_REASONS: Record<string, string> = {
  [COPY.targetGone]: TARGET_GONE,
  [COPY.hostFailed]: '目标实例所在主机故障，拷贝中断',
  [COPY.noSpace]: '目标实例数据盘空间不足，拷贝中断',
};

const GONE_MACHINE_STATES = ['deleting', 'deleted'];

/** Tenths of a data disk a path holds in the simulation: all of it at the mount point, else 1–10 tenths fixed per path. */
export function simPathTenths(path: string): number {
  if (path === DATA_DISK_MOUNT_PATH) return 10;
  let hash = 0;
  for (const char of path) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_003;
  return 1 + (hash % 10);
}

/** GB a path holds on a data disk holding `usedGb`: its share, rounded up (so only an empty disk holds nothing). */
export function simPathSizeGb(usedGb: number, path: string): number {
  return Math.ceil((usedGb * simPathTenths(path)) / 10);
}

/**
 * Data copies between machines of the simulated data centre, disk to disk: the source is read from a
 * snapshot taken when the copy starts, so it may be stopped meanwhile; the target's disk gains the
 * copied GB when the copy lands (or, when it is cancelled, the GB moved until then). The job is
 * stored like a real storage system's, so it survives restarts and every call is idempotent.
 */
export class SimCopies {
  constructor(
    private readonly db: Database,
    private readonly now: () => Date,
    private readonly gbPerSecond: number = SIM_COPY_GB_PER_SECOND,
  ) {}

  private async machine(instanceId: string) {
    const [row] = await this.db
      .select({ machine: simMachines, fault: hosts.simFault, faultReason: hosts.simFaultReason })
      .from(simMachines)
      .innerJoin(hosts, eq(hosts.id, simMachines.hostId))
      .where(eq(simMachines.instanceId, instanceId));
    return row && !GONE_MACHINE_STATES.includes(row.machine.state) ? row : undefined;
  }

  private static assertHostWorks(row: { fault: string | null; faultReason: string | null }): void {
    if (row.fault === 'unreachable') throw new DriverError(row.faultReason ?? '主机失联', true);
    if (row.fault === 'error') throw new DriverError(row.faultReason ?? '主机故障', false);
  }

  async start(taskUid: string, fromInstanceId: string, toInstanceId: string, path: string): Promise<void> {
    const [known] = await this.db.select({ uid: simImages.uid }).from(simImages).where(eq(simImages.uid, taskUid));
    if (known) return;
    const source = await this.machine(fromInstanceId);
    if (!source) throw new DriverError('源实例的数据盘已不存在', false);
    const target = await this.machine(toInstanceId);
    if (!target) throw new DriverError(TARGET_GONE, false);
    SimCopies.assertHostWorks(source);
    SimCopies.assertHostWorks(target);
    const sizeGb = simPathSizeGb(source.machine.dataDiskUsedGb, path);
    if (sizeGb === 0) throw new DriverError(`源实例的 ${path} 中没有数据`, false);
    const freeGb = target.machine.dataDiskGb - target.machine.dataDiskUsedGb;
    if (sizeGb > freeGb) throw new DriverError(`目标实例数据盘空间不足：需要 ${sizeGb} GB，剩余 ${freeGb} GB`, false);
    const now = this.now();
    await this.db
      .insert(simImages)
      .values({ uid: taskUid, instanceId: toInstanceId, state: COPY.copying, sizeGb, readyAt: new Date(now.getTime() + (sizeGb / this.gbPerSecond) * 1000), updatedAt: now })
      .onConflictDoNothing();
  }

  /** GB of a job moved by `at`, to a tenth: it moves at a steady rate until its `readyAt`. */
  private copiedBy(job: { sizeGb: number; readyAt: Date }, at: Date): number {
    const remainingGb = Math.max(0, ((job.readyAt.getTime() - at.getTime()) / 1000) * this.gbPerSecond);
    return Math.round(Math.max(0, job.sizeGb - remainingGb) * 10) / 10;
  }

  /**
   * Stops a copy still moving: the job flips to cancelled and the GB moved so far join the target's
   * disk in one transaction, so a cancel racing the landing (or another cancel) counts them once.
   */
  async cancel(taskUid: string): Promise<void> {
    const [job] = await this.db.select().from(simImages).where(eq(simImages.uid, taskUid));
    if (job?.state !== COPY.copying) return;
    const [target] = await this.db
      .select({ fault: hosts.simFault, faultReason: hosts.simFaultReason })
      .from(simMachines)
      .innerJoin(hosts, eq(hosts.id, simMachines.hostId))
      .where(eq(simMachines.instanceId, job.instanceId));
    if (target?.fault === 'unreachable') throw new DriverError(target.faultReason ?? '主机失联', true);
    const now = this.now();
    await this.db.transaction(async (tx) => {
      const [stopped] = await tx
        .update(simImages)
        .set({ state: COPY.cancelled, updatedAt: now })
        .where(and(eq(simImages.uid, taskUid), eq(simImages.state, COPY.copying)))
        .returning();
      if (!stopped) return;
      const landedGb = Math.round(this.copiedBy(stopped, now));
      if (landedGb === 0) return;
      await tx
        .update(simMachines)
        .set({ dataDiskUsedGb: sql`least(${simMachines.dataDiskUsedGb} + ${landedGb}, ${simMachines.dataDiskGb})`, updatedAt: now })
        .where(eq(simMachines.instanceId, stopped.instanceId));
    });
  }

  async observe(taskUids: readonly string[]): Promise<Map<string, ObservedCopy>> {
    const observed = new Map<string, ObservedCopy>();
    if (taskUids.length === 0) return observed;
    const uids = [...taskUids];
    const now = this.now();
    const copying = and(inArray(simImages.uid, uids), eq(simImages.state, COPY.copying));
    // A target whose disk went away, or whose host fails, ends the copy.
    await this.db
      .update(simImages)
      .set({ state: COPY.targetGone, updatedAt: now })
      .where(
        and(
          copying,
          sql`not exists (select 1 from ${simMachines} where ${simMachines.instanceId} = ${simImages.instanceId}
            and ${notInArray(simMachines.state, GONE_MACHINE_STATES)})`,
        ),
      );
    await this.db
      .update(simImages)
      .set({ state: COPY.hostFailed, updatedAt: now })
      .where(
        and(
          copying,
          sql`exists (select 1 from ${simMachines} join ${hosts} on ${hosts.id} = ${simMachines.hostId}
            where ${simMachines.instanceId} = ${simImages.instanceId} and ${hosts.simFault} = 'error')`,
        ),
      );
    // Copies whose last byte is due land now, unless the target's host cannot be reached.
    const due = await this.db
      .select({ uid: simImages.uid })
      .from(simImages)
      .where(
        and(
          copying,
          lte(simImages.readyAt, now),
          sql`not exists (select 1 from ${simMachines} join ${hosts} on ${hosts.id} = ${simMachines.hostId}
            where ${simMachines.instanceId} = ${simImages.instanceId} and ${hosts.simFault} = 'unreachable')`,
        ),
      );
    for (const { uid } of due) await this.land(uid, now);

    const rows = await this.db.select().from(simImages).where(inArray(simImages.uid, uids));
    for (const row of rows) {
      const totalGb = row.sizeGb;
      if (row.state === COPY.copying) {
        observed.set(row.uid, { state: 'running', totalGb, copiedGb: this.copiedBy(row, now) });
      } else if (row.state === COPY.cancelled) {
        observed.set(row.uid, { state: 'cancelled', totalGb, copiedGb: this.copiedBy(row, row.updatedAt) });
      } else if (row.state === COPY.copied) {
        observed.set(row.uid, { state: 'done', totalGb, copiedGb: totalGb });
      } else {
        const reason = FAILURE_REASONS[row.state];
        // A uid that is a saved image, not a copy, is no copy this driver knows.
        if (reason) observed.set(row.uid, { state: 'failed', totalGb, copiedGb: 0, reason });
      }
    }
    for (const uid of uids) if (!observed.has(uid)) observed.set(uid, { state: 'absent', totalGb: 0, copiedGb: 0 });
    return observed;
  }

  /** The copy's GB join the target's disk exactly once: the job's state flips in the same transaction. */
  private async land(uid: string, now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(simImages)
        .set({ state: COPY.copied, updatedAt: now })
        .where(and(eq(simImages.uid, uid), eq(simImages.state, COPY.copying)))
        .returning();
      if (!claimed) return;
      const sizeGb = Math.round(claimed.sizeGb);
      const landed = await tx
        .update(simMachines)
        .set({ dataDiskUsedGb: sql`${simMachines.dataDiskUsedGb} + ${sizeGb}`, updatedAt: now })
        .where(and(eq(simMachines.instanceId, claimed.instanceId), sql`${simMachines.dataDiskUsedGb} + ${sizeGb} <= ${simMachines.dataDiskGb}`))
        .returning({ instanceId: simMachines.instanceId });
      if (landed.length === 0) await tx.update(simImages).set({ state: COPY.noSpace, updatedAt: now }).where(eq(simImages.uid, uid));
    });
  }
}
