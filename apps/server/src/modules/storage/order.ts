import { FILE_STORAGE_FREE_GB } from '@slg/shared';
import type { Transaction } from '../../db/client.js';
import type { OrderService } from '../billing/orders.js';

/**
 * A store's NEW_STORAGE usage order, free when opened: the daily charges for what passes the free
 * tier accrue on it. The main account owns the store and its wallet pays.
 */
export function openStorageOrder(
  orders: OrderService,
  tx: Transaction,
  store: { ownerId: number; creatorId: number; zoneId: string },
  zone: { name: string; priceFenPerGbDay: number },
  title: string,
) {
  return orders.open(tx, {
    ownerId: store.ownerId,
    creatorId: store.creatorId,
    walletId: store.ownerId,
    type: 'NEW_STORAGE',
    billingType: 'USAGE',
    title,
    items: [{ name: `文件存储超出免费 ${FILE_STORAGE_FREE_GB} GB 的部分`, spec: zone.name, quantity: 1, unit: 'GB·天', unitPriceFen: zone.priceFenPerGbDay, amountFen: 0 }],
    resourceType: 'FILE_STORAGE',
    resourceId: store.zoneId,
  });
}
