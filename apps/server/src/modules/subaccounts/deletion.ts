import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import {
  apiTokens,
  copyTasks,
  datasetFavorites,
  imageShares,
  instances,
  elasticDeployments,
  timePacks,
  oauthIdentities,
  oauthStates,
  privateImages,
  recharges,
  reminders,
  sshKeys,
  stockSubscriptions,
} from '../../db/schema/index.js';

/**
 * What deleting a sub-account does to each column that names a user, decided one by one:
 * - `delete`: credentials (they act as whoever holds them, so they are never handed over) and the
 *   sub-account's personal settings, which mean nothing without it;
 * - `transfer`: live resources the team keeps running; they become the main account's and pay from
 *   its wallet;
 * - `repoint`: money still on its way to the sub-account's wallet lands in the main wallet instead;
 * - `keep`: history that records who did what (orders, invoices, the ledger, audit), left naming the
 *   disabled sub-account; the main account already sees it all.
 * `deletion.test.ts` lists every foreign key to `users` in the migrated schema and fails for one not
 * named here, so a new table is decided on purpose.
 */
export const SUB_ACCOUNT_DELETION = {
  'api_tokens.owner_id': 'delete',
  'api_tokens.creator_id': 'delete',
  'ssh_keys.owner_id': 'delete',
  'ssh_keys.creator_id': 'delete',
  'oauth_identities.user_id': 'delete',
  'oauth_states.user_id': 'delete',
  'refresh_tokens.user_id': 'keep', // every session is ended (revoked), the rows stay for reuse detection
  'reminders.user_id': 'delete',
  'stock_subscriptions.owner_id': 'delete',
  'stock_subscriptions.creator_id': 'delete',
  'image_shares.recipient_id': 'delete', // images others shared with it: nobody is left to use them
  'instances.owner_id': 'keep', // already the main account
  'instances.creator_id': 'transfer', // unreleased ones; released ones are history
  'instances.wallet_id': 'transfer', // unreleased ones paid by the sub-account's wallet
  'private_images.owner_id': 'keep',
  'private_images.creator_id': 'transfer', // images not deleted
  'elastic_deployments.owner_id': 'keep',
  'elastic_deployments.creator_id': 'transfer', // deployments not deleted
  'elastic_deployments.wallet_id': 'transfer', // those paid by the sub-account's wallet (their containers with them)
  'time_packs.owner_id': 'keep',
  'time_packs.creator_id': 'transfer',
  'time_packs.wallet_id': 'transfer', // packs in use go with the containers they pay for
  'file_storages.owner_id': 'keep', // the main account's store
  'file_storages.creator_id': 'keep', // who initialised it: history; the store stays the main account's
  'datasets.owner_id': 'keep', // the main account's shared datasets
  'datasets.creator_id': 'keep', // who shared it: history; the dataset stays the main account's
  'datasets.reviewer_id': 'keep', // operators only
  'dataset_favorites.user_id': 'delete', // its own favourites: nobody is left to use them
  'model_allowances.owner_id': 'keep', // main accounts only (their free tokens)
  'model_usage_orders.wallet_id': 'keep', // the wallet row stays (see wallets.account_id), and with it its usage order
  'model_usages.owner_id': 'keep',
  'model_usages.creator_id': 'keep', // what its calls cost stays in the record
  'copy_tasks.owner_id': 'keep',
  'copy_tasks.creator_id': 'transfer',
  'recharges.owner_id': 'keep',
  'recharges.creator_id': 'keep',
  'recharges.wallet_id': 'repoint', // recharges not yet paid: a late payment credits the main wallet
  'wallets.account_id': 'keep', // its balance goes back to the main wallet by a TRANSFER; the row keeps the ledger whole
  'ledger_entries.wallet_id': 'keep',
  'orders.owner_id': 'keep',
  'orders.creator_id': 'keep',
  'orders.wallet_id': 'keep',
  'invoices.owner_id': 'keep',
  'invoices.creator_id': 'keep',
  'invoice_profiles.owner_id': 'keep', // main accounts only
  'vouchers.owner_id': 'keep', // main accounts only
  'redemption_codes.redeemed_by': 'keep',
  'issue_batches.operator_id': 'keep',
  'audit_logs.actor_id': 'keep',
  'notifications.owner_id': 'keep',
  'notifications.creator_id': 'keep', // what the platform said about its resources stays in the record
  'notifications.recipient_id': 'keep', // its phone is cleared, so nothing more is sent to it
  'private_uploads.owner_id': 'keep', // main accounts only (verification evidence)
  'private_uploads.creator_id': 'keep',
  'verifications.account_id': 'keep', // main accounts only
  'verifications.reviewer_id': 'keep',
} as const satisfies Record<string, 'delete' | 'transfer' | 'repoint' | 'keep'>;

