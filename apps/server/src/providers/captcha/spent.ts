import { lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { humanCheckUses } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';

/**
 * Records solved checks as used, by one INSERT … ON CONFLICT DO NOTHING on a primary key: of any
 * number of concurrent requests presenting the same solution, exactly one is told it is the first.
 */
export class SpentHumanChecks {
  constructor(private readonly executor: Executor) {}

  /** True the first time `id` is spent; false when it was spent before (a replay). */
  async spend(id: string, expiresAt: Date): Promise<boolean> {
    const spent = await this.executor
      .insert(humanCheckUses)
      .values({ key: sha256Hex(id), expiresAt })
      .onConflictDoNothing()
      .returning({ key: humanCheckUses.key });
    return spent.length === 1;
  }

  /** Forgets uses that expired: their solutions are refused as expired anyway (a periodic job). */
  async prune(now: Date): Promise<number> {
    const pruned = await this.executor
      .delete(humanCheckUses)
      .where(lt(humanCheckUses.expiresAt, now))
      .returning({ key: humanCheckUses.key });
    return pruned.length;
  }
}
