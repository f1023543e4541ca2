import { eq, or, type SQL } from 'drizzle-orm';
import { datasets } from '../../db/schema/index.js';
import type { Principal } from '../../core/principal.js';

/** Visible to everyone: public datasets and approved shared ones. */
export const listed = (): SQL => or(eq(datasets.kind, 'PUBLIC'), eq(datasets.status, 'PASS')) as SQL;

/** Who may see a dataset: everyone when listed, its owner (the main account and its sub-accounts) always. */
export function visibleTo(principal: Pick<Principal, 'ownerId'> | null): SQL {
  return principal ? (or(listed(), eq(datasets.ownerId, principal.ownerId)) as SQL) : listed();
}

