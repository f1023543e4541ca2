/**
 * Test-only builders for money states the API reaches through payment gateways or other modules:
 * a successful cash recharge, wallet consumption, the operator role. Never imported by the server.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { recharges, users } from '../../db/schema/index.js';
import { postTransaction, type LedgerChannel } from '../billing/ledger.js';
import { newRechargeId } from '../billing/numbers.js';
import { OrderService, type Order } from '../billing/orders.js';

const LEDGER_CHANNEL = { WXPAY: 'WECHAT', ALIPAY: 'ALIPAY', BANK: 'BANK' } as const satisfies Record<string, LedgerChannel>;

/** A SUCCESS recharge of `amountFen` into the user's own wallet, with its ledger transaction. */
export async function cashRecharge(
  db: Database,
  input: { userId: number; ownerId?: number; amountFen: number; now: Date; channel?: keyof typeof LEDGER_CHANNEL },
): Promise<string> {
  const channel = input.channel ?? 'WXPAY';
  const id = newRechargeId(input.now);
  await db.transaction(async (tx) => {
    await tx.insert(recharges).values({
      id,
      ownerId: input.ownerId ?? input.userId,
      creatorId: input.userId,
      walletId: input.userId,
      amountFen: input.amountFen,
      channel,
      provider: channel === 'BANK' ? 'bank' : 'sandbox',
      status: 'SUCCESS',
      createdAt: input.now,
      paidAt: input.now,
    });
    await postTransaction(tx, {
      type: 'RECHARGE',
      channel: LEDGER_CHANNEL[channel],
      lines: [
        { wallet: input.userId, amountFen: input.amountFen },
        { platform: 'payment_clearing', amountFen: -input.amountFen },
      ],
      rechargeId: id,
      description: `账户充值（${id}）`,
      now: input.now,
    });
  });
  return id;
}

/** Opens an UNPAID prepaid order of `amountFen` for a main account (its own wallet pays). */
export async function openOrder(db: Database, now: () => Date, userId: number, amountFen: number): Promise<Order> {
  const service = new OrderService(now);
  return db.transaction((tx) =>
    service.open(tx, {
      ownerId: userId,
      creatorId: userId,
      walletId: userId,
      type: 'NEW_PURCHASE',
      billingType: 'BUYOUT',
      title: '测试实例',
      items: [{ name: 'RTX 4090', spec: '1 卡 / 1 天', quantity: 1, unit: '天', unitPriceFen: amountFen, amountFen }],
    }),
  );
}

/** Opens and pays an order from the wallet without a voucher: a CONSUME of `amountFen`. */
export async function spend(db: Database, now: () => Date, userId: number, amountFen: number): Promise<Order> {
  const order = await openOrder(db, now, userId, amountFen);
  return db.transaction((tx) => new OrderService(now).pay(tx, order.id, { mode: 'none' }));
}

export async function userIdOf(db: Database, telephone: string): Promise<number> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.telephone, telephone));
  if (!user) throw new Error(`no user ${telephone}`);
  return user.id;
}

export async function makeOperator(db: Database, telephone: string): Promise<number> {
  const id = await userIdOf(db, telephone);
  await db.update(users).set({ roles: ['operator'] }).where(eq(users.id, id));
  return id;
}

/** A multipart/form-data body for `app.inject`, with text fields and at most one file. */
export function multipartBody(
  fields: Record<string, string>,
  file?: { field?: string; filename: string; contentType: string; content: Buffer },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----slg-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
