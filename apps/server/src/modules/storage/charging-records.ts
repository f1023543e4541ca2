import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { desc, eq, sql } from 'drizzle-orm';
import {
  fileStorageChargingRecordsSchema,
  type FileStorageChargingRecord,
  type FileStorageChargingRecords as FileStorageChargingRecordsView,
} from '@slg/shared/views/storage-billing';
import type { AppDeps } from '../../deps.js';
import type { Database } from '../../db/client.js';
import { fileStorages, orders, zones } from '../../db/schema/index.js';
import { ownedBy } from '../../db/scope.js';
import type { Principal } from '../../core/principal.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { envelopeOf, errorEnvelope, ok } from '../../http/envelope.js';
import { billableGb, fileStorageDailyFen } from './arrears.js';

/** Stores listed (newest first); an account has one live store per region, and the deleted ones kept as records. */
const LIST_LIMIT = 200;

/**
 * 计费记录 of 文件存储: each store of the account (per region, deleted ones included) with its usage,
 * what a day costs at it and what it has cost so far, and the total. Scoped by FILE_STORAGE (ALL or NONE).
 */
export class FileStorageChargingRecords {
  constructor(private readonly db: Database) {}

  async list(principal: Principal): Promise<FileStorageChargingRecordsView> {
    const scope = ownedBy(principal, 'FILE_STORAGE', { ownerId: fileStorages.ownerId, creatorId: fileStorages.creatorId });
    const [rows, totals] = await Promise.all([
      this.db
        .select({ store: fileStorages, zoneName: zones.name, price: zones.storagePriceFenPerGbDay, orderNo: orders.orderNo })
        .from(fileStorages)
        .leftJoin(zones, eq(zones.id, fileStorages.zoneId))
        .leftJoin(orders, eq(orders.id, fileStorages.orderId))
        .where(scope)
        .orderBy(sql`${fileStorages.deletedAt} is not null`, desc(fileStorages.createdAt), desc(fileStorages.id))
        .limit(LIST_LIMIT),
      this.db
        .select({ totalFen: sql<number>`coalesce(sum(${fileStorages.chargedFen}), 0)`.mapWith(Number) })
        .from(fileStorages)
        .where(scope),
    ]);
    const list = rows.map(({ store, zoneName, price, orderNo }): FileStorageChargingRecord => {
      const priceFenPerGbDay = price ?? 0;
      const deleted = store.deletedAt !== null;
      return {
        zoneId: store.zoneId,
        zoneName: zoneName ?? store.zoneId,
        status: deleted ? 'DELETED' : store.writesBlockedAt ? 'WRITES_BLOCKED' : 'ACTIVE',
        usedBytes: store.usedBytes,
        billableGb: billableGb(store.usedBytes),
        priceFenPerGbDay,
        rateFenPerDay: deleted ? 0 : fileStorageDailyFen(store.usedBytes, priceFenPerGbDay),
        chargedFen: store.chargedFen,
        billedUntil: store.billedUntil.toISOString(),
        arrearsSince: store.arrearsSince?.toISOString() ?? null,
        writesBlockedAt: store.writesBlockedAt?.toISOString() ?? null,
        orderNo: orderNo ?? null,
        createdAt: store.createdAt.toISOString(),
        deletedAt: store.deletedAt?.toISOString() ?? null,
      };
    });
    return { list, totalFen: totals[0]?.totalFen ?? 0 };
  }
}

const errors = { 401: errorEnvelope, 403: errorEnvelope };

/** `GET /storage/charging_records` (registered with 计费记录's routes). */
export const fileStorageChargingRecordRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const records = new FileStorageChargingRecords(deps.database.db);
    app.get(
      '/storage/charging_records',
      {
        preValidation: requireAuthority('FILE_STORAGE'),
        schema: {
          tags: ['文件存储'],
          summary: '计费记录：每个地区的文件存储（含已删除）的用量、每天费用与至今已结算的费用',
          response: { 200: envelopeOf(fileStorageChargingRecordsSchema), ...errors },
        },
      },
      async (request) => ok(await records.list(principalOf(request))),
    );
  };
