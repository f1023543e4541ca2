import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, ilike, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { ELASTIC_DEPLOYMENT_STATUSES, formatYuan, RELEASED_CONTAINER_DAYS, type ElasticDeploymentStatusValue, type ElasticTypeValue, type InstanceStatusValue, type Page } from '@slg/shared';
import type { ElasticContainerView, ElasticCreated, ElasticDeploymentView, ElasticEventView, ElasticOverview } from '@slg/shared/views/elastic';
import type { AppDeps } from '../../deps.js';
import type { Executor, Transaction } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';
import { elasticDeployments, elasticEvents, gpuModels, hosts, instancePorts, instances, privateImages, publicImages, zones, type ElasticPort } from '../../db/schema/index.js';
import { isUniqueViolation } from '../../db/errors.js';
import { ownedBy, ownershipFor } from '../../db/scope.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import { DriverError } from '../../compute/driver.js';
import { payingWalletOf } from '../billing/ledger.js';
import { OrderService } from '../billing/orders.js';
import { usableImage } from '../images/usable.js';
import { openRootPassword } from '../rental/password.js';
import { RentalService } from '../rental/service.js';
import { PortService } from '../rental/ports.js';
import { assertVerifiedToCreate } from '../verification/gate.js';
import { ElasticController, type DeploymentRow } from './controller.js';
import { recordElasticEvents } from './events.js';
import { fileStorageMountOf, liveFileStorageColumn } from '../rental/file-storage.js';
import { cheapestPrice, placementFilters } from './placement.js';

const DAY_MS = 86_400_000;

export interface DeploymentTemplate {
  imageId: string;
  cmd?: string | null | undefined;
  env?: Record<string, string> | undefined;
  zoneIds?: string[] | undefined;
  gpuModelIds?: string[] | undefined;
  cudaMin?: string | null | undefined;
  priceMaxFen?: number | null | undefined;
}

export interface CreateDeploymentInput extends DeploymentTemplate {
  name: string;
  type: ElasticTypeValue;
  gpuNum: number;
  replicaNum: number;
  parallelismNum?: number | undefined;
  ports?: ElasticPort[] | undefined;
}

export interface EditDeploymentInput extends Partial<DeploymentTemplate> {
  replicaNum?: number | undefined;
  parallelismNum?: number | undefined;
}

const TYPE_LABELS: Record<ElasticTypeValue, string> = { REPLICA_SET: '常驻服务', JOB: '任务', CONTAINER: '临时容器' };

/**
 * 弹性部署 (issue 21): what users ask of deployments. Every change locks the deployment row first (then
 * its containers), so parallel edits, stops and the controller's passes are decided one after another.
 */
export class ElasticService {
  private readonly orders: OrderService;
  private readonly rental: RentalService;
  private readonly controller: ElasticController;
  private readonly ports: PortService;

