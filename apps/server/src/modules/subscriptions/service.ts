import { and, count, desc, eq, exists, gte, isNull, isNotNull, lte, max, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { FREE_DATA_DISK_GB, MAX_WAITING_STOCK_ALERTS, stockAlertStatusLabel, type Page, type StockAlertStatus } from '@slg/shared';
import type { StockAlertView } from '@slg/shared/views/stock-alerts';
import type { AppDeps } from '../../deps.js';
import { gpuModels, hosts, stockSubscriptions, users, zones } from '../../db/schema/index.js';
import { ownedBy, ownershipFor } from '../../db/scope.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../core/errors.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import type { Principal } from '../../core/principal.js';
import { chinaDateTime, NotificationService, stockAlertDedupeKey, type NewNotification } from '../notifications/service.js';

export interface StockAlertInput {
  zoneId: string;
  gpuModelId: string;
  gpuNum: number;
}

export interface StockAlertListQuery extends PageQuery {
  status?: StockAlertStatus | undefined;
}

/** The answer's shape: the schema in packages/shared (views/stock-alerts), which the console reads too. */
export type { StockAlertView };

type StockAlertRow = typeof stockSubscriptions.$inferSelect;

function viewOf(row: StockAlertRow, zoneName: string, gpuModelName: string): StockAlertView {
  const status: StockAlertStatus = row.notifiedAt ? 'NOTIFIED' : 'WAITING';
  return {
    id: row.id,
    zoneId: row.zoneId,
    zoneName,
    gpuModelId: row.gpuModelId,
    gpuModelName,
    gpuNum: row.gpuNum,
    status,
    statusName: stockAlertStatusLabel(status),
    createdAt: row.createdAt.toISOString(),
    notifiedAt: row.notifiedAt?.toISOString() ?? null,
  };
}

/** Free GPUs and data disk of a host, as the market counts them. */
const freeGpus = sql<number>`(${hosts.gpuTotal} - ${hosts.gpuAllocated})`;
const freeDisk = sql<number>`(${hosts.dataDiskTotalGb} - ${hosts.dataDiskAllocatedGb})`;

/**
 * Stock alerts (到货提醒): a user subscribes to a GPU model in a zone with the GPUs they want, and is
 * told once — a console notice and an SMS — when one host there can take that many. The alerts are
 * container resources: scoped by the CONTAINER authority like instances.
 */
export class StockAlertService {
  private readonly notifications: NotificationService;

  constructor(private readonly deps: Pick<AppDeps, 'database' | 'sms' | 'now'>) {
    this.notifications = new NotificationService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  async list(principal: Principal, query: StockAlertListQuery): Promise<Page<StockAlertView>> {
    const conditions: SQL[] = [ownedBy(principal, 'CONTAINER', stockSubscriptions)];
    if (query.status === 'WAITING') conditions.push(isNull(stockSubscriptions.notifiedAt));
    if (query.status === 'NOTIFIED') conditions.push(isNotNull(stockSubscriptions.notifiedAt));
    const where = and(...conditions) as SQL;
    return paged(
      query,
      (limit, offset) =>
        this.db
          .select({ alert: stockSubscriptions, zoneName: zones.name, gpuModelName: gpuModels.name })
          .from(stockSubscriptions)
          .innerJoin(zones, eq(zones.id, stockSubscriptions.zoneId))
          .innerJoin(gpuModels, eq(gpuModels.id, stockSubscriptions.gpuModelId))
          .where(where)
          .orderBy(desc(stockSubscriptions.createdAt), desc(stockSubscriptions.id))
          .limit(limit)
          .offset(offset),
      () => this.db.$count(stockSubscriptions, where),
      (rows) => rows.map((row) => viewOf(row.alert, row.zoneName, row.gpuModelName)),
    );
  }

  /**
   * Subscribes: the zone and the model must be on sale and the zone must have hosts of the model, with
   * at most as many GPUs as its largest host. The same waiting alert twice is refused by the unique
   * index; the cap of waiting alerts is counted under a lock on the user's row, so concurrent requests
   * of one user are decided one after the other.
   */
  async create(principal: Principal, input: StockAlertInput): Promise<StockAlertView> {
    const owner = ownershipFor(principal, 'CONTAINER');
    const { zoneName, gpuModelName } = await this.checkTarget(input);
    try {
      const row = await this.db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, owner.creatorId)).for('no key update');
        const [waiting] = await tx
          .select({ count: count() })
          .from(stockSubscriptions)
          .where(and(eq(stockSubscriptions.creatorId, owner.creatorId), isNull(stockSubscriptions.notifiedAt)));
        if ((waiting?.count ?? 0) >= MAX_WAITING_STOCK_ALERTS) {
          throw new AppError('STATE_CONFLICT', `最多同时订阅${MAX_WAITING_STOCK_ALERTS}个到货提醒，请先取消不需要的提醒`);
        }
        const [created] = await tx
          .insert(stockSubscriptions)
          .values({ ...owner, zoneId: input.zoneId, gpuModelId: input.gpuModelId, gpuNum: input.gpuNum, createdAt: this.deps.now() })
          .returning();
        return created as StockAlertRow;
      });
      return viewOf(row, zoneName, gpuModelName);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError('STOCK_ALERT_EXISTS', `已订阅${zoneName} ${gpuModelName} ${input.gpuNum}卡的到货提醒，有空闲时会通知您，请勿重复订阅`);
      }
      throw error;
    }
  }

  /** The zone and model names, after checking they can be subscribed to with this many GPUs. */
  private async checkTarget(input: StockAlertInput): Promise<{ zoneName: string; gpuModelName: string }> {
    const [[zone], [model], [fleet]] = await Promise.all([
      this.db.select({ name: zones.name, enabled: zones.enabled }).from(zones).where(eq(zones.id, input.zoneId)),
      this.db.select({ name: gpuModels.name, enabled: gpuModels.enabled }).from(gpuModels).where(eq(gpuModels.id, input.gpuModelId)),
      this.db
        .select({ hosts: count(), largest: max(hosts.gpuTotal) })
        .from(hosts)
        .where(and(eq(hosts.zoneId, input.zoneId), eq(hosts.gpuModelId, input.gpuModelId), eq(hosts.enabled, true))),
    ]);
    if (!zone || !zone.enabled) throw new AppError('VALIDATION', '地区不存在或已下线，请重新选择');
    if (!model || !model.enabled) throw new AppError('VALIDATION', 'GPU型号不存在或已下线，请重新选择');
    const largest = fleet?.largest ?? 0;
    if (!fleet || fleet.hosts === 0 || largest < 1) {
      throw new AppError('VALIDATION', `${zone.name}没有${model.name}主机，无法订阅到货提醒，请选择其他地区或型号`);
    }
    if (input.gpuNum > largest) {
      throw new AppError('VALIDATION', `${zone.name}的${model.name}主机最多${largest}卡，GPU数量不能超过${largest}`);
    }
    return { zoneName: zone.name, gpuModelName: model.name };
  }

  /** Cancels a waiting alert or removes a fired one from the list; only the caller's (404 otherwise). */
  async remove(principal: Principal, id: number): Promise<void> {
    const removed = await this.db
      .delete(stockSubscriptions)
      .where(and(ownedBy(principal, 'CONTAINER', stockSubscriptions), eq(stockSubscriptions.id, id)))
      .returning({ id: stockSubscriptions.id });
    if (removed.length === 0) throw new AppError('NOT_FOUND', '到货提醒不存在');
  }

  /**
   * The job: every waiting alert for which one enabled host of its zone and model (both on sale) has
   * the GPUs asked for free — and the free data disk an instance gets, as the market counts a host that
   * can take an order — fires. One set-based UPDATE over all waiting alerts marks them notified only
   * while `notified_at` is still null, so two passes at once (two server processes) never fire one
   * twice; the notifications are written in the same transaction (one per alert by its dedupe key) and
   * the SMS sent after the commit. Returns the number of alerts fired.
   */
  async fireAlerts(): Promise<number> {
    const now = this.deps.now();
    const waiting = alias(stockSubscriptions, 'waiting');
    const waitingHere = exists(
      this.db
        .select({ one: sql`1` })
        .from(waiting)
        .where(and(isNull(waiting.notifiedAt), eq(waiting.zoneId, hosts.zoneId), eq(waiting.gpuModelId, hosts.gpuModelId))),
    );
    const fired = await this.db.transaction(async (tx) => {
      // Per (zone, model) with a waiting alert: the most GPUs one host can give now.
      const stock = tx
        .select({
          zoneId: hosts.zoneId,
          gpuModelId: hosts.gpuModelId,
          zoneName: sql<string>`${zones.name}`.as('zone_name'),
          gpuModelName: sql<string>`${gpuModels.name}`.as('gpu_model_name'),
          free: sql<number>`max(${freeGpus})::int`.as('free'),
        })
        .from(hosts)
        .innerJoin(zones, and(eq(zones.id, hosts.zoneId), eq(zones.enabled, true)))
        .innerJoin(gpuModels, and(eq(gpuModels.id, hosts.gpuModelId), eq(gpuModels.enabled, true)))
        .where(and(eq(hosts.enabled, true), gte(freeDisk, FREE_DATA_DISK_GB), waitingHere))
        .groupBy(hosts.zoneId, hosts.gpuModelId, zones.name, gpuModels.name)
        .as('stock');
      const rows = await tx
        .update(stockSubscriptions)
        .set({ notifiedAt: now })
        .from(stock)
        .where(
          and(
            isNull(stockSubscriptions.notifiedAt),
            eq(stockSubscriptions.zoneId, stock.zoneId),
            eq(stockSubscriptions.gpuModelId, stock.gpuModelId),
            lte(stockSubscriptions.gpuNum, stock.free),
          ),
        )
        .returning({
          id: stockSubscriptions.id,
          ownerId: stockSubscriptions.ownerId,
          creatorId: stockSubscriptions.creatorId,
          gpuNum: stockSubscriptions.gpuNum,
          zoneName: stock.zoneName,
          gpuModelName: stock.gpuModelName,
          free: stock.free,
        });
      if (rows.length === 0) return 0;
      const at = chinaDateTime(now);
      await this.notifications.record(
        tx,
        rows.map(
          (row): NewNotification => ({
            ownerId: row.ownerId,
            creatorId: row.creatorId,
            recipientId: row.creatorId,
            kind: 'STOCK_AVAILABLE',
            title: `到货提醒：${row.zoneName} ${row.gpuModelName} 已有空闲`,
            body: `您订阅的${row.zoneName} ${row.gpuModelName} ${row.gpuNum}卡已有空闲（${at}，单台主机最多空闲${row.free}卡），可前往算力市场租用。空闲GPU先到先得，本提醒只发送一次。`,
            instanceRowId: null,
            dedupeKey: stockAlertDedupeKey(row.id),
          }),
        ),
      );
      return rows.length;
    });
    if (fired > 0) await this.notifications.deliverSms();
    return fired;
  }
}
