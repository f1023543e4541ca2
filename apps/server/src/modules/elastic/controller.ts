import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { JOB_MAX_RETRIES, USAGE_CHARGING_RULE_ID } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Transaction } from '../../db/client.js';
import { elasticDeployments, instances, publicImages, privateImages } from '../../db/schema/index.js';
import { randomPassword } from '../../lib/crypto.js';
import { beginOperation, beginRelease } from '../rental/lifecycle.js';
import { recordInstanceEvents } from '../rental/events.js';
import { settleRun, type InstanceRow } from '../rental/metering.js';
import { sealRootPassword } from '../rental/password.js';
import { newInstanceId } from '../rental/service.js';
import { RUNNING_STATUSES } from '../rental/state-machine.js';
import { assignHosts, candidateHosts, placementFilters, takeAssigned, whyNoStock, type PlacementFilters } from './placement.js';
import { recordElasticEvents } from './events.js';

export type DeploymentRow = typeof elasticDeployments.$inferSelect;


/** Containers whose machine is on its way or running: what a deployment counts as its own. */
const isRunning = (container: InstanceRow) => (RUNNING_STATUSES as readonly string[]).includes(container.status) && container.operation === null;

/** How a container ended by itself, from what the machines reported. */
function endingOf(container: InstanceRow): { reason: string; succeeded: boolean; failed: boolean } | null {
  if (container.operation !== null) return null;
  if (container.status === 'OutOfConnection') return { reason: `主机失联：${container.statusReason ?? '主机失联'}`, succeeded: false, failed: false };
  if (container.status === 'Error') return { reason: container.statusReason ?? '容器故障', succeeded: false, failed: true };
  if (container.status === 'PoweredOff') {
    if (container.exitCode === 0) return { reason: '命令执行完成（退出码 0）', succeeded: true, failed: false };
    if (container.exitCode !== null) return { reason: `命令异常退出（退出码 ${container.exitCode}）`, succeeded: false, failed: true };
    return { reason: container.statusReason ?? '容器已停止', succeeded: false, failed: true };
  }
  return null;
}

export interface ControllerPassResult {
  deployments: number;
  placed: number;
  ended: number;
}

/**
 * Brings each running deployment's containers to what it wants (issue 21): places the missing ones on
 * the cheapest matching hosts spread over hosts, ends the ones that exited, failed or are too many,
 * replaces outdated ones one at a time, finishes jobs, and completes stops. Each deployment is worked
 * on in one transaction under its row lock taken SKIP LOCKED, so two server processes never work on
 * one deployment, and a crash leaves nothing half-done (the next pass starts over from the rows).
 */
export type ControllerDeps = Pick<AppDeps, 'database' | 'now'> & { config: Pick<AppDeps['config'], 'jwtSecret'>; compute: Pick<AppDeps['compute'], 'wake'> };

