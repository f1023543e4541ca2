import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { API_TOKEN_NAME_MESSAGE, ErrorCodes, MAX_API_TOKENS, NO_PERMISSIONS, type Page } from '@slg/shared';
import { call, createTestApp, rechargeThroughSandbox, registerUser, type TestApp } from '../../../test/helpers.js';
import { rowsOf } from '../../db/client.js';
import { apiTokens, users, wallets } from '../../db/schema/index.js';
import { isSessionOnlyPath } from '../../http/auth.js';
import { SessionService } from '../auth/sessions.js';
import type { ApiTokenView, CreatedApiToken, TokenValidity } from './service.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;

function createToken(bearer: string, payload: unknown) {
  return call<CreatedApiToken>(t.app, { method: 'POST', url: '/api/v1/settings/token', token: bearer, payload: payload as Record<string, unknown> });
}
function listOf(bearer: string, query = '') {
  return call<Page<ApiTokenView>>(t.app, { method: 'GET', url: `/api/v1/settings/token${query}`, token: bearer });
}
function rename(bearer: string, id: number | string, name: unknown) {
  return call<ApiTokenView>(t.app, { method: 'PUT', url: `/api/v1/settings/token/${id}`, token: bearer, payload: { name } });
}
function setStatus(bearer: string, id: number | string, status: unknown) {
  return call<ApiTokenView>(t.app, { method: 'PATCH', url: `/api/v1/settings/token/${id}/status`, token: bearer, payload: { status } });
}
function remove(bearer: string, id: number | string) {
  return call<null>(t.app, { method: 'DELETE', url: `/api/v1/settings/token/${id}`, token: bearer });
}
function rentals(bearer: string) {
  return call<Page<{ instanceId: string }>>(t.app, { method: 'GET', url: '/api/v1/rental', token: bearer });
}
function userInfo(bearer: string) {
  return call<{ userId: number; accountType: number }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: bearer });
}

async function created(bearer: string, name: string): Promise<CreatedApiToken> {
  const answer = await createToken(bearer, { name });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.result;
}

async function userIdOf(bearer: string): Promise<number> {
  return (await userInfo(bearer)).body.result.userId;
}

let subAccountCounter = 0;
/** A sub-account row written directly (creating sub-accounts is another slice), signed in. */
async function subAccountOf(parentId: number, container: 'SELF' | 'ALL' | 'NONE'): Promise<{ id: number; token: string }> {
  subAccountCounter += 1;
  const [sub] = await db()
    .insert(users)
    .values({ accountType: 2, parentId, username: `tok_${parentId}_${subAccountCounter}`, nickName: '脚本组', permissions: { ...NO_PERMISSIONS, CONTAINER: container }, sharedMainBalance: false })
    .returning({ id: users.id });
  if (!sub) throw new Error('no sub-account');
  await db().insert(wallets).values({ accountId: sub.id, balanceFen: 0 });
  const session = await db().transaction((tx) => new SessionService(t.deps).start(tx, sub.id));
  return { id: sub.id, token: session.jwtToken };
}

