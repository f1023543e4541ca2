/**
 * Row factories: accounts, balances and hosts written straight into the database, for tests whose
 * subject is not how these come to exist (registration, recharges and the fleet have their own tests).
 * They write exactly the rows the real paths write: an account through AuthService.createMainAccount,
 * money as a balanced ledger transaction.
 */
import { eq } from 'drizzle-orm';
import { hosts } from '../src/db/schema/index.js';
import { AuthService } from '../src/modules/auth/service.js';
import { principalOf, type Principal } from '../src/core/principal.js';
import { postTransaction } from '../src/modules/billing/ledger.js';
import type { TestApp } from './helpers.js';

let factoryCounter = 0;

/** A main account without a password (as an SMS sign-up leaves it), with `balanceFen` given to it. */
export async function insertMainAccount(test: TestApp, options: { balanceFen?: number } = {}): Promise<{ id: number; principal: Principal }> {
  factoryCounter += 1;
  const telephone = `166${String((process.pid * 10_000 + factoryCounter) % 100_000_000).padStart(8, '0')}`;
  const id = await test.deps.database.db.transaction(async (tx) => {
    const accountId = await new AuthService(test.deps).createMainAccount(tx, { telephone, passwordHash: null });
    if (options.balanceFen) {
      await postTransaction(tx, {
        type: 'GIFT',
        channel: 'GIFT',
        description: '测试赠送余额',
        lines: [
          { wallet: accountId, amountFen: options.balanceFen },
          { platform: 'gifts', amountFen: -options.balanceFen },
        ],
        now: test.deps.now(),
      });
    }
    return accountId;
  });
  return { id, principal: principalOf({ id, accountType: 1, parentId: null, permissions: null, roles: [] }, '') };
}

/** A copy of seed host `templateId` under a new id, with its own prices and nothing allocated. */
export async function insertHost(
  test: TestApp,
  templateId: string,
  overrides: Partial<Pick<typeof hosts.$inferInsert, 'usagePriceFen' | 'dayPriceFen' | 'weekPriceFen' | 'monthPriceFen' | 'gpuTotal'>> = {},
): Promise<string> {
  const [template] = await test.deps.database.db.select().from(hosts).where(eq(hosts.id, templateId));
  if (!template) throw new Error(`no host ${templateId}`);
  factoryCounter += 1;
  const id = `t${process.pid % 10_000}-${factoryCounter}`;
  await test.deps.database.db.insert(hosts).values({
    ...template,
    id,
    name: `测试主机-${factoryCounter}`,
    gpuAllocated: 0,
    dataDiskAllocatedGb: 0,
    simFault: null,
    simFaultReason: null,
    ...overrides,
  });
  return id;
}
