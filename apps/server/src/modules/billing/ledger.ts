import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../../db/client.js';
import { ledgerEntries, ledgerTransactions, users, wallets, type PlatformAccount } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';

export type LedgerType = 'CONSUME' | 'RECHARGE' | 'REFUND' | 'WITHDRAW' | 'TRANSFER' | 'GIFT';
export type LedgerChannel = 'WECHAT' | 'ALIPAY' | 'BANK' | 'BALANCE' | 'VOUCHER' | 'GIFT';

export type LedgerLine = { wallet: number; amountFen: number } | { platform: PlatformAccount; amountFen: number };

export interface PostTransaction {
  type: LedgerType;
  channel: LedgerChannel;
  description: string;
  lines: LedgerLine[];
  orderId?: number | undefined;
  rechargeId?: string | undefined;
  /** Metered charges may take a wallet below zero; everything else refuses to overdraw. */
  allowNegative?: boolean;
  now: Date;
}

/** Money is integer fen, positive where an amount is asked for; anything else is a bug in the caller. */
export function assertPositiveFen(amountFen: number): void {
  if (!Number.isSafeInteger(amountFen) || amountFen <= 0) throw new AppError('AMOUNT_INVALID');
}

/**
 * Writes one balanced transaction: its lines sum to zero, every wallet touched is locked
 * (`FOR UPDATE`, in id order so two transfers never deadlock) and its balance moves with its entry.
 * Must run inside the caller's database transaction, together with the business change it pays for.
 */
export async function postTransaction(tx: Transaction, input: PostTransaction): Promise<number> {
  if (input.lines.length < 2) throw new Error('a ledger transaction needs at least two lines');
  let sum = 0;
  for (const line of input.lines) {
    if (!Number.isSafeInteger(line.amountFen) || line.amountFen === 0) throw new Error(`bad ledger amount ${line.amountFen}`);
    sum += line.amountFen;
  }
  if (sum !== 0) throw new Error(`unbalanced ledger transaction: ${sum}`);

  const walletIds = [...new Set(input.lines.flatMap((line) => ('wallet' in line ? [line.wallet] : [])))].sort((a, b) => a - b);
  const balances = new Map<number, number>();
  if (walletIds.length > 0) {
    const locked = await tx
      .select({ accountId: wallets.accountId, balance: wallets.balanceFen })
      .from(wallets)
      .where(inArray(wallets.accountId, walletIds))
      .orderBy(asc(wallets.accountId))
      .for('update');
    for (const row of locked) balances.set(row.accountId, row.balance);
    for (const id of walletIds) if (!balances.has(id)) throw new Error(`wallet ${id} does not exist`);
  }

  const [transaction] = await tx
    .insert(ledgerTransactions)
    .values({
      type: input.type,
      channel: input.channel,
      description: input.description,
      orderId: input.orderId ?? null,
      rechargeId: input.rechargeId ?? null,
      createdAt: input.now,
    })
    .returning({ id: ledgerTransactions.id });
  if (!transaction) throw new Error('ledger insert returned nothing');

  const entries = input.lines.map((line) => {
    if ('platform' in line) {
      return { transactionId: transaction.id, platformAccount: line.platform, amountFen: line.amountFen, createdAt: input.now };
    }
    const after = (balances.get(line.wallet) ?? 0) + line.amountFen;
    if (after < 0 && line.amountFen < 0 && !input.allowNegative) throw new AppError('INSUFFICIENT_BALANCE');
    balances.set(line.wallet, after);
    return { transactionId: transaction.id, walletId: line.wallet, amountFen: line.amountFen, balanceAfterFen: after, createdAt: input.now };
  });
  await tx.insert(ledgerEntries).values(entries);
  for (const id of walletIds) {
    await tx
      .update(wallets)
      .set({ balanceFen: balances.get(id) ?? 0, updatedAt: input.now })
      .where(eq(wallets.accountId, id));
  }
  return transaction.id;
}

/**
 * The wallet a caller spends from: its own, or its main account's when a sub-account shares the
 * main balance.
 */
export async function payingWalletOf(executor: Executor, principal: Principal): Promise<number> {
  if (principal.userId === principal.ownerId) return principal.userId;
  const [user] = await executor.select({ shared: users.sharedMainBalance }).from(users).where(eq(users.id, principal.userId));
  return user?.shared ? principal.ownerId : principal.userId;
}

/** Every wallet whose stored balance differs from the sum of its entries (must always be empty). */
export async function walletsOutOfBalance(executor: Executor): Promise<{ walletId: number; stored: number; entries: number }[]> {
  const entriesSum = sql<number>`coalesce(sum(${ledgerEntries.amountFen}), 0)`.mapWith(Number);
  return executor
    .select({ walletId: wallets.accountId, stored: wallets.balanceFen, entries: entriesSum })
    .from(wallets)
    .leftJoin(ledgerEntries, eq(ledgerEntries.walletId, wallets.accountId))
    .groupBy(wallets.accountId, wallets.balanceFen)
    .having(sql`${wallets.balanceFen} <> coalesce(sum(${ledgerEntries.amountFen}), 0)`);
}

/** Ledger transactions whose entries do not sum to zero (must always be empty). */
export async function unbalancedTransactions(executor: Executor): Promise<number[]> {
  const rows = await executor
    .select({ transactionId: ledgerEntries.transactionId })
    .from(ledgerEntries)
    .groupBy(ledgerEntries.transactionId)
    .having(sql`sum(${ledgerEntries.amountFen}) <> 0`);
  return rows.map((row) => row.transactionId);
}
