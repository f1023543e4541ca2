import { and, asc, eq, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Transaction } from '../../db/client.js';
import { cpuModels, gpuModels, hosts, instances, zones } from '../../db/schema/index.js';
import { sqlStateOf } from '../../http/error-handler.js';
import { AppError } from '../../core/errors.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import { RUNNING_STATUSES } from '../rental/state-machine.js';
import { recordAudit } from '../../core/audit.js';
import { pricePerGpuFen, type PriceSource } from '../rental/pricing.js';

type HostRow = typeof hosts.$inferSelect;

/** What the operator may set on a host; on an edit every field but `id` is optional. */
export interface HostInput {
  id: string;
  name?: string | undefined;
  zoneId?: string | undefined;
  gpuModelId?: string | undefined;
  cpuModelId?: string | undefined;
  gpuTotal?: number | undefined;
  cpuPerGpu?: number | undefined;
  memoryGbPerGpu?: number | undefined;
  dataDiskMaxGb?: number | undefined;
  dataDiskTotalGb?: number | undefined;
  cudaVersion?: string | undefined;
  driverVersion?: string | undefined;
  usagePriceFen?: number | null | undefined;
  dayPriceFen?: number | null | undefined;
  weekPriceFen?: number | null | undefined;
  monthPriceFen?: number | null | undefined;
  enabled?: boolean | undefined;
  simFault?: 'error' | 'unreachable' | null | undefined;
  simFaultReason?: string | null | undefined;
  /** COMPUTE_DRIVER=docker: the host's engine, its TLS client material (sealed by the route), where users reach it. */
  dockerUrl?: string | null | undefined;
  dockerTlsSealed?: string | null | undefined;
  publicAddress?: string | null | undefined;
}

type EditableField = Exclude<keyof HostInput, 'id'>;

const EDITABLE_FIELDS: readonly EditableField[] = [
  'name',
  'zoneId',
  'gpuModelId',
  'cpuModelId',
  'gpuTotal',
  'cpuPerGpu',
  'memoryGbPerGpu',
  'dataDiskMaxGb',
  'dataDiskTotalGb',
  'cudaVersion',
  'driverVersion',
  'usagePriceFen',
  'dayPriceFen',
  'weekPriceFen',
  'monthPriceFen',
  'enabled',
  'simFault',
  'simFaultReason',
  'dockerUrl',
  'dockerTlsSealed',
  'publicAddress',
];

/** Fields a new host must have, with the names the operator knows them by. */
const REQUIRED_TO_ADD: Partial<Record<EditableField, string>> = {
  name: '主机名称',
  zoneId: '可用区',
  gpuModelId: 'GPU型号',
  cpuModelId: 'CPU型号',
  gpuTotal: 'GPU总数',
  cpuPerGpu: '每卡CPU核数',
  memoryGbPerGpu: '每卡内存',
  dataDiskMaxGb: '单实例数据盘上限',
  dataDiskTotalGb: '数据盘总容量',
  cudaVersion: 'CUDA版本',
  driverVersion: '驱动版本',
};

export interface HostInstanceCounts {
  /** Instances not released. */
  total: number;
  running: number;
  poweredOff: number;
  /** With an operation in flight (creating, powering on or off, releasing). */
  inOperation: number;
  /** Error or OutOfConnection. */
  abnormal: number;
}