  constructor(private readonly deps: AppDeps) {
    this.ports = new PortService(deps);
    this.orders = new OrderService(deps.now);
    this.rental = new RentalService(deps);
    this.controller = new ElasticController(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  // ---- creating -----------------------------------------------------------------------------------

  /** Zones and GPU models named by the filters must exist. */
  private async assertFiltersExist(executor: Executor, input: Partial<DeploymentTemplate>): Promise<void> {
    if (input.zoneIds?.length) {
      const found = await executor.select({ id: zones.id }).from(zones).where(inArray(zones.id, input.zoneIds));
      const missing = input.zoneIds.filter((id) => !found.some((zone) => zone.id === id));
      if (missing.length > 0) throw new AppError('VALIDATION', `地区不存在：${missing.join('、')}`);
    }
    if (input.gpuModelIds?.length) {
      const found = await executor.select({ id: gpuModels.id }).from(gpuModels).where(inArray(gpuModels.id, input.gpuModelIds));
      const missing = input.gpuModelIds.filter((id) => !found.some((model) => model.id === id));
      if (missing.length > 0) throw new AppError('VALIDATION', `GPU型号不存在：${missing.join('、')}`);
    }
  }

  /** Containers a deployment runs at once: a job's parallelism (at most what it needs), else its replicas. */
  private concurrent(type: ElasticTypeValue, replicaNum: number, parallelismNum: number): number {
    return type === 'JOB' ? Math.min(parallelismNum, replicaNum) : replicaNum;
  }

  async create(principal: Principal, input: CreateDeploymentInput): Promise<ElasticCreated> {
    const owner = ownershipFor(principal, 'ELASTIC');
    const replicaNum = input.type === 'CONTAINER' ? 1 : input.replicaNum;
    const parallelismNum = input.type === 'JOB' ? (input.parallelismNum ?? replicaNum) : 1;
    if (input.type === 'JOB' && parallelismNum > replicaNum) throw new AppError('VALIDATION', '并行数不能大于需完成的容器数');
    const created = await this.db.transaction(async (tx) => {
      await assertVerifiedToCreate(tx, this.deps.config, principal);
      const [clash] = await tx
        .select({ id: elasticDeployments.id })
        .from(elasticDeployments)
        .where(and(eq(elasticDeployments.ownerId, owner.ownerId), eq(elasticDeployments.name, input.name), isNull(elasticDeployments.deletedAt)));
      if (clash) throw new AppError('NAME_EXISTS', `部署名称「${input.name}」已存在，请换一个名称`);
      const image = await usableImage(tx, principal, input.imageId);
      await this.assertFiltersExist(tx, input);
      const filters = placementFilters(input, image.cuda);
      const cheapest = await cheapestPrice(tx, filters);
      if (cheapest === null) throw new AppError('VALIDATION', `没有满足筛选条件的主机（每容器 ${input.gpuNum} 卡${filters.cudaMin ? `，CUDA ≥ ${filters.cudaMin}` : ''}），请放宽筛选条件`);
      const walletId = await payingWalletOf(tx, principal);
      const hourly = cheapest * input.gpuNum * this.concurrent(input.type, replicaNum, parallelismNum);
      await this.rental.assertBalanceCovers(tx, walletId, hourly, '创建弹性部署');
      const now = this.deps.now();
      const uid = randomUUID();
      const order = await this.orders.open(tx, {
        ...owner,
        walletId,
        type: 'NEW_FLEXIBLE_DEPLOYMENT',
        billingType: 'USAGE',
        title: `新建弹性部署 ${input.name}（${TYPE_LABELS[input.type]}，按量计费）`,
        items: [
          {
            name: `${TYPE_LABELS[input.type]} × ${replicaNum}`,
            spec: `每容器 ${input.gpuNum} 卡，${image.name}，按调度主机价格按秒计费`,
            quantity: 1,
            unit: '时',
            unitPriceFen: hourly,
            amountFen: 0,
          },
        ],
        resourceType: 'ELASTIC',
        resourceId: uid,
      });
      let row: DeploymentRow | undefined;
      try {
        [row] = await tx.transaction(async (savepoint) =>
          savepoint
            .insert(elasticDeployments)
            .values({
              uid,
              ...owner,
              walletId,
              name: input.name,
              type: input.type,
              status: 'RUNNING',
              imageId: image.id,
              gpuNum: input.gpuNum,
              replicaNum,
              parallelismNum,
              zoneIds: input.zoneIds ?? [],
              gpuModelIds: input.gpuModelIds ?? [],
              cudaMin: input.cudaMin ?? null,
              priceMaxFen: input.priceMaxFen ?? null,
              cmd: input.cmd?.trim() ? input.cmd : null,
              env: input.env ?? {},
              ports: input.ports ?? [],
              orderId: order.id,
              createdAt: now,
              updatedAt: now,
            })
            .returning(),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('NAME_EXISTS', `部署名称「${input.name}」已存在，请换一个名称`);
        throw error;
      }
      if (!row) throw new Error('deployment insert returned nothing');
      await recordElasticEvents(
        tx,
        [{ deploymentRowId: row.id, type: 'CREATE', detail: `创建${TYPE_LABELS[input.type]}：${replicaNum} 个容器，每容器 ${input.gpuNum} 卡，${image.name}`, actorId: principal.userId }],
        now,
      );
      return { id: row.id, deploymentUid: uid };
    });
    return created;
  }

  // ---- reading ------------------------------------------------------------------------------------

  private listConditions(principal: Principal, query: { status?: string | undefined; name?: string | undefined }): SQL {
    const conditions: SQL[] = [ownedBy(principal, 'ELASTIC', elasticDeployments), isNull(elasticDeployments.deletedAt)];
    if (query.status) conditions.push(eq(elasticDeployments.status, query.status));
    if (query.name) conditions.push(ilike(elasticDeployments.name, `%${query.name.replace(/[\\%_]/g, (char) => `\\${char}`)}%`));
    return and(...conditions) as SQL;
  }

  private deploymentQuery(executor: Executor) {
    return executor
      .select({ deployment: elasticDeployments, imageName: sql<string | null>`coalesce(${publicImages.name}, ${privateImages.name})` })
      .from(elasticDeployments)
      .leftJoin(publicImages, eq(publicImages.id, elasticDeployments.imageId))
      .leftJoin(privateImages, eq(privateImages.imageId, elasticDeployments.imageId));
  }

  /** Live containers of these deployments, counted in one query: running, alive at all, and what the running ones cost per hour. */
  private async liveCounts(executor: Executor, ids: readonly number[]): Promise<Map<number, { running: number; live: number; rate: number }>> {
    const counts = new Map<number, { running: number; live: number; rate: number }>();
    if (ids.length === 0) return counts;
    const rows = await executor
      .select({
        id: instances.deploymentRowId,
        running: sql<number>`count(*) filter (where ${instances.status} in ('PoweredOn', 'PoweredOnNoGPU') and ${instances.operation} is null)::int`,
        live: sql<number>`count(*)::int`,
        rate: sql<number>`coalesce(sum(${instances.runRateFen}), 0)::float8`,
      })
      .from(instances)
      .where(and(inArray(instances.deploymentRowId, [...ids]), isNull(instances.endedAt)))
      .groupBy(instances.deploymentRowId);
    for (const row of rows) if (row.id !== null) counts.set(row.id, { running: row.running, live: row.live, rate: Number(row.rate) });
    return counts;
  }

  private toView(row: { deployment: DeploymentRow; imageName: string | null }, counts: { running: number; live: number; rate: number } | undefined): ElasticDeploymentView {
    const d = row.deployment;
    return {
      id: d.id,
      deploymentUid: d.uid,
      name: d.name,
      type: d.type as ElasticTypeValue,
      status: d.status as ElasticDeploymentStatusValue,
      statusReason: d.statusReason,
      locked: d.locked,
      replicaNum: d.replicaNum,
      parallelismNum: d.parallelismNum,
      runningNum: counts?.running ?? 0,
      liveNum: counts?.live ?? 0,
      waitingNum: d.waitingNum,
      waitingReason: d.waitingReason,
      succeededNum: d.succeededNum,
      failedNum: d.failedNum,
      gpuNum: d.gpuNum,
      imageId: d.imageId,
      imageName: row.imageName ?? d.imageId,
      zoneIds: d.zoneIds,
      gpuModelIds: d.gpuModelIds,
      cudaMin: d.cudaMin,
      priceMaxFen: d.priceMaxFen,
      cmd: d.cmd,
      env: d.env,
      ports: d.ports,
      costPerHourFen: Math.round(counts?.rate ?? 0),
      createdAt: d.createdAt.toISOString(),
      finishedAt: d.finishedAt?.toISOString() ?? null,
    };
  }

  async list(principal: Principal, query: PageQuery & { status?: string | undefined; name?: string | undefined }): Promise<Page<ElasticDeploymentView>> {
    const where = this.listConditions(principal, query);
    return paged(
      query,
      (limit, offset) => this.deploymentQuery(this.db).where(where).orderBy(desc(elasticDeployments.createdAt), desc(elasticDeployments.id)).limit(limit).offset(offset),
      () => this.db.$count(elasticDeployments, where),
      async (rows) => {
        const counts = await this.liveCounts(this.db, rows.map((row) => row.deployment.id));
        return rows.map((row) => this.toView(row, counts.get(row.deployment.id)));
      },
    );
  }

  async detail(principal: Principal, deploymentUid: string): Promise<ElasticDeploymentView> {
    const [row] = await this.deploymentQuery(this.db).where(and(this.listConditions(principal, {}), eq(elasticDeployments.uid, deploymentUid)));
    if (!row) throw new AppError('NOT_FOUND', '弹性部署不存在');
    return this.toView(row, (await this.liveCounts(this.db, [row.deployment.id])).get(row.deployment.id));
  }

  private async ownedDeployment(executor: Executor, principal: Principal, where: SQL): Promise<DeploymentRow> {
    const [row] = await executor.select().from(elasticDeployments).where(and(this.listConditions(principal, {}), where));
    if (!row) throw new AppError('NOT_FOUND', '弹性部署不存在');
    return row;
  }

  private containerQuery(executor: Executor) {
    return executor
      .select({
        container: instances,
        deploymentUid: elasticDeployments.uid,
        deploymentName: elasticDeployments.name,
        hostName: hosts.name,
        zoneName: zones.name,
        gpuModelName: gpuModels.name,
        fileStorageLive: liveFileStorageColumn(),
      })
      .from(instances)
      .innerJoin(elasticDeployments, eq(elasticDeployments.id, instances.deploymentRowId))
      .innerJoin(hosts, eq(hosts.id, instances.hostId))
      .innerJoin(zones, eq(zones.id, instances.zoneId))
      .innerJoin(gpuModels, eq(gpuModels.id, instances.gpuModelId));
  }

  /** The published ports of these containers, in one query. */
  private async portsOf(rows: Awaited<ReturnType<ElasticService['containerQuery']>>): Promise<Map<number, ElasticContainerView['ports']>> {
    const byContainer = new Map<number, ElasticContainerView['ports']>();
    const ids = rows.map((row) => row.container.id);
    if (ids.length === 0) return byContainer;
    const containers = new Map(rows.map((row) => [row.container.id, row.container]));
    const ports = await this.db.select().from(instancePorts).where(inArray(instancePorts.instanceRowId, ids)).orderBy(instancePorts.port);
    for (const port of ports) {
      const container = containers.get(port.instanceRowId);
      if (!container) continue;
      const view = this.ports.toView(container, port);
      const list = byContainer.get(port.instanceRowId) ?? [];
      list.push({ port: view.port, protocol: view.protocol, address: view.address });
      byContainer.set(port.instanceRowId, list);
    }
    return byContainer;
  }

  private async toContainerViews(rows: Awaited<ReturnType<ElasticService['containerQuery']>>): Promise<ElasticContainerView[]> {
    const ports = await this.portsOf(rows);
    return rows.map((row) => this.toContainerView(row, ports.get(row.container.id) ?? []));
  }

  private toContainerView(row: Awaited<ReturnType<ElasticService['containerQuery']>>[number], ports: ElasticContainerView['ports']): ElasticContainerView {
    const c = row.container;
    const now = this.deps.now().getTime();
    const openRun = c.runStartedAt ? Math.max(0, Math.floor((now - c.runStartedAt.getTime()) / 1000)) : 0;
    const running = (c.status === 'PoweredOn' || c.status === 'PoweredOnNoGPU') && c.endedAt === null;
    return {
      instanceId: c.instanceId,
      deploymentUid: row.deploymentUid,
      deploymentName: row.deploymentName,
      status: c.status as InstanceStatusValue,
      statusReason: c.statusReason,
      hostId: c.hostId,
      hostName: row.hostName,
      zoneId: c.zoneId,
      zoneName: row.zoneName,
      gpuModelId: c.gpuModelId,
      gpuModelName: row.gpuModelName,
      gpuNum: c.gpuNum,
      templateVersion: c.templateVersion ?? 1,
      // An ended container runs no more: it has no store to show.
      fileStorage: c.endedAt === null ? fileStorageMountOf(c, row.fileStorageLive && this.deps.compute.driver.mountsFileStorage) : 'none',
      sshCommand: running && c.sshHost && c.sshPort ? `ssh -p ${c.sshPort} root@${c.sshHost}` : null,
      ports,
      startedAt: c.firstRunAt?.toISOString() ?? null,
      endedAt: c.endedAt?.toISOString() ?? null,
      endReason: c.endReason,
      exitCode: c.exitCode,
      runSeconds: c.ranSeconds + openRun,
      chargedFen: c.totalChargedFen + c.runChargedFen,
      packSeconds: c.totalPackSeconds + c.runPackSeconds,
      createdAt: c.createdAt.toISOString(),
    };
  }

  async containers(principal: Principal, deploymentUid: string, query: PageQuery & { released?: boolean | undefined }): Promise<Page<ElasticContainerView>> {
    const deployment = await this.ownedDeployment(this.db, principal, eq(elasticDeployments.uid, deploymentUid));
    const where = and(
      eq(instances.deploymentRowId, deployment.id),
      query.released ? and(isNotNull(instances.endedAt), gt(instances.endedAt, this.releasedSince())) : isNull(instances.endedAt),
    );
    return paged(
      query,
      (limit, offset) => this.containerQuery(this.db).where(where).orderBy(desc(instances.createdAt), desc(instances.id)).limit(limit).offset(offset),
      () => this.db.$count(instances, where),
      (rows) => this.toContainerViews(rows),
    );
  }

  private releasedSince(): Date {
    return new Date(this.deps.now().getTime() - RELEASED_CONTAINER_DAYS * DAY_MS);
  }

  /** 已释放实例: every container of the caller's deployments that ended in the last 30 days. */
  async released(principal: Principal, query: PageQuery): Promise<Page<ElasticContainerView>> {
    const where = and(ownedBy(principal, 'ELASTIC', instances), isNotNull(instances.deploymentRowId), isNotNull(instances.endedAt), gt(instances.endedAt, this.releasedSince()));
    return paged(
      query,
      (limit, offset) => this.containerQuery(this.db).where(where).orderBy(desc(instances.endedAt), desc(instances.id)).limit(limit).offset(offset),
      () => this.db.$count(instances, where),
      (rows) => this.toContainerViews(rows),
    );
  }

  async events(principal: Principal, deploymentUid: string): Promise<ElasticEventView[]> {
    const deployment = await this.ownedDeployment(this.db, principal, eq(elasticDeployments.uid, deploymentUid));
    const rows = await this.db
      .select()
      .from(elasticEvents)
      .where(eq(elasticEvents.deploymentRowId, deployment.id))
      .orderBy(desc(elasticEvents.createdAt), desc(elasticEvents.id))
      .limit(100);
    return rows.map((row) => ({ type: row.type, detail: row.detail, createdAt: row.createdAt.toISOString() }));
  }

  async overview(principal: Principal): Promise<ElasticOverview> {
    const owned = ownedBy(principal, 'ELASTIC', elasticDeployments);
    const [counts] = await this.db
      .select({
        running: sql<number>`count(*) filter (where ${elasticDeployments.status} in ('RUNNING', 'STOPPING'))::int`,
        stopped: sql<number>`count(*) filter (where ${elasticDeployments.status} in ('STOPPED', 'FINISHED'))::int`,
      })
      .from(elasticDeployments)
      .where(and(owned, isNull(elasticDeployments.deletedAt)));
    const [containers] = await this.db
      .select({
        running: sql<number>`count(*) filter (where ${instances.status} in ('PoweredOn', 'PoweredOnNoGPU'))::int`,
        rate: sql<number>`coalesce(sum(${instances.runRateFen}), 0)::float8`,
      })
      .from(instances)
      .where(and(ownedBy(principal, 'ELASTIC', instances), isNotNull(instances.deploymentRowId), isNull(instances.endedAt)));
    const stock = rowsOf<{ gpu_model_id: string; gpu_model_name: string; zone_id: string; zone_name: string; free: number | string; total: number | string; min_price: number | string; max_price: number | string; cuda_max: string }>(
      await this.db.execute(sql`
        select h.gpu_model_id, m.name as gpu_model_name, h.zone_id, z.name as zone_name,
               sum(h.gpu_total - h.gpu_allocated) as free, sum(h.gpu_total) as total,
               min(coalesce(h.usage_price_fen, m.price_per_hour_fen)) as min_price, max(coalesce(h.usage_price_fen, m.price_per_hour_fen)) as max_price,
               array_to_string(max(string_to_array(h.cuda_version, '.')::int[]), '.') as cuda_max
        from hosts h join gpu_models m on m.id = h.gpu_model_id join zones z on z.id = h.zone_id
        where h.enabled
        group by h.gpu_model_id, m.name, h.zone_id, z.name
        order by m.name, z.name`),
    );
    return {
      running: counts?.running ?? 0,
      stopped: counts?.stopped ?? 0,
      containersRunning: containers?.running ?? 0,
      costPerHourFen: Math.round(Number(containers?.rate ?? 0)),
      stock: stock.map((row) => ({
        gpuModelId: row.gpu_model_id,
        gpuModelName: row.gpu_model_name,
        zoneId: row.zone_id,
        zoneName: row.zone_name,
        free: Number(row.free),
        total: Number(row.total),
        minPriceFen: Number(row.min_price),
        maxPriceFen: Number(row.max_price),
        cudaMax: row.cuda_max,
      })),
    };
  }

  // ---- changing -----------------------------------------------------------------------------------

  /** The caller's deployment, locked (404 for anyone else's), refused while locked when `action` says what a lock refuses. */
  private async lockOwned(tx: Transaction, principal: Principal, id: number, action: string | null): Promise<DeploymentRow> {
    const [row] = await tx
      .select()
      .from(elasticDeployments)
      .where(and(this.listConditions(principal, {}), eq(elasticDeployments.id, id)))
      .for('update');
    if (!row) throw new AppError('NOT_FOUND', '弹性部署不存在');
    if (action && row.locked) throw new AppError('STATE_CONFLICT', `部署「${row.name}」已锁定，不能${action}，请先解锁`);
    return row;
  }

  private async view(principal: Principal, id: number): Promise<ElasticDeploymentView> {
    const [row] = await this.deploymentQuery(this.db).where(and(this.listConditions(principal, {}), eq(elasticDeployments.id, id)));
    if (!row) throw new AppError('NOT_FOUND', '弹性部署不存在');
    return this.toView(row, (await this.liveCounts(this.db, [id])).get(id));
  }

  /** Stops a running deployment in the caller's transaction (row locked): its containers end now (billing with them), their release follows. */
  async stopInTransaction(tx: Transaction, deployment: DeploymentRow, cause: { detail: string; reason: string | null; actorId: number | null }): Promise<void> {
    const now = this.deps.now();
    const live = await tx
      .select()
      .from(instances)
      .where(and(eq(instances.deploymentRowId, deployment.id), isNull(instances.endedAt)))
      .for('update');
    for (const container of live) await this.controller.end(tx, container, cause.detail, now);
    await tx
      .update(elasticDeployments)
      .set({ status: 'STOPPING', statusReason: cause.reason, waitingNum: 0, waitingReason: null, updatedAt: now })
      .where(eq(elasticDeployments.id, deployment.id));
    await recordElasticEvents(tx, [{ deploymentRowId: deployment.id, type: 'STOP', detail: `${cause.detail}：${live.length} 个容器停止计费并释放`, actorId: cause.actorId }], now);
  }

  async stop(principal: Principal, id: number): Promise<ElasticDeploymentView> {
    await this.db.transaction(async (tx) => {
      const deployment = await this.lockOwned(tx, principal, id, '停止');
      if (deployment.status !== 'RUNNING') throw new AppError('STATE_CONFLICT', `部署当前状态为「${statusLabel(deployment.status)}」，不能停止`);
      await this.stopInTransaction(tx, deployment, { detail: '用户停止部署', reason: null, actorId: principal.userId });
    });
    this.deps.compute.wake();
    return this.view(principal, id);
  }

  async setLocked(principal: Principal, id: number, locked: boolean): Promise<ElasticDeploymentView> {
    await this.db.transaction(async (tx) => {
      const deployment = await this.lockOwned(tx, principal, id, null);
      if (deployment.locked === locked) return;
      const now = this.deps.now();
      await tx.update(elasticDeployments).set({ locked, updatedAt: now }).where(eq(elasticDeployments.id, id));
      await recordElasticEvents(tx, [{ deploymentRowId: id, type: locked ? 'LOCK' : 'UNLOCK', detail: locked ? '锁定部署：编辑、停止、删除将被拒绝' : '解锁部署', actorId: principal.userId }], now);
    });
    return this.view(principal, id);
  }

  async edit(principal: Principal, id: number, input: EditDeploymentInput): Promise<ElasticDeploymentView> {
    await this.db.transaction(async (tx) => {
      const deployment = await this.lockOwned(tx, principal, id, '编辑');
      if (deployment.status !== 'RUNNING') throw new AppError('STATE_CONFLICT', `部署当前状态为「${statusLabel(deployment.status)}」，不能编辑`);
      if (deployment.type === 'CONTAINER' && (input.replicaNum !== undefined || input.parallelismNum !== undefined)) {
        throw new AppError('VALIDATION', '临时容器只有一个容器，不能修改副本数');
      }
      await this.assertFiltersExist(tx, input);
      const image = input.imageId !== undefined && input.imageId !== deployment.imageId ? await usableImage(tx, principal, input.imageId) : null;
      const replicaNum = input.replicaNum ?? deployment.replicaNum;
      const parallelismNum = input.parallelismNum ?? Math.max(1, Math.min(deployment.parallelismNum, replicaNum));
      if (deployment.type === 'JOB' && parallelismNum > replicaNum) throw new AppError('VALIDATION', '并行数不能大于需完成的容器数');
      const cmd = input.cmd === undefined ? deployment.cmd : input.cmd?.trim() ? input.cmd : null;
      const env = input.env ?? deployment.env;
      // What a container runs changed: containers of the old template are replaced one at a time.
      const templateChanged = image !== null || cmd !== deployment.cmd || JSON.stringify(env) !== JSON.stringify(deployment.env);
      const changes: string[] = [];
      if (replicaNum !== deployment.replicaNum) changes.push(`副本数 ${deployment.replicaNum} → ${replicaNum}`);
      if (parallelismNum !== deployment.parallelismNum) changes.push(`并行数 ${deployment.parallelismNum} → ${parallelismNum}`);
      if (image) changes.push(`镜像 → ${image.name}`);
      if (cmd !== deployment.cmd) changes.push('启动命令');
      if (JSON.stringify(env) !== JSON.stringify(deployment.env)) changes.push('环境变量');
      if (input.zoneIds || input.gpuModelIds || input.cudaMin !== undefined || input.priceMaxFen !== undefined) changes.push('筛选条件');
      const now = this.deps.now();
      await tx
        .update(elasticDeployments)
        .set({
          replicaNum,
          parallelismNum,
          imageId: image?.id ?? deployment.imageId,
          cmd,
          env,
          zoneIds: input.zoneIds ?? deployment.zoneIds,
          gpuModelIds: input.gpuModelIds ?? deployment.gpuModelIds,
          cudaMin: input.cudaMin === undefined ? deployment.cudaMin : input.cudaMin,
          priceMaxFen: input.priceMaxFen === undefined ? deployment.priceMaxFen : input.priceMaxFen,
          templateVersion: deployment.templateVersion + (templateChanged ? 1 : 0),
          updatedAt: now,
        })
        .where(eq(elasticDeployments.id, id));
      await recordElasticEvents(
        tx,
        [{ deploymentRowId: id, type: 'EDIT', detail: `编辑部署：${changes.length > 0 ? changes.join('，') : '无变化'}${templateChanged ? '；旧容器将逐个替换为新容器' : ''}`, actorId: principal.userId }],
        now,
      );
    });
    return this.view(principal, id);
  }

  /** Deletes: a running deployment is stopped first; it leaves the list at once, its record stays. */
  async delete(principal: Principal, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const deployment = await this.lockOwned(tx, principal, id, '删除');
      if (deployment.status === 'RUNNING') await this.stopInTransaction(tx, deployment, { detail: '删除部署', reason: '部署已删除', actorId: principal.userId });
      const now = this.deps.now();
      await tx.update(elasticDeployments).set({ deletedAt: now, updatedAt: now }).where(eq(elasticDeployments.id, id));
      await recordElasticEvents(tx, [{ deploymentRowId: id, type: 'DELETE', detail: '删除部署', actorId: principal.userId }], now);
    });
    this.deps.compute.wake();
  }

  /** One live container of the caller's deployments, with its deployment, both locked (deployment first). */
  private async lockContainer(tx: Transaction, principal: Principal, instanceId: string) {
    const [found] = await tx
      .select({ deploymentRowId: instances.deploymentRowId })
      .from(instances)
      .where(and(ownedBy(principal, 'ELASTIC', instances), isNotNull(instances.deploymentRowId), eq(instances.instanceId, instanceId), isNull(instances.endedAt)));
    if (!found?.deploymentRowId) throw new AppError('NOT_FOUND', '容器不存在或已释放');
    const [deployment] = await tx.select().from(elasticDeployments).where(eq(elasticDeployments.id, found.deploymentRowId)).for('update');
    const [container] = await tx
      .select()
      .from(instances)
      .where(and(eq(instances.instanceId, instanceId), isNull(instances.endedAt)))
      .for('update');
    if (!deployment || !container) throw new AppError('NOT_FOUND', '容器不存在或已释放');
    return { deployment, container };
  }

  /** Releases one container (a replica set then places another unless its replicas were lowered). */
  async releaseContainer(principal: Principal, instanceId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { deployment, container } = await this.lockContainer(tx, principal, instanceId);
      const now = this.deps.now();
      await this.controller.end(tx, container, '用户释放容器', now);
      await recordElasticEvents(tx, [{ deploymentRowId: deployment.id, type: 'RELEASE', detail: `用户释放容器 ${instanceId}`, actorId: principal.userId }], now);
    });
    this.deps.compute.wake();
  }

  private async liveContainer(principal: Principal, instanceId: string) {
    const [container] = await this.db
      .select()
      .from(instances)
      .where(and(ownedBy(principal, 'ELASTIC', instances), isNotNull(instances.deploymentRowId), eq(instances.instanceId, instanceId), isNull(instances.endedAt)));
    if (!container) throw new AppError('NOT_FOUND', '容器不存在或已释放');
    return container;
  }

  async password(principal: Principal, instanceId: string): Promise<{ password: string }> {
    const container = await this.liveContainer(principal, instanceId);
    return { password: openRootPassword(this.deps.config.jwtSecret, container.rootPasswordEnc) };
  }

  async logs(principal: Principal, instanceId: string, lines: number): Promise<{ text: string }> {
    const container = await this.liveContainer(principal, instanceId);
    if (container.status === 'CreationStarted') return { text: '' };
    try {
      return { text: await this.deps.compute.driver.logs(container.instanceId, lines) };
    } catch (error) {
      if (error instanceof DriverError) throw new AppError('STATE_CONFLICT', `读取日志失败：${error.message}`);
      throw error;
    }
  }

  /**
   * Publishes the deployment's ports on containers that run and have none yet: the rows first (a
   * public port unique in the zone), then the driver's route; a refusal drops the rows, so the next
   * pass tries again. Returns how many containers got their ports.
   */
  async exposeContainerPorts(batch = 100): Promise<number> {
    const due = await this.db
      .select({ container: instances, ports: elasticDeployments.ports })
      .from(instances)
      .innerJoin(elasticDeployments, eq(elasticDeployments.id, instances.deploymentRowId))
      .where(
        and(
          isNull(instances.endedAt),
          isNull(instances.operation),
          inArray(instances.status, ['PoweredOn', 'PoweredOnNoGPU']),
          sql`jsonb_array_length(${elasticDeployments.ports}) > 0`,
          sql`not exists (select 1 from ${instancePorts} where ${instancePorts.instanceRowId} = ${instances.id})`,
        ),
      )
      .limit(batch);
    let exposed = 0;
    for (const { container, ports } of due) {
      const rows = await this.db.transaction(async (tx) => {
        const out = [];
        for (const item of ports) out.push(await this.ports.insertWithPublicPort(tx, { instanceRowId: container.id, zoneId: container.zoneId, port: item.port }, item.protocol));
        return out;
      });
      try {
        for (const row of rows) {
          await this.deps.compute.driver.exposePort(container.instanceId, { port: row.port, protocol: row.protocol === 1 ? 'http' : 'tcp', publicPort: row.publicPort });
        }
        exposed += 1;
      } catch (error) {
        if (!(error instanceof DriverError)) throw error;
        await this.db.delete(instancePorts).where(eq(instancePorts.instanceRowId, container.id));
      }
    }
    return exposed;
  }

  /**
   * Wallets below zero stop their running deployments (the deployment shows why), as they power off
   * their pay-as-you-go instances. Returns how many deployments were stopped.
   */
  async stopInArrears(reason: string): Promise<number> {
    const due = rowsOf<{ id: number | string }>(
      await this.db.execute(sql`
        select d.id from elastic_deployments d join wallets w on w.account_id = d.wallet_id
        where d.status = 'RUNNING' and w.balance_fen < 0 order by d.id`),
    );
    let stopped = 0;
    for (const { id } of due) {
      const done = await this.db.transaction(async (tx) => {
        const [deployment] = await tx
          .select()
          .from(elasticDeployments)
          .where(and(eq(elasticDeployments.id, Number(id)), eq(elasticDeployments.status, 'RUNNING')))
          .for('update', { skipLocked: true });
        if (!deployment) return false;
        const [wallet] = rowsOf<{ balance: number | string }>(await tx.execute(sql`select balance_fen as balance from wallets where account_id = ${deployment.walletId} for update`));
        if (!wallet || Number(wallet.balance) >= 0) return false;
        await this.stopInTransaction(tx, deployment, { detail: `${reason}（当前余额${formatYuan(Number(wallet.balance))}）`, reason, actorId: null });
        return true;
      });
      if (done) stopped += 1;
    }
    if (stopped > 0) this.deps.compute.wake();
    return stopped;
  }
}

function statusLabel(status: string): string {
  return ELASTIC_DEPLOYMENT_STATUSES.find((item) => item.value === status)?.label ?? status;
}

