import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bigint, bigserial, pgTable, text } from 'drizzle-orm/pg-core';
import { FULL_PERMISSIONS, NO_PERMISSIONS, type PermissionMap } from '@slg/shared';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { principalOf, type Principal } from '../core/principal.js';
import { AppError } from '../core/errors.js';
import { ownedBy, ownershipFor } from './scope.js';

// A stand-in for any owned table (instances, images, ...): only the two ownership columns matter.
const things = pgTable('scope_test_things', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
  creatorId: bigint('creator_id', { mode: 'number' }).notNull(),
  label: text('label').notNull(),
});

const MAIN = 100;
const OTHER_MAIN = 200;
const SUB_A = 101;
const SUB_B = 102;

const main: Principal = principalOf({ id: MAIN, accountType: 1, parentId: null, permissions: null, roles: [] }, 's');
const sub = (id: number, permissions: Partial<PermissionMap>): Principal =>
  principalOf({ id, accountType: 2, parentId: MAIN, permissions: { ...NO_PERMISSIONS, ...permissions }, roles: [] }, 's');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.deps.database.db.execute(
    sql`create table scope_test_things (id bigserial primary key, owner_id bigint not null, creator_id bigint not null, label text not null)`,
  );
  await t.deps.database.db.insert(things).values([
    { ownerId: MAIN, creatorId: MAIN, label: 'main-own' },
    { ownerId: MAIN, creatorId: SUB_A, label: 'sub-a' },
    { ownerId: MAIN, creatorId: SUB_B, label: 'sub-b' },
    { ownerId: OTHER_MAIN, creatorId: OTHER_MAIN, label: 'stranger' },
  ]);
});
afterAll(async () => {
  await t.close();
});

async function visible(principal: Principal): Promise<string[]> {
  const rows = await t.deps.database.db
    .select({ label: things.label })
    .from(things)
    .where(ownedBy(principal, 'CONTAINER', things))
    .orderBy(things.id);
  return rows.map((row) => row.label);
}

describe('ownership scoping', () => {
  it('shows a main account everything it owns and nothing of other accounts', async () => {
    expect(main.permissions).toEqual(FULL_PERMISSIONS);
    expect(await visible(main)).toEqual(['main-own', 'sub-a', 'sub-b']);
  });

  it('shows a sub-account with ALL everything of its main account', async () => {
    expect(await visible(sub(SUB_A, { CONTAINER: 'ALL' }))).toEqual(['main-own', 'sub-a', 'sub-b']);
  });

  it('shows a sub-account with SELF only what it created', async () => {
    expect(await visible(sub(SUB_A, { CONTAINER: 'SELF' }))).toEqual(['sub-a']);
    expect(await visible(sub(SUB_B, { CONTAINER: 'SELF' }))).toEqual(['sub-b']);
  });

  it('refuses a sub-account with NONE with 403, for reading and for creating', async () => {
    const none = sub(SUB_A, { CONTAINER: 'NONE', ELASTIC: 'ALL' });
    expect(() => ownedBy(none, 'CONTAINER', things)).toThrowError(AppError);
    try {
      ownershipFor(none, 'CONTAINER');
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).status).toBe(403);
    }
  });

  it('stamps new rows with the main account as owner and the caller as creator', () => {
    expect(ownershipFor(main, 'MIRROR')).toEqual({ ownerId: MAIN, creatorId: MAIN });
    expect(ownershipFor(sub(SUB_B, { MIRROR: 'SELF' }), 'MIRROR')).toEqual({ ownerId: MAIN, creatorId: SUB_B });
  });

  it('treats missing permission entries of a sub-account as NONE', () => {
    const partial = principalOf({ id: SUB_A, accountType: 2, parentId: MAIN, permissions: { CONTAINER: 'ALL' } as PermissionMap, roles: [] }, 's');
    expect(partial.permissions.INVOICE).toBe('NONE');
    expect(() => principalOf({ id: 5, accountType: 2, parentId: null, permissions: null, roles: [] }, 's')).toThrow();
  });
});
