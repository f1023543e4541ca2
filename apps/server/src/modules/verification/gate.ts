import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/client.js';
import { verifications } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';

/**
 * The one check of REQUIRE_VERIFICATION: with it on, an account whose main account has no APPROVED
 * verification (个人、企业 or 学生) may not create instances — creating, cloning and migrating all go
 * through RentalService.create, which calls this. Off (the default), it costs nothing.
 */
export async function assertVerifiedToCreate(executor: Executor, config: Pick<Config, 'requireVerification'>, principal: Principal): Promise<void> {
  if (!config.requireVerification) return;
  const [approved] = await executor
    .select({ id: verifications.id })
    .from(verifications)
    .where(and(eq(verifications.accountId, principal.ownerId), eq(verifications.status, 'APPROVED')))
    .limit(1);
  if (!approved) throw new AppError('VERIFICATION_REQUIRED');
}
