import { eq, sql } from 'drizzle-orm';
import {
  formatYuan,
  packageKeyOfRule,
  priceHoursAtGpuChange,
  PACKAGE_LABELS,
  PACKAGE_PERIOD_DAYS,
  type PackageKey,
} from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Executor, Transaction } from '../../db/client.js';
import { hosts, instances } from '../../db/schema/index.js';
import { ownershipFor } from '../../db/scope.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { OrderService } from '../billing/orders.js';
import { chinaDateTime } from '../notifications/service.js';
import type { InstanceRow } from './metering.js';
import { PackageService } from './packages.js';
import { hourlyRateFen, pricePerGpuFen, usagePricePerGpuFen } from './pricing.js';
import { RentalService, type HostWithModel } from './service.js';
import { priceSourceOf } from './views.js';

const HOUR_MS = 3_600_000;

export interface GpuCountInput {
  instanceId: string;
  gpuNum: number;
}

/** What changing the GPU count costs or gives back, as the console shows it before confirming. */
export interface GpuCountQuote {
  fromGpuNum: number;
  toGpuNum: number;
  /** The most GPUs this instance may have here: the host's size (GPUs it holds plus the host's free ones for a package). */
  maxGpuNum: number;
  /** GPUs free on the host right now. */
  hostFreeGpus: number;
  /** Pay-as-you-go: the hourly rate after the change (nothing is charged now). */
  hourlyFen: number;
  /** A package: what the added GPUs cost for the package's remaining whole hours (begun hours count). */
  payable: number;
  /** A package: what the removed GPUs give back for the remaining whole hours, at most the cash paid. */
  refund: number;
  /** A package: its end, which the change does not move. */
  expiresAt: string | null;
}

type Plan = { kind: 'usage' } | { kind: 'package'; key: PackageKey; remainingHours: { up: number; down: number } };

/**
 * `POST /rental/change_gpu_num` (docs/decisions.md "GPU count"): an instance that is off changes its
 * GPU count. Pay-as-you-go holds no GPUs while off, so only the count (and the rate of the next run)
 * changes. A package holds its GPUs: more are taken from the host by one conditional update and paid
 * for the package's remaining time (UPGRADE_CONTAINER); fewer go back to the host and their remaining
 * time is refunded from the package's orders (never the voucher part). All in one transaction with
 * the instance row locked, so two changes never over-allocate.
 */
export class GpuCountService {
  private readonly rental: RentalService;
  private readonly packages: PackageService;
  private readonly orders: OrderService;

  constructor(private readonly deps: AppDeps) {
    this.rental = new RentalService(deps);
    this.packages = new PackageService(deps);
    this.orders = new OrderService(deps.now);
  }

  private get db() {
    return this.deps.database.db;
  }

  private planOf(instance: InstanceRow): Plan {
    const key = packageKeyOfRule(instance.chargingRuleId);
    if (!key || !instance.expiresAt) return { kind: 'usage' };
    const remainingMs = Math.max(0, instance.expiresAt.getTime() - this.deps.now().getTime());
    // Whole hours, so the quote a user reads equals what is applied when they confirm within the hour.
    return { kind: 'package', key, remainingHours: { up: Math.ceil(remainingMs / HOUR_MS), down: Math.floor(remainingMs / HOUR_MS) } };
  }

  private async hostOf(executor: Executor, instance: InstanceRow): Promise<HostWithModel> {
    return this.rental.hostWithModel(executor, instance.hostId).catch(() => {
      throw new AppError('STATE_CONFLICT', '实例所在主机已下架，不能变更GPU数量');
    });
  }

  private quoteOf(instance: InstanceRow, found: HostWithModel, gpuNum: number): GpuCountQuote {
    const { host } = found;
    if (gpuNum === instance.gpuNum) throw new AppError('VALIDATION', `实例已是 ${gpuNum} 卡，请选择其他GPU数量`);
    if (gpuNum > host.gpuTotal) throw new AppError('VALIDATION', `该主机最多 ${host.gpuTotal} 卡`);
    const source = priceSourceOf(host, found.modelPricePerHourFen);
    const plan = this.planOf(instance);
    const hostFreeGpus = host.gpuTotal - host.gpuAllocated;
    const quote: GpuCountQuote = {
      fromGpuNum: instance.gpuNum,
      toGpuNum: gpuNum,
      maxGpuNum: host.gpuTotal,
      hostFreeGpus,
      hourlyFen: hourlyRateFen(source, gpuNum, 'gpu', this.deps.config.compute.noGpuPriceFen),
      payable: 0,
      refund: 0,
      expiresAt: instance.expiresAt?.toISOString() ?? null,
    };
    if (plan.kind === 'usage') return quote;
    const perGpuPeriod = pricePerGpuFen(source, instance.chargingRuleId);
    const periodHours = PACKAGE_PERIOD_DAYS[plan.key] * 24;
    const delta = gpuNum - instance.gpuNum;
    if (delta > 0) quote.payable = Math.ceil((perGpuPeriod * delta * plan.remainingHours.up) / periodHours);
    else quote.refund = Math.min(instance.packagePaidFen, Math.floor((perGpuPeriod * -delta * plan.remainingHours.down) / periodHours));
    return quote;
  }

