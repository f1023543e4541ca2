import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { NO_PERMISSIONS } from '@slg/shared';
import { call, createTestApp, registerUser, type TestApp } from '../../../test/helpers.js';
import { users, wallets } from '../../db/schema/index.js';
import { SessionService } from '../auth/sessions.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Sub-account creation is a later issue's; here a row is written directly to prove the principal model. */
async function createSubAccount(parentId: number, sharedMainBalance: boolean): Promise<string> {
  const db = t.deps.database.db;
  const [sub] = await db
    .insert(users)
    .values({
      accountType: 2,
      parentId,
      username: `sub_${parentId}_${sharedMainBalance ? 's' : 'o'}`,
      nickName: '训练组',
      permissions: { ...NO_PERMISSIONS, CONTAINER: 'SELF', INVOICE: 'ALL' },
      sharedMainBalance,
    })
    .returning({ id: users.id });
  if (!sub) throw new Error('no sub-account');
  await db.insert(wallets).values({ accountId: sub.id, balanceFen: 1234 });
  const session = await db.transaction((tx) => new SessionService(t.deps).start(tx, sub.id));
  return session.jwtToken;
}

describe('sub-account principal', () => {
  it('reports its permissions and its own wallet balance', async () => {
    const main = await registerUser(t);
    const mainInfo = await call<{ userId: number }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: main.jwtToken });
    const token = await createSubAccount(mainInfo.body.result.userId, false);
    const me = await call<Record<string, unknown>>(t.app, { method: 'GET', url: '/api/v1/subuser/me', token });
    expect(me.status).toBe(200);
    expect(me.body.result).toMatchObject({
      accountType: 2,
      nickname: '训练组',
      permissions: ['CONTAINER', 'INVOICE'],
      sharedMainBalance: false,
      mainAccountId: mainInfo.body.result.userId,
    });
    expect((await call(t.app, { method: 'GET', url: '/api/v1/account/', token })).body.result).toEqual({ totalBalance: 1234 });
  });

  it('sees the main wallet when it shares the main balance', async () => {
    const main = await registerUser(t);
    const mainInfo = await call<{ userId: number }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: main.jwtToken });
    await t.deps.database.db.update(wallets).set({ balanceFen: 50_000 }).where(eq(wallets.accountId, mainInfo.body.result.userId));
    const token = await createSubAccount(mainInfo.body.result.userId, true);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/account/', token })).body.result).toEqual({ totalBalance: 50_000 });
  });
});
