import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { NO_PERMISSIONS } from '@slg/shared';
import { users, wallets } from '../../db/schema/index.js';
import { SessionService } from './sessions.js';
import { call, createTestApp, loginToken, registerUser, sendCode, TEST_PASSWORD, type TestApp } from '../../../test/helpers.js';
import { secondReplica, type Replica } from '../../../test/replica.js';

// Two app instances on one database, as two server processes behind a load balancer. A session
// revoked through one must be refused by the other on the very next request: nothing may remember a
// session between requests.
let t: TestApp;
let replicaB: Replica;
let a: FastifyInstance;
let b: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp();
  replicaB = await secondReplica(t);
  a = t.app;
  b = replicaB.app;
});

afterAll(async () => {
  await replicaB.close();
  await t.close();
});

const userinfoStatus = async (app: FastifyInstance, token: string) =>
  (await call(app, { method: 'GET', url: '/api/v1/user/userinfo', token })).status;
const balanceStatus = async (app: FastifyInstance, token: string) => (await call(app, { method: 'GET', url: '/api/v1/account/', token })).status;

describe('a revoked session is refused at once on every replica', () => {
  it('signing out through A ends the access token on B', async () => {
    const user = await registerUser(t);
    // B has served this session (anything it might remember, it would remember now).
    expect(await userinfoStatus(b, user.jwtToken)).toBe(200);
    expect(await balanceStatus(b, user.jwtToken)).toBe(200);

    expect((await call(a, { method: 'POST', url: '/api/v1/auth/logout', token: user.jwtToken })).status).toBe(200);

    expect(await userinfoStatus(b, user.jwtToken)).toBe(401);
    expect(await balanceStatus(b, user.jwtToken)).toBe(401);
  });

  it('a password change through A ends the other sessions on B and keeps the current one', async () => {
    const user = await registerUser(t);
    const otherSession = await loginToken(t, user.telephone);
    expect(await userinfoStatus(b, otherSession)).toBe(200);
    expect(await userinfoStatus(b, user.jwtToken)).toBe(200);

    const changed = await call(a, {
      method: 'POST',
      url: '/api/v1/user/updatePassword',
      token: user.jwtToken,
      payload: { oldPassword: TEST_PASSWORD, password: 'changed123' },
    });
    expect(changed.status).toBe(200);

    expect(await userinfoStatus(b, otherSession)).toBe(401);
    expect(await userinfoStatus(b, user.jwtToken)).toBe(200);
  });

  it('a password reset through A ends every session on B', async () => {
    const user = await registerUser(t);
    expect(await userinfoStatus(b, user.jwtToken)).toBe(200);
    const code = await sendCode(a, user.telephone, 'reset');
    const reset = await call(a, {
      method: 'POST',
      url: '/api/v1/user/forgetPassword',
      payload: { telephone: user.telephone, code, password: 'resetpass1' },
    });
    expect(reset.status).toBe(200);
    expect(await userinfoStatus(b, user.jwtToken)).toBe(401);
  });

  it('a refresh token replayed through A ends the rotated session on B', async () => {
    const user = await registerUser(t);
    const refresh = (app: FastifyInstance, refreshToken: string) =>
      call<{ jwtToken: string; refreshToken: string }>(app, { method: 'POST', url: '/api/v1/auth/refresh-token', payload: { refreshToken } });
    const rotated = await refresh(b, user.refreshToken);
    expect(rotated.status).toBe(200);
    expect(await userinfoStatus(b, rotated.body.result.jwtToken)).toBe(200);

    expect((await refresh(a, user.refreshToken)).status).toBe(401);

    expect(await userinfoStatus(b, rotated.body.result.jwtToken)).toBe(401);
    expect(await userinfoStatus(a, rotated.body.result.jwtToken)).toBe(401);
  });
});

describe('the signed-in reads', () => {
  it('answer from the session check row on either replica, and see a change made through the other at once', async () => {
    const user = await registerUser(t);
    expect(await userinfoStatus(b, user.jwtToken)).toBe(200);
    const rename = await call(a, { method: 'POST', url: '/api/v1/user/updateNickname', token: user.jwtToken, payload: { nickName: '新昵称' } });
    expect(rename.status).toBe(200);
    const info = await call<{ nickName: string; telephone: string; hasPassword: boolean; accountType: number }>(b, {
      method: 'GET',
      url: '/api/v1/user/userinfo',
      token: user.jwtToken,
    });
    expect(info.body.result).toMatchObject({
      nickName: '新昵称',
      telephone: `${user.telephone.slice(0, 3)}****${user.telephone.slice(-4)}`,
      hasPassword: true,
      accountType: 1,
    });
    expect((await call(b, { method: 'GET', url: '/api/v1/account/', token: user.jwtToken })).body.result).toEqual({ totalBalance: 0 });
  });
});

describe('concurrent session checks (they share statements)', () => {
  it('answer each caller with its own row, balance and verdict', async () => {
    const db = t.deps.database.db;
    const people = await Promise.all(
      [100, 200, 300].map(async (balanceFen) => {
        const user = await registerUser(t);
        const id = (await call<{ userId: number }>(a, { method: 'GET', url: '/api/v1/user/userinfo', token: user.jwtToken })).body.result.userId;
        await db.update(wallets).set({ balanceFen }).where(eq(wallets.accountId, id));
        return { token: user.jwtToken, id, balanceFen };
      }),
    );
    const owner = people[0]!;
    const [sub] = await db
      .insert(users)
      .values({ accountType: 2, parentId: owner.id, username: `shared_${owner.id}`, nickName: '共享', permissions: NO_PERMISSIONS, sharedMainBalance: true })
      .returning({ id: users.id });
    await db.insert(wallets).values({ accountId: sub!.id, balanceFen: 7 });
    const subToken = (await db.transaction((tx) => new SessionService(t.deps).start(tx, sub!.id))).jwtToken;
    const signedOut = await registerUser(t);
    await call(a, { method: 'POST', url: '/api/v1/auth/logout', token: signedOut.jwtToken });

    type Expectation = { url: string; token: string; status: number; result?: unknown };
    const expectations: Expectation[] = [];
    for (let round = 0; round < 5; round += 1) {
      for (const person of people) {
        expectations.push({ url: '/api/v1/account/', token: person.token, status: 200, result: { totalBalance: person.balanceFen } });
        expectations.push({ url: '/api/v1/user/userinfo', token: person.token, status: 200, result: expect.objectContaining({ userId: person.id }) });
      }
      expectations.push({ url: '/api/v1/account/', token: subToken, status: 200, result: { totalBalance: owner.balanceFen } });
      expectations.push({ url: '/api/v1/user/userinfo', token: subToken, status: 200, result: expect.objectContaining({ userId: sub!.id, accountType: 2 }) });
      expectations.push({ url: '/api/v1/user/userinfo', token: signedOut.jwtToken, status: 401 });
      expectations.push({ url: '/api/v1/account/', token: signedOut.jwtToken, status: 401 });
    }
    const answers = await Promise.all(expectations.map(({ url, token }) => call(b, { method: 'GET', url, token })));
    answers.forEach((answer, index) => {
      const expected = expectations[index]!;
      expect(answer.status, `${index} ${expected.url}`).toBe(expected.status);
      if (expected.result !== undefined) expect(answer.body.result, `${index} ${expected.url}`).toEqual(expected.result);
    });
  });
});