export interface FleetHostView {
  hostId: string;
  hostName: string;
  zoneId: string;
  zoneName: string;
  zoneEnabled: boolean;
  gpuModelId: string;
  gpuModelName: string;
  gpuModelEnabled: boolean;
  cpuModelId: string;
  cpuModelName: string;
  gpuTotal: number;
  gpuAllocated: number;
  gpuFree: number;
  cpuPerGpu: number;
  memoryGbPerGpu: number;
  dataDiskMaxGb: number;
  dataDiskTotalGb: number;
  dataDiskAllocatedGb: number;
  cudaVersion: string;
  driverVersion: string;
  /** The operator's prices (null: derived from the GPU model's). */
  usagePriceFen: number | null;
  dayPriceFen: number | null;
  weekPriceFen: number | null;
  monthPriceFen: number | null;
  /** What each rule costs per GPU on this host now, overrides applied. */
  effectivePrices: { usage: number; day: number; week: number; month: number };
  enabled: boolean;
  /** Whether users see it in the market: the host, its zone and its GPU model are all enabled. */
  onMarket: boolean;
  simFault: 'error' | 'unreachable' | null;
  simFaultReason: string | null;
  dockerUrl: string | null;
  dockerTls: boolean;
  publicAddress: string | null;
  instances: HostInstanceCounts;
  createdAt: string;
  updatedAt: string;
}

export interface FleetQuery extends PageQuery {
  zoneId?: string | undefined;
  gpuModelId?: string | undefined;
  enabled?: boolean | undefined;
}

const NO_INSTANCES: HostInstanceCounts = { total: 0, running: 0, poweredOff: 0, inOperation: 0, abnormal: 0 };

function effectivePrices(source: PriceSource): FleetHostView['effectivePrices'] {
  return { usage: pricePerGpuFen(source, 1), day: pricePerGpuFen(source, 2), week: pricePerGpuFen(source, 3), month: pricePerGpuFen(source, 4) };
}

function valuesDiffer(a: unknown, b: unknown): boolean {
  return (a ?? null) !== (b ?? null);
}

/**
 * The operator's fleet: adding and editing hosts, and the fleet with what runs on each host. Every
 * change is written in one transaction with its audit row. GPU and disk allocation stay decided by
 * the conditional updates of the rental service; an edit never lowers a total below what is handed out
 * (one conditional UPDATE, so an allocation landing at the same moment cannot slip past it).
 */
