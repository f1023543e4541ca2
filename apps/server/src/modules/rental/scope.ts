import { and, isNull, type SQL } from 'drizzle-orm';
import type { Principal } from '../../core/principal.js';
import { instances } from '../../db/schema/index.js';
import { ownedBy } from '../../db/scope.js';

/** The caller's rented instances (容器实例): elastic deployments' containers are not among them (they are the ELASTIC authority's). */
export function rentedBy(principal: Principal): SQL {
  return and(ownedBy(principal, 'CONTAINER', instances), isNull(instances.deploymentRowId)) as SQL;
}