export class ElasticController {
  constructor(private readonly deps: ControllerDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  async tick(batch = 200): Promise<ControllerPassResult> {
    const result: ControllerPassResult = { deployments: 0, placed: 0, ended: 0 };
    for (let afterId = 0; ; ) {
      const active = await this.db
        .select({ id: elasticDeployments.id })
        .from(elasticDeployments)
        .where(and(inArray(elasticDeployments.status, ['RUNNING', 'STOPPING']), gt(elasticDeployments.id, afterId)))
        .orderBy(asc(elasticDeployments.id))
        .limit(batch);
      for (const { id } of active) {
        const done = await this.db.transaction((tx) => this.reconcile(tx, id));
        if (!done) continue;
        result.deployments += 1;
        result.placed += done.placed;
        result.ended += done.ended;
      }
      if (active.length < batch) break;
      afterId = active[active.length - 1]?.id ?? afterId;
    }
    if (result.placed + result.ended > 0) this.deps.compute.wake();
    return result;
  }

  /** One deployment; null when another process holds it or it is no longer active. */
  async reconcile(tx: Transaction, id: number): Promise<{ placed: number; ended: number } | null> {
    const [deployment] = await tx
      .select()
      .from(elasticDeployments)
      .where(and(eq(elasticDeployments.id, id), inArray(elasticDeployments.status, ['RUNNING', 'STOPPING'])))
      .for('update', { skipLocked: true });
    if (!deployment) return null;
    const now = this.deps.now();
    let ended = 0;
    const live = await tx
      .select()
      .from(instances)
      .where(and(eq(instances.deploymentRowId, id), isNull(instances.endedAt)))
      .orderBy(asc(instances.id))
      .for('update');

    // Containers that ended by themselves: counted (jobs), recorded, released.
    const counts = { succeeded: 0, failed: 0 };
    let lastFailure: string | null = null;
    const alive: InstanceRow[] = [];
    for (const container of live) {
      const ending = endingOf(container);
      if (!ending) {
        alive.push(container);
        continue;
      }
      if (ending.succeeded) counts.succeeded += 1;
      if (ending.failed) {
        counts.failed += 1;
        lastFailure = `容器 ${container.instanceId}：${ending.reason}`;
      }
      await this.end(tx, container, ending.reason, now);
      ended += 1;
    }
    const state = {
      ...deployment,
      succeededNum: deployment.succeededNum + counts.succeeded,
      failedNum: deployment.failedNum + counts.failed,
    };

    // Ended containers whose release could not begin before (a host that was out of reach answers again).
    await this.releaseEnded(tx, id, now);

    let placed = 0;
    let status = state.status;
    let statusReason = state.statusReason;
    let finishedAt = state.finishedAt;
    const endAll = async (reason: string) => {
      for (const container of alive.splice(0)) {
        await this.end(tx, container, reason, now);
        ended += 1;
      }
    };
    if (status === 'RUNNING' && state.type === 'JOB' && state.failedNum > JOB_MAX_RETRIES) {
      status = 'STOPPING';
      statusReason = `任务失败：已重试 ${JOB_MAX_RETRIES} 次仍失败（${lastFailure ?? '容器失败'}）`;
      await endAll('任务失败，停止其余容器');
      await recordElasticEvents(tx, [{ deploymentRowId: id, type: 'FAILED', detail: statusReason }], now);
    }
    if (status === 'STOPPING') {
      await endAll(state.deletedAt ? '部署已删除' : '部署已停止');
      if (await this.allReleased(tx, id)) {
        status = 'STOPPED';
        finishedAt = now;
        await recordElasticEvents(tx, [{ deploymentRowId: id, type: 'STOPPED', detail: statusReason ?? '部署已停止，全部容器已释放' }], now);
      }
    } else if (state.type === 'REPLICA_SET') {
      const plan = this.replicaPlan(state, alive);
      for (const container of plan.end) {
        await this.end(tx, container, plan.endReason.get(container.id) ?? '副本数调整', now);
        ended += 1;
      }
      placed = await this.place(tx, state, plan.place, now);
    } else if (state.type === 'JOB') {
      const remaining = state.replicaNum - state.succeededNum;
      if (remaining <= 0) {
        await endAll('任务已完成');
        if (await this.allReleased(tx, id)) {
          status = 'FINISHED';
          statusReason = `任务完成：${state.succeededNum} 个容器成功退出`;
          finishedAt = now;
          await recordElasticEvents(tx, [{ deploymentRowId: id, type: 'FINISHED', detail: statusReason }], now);
        }
      } else {
        const wanted = Math.min(state.parallelismNum, remaining);
        placed = await this.place(tx, state, Math.max(0, wanted - alive.length), now);
      }
    } else if (state.placedNum === 0) {
      placed = await this.place(tx, state, 1, now);
    } else if (alive.length === 0 && (await this.allReleased(tx, id))) {
      const succeeded = state.succeededNum > 0;
      status = succeeded ? 'FINISHED' : 'STOPPED';
      statusReason = succeeded ? '临时容器已运行结束' : (lastFailure ?? deployment.statusReason ?? '临时容器已结束');
      finishedAt = now;
      await recordElasticEvents(tx, [{ deploymentRowId: id, type: succeeded ? 'FINISHED' : 'STOPPED', detail: statusReason }], now);
    }

    await tx
      .update(elasticDeployments)
      .set({
        status,
        statusReason,
        finishedAt,
        succeededNum: state.succeededNum,
        failedNum: state.failedNum,
        ...(status !== 'RUNNING' ? { waitingNum: 0, waitingReason: null } : {}),
        updatedAt: now,
      })
      .where(eq(elasticDeployments.id, id));
    return { placed, ended };
  }

  /**
   * What a replica set does now: place the missing containers; with containers of an older template,
   * one new container first (a surge of one), and once every new one runs, end one old one — so
   * never fewer run than `replicaNum`, bar a failure; end the ones beyond what it wants (old ones
   * first, then those not running yet, then the newest).
   */
  private replicaPlan(deployment: DeploymentRow, alive: InstanceRow[]): { place: number; end: InstanceRow[]; endReason: Map<number, string> } {
    const outdated = alive.filter((container) => (container.templateVersion ?? 0) < deployment.templateVersion);
    const current = alive.filter((container) => (container.templateVersion ?? 0) >= deployment.templateVersion);
    const endReason = new Map<number, string>();
    const end: InstanceRow[] = [];
    let place = 0;
    if (alive.length < deployment.replicaNum) place = deployment.replicaNum - alive.length;
    else if (outdated.length > 0 && deployment.replicaNum > 0) {
      if (alive.length === deployment.replicaNum) place = 1;
      else if (current.length > 0 && current.every(isRunning)) {
        const victim = [...outdated].sort((a, b) => Number(isRunning(a)) - Number(isRunning(b)) || b.id - a.id)[0];
        if (victim) {
          end.push(victim);
          endReason.set(victim.id, '部署已更新，旧版本容器由新容器替换');
        }
      }
    }
    const allowed = deployment.replicaNum + (outdated.length > end.length && deployment.replicaNum > 0 ? 1 : 0);
    const remaining = alive.filter((container) => !end.includes(container));
    if (remaining.length > allowed) {
      const order = [...remaining].sort(
        (a, b) =>
          Number((a.templateVersion ?? 0) >= deployment.templateVersion) - Number((b.templateVersion ?? 0) >= deployment.templateVersion) ||
          Number(isRunning(a)) - Number(isRunning(b)) ||
          b.id - a.id,
      );
      for (const victim of order.slice(0, remaining.length - allowed)) {
        end.push(victim);
        endReason.set(victim.id, `副本数调整为 ${deployment.replicaNum}，释放多余容器`);
      }
    }
    return { place, end, endReason };
  }

  /**
   * The deployment lets a container go (the row locked): its run is settled and closed, and the
   * machine and its disks are released — at once, unless its host is out of reach (then when it
   * answers again, `releaseEnded`).
   */
  async end(tx: Transaction, container: InstanceRow, reason: string, now: Date): Promise<void> {
    await settleRun(tx, container, now, { close: true });
    await tx.update(instances).set({ endedAt: now, endReason: reason, scheduledPowerOffAt: null, updatedAt: now }).where(eq(instances.id, container.id));
    if (container.status === 'OutOfConnection' || container.status === 'DestroyStarted' || container.releasedAt) return;
    await beginRelease(tx, [container], now, { detail: `${reason}，容器已释放，数据已删除`, actorId: null });
  }

  /** Ended containers not released yet whose release can begin now (no operation, host answering). */
  private async releaseEnded(tx: Transaction, deploymentRowId: number, now: Date): Promise<void> {
    const waiting = await tx
      .select()
      .from(instances)
      .where(
        and(
          eq(instances.deploymentRowId, deploymentRowId),
          isNotNull(instances.endedAt),
          isNull(instances.releasedAt),
          isNull(instances.operation),
          ne(instances.status, 'OutOfConnection'),
          ne(instances.status, 'DestroyStarted'),
        ),
      )
      .for('update', { skipLocked: true });
    if (waiting.length === 0) return;
    await settleRunAll(tx, waiting, now);
    await beginRelease(tx, waiting, now, { detail: '主机恢复连接，释放已结束的容器，数据已删除', actorId: null });
  }

  /** Whether every container of the deployment is released (those on hosts out of reach aside: they go when the host answers). */
  private async allReleased(tx: Transaction, deploymentRowId: number): Promise<boolean> {
    const [left] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(instances)
      .where(and(eq(instances.deploymentRowId, deploymentRowId), isNull(instances.releasedAt), ne(instances.status, 'OutOfConnection')));
    return (left?.n ?? 0) === 0;
  }

  private async filtersOf(tx: Transaction, deployment: DeploymentRow): Promise<PlacementFilters> {
    return placementFilters(deployment, await this.imageCuda(tx, deployment.imageId));
  }

  private async imageCuda(tx: Transaction, imageId: string): Promise<string | null> {
    const [found] = await tx.select({ cuda: publicImages.cuda }).from(publicImages).where(eq(publicImages.id, imageId));
    if (found) return found.cuda;
    const [saved] = await tx.select({ cuda: privateImages.cuda }).from(privateImages).where(eq(privateImages.imageId, imageId));
    return saved?.cuda ?? null;
  }

  /**
   * Places `count` containers: hosts matched and assigned (cheapest first, spread), their GPUs taken
   * per host by one conditional update, the containers written as instances being created. What
   * cannot be placed waits, with the reason naming the filter that has no stock.
   */
  async place(tx: Transaction, deployment: DeploymentRow, count: number, now: Date): Promise<number> {
    if (count <= 0) {
      if (deployment.waitingNum > 0) await tx.update(elasticDeployments).set({ waitingNum: 0, waitingReason: null }).where(eq(elasticDeployments.id, deployment.id));
      return 0;
    }
    const filters = await this.filtersOf(tx, deployment);
    const candidates = await candidateHosts(tx, deployment.id, filters, Math.max(100, count * 2));
    const assigned = assignHosts(candidates, count, filters.gpuNum, filters.diskGb);
    const taken = await takeAssigned(tx, assigned, filters.gpuNum, filters.diskGb);
    const hosts = assigned.filter((hostId) => taken.has(hostId));
    const byId = new Map(candidates.map((candidate) => [candidate.id, candidate]));
    if (hosts.length > 0) {
      const values = hosts.map((hostId, index) => {
        const host = byId.get(hostId);
        if (!host) throw new Error(`assigned host ${hostId} is not a candidate`);
        return {
          instanceId: newInstanceId(),
          uid: randomUUID(),
          ownerId: deployment.ownerId,
          creatorId: deployment.creatorId,
          walletId: deployment.walletId,
          name: `${deployment.name}-${deployment.placedNum + index + 1}`,
          hostId,
          zoneId: host.zoneId,
          gpuModelId: host.gpuModelId,
          gpuNum: deployment.gpuNum,
          gpuHeld: deployment.gpuNum,
          gpuMode: 'gpu',
          imageId: deployment.imageId,
          chargingRuleId: USAGE_CHARGING_RULE_ID,
          dataDiskGb: filters.diskGb,
          status: 'CreationStarted',
          ...beginOperation('create', now, { mode: 'gpu' }),
          rootPasswordEnc: sealRootPassword(this.deps.config.jwtSecret, randomPassword()),
          usageOrderId: deployment.orderId,
          deploymentRowId: deployment.id,
          templateVersion: deployment.templateVersion,
          command: deployment.cmd,
          env: deployment.env,
          createdAt: now,
          updatedAt: now,
        } satisfies typeof instances.$inferInsert;
      });
      const inserted = await tx.insert(instances).values(values).returning({ id: instances.id, status: instances.status });
      await recordInstanceEvents(
        tx,
        inserted.map((row) => ({ instanceRowId: row.id, type: 'CREATE', fromStatus: null, toStatus: 'CreationStarted', detail: `弹性部署「${deployment.name}」调度容器`, actorId: null })),
        now,
      );
      await recordElasticEvents(tx, [{ deploymentRowId: deployment.id, type: 'PLACED', detail: `调度 ${hosts.length} 个容器到主机 ${[...new Set(hosts)].join('、')}` }], now);
    }
    const waiting = count - hosts.length;
    const waitingReason = waiting > 0 ? await whyNoStock(tx, filters) : null;
    if (waitingReason && waitingReason !== deployment.waitingReason) {
      await recordElasticEvents(tx, [{ deploymentRowId: deployment.id, type: 'WAITING', detail: `${waiting} 个容器${waitingReason}` }], now);
    }
    await tx
      .update(elasticDeployments)
      .set({ placedNum: deployment.placedNum + hosts.length, waitingNum: waiting, waitingReason })
      .where(eq(elasticDeployments.id, deployment.id));
    return hosts.length;
  }
}

async function settleRunAll(tx: Transaction, containers: InstanceRow[], now: Date): Promise<void> {
  for (const container of containers) await settleRun(tx, container, now, { close: true });
}