describe('API tokens act as their owner until disabled or deleted', () => {
  it('create → use → disable (401 at once) → enable → delete (401)', async () => {
    const alice = await registerUser(t);
    await rechargeThroughSandbox(t, alice.jwtToken, 10_000);
    const instance = await call<{ instanceId: string }>(t.app, {
      method: 'POST',
      url: '/api/v1/rental',
      token: alice.jwtToken,
      payload: { hostId: 'bj-a-4090-02', gpuNum: 1, imageId: 'pytorch-2.5.1-py3.12-cu124', chargingRuleId: 1 },
    });
    expect(instance.status, JSON.stringify(instance.body)).toBe(200);

    const token = await created(alice.jwtToken, 'CI 部署');
    expect(token.token).toMatch(/^slg_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({ name: 'CI 部署', status: 1, prefix: token.token.slice(0, 10), lastUsedAt: null, createdAt: expect.any(String) });

    const viaToken = await rentals(token.token);
    expect(viaToken.status).toBe(200);
    expect(viaToken.body.result.list.map((item) => item.instanceId)).toEqual([instance.body.result.instanceId]);
    expect((await userInfo(token.token)).body.result.userId).toBe(await userIdOf(alice.jwtToken));
    const self = await call<{ kind: string; tokenId: number }>(t.app, { method: 'GET', url: '/api/v1/settings/validate/token', token: token.token });
    expect(self.body.result).toMatchObject({ kind: 'apiToken', tokenId: token.id });

    expect((await setStatus(alice.jwtToken, token.id, 0)).body.result.status).toBe(0);
    for (const answer of [await rentals(token.token), await userInfo(token.token)]) {
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe(ErrorCodes.UNAUTHORIZED.code);
    }
    expect((await setStatus(alice.jwtToken, token.id, 1)).body.result.status).toBe(1);
    expect((await rentals(token.token)).status).toBe(200);

    expect((await remove(alice.jwtToken, token.id)).status).toBe(200);
    expect((await rentals(token.token)).status).toBe(401);
    expect((await remove(alice.jwtToken, token.id)).status).toBe(404);
    // Alice's own session is untouched by all of it.
    expect((await rentals(alice.jwtToken)).status).toBe(200);
  }, 30_000);

  it('never shows or stores the secret: the list has the prefix, the database the SHA-256', async () => {
    const user = await registerUser(t);
    const token = await created(user.jwtToken, 'backup');
    const list = await listOf(user.jwtToken);
    expect(list.body.result.total).toBe(1);
    expect(list.response.body).not.toContain(token.token);
    expect(list.response.body).not.toContain(token.token.slice(10));
    expect(list.body.result.list[0]).toEqual({ id: token.id, name: 'backup', prefix: token.token.slice(0, 10), status: 1, createdAt: token.createdAt, lastUsedAt: null });
    const one = await call<ApiTokenView>(t.app, { method: 'GET', url: `/api/v1/settings/token/${token.id}`, token: user.jwtToken });
    expect(one.response.body).not.toContain(token.token);

    const dump = rowsOf<Record<string, unknown>>(await db().execute(sql`select * from api_tokens where id = ${token.id}`));
    expect(JSON.stringify(dump)).not.toContain(token.token.slice(10));
    expect(dump[0]?.token_hash).toBe(createHash('sha256').update(token.token).digest('hex'));
  });

  it('records the last use at most once a minute', async () => {
    const user = await registerUser(t);
    const token = await created(user.jwtToken, 'cron');
    const lastUsed = async () => (await db().select({ at: apiTokens.lastUsedAt }).from(apiTokens).where(eq(apiTokens.id, token.id)))[0]?.at?.getTime();
    // The test clock runs on from a fixed start: a use is recorded at a moment between the request's start and end.
    const usedWithin = async () => {
      const before = t.clock.now().getTime();
      expect((await rentals(token.token)).status).toBe(200);
      return [before, t.clock.now().getTime()] as const;
    };
    const [from, to] = await usedWithin();
    const first = (await lastUsed()) ?? 0;
    expect(first).toBeGreaterThanOrEqual(from);
    expect(first).toBeLessThanOrEqual(to);
    t.clock.advance(30);
    await usedWithin();
    expect(await lastUsed()).toBe(first);
    t.clock.advance(31);
    const [laterFrom, laterTo] = await usedWithin();
    const second = (await lastUsed()) ?? 0;
    expect(second).toBeGreaterThanOrEqual(laterFrom);
    expect(second).toBeLessThanOrEqual(laterTo);
    expect((await listOf(user.jwtToken)).body.result.list[0]?.lastUsedAt).toBe(new Date(second).toISOString());
  });

  it('refuses look-alikes and a disabled account', async () => {
    const user = await registerUser(t);
    const token = await created(user.jwtToken, 'x');
    for (const bogus of ['slg_', `${token.token}x`, `slg_${'A'.repeat(43)}`, token.token.replace('slg_', 'SLG_')]) {
      expect((await rentals(bogus)).status, bogus).toBe(401);
    }
    await db().update(users).set({ disabledAt: t.clock.now() }).where(eq(users.id, await userIdOf(user.jwtToken)));
    expect((await rentals(token.token)).status).toBe(401);
  });
});

describe('a token cannot manage tokens nor the account’s credentials', () => {
  it('refuses token management, password and sign-out with 403 API令牌不能用于此操作', async () => {
    const user = await registerUser(t);
    const token = await created(user.jwtToken, 'script');
    const attempts = [
      await listOf(token.token),
      await createToken(token.token, { name: 'minted' }),
      await rename(token.token, token.id, 'other'),
      await setStatus(token.token, token.id, 0),
      await remove(token.token, token.id),
      await call(t.app, { method: 'POST', url: '/api/v1/settings/token/validate', token: token.token, payload: { token: token.token } }),
      await call(t.app, { method: 'POST', url: '/api/v1/user/updatePassword', token: token.token, payload: { oldPassword: 'abc12345', password: 'xyz98765' } }),
      await call(t.app, { method: 'POST', url: '/api/v1/auth/logout', token: token.token, payload: {} }),
    ];
    for (const answer of attempts) {
      expect(answer.status, answer.response.body).toBe(403);
      expect(answer.body).toMatchObject({ code: ErrorCodes.FORBIDDEN.code, rspmsg: 'API令牌不能用于此操作' });
    }
    expect((await listOf(user.jwtToken)).body.result.list).toMatchObject([{ name: 'script', status: 1 }]);
  });

  it('marks the credential routes session-only by their path, including ones added later', () => {
    for (const path of [
      '/api/v1/settings/token',
      '/api/v1/settings/token/:id/status',
      '/api/v1/settings/token/validate',
      '/api/v1/user/updatePassword',
      '/api/v1/user/phone/change',
      '/api/v1/user/wechat_bind',
      '/api/v1/subuser/create',
      '/api/v1/subuser/password/change',
      '/api/v1/auth/logout',
    ]) {
      expect(isSessionOnlyPath(path), path).toBe(true);
    }
    for (const path of ['/api/v1/rental', '/api/v1/user/userinfo', '/api/v1/subuser/me', '/api/v1/settings/validate/token', '/api/v1/ssh_key']) {
      expect(isSessionOnlyPath(path), path).toBe(false);
    }
  });

  it('validates a secret: valid and whose, or not', async () => {
    const user = await registerUser(t);
    const token = await created(user.jwtToken, 'check');
    const validate = (secret: string) => call<TokenValidity>(t.app, { method: 'POST', url: '/api/v1/settings/token/validate', token: user.jwtToken, payload: { token: secret } });
    expect((await validate(token.token)).body.result).toMatchObject({ valid: true, tokenId: token.id, name: 'check', userId: await userIdOf(user.jwtToken) });
    await setStatus(user.jwtToken, token.id, 0);
    expect((await validate(token.token)).body.result).toMatchObject({ valid: false, userId: null });
    expect((await validate('nonsense')).body.result.valid).toBe(false);
    const byId = await call<{ valid: boolean }>(t.app, { method: 'GET', url: `/api/v1/settings/token/validate/${token.id}`, token: user.jwtToken });
    expect(byId.body.result).toEqual({ id: token.id, valid: false });
  });
});

describe('names, limits and ownership', () => {
  it('refuses a duplicate name with 40026 on create and rename, per user', async () => {
    const alice = await registerUser(t);
    const bob = await registerUser(t);
    const first = await created(alice.jwtToken, 'deploy');
    const second = await created(alice.jwtToken, 'train');
    for (const answer of [await createToken(alice.jwtToken, { name: ' deploy ' }), await rename(alice.jwtToken, second.id, 'deploy')]) {
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ code: 40026, rspmsg: '名称已存在，请重新输入' });
    }
    expect((await rename(alice.jwtToken, first.id, 'deploy')).status).toBe(200);
    const renamed = await call<ApiTokenView>(t.app, { method: 'PATCH', url: `/api/v1/settings/token/${first.id}/name`, token: alice.jwtToken, payload: { name: '部署 v2' } });
    expect(renamed.body.result.name).toBe('部署 v2');
    expect((await created(bob.jwtToken, 'train')).name).toBe('train');
  });

  it('refuses bad input with a Chinese message and changes nothing', async () => {
    const user = await registerUser(t);
    const token = await created(user.jwtToken, 'ok');
    const cases: [() => ReturnType<typeof call>, string][] = [
      [() => createToken(user.jwtToken, { name: 'x'.repeat(200) }), API_TOKEN_NAME_MESSAGE],
      [() => createToken(user.jwtToken, { name: 'x'.repeat(33) }), API_TOKEN_NAME_MESSAGE],
      [() => createToken(user.jwtToken, { name: 'a\u0007b' }), API_TOKEN_NAME_MESSAGE],
      [() => createToken(user.jwtToken, { name: 'line\nbreak' }), API_TOKEN_NAME_MESSAGE],
      [() => createToken(user.jwtToken, { name: '   ' }), API_TOKEN_NAME_MESSAGE],
      [() => createToken(user.jwtToken, { name: 'a/b' }), API_TOKEN_NAME_MESSAGE],
      [() => createToken(user.jwtToken, {}), '请输入名称'],
      [() => createToken(user.jwtToken, { name: 5 }), '名称必须是文本'],
      [() => rename(user.jwtToken, token.id, 'x'.repeat(200)), API_TOKEN_NAME_MESSAGE],
      [() => rename(user.jwtToken, 'abc', 'fine'), '令牌ID必须是数字'],
      [() => setStatus(user.jwtToken, token.id, 2), '状态必须是 1（启用）或 0（停用）'],
      [() => setStatus(user.jwtToken, token.id, '1'), '状态必须是 1（启用）或 0（停用）'],
    ];
    for (const [attempt, message] of cases) {
      const answer = await attempt();
      expect(answer.status, answer.response.body).toBe(400);
      expect(answer.body).toMatchObject({ code: ErrorCodes.VALIDATION.code, rspmsg: message });
    }
    expect((await listOf(user.jwtToken)).body.result.list).toMatchObject([{ id: token.id, name: 'ok', status: 1 }]);
    expect((await created(user.jwtToken, ` ${'令'.repeat(32)} `)).name).toBe('令'.repeat(32));
  });

  it(`keeps at most ${MAX_API_TOKENS} tokens per user, also under 25 requests at once`, async () => {
    const user = await registerUser(t);
    const answers = await Promise.all(Array.from({ length: 25 }, (_, index) => createToken(user.jwtToken, { name: `burst-${index}` })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(MAX_API_TOKENS);
    for (const answer of answers.filter((item) => item.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ code: ErrorCodes.STATE_CONFLICT.code, rspmsg: `最多创建${MAX_API_TOKENS}个API令牌，请先删除不再使用的令牌` });
    }
    const userId = await userIdOf(user.jwtToken);
    expect(await db().$count(apiTokens, eq(apiTokens.creatorId, userId))).toBe(MAX_API_TOKENS);
    const first = answers.find((answer) => answer.status === 200)?.body.result;
    expect((await remove(user.jwtToken, first?.id ?? 0)).status).toBe(200);
    expect((await createToken(user.jwtToken, { name: 'again' })).status).toBe(200);
    expect((await createToken(user.jwtToken, { name: 'again-2' })).status).toBe(409);
  });

  it('answers 404 for another account’s token and leaves it alone', async () => {
    const alice = await registerUser(t);
    const bob = await registerUser(t);
    const token = await created(alice.jwtToken, 'alice');
    for (const answer of [
      await rename(bob.jwtToken, token.id, 'mine'),
      await setStatus(bob.jwtToken, token.id, 0),
      await remove(bob.jwtToken, token.id),
      await call(t.app, { method: 'GET', url: `/api/v1/settings/token/${token.id}`, token: bob.jwtToken }),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body.rspmsg).toBe('没有找到该API令牌，可能已被删除');
    }
    expect((await listOf(bob.jwtToken)).body.result.total).toBe(0);
    expect((await rentals(token.token)).status).toBe(200);
  });

  it('gives a sub-account’s token the sub-account’s rights, and keeps it from the main account', async () => {
    const main = await registerUser(t);
    const mainId = await userIdOf(main.jwtToken);
    const none = await subAccountOf(mainId, 'NONE');
    const self = await subAccountOf(mainId, 'SELF');
    const noneToken = await created(none.token, 'sub');
    const selfToken = await created(self.token, 'sub');
    expect((await userInfo(noneToken.token)).body.result.userId).toBe(none.id);
    expect((await rentals(noneToken.token)).status).toBe(403);
    expect((await rentals(selfToken.token)).status).toBe(200);
    // The main account neither sees nor touches its sub-accounts' tokens.
    expect((await listOf(main.jwtToken)).body.result.total).toBe(0);
    expect((await setStatus(main.jwtToken, selfToken.id, 0)).status).toBe(404);
    // Deleting the sub-account's tokens with it (its row going) ends them.
    await db().delete(wallets).where(eq(wallets.accountId, none.id));
    await db().update(users).set({ disabledAt: t.clock.now() }).where(eq(users.id, none.id));
    expect((await userInfo(noneToken.token)).status).toBe(401);
  });
});
