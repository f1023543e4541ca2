import { rentedBy } from './scope.js';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Page } from '@slg/shared';
import { chargingAmountsSchema, chargingRecordSchema, type ChargingAmounts, type ChargingRecord } from '@slg/shared/views/rental';
import type { AppDeps } from '../../deps.js';
import type { Database } from '../../db/client.js';
import { gpuModels, instances, orders, zones } from '../../db/schema/index.js';
import {} from '../../db/scope.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { text } from '../../http/fields.js';
import { paged, pageQuery, pageSchema, type PageQuery } from '../../http/pagination.js';
import type { Principal } from '../../core/principal.js';
import { fileStorageChargingRecordRoutes } from '../storage/charging-records.js';

/** Orders that moved money: an unpaid or cancelled one never did. */
const SETTLED_STATUSES = ['PAID', 'PLACED', 'REFUNDED'];
const DISK_ORDER_TYPES = ['EXPAND_DISK', 'SHRINK_DISK'];

export const chargingRecordsQuery = pageQuery.extend({
  state: z.enum(['all', 'active', 'released'], { error: '实例状态只能是 all、active 或 released' }).default('all'),
  keyword: text('搜索内容').trim().max(64, '搜索内容不能超过64个字符').optional(),
});
export type ChargingRecordsQuery = z.infer<typeof chargingRecordsQuery>;

const ZERO: ChargingAmounts = { usageFen: 0, packageFen: 0, diskFen: 0, totalFen: 0 };

/** What each order cost net: paid, plus metered charges of a running usage order, less refunds. */
const netFen = sql`${orders.paidFen} + ${orders.meteredFen} - ${orders.refundedFen}`;
const diskOrder = inArray(orders.type, DISK_ORDER_TYPES);
const amountColumns = {
  usageFen: sql<number>`coalesce(sum(${netFen}) filter (where not ${diskOrder} and ${orders.billingType} = 'USAGE'), 0)`.mapWith(Number),
  packageFen: sql<number>`coalesce(sum(${netFen}) filter (where not ${diskOrder} and ${orders.billingType} = 'BUYOUT'), 0)`.mapWith(Number),
  diskFen: sql<number>`coalesce(sum(${netFen}) filter (where ${diskOrder}), 0)`.mapWith(Number),
  totalFen: sql<number>`coalesce(sum(${netFen}), 0)`.mapWith(Number),
};
const ordersOfInstance = and(
  eq(orders.resourceType, 'INSTANCE'),
  eq(orders.resourceId, sql`${instances.uid}::text`),
  inArray(orders.status, SETTLED_STATUSES),
);

/**
 * 计费记录 (personal centre): what each instance has cost so far — pay-as-you-go settlements, packages
 * net of refunds, data-disk charges — released ones included, scoped like the instance list
 * (CONTAINER: a SELF sub-account sees its own). One query for the page of instances and one for the
 * page's orders; the totals over every instance in scope come from a third.
 */
export class ChargingRecordService {
  constructor(private readonly db: Database) {}

  private conditions(principal: Principal, query: Pick<ChargingRecordsQuery, 'state' | 'keyword'>): SQL {
    const conditions: SQL[] = [rentedBy(principal)];
    if (query.state === 'active') conditions.push(isNull(instances.releasedAt));
    if (query.state === 'released') conditions.push(isNotNull(instances.releasedAt));
    if (query.keyword) {
      const pattern = `%${query.keyword.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
      const matched = or(ilike(instances.instanceId, pattern), ilike(instances.name, pattern));
      if (matched) conditions.push(matched);
    }
    return and(...conditions) ?? sql`true`;
  }

  async list(principal: Principal, query: ChargingRecordsQuery): Promise<Page<ChargingRecord> & { totals: ChargingAmounts }> {
    const where = this.conditions(principal, query);
    const [page, totals] = await Promise.all([
      paged(
        query satisfies PageQuery,
        (limit, offset) =>
          this.db
            .select({ instance: instances, zoneName: zones.name, gpuModelName: gpuModels.name })
            .from(instances)
            .leftJoin(zones, eq(zones.id, instances.zoneId))
            .leftJoin(gpuModels, eq(gpuModels.id, instances.gpuModelId))
            .where(where)
            .orderBy(desc(instances.createdAt), desc(instances.id))
            .limit(limit)
            .offset(offset),
        () => this.db.$count(instances, where),
        (rows) => this.withAmounts(rows),
      ),
      this.db.select(amountColumns).from(instances).innerJoin(orders, ordersOfInstance).where(where),
    ]);
    return { ...page, totals: totals[0] ?? ZERO };
  }

  private async withAmounts(
    rows: { instance: typeof instances.$inferSelect; zoneName: string | null; gpuModelName: string | null }[],
  ): Promise<ChargingRecord[]> {
    if (rows.length === 0) return [];
    const amounts = await this.db
      .select({ instanceRowId: instances.id, ...amountColumns })
      .from(instances)
      .innerJoin(orders, ordersOfInstance)
      .where(inArray(instances.id, rows.map((row) => row.instance.id)))
      .groupBy(instances.id);
    const byInstance = new Map(amounts.map((row) => [row.instanceRowId, row]));
    return rows.map(({ instance, zoneName, gpuModelName }) => {
      const found = byInstance.get(instance.id);
      return {
        instanceId: instance.instanceId,
        rentalUid: instance.uid,
        name: instance.name,
        zoneName: zoneName ?? instance.zoneId,
        gpuModelName: gpuModelName ?? instance.gpuModelId,
        gpuNum: instance.gpuNum,
        chargingRuleId: instance.chargingRuleId,
        status: instance.status,
        released: instance.releasedAt !== null,
        createdAt: instance.createdAt.toISOString(),
        releasedAt: instance.releasedAt?.toISOString() ?? null,
        usageFen: found?.usageFen ?? 0,
        packageFen: found?.packageFen ?? 0,
        diskFen: found?.diskFen ?? 0,
        totalFen: found?.totalFen ?? 0,
      };
    });
  }
}

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope };

export const chargingRecordRoutes = (deps: AppDeps): FastifyPluginAsyncZod => async (app) => {
  // 文件存储's part of 计费记录 (its own authority, FILE_STORAGE).
  await app.register(fileStorageChargingRecordRoutes(deps));
  const records = new ChargingRecordService(deps.database.db);
  app.get(
    '/rental/charging_records',
    {
      preValidation: requireAuthority('CONTAINER'),
      schema: {
        tags: ['容器实例'],
        summary: '计费记录：每个实例（含已释放）至今的按量、包周期、数据盘费用，以及范围内的合计',
        querystring: chargingRecordsQuery,
        response: { 200: envelopeOf(pageSchema(chargingRecordSchema).extend({ totals: chargingAmountsSchema })), ...errors },
      },
    },
    async (request) => ok(await records.list(principalOf(request), request.query)),
  );
};