export class FleetService {
  constructor(private readonly deps: AppDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  private fleetQuery() {
    return this.db
      .select({
        host: hosts,
        zoneName: zones.name,
        zoneEnabled: zones.enabled,
        gpuModelName: gpuModels.name,
        gpuModelEnabled: gpuModels.enabled,
        modelPricePerHourFen: gpuModels.pricePerHourFen,
        cpuModelName: cpuModels.name,
      })
      .from(hosts)
      .innerJoin(zones, eq(zones.id, hosts.zoneId))
      .innerJoin(gpuModels, eq(gpuModels.id, hosts.gpuModelId))
      .innerJoin(cpuModels, eq(cpuModels.id, hosts.cpuModelId));
  }

  /** Instance counts of the given hosts, in one grouped query over the instances' host index. */
  private async instanceCounts(hostIds: readonly string[]): Promise<Map<string, HostInstanceCounts>> {
    if (hostIds.length === 0) return new Map();
    const running = sql.join(
      RUNNING_STATUSES.map((status) => sql`${status}`),
      sql`, `,
    );
    const rows = await this.db
      .select({
        hostId: instances.hostId,
        total: sql<number>`count(*)`.mapWith(Number),
        running: sql<number>`count(*) filter (where ${instances.status} in (${running}))`.mapWith(Number),
        poweredOff: sql<number>`count(*) filter (where ${instances.status} = 'PoweredOff')`.mapWith(Number),
        inOperation: sql<number>`count(*) filter (where ${instances.operation} is not null)`.mapWith(Number),
        abnormal: sql<number>`count(*) filter (where ${instances.status} in ('Error', 'OutOfConnection'))`.mapWith(Number),
      })
      .from(instances)
      .where(and(inArray(instances.hostId, [...hostIds]), isNull(instances.releasedAt)))
      .groupBy(instances.hostId);
    return new Map(rows.map(({ hostId, ...counts }) => [hostId, counts]));
  }

  private toView(row: Awaited<ReturnType<FleetService['fleetQuery']>>[number], counts: HostInstanceCounts): FleetHostView {
    const { host } = row;
    return {
      hostId: host.id,
      hostName: host.name,
      zoneId: host.zoneId,
      zoneName: row.zoneName,
      zoneEnabled: row.zoneEnabled,
      gpuModelId: host.gpuModelId,
      gpuModelName: row.gpuModelName,
      gpuModelEnabled: row.gpuModelEnabled,
      cpuModelId: host.cpuModelId,
      cpuModelName: row.cpuModelName,
      gpuTotal: host.gpuTotal,
      gpuAllocated: host.gpuAllocated,
      gpuFree: host.gpuTotal - host.gpuAllocated,
      cpuPerGpu: host.cpuPerGpu,
      memoryGbPerGpu: host.memoryGbPerGpu,
      dataDiskMaxGb: host.dataDiskMaxGb,
      dataDiskTotalGb: host.dataDiskTotalGb,
      dataDiskAllocatedGb: host.dataDiskAllocatedGb,
      cudaVersion: host.cudaVersion,
      driverVersion: host.driverVersion,
      usagePriceFen: host.usagePriceFen,
      dayPriceFen: host.dayPriceFen,
      weekPriceFen: host.weekPriceFen,
      monthPriceFen: host.monthPriceFen,
      effectivePrices: effectivePrices({ ...host, modelPricePerHourFen: row.modelPricePerHourFen }),
      enabled: host.enabled,
      onMarket: host.enabled && row.zoneEnabled && row.gpuModelEnabled,
      simFault: host.simFault === 'error' || host.simFault === 'unreachable' ? host.simFault : null,
      simFaultReason: host.simFaultReason,
      dockerUrl: host.dockerUrl,
      dockerTls: host.dockerTlsSealed !== null,
      publicAddress: host.publicAddress,
      instances: counts,
      createdAt: host.createdAt.toISOString(),
      updatedAt: host.updatedAt.toISOString(),
    };
  }

  /** The fleet for the operator, by host id, with allocation and the instances on each host. */
  async list(query: FleetQuery): Promise<Page<FleetHostView>> {
    const conditions: SQL[] = [];
    if (query.zoneId) conditions.push(eq(hosts.zoneId, query.zoneId));
    if (query.gpuModelId) conditions.push(eq(hosts.gpuModelId, query.gpuModelId));
    if (query.enabled !== undefined) conditions.push(eq(hosts.enabled, query.enabled));
    const where = conditions.length > 0 ? and(...conditions) : undefined;
    return paged(
      query,
      (limit, offset) => this.fleetQuery().where(where).orderBy(asc(hosts.id)).limit(limit).offset(offset),
      () => this.db.$count(hosts, where),
      async (rows) => {
        const counts = await this.instanceCounts(rows.map((row) => row.host.id));
        return rows.map((row) => this.toView(row, counts.get(row.host.id) ?? NO_INSTANCES));
      },
    );
  }

  async get(hostId: string): Promise<FleetHostView> {
    const [row] = await this.fleetQuery().where(eq(hosts.id, hostId));
    if (!row) throw new AppError('NOT_FOUND', `主机 ${hostId} 不存在`);
    return this.toView(row, (await this.instanceCounts([hostId])).get(hostId) ?? NO_INSTANCES);
  }

  /** Adds the host when its id is new, else changes the fields given; audited. */
  async save(actorId: number, input: HostInput): Promise<{ created: boolean; host: FleetHostView }> {
    if (input.simFault !== undefined && input.simFault !== null && this.deps.config.computeDriver !== 'sim') {
      throw new AppError('VALIDATION', '只有模拟集群（COMPUTE_DRIVER=sim）可以注入故障');
    }
    let created = false;
    try {
      created = await this.db.transaction(async (tx) => {
        const [existing] = await tx.select().from(hosts).where(eq(hosts.id, input.id)).for('update');
        if (existing) {
          await this.edit(tx, actorId, existing, input);
          return false;
        }
        return this.add(tx, actorId, input);
      });
    } catch (error) {
      // The CHECKs back the rules above; should one still refuse (a rule missed here), it is the
      // operator's input, never a server error.
      if (sqlStateOf(error) === '23514') throw new AppError('STATE_CONFLICT', '主机配置与当前分配冲突，请刷新后重试');
      throw error;
    }
    return { created, host: await this.get(input.id) };
  }

  private async assertDictionaries(tx: Transaction, input: Pick<HostInput, 'zoneId' | 'gpuModelId' | 'cpuModelId'>): Promise<void> {
    if (input.zoneId !== undefined) {
      const [zone] = await tx.select({ id: zones.id }).from(zones).where(eq(zones.id, input.zoneId));
      if (!zone) throw new AppError('VALIDATION', `可用区 ${input.zoneId} 不存在`);
    }
    if (input.gpuModelId !== undefined) {
      const [model] = await tx.select({ id: gpuModels.id }).from(gpuModels).where(eq(gpuModels.id, input.gpuModelId));
      if (!model) throw new AppError('VALIDATION', `GPU型号 ${input.gpuModelId} 不存在`);
    }
    if (input.cpuModelId !== undefined) {
      const [model] = await tx.select({ id: cpuModels.id }).from(cpuModels).where(eq(cpuModels.id, input.cpuModelId));
      if (!model) throw new AppError('VALIDATION', `CPU型号 ${input.cpuModelId} 不存在`);
    }
  }

  /** Rules between fields, checked on the host as it will be. */
  private assertConsistent(host: Pick<HostRow, 'dataDiskMaxGb' | 'dataDiskTotalGb' | 'simFault' | 'simFaultReason'>): void {
    if (host.dataDiskMaxGb > host.dataDiskTotalGb) {
      throw new AppError('VALIDATION', `单实例数据盘上限（${host.dataDiskMaxGb}GB）不能大于数据盘总容量（${host.dataDiskTotalGb}GB）`);
    }
    if (host.simFault === null && host.simFaultReason !== null) throw new AppError('VALIDATION', '未设置模拟故障时不能填写故障原因');
  }

  private async add(tx: Transaction, actorId: number, input: HostInput): Promise<boolean> {
    const missing = Object.entries(REQUIRED_TO_ADD)
      .filter(([field]) => input[field as EditableField] === undefined)
      .map(([, label]) => label);
    if (missing.length > 0) throw new AppError('VALIDATION', `主机 ${input.id} 不存在；新增主机还需要填写：${missing.join('、')}`);
    await this.assertDictionaries(tx, input);
    const now = this.deps.now();
    const values = {
      id: input.id,
      name: input.name as string,
      zoneId: input.zoneId as string,
      gpuModelId: input.gpuModelId as string,
      cpuModelId: input.cpuModelId as string,
      gpuTotal: input.gpuTotal as number,
      cpuPerGpu: input.cpuPerGpu as number,
      memoryGbPerGpu: input.memoryGbPerGpu as number,
      dataDiskMaxGb: input.dataDiskMaxGb as number,
      dataDiskTotalGb: input.dataDiskTotalGb as number,
      cudaVersion: input.cudaVersion as string,
      driverVersion: input.driverVersion as string,
      usagePriceFen: input.usagePriceFen ?? null,
      dayPriceFen: input.dayPriceFen ?? null,
      weekPriceFen: input.weekPriceFen ?? null,
      monthPriceFen: input.monthPriceFen ?? null,
      enabled: input.enabled ?? true,
      simFault: input.simFault ?? null,
      simFaultReason: input.simFaultReason ?? null,
      dockerUrl: input.dockerUrl ?? null,
      dockerTlsSealed: input.dockerTlsSealed ?? null,
      publicAddress: input.publicAddress ?? null,
      createdAt: now,
      updatedAt: now,
    };
    this.assertConsistent(values);
    const inserted = await tx.insert(hosts).values(values).onConflictDoNothing({ target: hosts.id }).returning({ id: hosts.id });
    // Added by another operator between our look and our insert: editing it blindly could undo theirs.
    if (inserted.length === 0) throw new AppError('STATE_CONFLICT', `主机 ${input.id} 刚被其他人添加，请刷新后再编辑`);
    const { createdAt: _createdAt, updatedAt: _updatedAt, ...audited } = values;
    await recordAudit(tx, { actorId, action: 'host.create', targetType: 'host', targetId: input.id, detail: { host: audited } }, now);
    return true;
  }

  private async edit(tx: Transaction, actorId: number, existing: HostRow, input: HostInput): Promise<void> {
    const changes: Partial<Record<EditableField, unknown>> = {};
    for (const field of EDITABLE_FIELDS) {
      const value = input[field];
      if (value !== undefined && valuesDiffer(value, existing[field])) changes[field] = value;
    }
    // A fault cleared takes its reason with it.
    if (input.simFault === null && existing.simFaultReason !== null && input.simFaultReason === undefined) changes.simFaultReason = null;
    if (Object.keys(changes).length === 0) return;
    const next = { ...existing, ...changes } as HostRow;
    this.assertConsistent(next);
    await this.assertDictionaries(tx, { zoneId: changes.zoneId as string | undefined, gpuModelId: changes.gpuModelId as string | undefined, cpuModelId: changes.cpuModelId as string | undefined });
    if (changes.zoneId !== undefined || changes.gpuModelId !== undefined) await this.assertMovable(tx, next);

    const now = this.deps.now();
    // One statement decides: the new totals must still hold what is handed out at this moment.
    const updated = await tx
      .update(hosts)
      .set({ ...(changes as Partial<HostRow>), updatedAt: now })
      .where(and(eq(hosts.id, existing.id), lte(hosts.gpuAllocated, next.gpuTotal), lte(hosts.dataDiskAllocatedGb, next.dataDiskTotalGb)))
      .returning({ id: hosts.id });
    if (updated.length === 0) {
      const [current] = await tx.select({ gpuAllocated: hosts.gpuAllocated, diskAllocated: hosts.dataDiskAllocatedGb }).from(hosts).where(eq(hosts.id, existing.id));
      const problems: string[] = [];
      if (current && current.gpuAllocated > next.gpuTotal) {
        problems.push(`主机已分配 ${current.gpuAllocated} 卡，GPU总数不能少于 ${current.gpuAllocated}（要设为 ${next.gpuTotal}）`);
      }
      if (current && current.diskAllocated > next.dataDiskTotalGb) {
        problems.push(`主机已分配数据盘 ${current.diskAllocated}GB，数据盘总容量不能少于 ${current.diskAllocated}GB（要设为 ${next.dataDiskTotalGb}GB）`);
      }
      throw new AppError('STATE_CONFLICT', `${problems.join('；') || '主机配置与当前分配冲突'}。请先让实例关机或释放`);
    }
    const detail = Object.fromEntries(Object.entries(changes).map(([field, value]) => [field, { from: existing[field as EditableField] ?? null, to: value }]));
    await recordAudit(tx, { actorId, action: 'host.update', targetType: 'host', targetId: existing.id, detail: { changes: detail } }, now);
  }

  /**
   * Instances keep the zone and GPU model of their host (lists and bills show them), so a host moves
   * only while it is off the market and empty. Off the market matters: a creation that read the host
   * before this edit takes its GPUs by an update that waits for this transaction and then finds the
   * host disabled, so no instance can land with the old zone or model.
   */
  private async assertMovable(tx: Transaction, next: HostRow): Promise<void> {
    if (next.enabled) throw new AppError('STATE_CONFLICT', '更换可用区或GPU型号前请先下架主机（enabled 设为 false）');
    const [row] = await tx
      .select({ count: sql<number>`count(*)`.mapWith(Number) })
      .from(instances)
      .where(and(eq(instances.hostId, next.id), isNull(instances.releasedAt)));
    const count = row?.count ?? 0;
    if (count > 0) throw new AppError('STATE_CONFLICT', `主机上还有 ${count} 个未释放的实例，不能更换可用区或GPU型号`);
  }
}