/**
 * Carries out the `delete`, `transfer` and `repoint` decisions above for sub-account `subId` of main
 * account `mainId`, inside the caller's transaction. Returns how many resources changed hands.
 */
export async function applySubAccountDeletion(tx: Transaction, subId: number, mainId: number): Promise<{ transferred: number }> {
  await tx.delete(apiTokens).where(eq(apiTokens.creatorId, subId));
  await tx.delete(sshKeys).where(eq(sshKeys.creatorId, subId));
  await tx.delete(oauthIdentities).where(eq(oauthIdentities.userId, subId));
  await tx.delete(oauthStates).where(eq(oauthStates.userId, subId));
  await tx.delete(reminders).where(eq(reminders.userId, subId));
  await tx.delete(stockSubscriptions).where(eq(stockSubscriptions.creatorId, subId));
  await tx.delete(imageShares).where(eq(imageShares.recipientId, subId));
  await tx.delete(datasetFavorites).where(eq(datasetFavorites.userId, subId));

  let transferred = 0;
  const liveInstances = and(eq(instances.ownerId, mainId), eq(instances.creatorId, subId), isNull(instances.releasedAt));
  await payFromMainWallet(tx, subId, mainId);
  transferred += (await tx.update(instances).set({ creatorId: mainId }).where(liveInstances).returning({ id: instances.id })).length;
  transferred += (
    await tx
      .update(privateImages)
      .set({ creatorId: mainId })
      .where(and(eq(privateImages.ownerId, mainId), eq(privateImages.creatorId, subId), isNull(privateImages.deletedAt)))
      .returning({ id: privateImages.id })
  ).length;
  transferred += (
    await tx
      .update(elasticDeployments)
      .set({ creatorId: mainId })
      .where(and(eq(elasticDeployments.ownerId, mainId), eq(elasticDeployments.creatorId, subId), isNull(elasticDeployments.deletedAt)))
      .returning({ id: elasticDeployments.id })
  ).length;
  await tx.update(timePacks).set({ creatorId: mainId }).where(and(eq(timePacks.ownerId, mainId), eq(timePacks.creatorId, subId)));
  await tx
    .update(copyTasks)
    .set({ creatorId: mainId })
    .where(and(eq(copyTasks.ownerId, mainId), eq(copyTasks.creatorId, subId)));
  await tx
    .update(recharges)
    .set({ walletId: mainId })
    .where(and(eq(recharges.walletId, subId), ne(recharges.status, 'SUCCESS')));
  return { transferred };
}

/**
 * A sub-account that starts sharing the main balance hands its own balance over; its live instances
 * that paid from its wallet pay from the main wallet from now on, or they would run on an empty one.
 */
export async function payFromMainWallet(tx: Transaction, subId: number, mainId: number): Promise<void> {
  await tx
    .update(instances)
    .set({ walletId: mainId })
    .where(and(eq(instances.ownerId, mainId), eq(instances.walletId, subId), isNull(instances.releasedAt)));
  await tx
    .update(elasticDeployments)
    .set({ walletId: mainId })
    .where(and(eq(elasticDeployments.ownerId, mainId), eq(elasticDeployments.walletId, subId), isNull(elasticDeployments.deletedAt)));
  await tx
    .update(timePacks)
    .set({ walletId: mainId })
    .where(and(eq(timePacks.ownerId, mainId), eq(timePacks.walletId, subId), eq(timePacks.status, 'IN_USE')));
}
