import { and, asc, desc, eq, gte, ilike, or, sql, type SQL } from 'drizzle-orm';
import { FREE_DATA_DISK_GB, type Page } from '@slg/shared';
import type { MarketFigures, MarketHost, MarketOverview } from '@slg/shared/views/market';
import type { AppDeps } from '../../deps.js';
import { cpuModels, gpuModels, hosts, zones } from '../../db/schema/index.js';
import { pageOf, offsetOf, type PageQuery } from '../../http/pagination.js';
import { pricePerGpuFen } from '../rental/pricing.js';
import { priceSql, unitOfRule, type MarketRuleId } from './prices.js';

export type MarketSort = 'price' | 'free';

export interface MarketQuery extends PageQuery {
  /** One host (the create page shows the host it was sent to). */
  hostId?: string | undefined;
  zoneId?: string | undefined;
  gpuModelId?: string | undefined;
  /** Only hosts that can take this many GPUs (and the free data disk) now. */
  gpuNum?: number | undefined;
  chargingRuleId: MarketRuleId;
  sort: MarketSort;
}

export interface MarketSearchQuery extends PageQuery {
  name?: string | undefined;
  chargingRuleId: MarketRuleId;
}

/** The answers' shapes: the schemas in packages/shared (views/market), which the console reads too. */
export type { MarketFigures, MarketHost, MarketOverview };

const freeGpus = sql<number>`(${hosts.gpuTotal} - ${hosts.gpuAllocated})`;
const freeDisk = sql<number>`(${hosts.dataDiskTotalGb} - ${hosts.dataDiskAllocatedGb})`;

/** `%`, `_` and `\` typed into a search are literal. */
export function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** The per-cell aggregates of the overview, all rules at once (cached; see MarketService.overview). */
interface OverviewCell {
  zoneId: string;
  zoneName: string;
  region: string;
  zoneSort: number;
  gpuModelId: string;
  gpuModelName: string;
  gpuMemoryGb: number;
  modelSort: number;
  hostCount: number;
  gpuTotal: number;
  gpuFree: number;
  maxFreeOnHost: number;
  /** Per rule: the lowest price among hosts with a free GPU (null: none free) and among all. */
  prices: Record<MarketRuleId, { withFree: number | null; any: number }>;
}

/**
 * The compute market (算力市场): the hosts a user can rent, with free GPUs and prices. Only enabled
 * hosts of enabled zones and GPU models are on the market. Each list is one indexed query — the page
 * and its total together (`count(*) over ()`), joined with the dictionaries — never a query per host.
 */
export class MarketService {
  constructor(private readonly deps: Pick<AppDeps, 'database'>) {}

  private get db() {
    return this.deps.database.db;
  }

  /**
   * A page of market rows in two steps: the hosts that match, narrowed to their sort keys (id, price,
   * free GPUs and the total by `count(*) over ()`) and cut to the page, then the page's ten-odd rows
   * joined with their details. Spooling only the narrow keys keeps an unfiltered market of 10,000 hosts
   * a few milliseconds (docs/decisions.md, "Instances").
   */
  private marketRows(rule: MarketRuleId, where: SQL[], sortFreeFirst: boolean, limit: number, offset: number) {
    const price = priceSql(rule);
    const matching = this.db
      .select({
        id: hosts.id,
        price: sql<number>`${price}`.as('price'),
        free: sql<number>`${freeGpus}`.as('free'),
        total: sql<number>`(count(*) over ())::int`.as('total'),
      })
      .from(hosts)
      .innerJoin(zones, and(eq(zones.id, hosts.zoneId), eq(zones.enabled, true)))
      .innerJoin(gpuModels, and(eq(gpuModels.id, hosts.gpuModelId), eq(gpuModels.enabled, true)))
      .where(and(eq(hosts.enabled, true), ...where))
      .orderBy(...(sortFreeFirst ? [desc(freeGpus), asc(price)] : [asc(price), desc(freeGpus)]), asc(hosts.id))
      .limit(limit)
      .offset(offset)
      .as('page');
    return this.db
      .select({
        hostId: hosts.id,
        hostName: hosts.name,
        zoneId: hosts.zoneId,
        zoneName: zones.name,
        gpuModelId: hosts.gpuModelId,
        gpuModelName: gpuModels.name,
        gpuMemoryGb: gpuModels.memoryGb,
        modelPricePerHourFen: gpuModels.pricePerHourFen,
        usagePriceFen: hosts.usagePriceFen,
        dayPriceFen: hosts.dayPriceFen,
        weekPriceFen: hosts.weekPriceFen,
        monthPriceFen: hosts.monthPriceFen,
        gpuTotal: hosts.gpuTotal,
        gpuAllocated: hosts.gpuAllocated,
        cpuModelId: hosts.cpuModelId,
        cpuModelName: cpuModels.name,
        cpuPerGpu: hosts.cpuPerGpu,
        memoryGbPerGpu: hosts.memoryGbPerGpu,
        dataDiskMaxGb: hosts.dataDiskMaxGb,
        dataDiskTotalGb: hosts.dataDiskTotalGb,
        dataDiskAllocatedGb: hosts.dataDiskAllocatedGb,
        cudaVersion: hosts.cudaVersion,
        driverVersion: hosts.driverVersion,
        total: matching.total,
      })
      .from(matching)
      .innerJoin(hosts, eq(hosts.id, matching.id))
      .innerJoin(zones, eq(zones.id, hosts.zoneId))
      .innerJoin(gpuModels, eq(gpuModels.id, hosts.gpuModelId))
      .innerJoin(cpuModels, eq(cpuModels.id, hosts.cpuModelId))
      .orderBy(...(sortFreeFirst ? [desc(matching.free), asc(matching.price)] : [asc(matching.price), desc(matching.free)]), asc(matching.id));
  }

