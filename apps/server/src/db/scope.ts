import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AuthorityType } from '@slg/shared';
import { forbidden } from '../core/errors.js';
import { levelOf, type Principal } from '../core/principal.js';

/** The two columns every owned row carries (DESIGN §5). */
export interface OwnedColumns {
  ownerId: PgColumn;
  creatorId: PgColumn;
}

/**
 * The one place that turns (principal, authority type) into the WHERE clause for owned rows.
 * ALL sees every row of the main account, SELF only the rows the caller created, NONE nothing
 * (refused with 403 rather than an empty list, so the console can tell the two apart).
 */
export function ownedBy(principal: Principal, authority: AuthorityType, table: OwnedColumns): SQL {
  const level = levelOf(principal, authority);
  if (level === 'NONE') throw forbidden();
  const sameOwner = eq(table.ownerId, principal.ownerId);
  if (level === 'ALL') return sameOwner;
  return and(sameOwner, eq(table.creatorId, principal.userId)) as SQL;
}

/** The values a new owned row gets: refuses callers without any level on the authority type. */
export function ownershipFor(principal: Principal, authority: AuthorityType): { ownerId: number; creatorId: number } {
  if (levelOf(principal, authority) === 'NONE') throw forbidden();
  return { ownerId: principal.ownerId, creatorId: principal.userId };
}
