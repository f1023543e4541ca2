import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NO_PERMISSIONS, SUB_ACCOUNT_LIMIT } from '@slg/shared';
import { call, createTestApp, registerUser, type TestApp } from '../../../test/helpers.js';
import { users } from '../../db/schema/index.js';
import type * as Passwords from '../auth/passwords.js';

// Hashing takes ~50 ms on a thread pool of two, which spaces concurrent creates out so far that they
// rarely overlap; with the hash made once, every create of the burst reaches the database at once.
vi.mock('../auth/passwords.js', async (importOriginal) => {
  const original = await importOriginal<typeof Passwords>();
  const hashed = await original.hashPassword('team2026pass');
  return { ...original, hashPassword: async () => hashed };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('sub-account limit', () => {
  it('keeps the limit of sub-accounts per main account under a concurrent burst', async () => {
    const user = await registerUser(t);
    const info = await call<{ userId: number }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: user.jwtToken });
    const mainId = info.body.result.userId;
    await t.deps.database.db
      .insert(users)
      .values(Array.from({ length: SUB_ACCOUNT_LIMIT - 1 }, (_, index) => ({ accountType: 2, parentId: mainId, username: `pre_${mainId}_${index}`, nickName: '预置', permissions: NO_PERMISSIONS })));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call(t.app, { method: 'POST', url: '/api/v1/subuser/create', token: user.jwtToken, payload: { username: `burst_${mainId}_${index}`, password: 'team2026pass' } }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status !== 200)) expect(refused.body.rspmsg).toBe(`每个主账号最多创建${SUB_ACCOUNT_LIMIT}个子账号`);
  });
});