  private marketCount(where: SQL[]): Promise<number> {
    return this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(hosts)
      .innerJoin(zones, and(eq(zones.id, hosts.zoneId), eq(zones.enabled, true)))
      .innerJoin(gpuModels, and(eq(gpuModels.id, hosts.gpuModelId), eq(gpuModels.enabled, true)))
      .where(and(eq(hosts.enabled, true), ...where))
      .then((rows) => rows[0]?.count ?? 0);
  }

  /** A page of market rows; the total rides on the rows, and is counted apart only past the last page. */
  private async page(query: PageQuery & { chargingRuleId: MarketRuleId }, where: SQL[], sortFreeFirst: boolean): Promise<Page<MarketHost>> {
    const rows = await this.marketRows(query.chargingRuleId, where, sortFreeFirst, query.pageSize, offsetOf(query));
    const total = rows[0]?.total ?? (query.page > 1 ? await this.marketCount(where) : 0);
    const unit = unitOfRule(query.chargingRuleId);
    return pageOf(
      rows.map((row) => ({
        hostId: row.hostId,
        hostName: row.hostName,
        zoneId: row.zoneId,
        zoneName: row.zoneName,
        gpuModelId: row.gpuModelId,
        gpuModelName: row.gpuModelName,
        gpuMemoryGb: row.gpuMemoryGb,
        gpuTotal: row.gpuTotal,
        gpuFree: row.gpuTotal - row.gpuAllocated,
        chargingRuleId: query.chargingRuleId,
        pricePerGpuFen: pricePerGpuFen(
          {
            modelPricePerHourFen: row.modelPricePerHourFen,
            usagePriceFen: row.usagePriceFen,
            dayPriceFen: row.dayPriceFen,
            weekPriceFen: row.weekPriceFen,
            monthPriceFen: row.monthPriceFen,
          },
          query.chargingRuleId,
        ),
        unit,
        cpuModelId: row.cpuModelId,
        cpuModelName: row.cpuModelName,
        cpuPerGpu: row.cpuPerGpu,
        memoryGbPerGpu: row.memoryGbPerGpu,
        dataDiskFreeGb: Math.max(0, Math.min(row.dataDiskMaxGb, row.dataDiskTotalGb - row.dataDiskAllocatedGb)),
        dataDiskMaxGb: row.dataDiskMaxGb,
        cudaVersion: row.cudaVersion,
        driverVersion: row.driverVersion,
      })),
      total,
      query,
    );
  }

  /** 算力市场: filtered by zone, GPU model and the GPUs wanted; cheapest first (or most free first). */
  async list(query: MarketQuery): Promise<Page<MarketHost>> {
    const where: SQL[] = [];
    if (query.hostId) where.push(eq(hosts.id, query.hostId));
    if (query.zoneId) where.push(eq(hosts.zoneId, query.zoneId));
    if (query.gpuModelId) where.push(eq(hosts.gpuModelId, query.gpuModelId));
    if (query.gpuNum !== undefined) {
      // What creating would take: the GPUs and the free data disk every instance gets.
      where.push(gte(freeGpus, query.gpuNum), gte(freeDisk, FREE_DATA_DISK_GB));
    }
    return this.page(query, where, query.sort === 'free');
  }

  /** Hosts whose name, zone or GPU model contains `name` (case-insensitive, `%` and `_` literal). */
  async search(query: MarketSearchQuery): Promise<Page<MarketHost>> {
    const where: SQL[] = [];
    if (query.name) {
      const pattern = `%${likeEscaped(query.name)}%`;
      where.push(or(ilike(hosts.name, pattern), ilike(zones.name, pattern), ilike(gpuModels.name, pattern)) as SQL);
    }
    return this.page(query, where, false);
  }