  async prepay(principal: Principal, input: GpuCountInput): Promise<GpuCountQuote> {
    return this.db.transaction(async (tx) => {
      const instance = await this.rental.lockOwned(tx, principal, input.instanceId, 'change_gpu_num');
      return this.quoteOf(instance, await this.hostOf(tx, instance), input.gpuNum);
    });
  }

  async change(tx: Transaction, principal: Principal, input: GpuCountInput): Promise<GpuCountQuote & { orderId: string | null }> {
    const instance = await this.rental.lockOwned(tx, principal, input.instanceId, 'change_gpu_num');
    const found = await this.hostOf(tx, instance);
    const quote = this.quoteOf(instance, found, input.gpuNum);
    const plan = this.planOf(instance);
    const now = this.deps.now();
    const delta = input.gpuNum - instance.gpuNum;
    let orderId: string | null = null;
    let packagePaidFen = instance.packagePaidFen;
    let gpuHeld = instance.gpuHeld;
    let priced = { pricedHours: instance.packagePricedHours, pricedFen: instance.packagePricedFen, nextHourMostGpus: instance.packageNextHourMostGpus };
    if (plan.kind === 'package' && instance.packageStartedAt) {
      // The hours so far keep the price of the most GPUs in force during them, whatever a switch to
      // pay-as-you-go later counts as used (else the removed GPUs' used hours were refunded twice).
      const usagePerGpu = usagePricePerGpuFen(priceSourceOf(found.host, found.modelPricePerHourFen));
      priced = priceHoursAtGpuChange({ startedAt: instance.packageStartedAt, ...priced }, usagePerGpu, instance.gpuNum, input.gpuNum, now);
    }

    if (plan.kind === 'package') {
      if (delta > 0) {
        // The package's GPUs stay reserved while it is off: the added ones are taken now or refused.
        await this.rental.lockWallet(tx, instance.walletId);
        await this.rental.takeGpus(tx, found.host, delta, 0);
        gpuHeld += delta;
        if (quote.payable > 0) {
          const owner = ownershipFor(principal, 'CONTAINER');
          const opened = await this.orders.open(tx, {
            ownerId: owner.ownerId,
            creatorId: owner.creatorId,
            walletId: instance.walletId,
            type: 'UPGRADE_CONTAINER',
            billingType: 'BUYOUT',
            title: `实例 ${instance.name} 升配 ${instance.gpuNum} → ${input.gpuNum} 卡`,
            items: [
              {
                name: `${found.gpuModelName} × ${delta}`,
                spec: `${instance.instanceId}，${PACKAGE_LABELS[plan.key]}剩余 ${plan.remainingHours.up} 小时，至 ${chinaDateTime(instance.expiresAt ?? now)}`,
                quantity: delta,
                unit: '卡',
                unitPriceFen: Math.ceil(quote.payable / delta),
                amountFen: quote.payable,
              },
            ],
            resourceType: 'INSTANCE',
            resourceId: instance.uid,
          });
          const paid = await this.rental.payPrepaid(tx, opened, { mode: 'none' });
          packagePaidFen += paid.paidFen;
          orderId = paid.orderNo;
        }
      } else {
        const returned = Math.min(-delta, instance.gpuHeld);
        if (returned > 0) {
          await tx
            .update(hosts)
            .set({ gpuAllocated: sql`${hosts.gpuAllocated} - ${returned}` })
            .where(eq(hosts.id, instance.hostId));
          gpuHeld -= returned;
        }
        if (quote.refund > 0) {
          await this.packages.refundPackageOrders(tx, instance, quote.refund, `降配 ${instance.gpuNum} → ${input.gpuNum} 卡，退回剩余时长费用`);
          packagePaidFen -= quote.refund;
        }
      }
    }

    await tx
      .update(instances)
      .set({ gpuNum: input.gpuNum, gpuHeld, packagePaidFen, packagePricedHours: priced.pricedHours, packagePricedFen: priced.pricedFen, packageNextHourMostGpus: priced.nextHourMostGpus, updatedAt: now })
      .where(eq(instances.id, instance.id));
    const money = quote.payable > 0 ? `，支付${formatYuan(quote.payable)}` : quote.refund > 0 ? `，退回${formatYuan(quote.refund)}` : '';
    await this.rental.recordEvent(
      tx,
      instance.id,
      'CHANGE_GPU_NUM',
      instance.status,
      instance.status,
      `变更GPU数量：${instance.gpuNum} → ${input.gpuNum} 卡${money}`,
      principal.userId,
    );
    return { ...quote, orderId };
  }
}