  /** The overview's figures per (zone, GPU model) from the database, for every rule at once. */
  async overviewCells(): Promise<OverviewCell[]> {
    const cheapestWithFree = (rule: MarketRuleId) => sql<number | null>`min(${priceSql(rule)}) filter (where ${freeGpus} > 0)`;
    const cheapest = (rule: MarketRuleId) => sql<number>`min(${priceSql(rule)})`;
    const rows = await this.db
      .select({
        zoneId: zones.id,
        zoneName: zones.name,
        region: zones.region,
        zoneSort: zones.sortOrder,
        gpuModelId: gpuModels.id,
        gpuModelName: gpuModels.name,
        gpuMemoryGb: gpuModels.memoryGb,
        modelSort: gpuModels.sortOrder,
        hostCount: sql<number>`count(*)::int`,
        gpuTotal: sql<number>`sum(${hosts.gpuTotal})::int`,
        gpuFree: sql<number>`sum(${freeGpus})::int`,
        maxFreeOnHost: sql<number>`max(${freeGpus})`,
        withFree1: cheapestWithFree(1),
        any1: cheapest(1),
        withFree2: cheapestWithFree(2),
        any2: cheapest(2),
        withFree3: cheapestWithFree(3),
        any3: cheapest(3),
        withFree4: cheapestWithFree(4),
        any4: cheapest(4),
      })
      .from(hosts)
      .innerJoin(zones, and(eq(zones.id, hosts.zoneId), eq(zones.enabled, true)))
      .innerJoin(gpuModels, and(eq(gpuModels.id, hosts.gpuModelId), eq(gpuModels.enabled, true)))
      .where(eq(hosts.enabled, true))
      .groupBy(zones.id, gpuModels.id)
      .orderBy(asc(gpuModels.sortOrder), asc(gpuModels.id), asc(zones.sortOrder), asc(zones.id));
    return rows.map(({ withFree1, any1, withFree2, any2, withFree3, any3, withFree4, any4, ...cell }) => ({
      ...cell,
      prices: {
        1: { withFree: withFree1, any: any1 },
        2: { withFree: withFree2, any: any2 },
        3: { withFree: withFree3, any: any3 },
        4: { withFree: withFree4, any: any4 },
      },
    }));
  }
}

/** Adds up cells (all of a model, all of a zone) into one set of figures for a rule. */
function rollUp(cells: readonly OverviewCell[], rule: MarketRuleId): MarketFigures {
  const withFree = cells.map((cell) => cell.prices[rule].withFree).filter((price): price is number => price !== null);
  return {
    hostCount: cells.reduce((sum, cell) => sum + cell.hostCount, 0),
    gpuTotal: cells.reduce((sum, cell) => sum + cell.gpuTotal, 0),
    gpuFree: cells.reduce((sum, cell) => sum + cell.gpuFree, 0),
    maxFreeOnHost: Math.max(0, ...cells.map((cell) => cell.maxFreeOnHost)),
    minPricePerGpuFen: withFree.length > 0 ? Math.min(...withFree) : Math.min(...cells.map((cell) => cell.prices[rule].any)),
  };
}

function groupBy<K>(cells: readonly OverviewCell[], key: (cell: OverviewCell) => K): Map<K, OverviewCell[]> {
  const groups = new Map<K, OverviewCell[]>();
  for (const cell of cells) {
    const group = groups.get(key(cell));
    if (group) group.push(cell);
    else groups.set(key(cell), [cell]);
  }
  return groups;
}

/** The market overview of one rule from the cells (ordered by GPU model, then zone, as the dictionaries). */
export function overviewOf(cells: readonly OverviewCell[], rule: MarketRuleId): MarketOverview {
  const byModel = groupBy(cells, (cell) => cell.gpuModelId);
  const byZone = [...groupBy(cells, (cell) => cell.zoneId).values()].sort(
    (a, b) => (a[0]?.zoneSort ?? 0) - (b[0]?.zoneSort ?? 0) || (a[0]?.zoneId ?? '').localeCompare(b[0]?.zoneId ?? ''),
  );
  return {
    chargingRuleId: rule,
    unit: unitOfRule(rule),
    gpuModels: [...byModel.values()].map((group) => {
      const first = group[0] as OverviewCell;
      return { gpuModelId: first.gpuModelId, gpuModelName: first.gpuModelName, gpuMemoryGb: first.gpuMemoryGb, ...rollUp(group, rule) };
    }),
    zones: byZone.map((group) => {
      const first = group[0] as OverviewCell;
      return { zoneId: first.zoneId, zoneName: first.zoneName, region: first.region, ...rollUp(group, rule) };
    }),
    cells: cells.map((cell) => ({ zoneId: cell.zoneId, gpuModelId: cell.gpuModelId, ...rollUp([cell], rule) })),
  };
}
