import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { NO_PERMISSIONS } from '@slg/shared';
import { call, createTestApp, rechargeThroughSandbox, registerUser, type TestApp } from '../../../test/helpers.js';
import { instances, wallets } from '../../db/schema/index.js';
import { Reconciler } from '../rental/reconciler.js';
import { unbalancedTransactions, walletsOutOfBalance } from '../billing/ledger.js';
import type { SubAccountView } from './service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const SUB_PASSWORD = 'team2026pass';
const IMAGE = 'pytorch-2.5.1-py3.12-cu124';
let counter = 0;
const uniqueName = (prefix = 'team') => `${prefix}_${process.pid}_${++counter}`;

type Method = 'GET' | 'POST' | 'DELETE';
const send = <T = unknown>(token: string, method: Method, url: string, payload?: Record<string, unknown>) =>
  call<T>(t.app, { method, url, token, ...(payload ? { payload } : {}) });

async function mainAccount(rechargeFen = 0): Promise<{ token: string; id: number }> {
  const user = await registerUser(t);
  if (rechargeFen > 0) await rechargeThroughSandbox(t, user.jwtToken, rechargeFen);
  const info = await send<{ userId: number }>(user.jwtToken, 'GET', '/api/v1/user/userinfo');
  return { token: user.jwtToken, id: info.body.result.userId };
}

async function createSub(mainToken: string, body: Record<string, unknown> = {}): Promise<{ id: number; username: string }> {
  const username = (body.username as string | undefined) ?? uniqueName();
  const created = await send<{ id: number }>(mainToken, 'POST', '/api/v1/subuser/create', { username, password: SUB_PASSWORD, ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { id: created.body.result.id, username };
}

async function subLogin(username: string, password = SUB_PASSWORD) {
  return call<{ jwtToken: string }>(t.app, { method: 'POST', url: '/api/v1/subuser/login', payload: { username, password } });
}

async function balanceOf(accountId: number): Promise<number> {
  const [wallet] = await t.deps.database.db.select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, accountId));
  return wallet?.balance ?? 0;
}

async function ledgerBalanced(): Promise<void> {
  expect(await walletsOutOfBalance(t.deps.database.db)).toEqual([]);
  expect(await unbalancedTransactions(t.deps.database.db)).toEqual([]);
}

describe('creating and signing in', () => {
  it('creates a sub-account that signs in with its name and sees its permissions; the name is unique (40026)', async () => {
    const main = await mainAccount();
    const { id, username } = await createSub(main.token, { nickname: '训练组', permissions: [{ authorityType: 'CONTAINER', level: 'SELF' }] });
    const login = await subLogin(username);
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const me = await send<Record<string, unknown>>(login.body.result.jwtToken, 'GET', '/api/v1/subuser/me');
    expect(me.body.result).toMatchObject({ userId: id, username, nickname: '训练组', permissions: ['CONTAINER'], sharedMainBalance: false, mainAccountId: main.id });

    const listed = await send<{ list: SubAccountView[]; total: number }>(main.token, 'GET', '/api/v1/subuser/list?page=1&pageSize=10');
    expect(listed.body.result.total).toBe(1);
    expect(listed.body.result.list[0]).toMatchObject({ id, username, nickname: '训练组', balance: 0, permissions: { ...NO_PERMISSIONS, CONTAINER: 'SELF' } });

    const again = await send(main.token, 'POST', '/api/v1/subuser/create', { username, password: SUB_PASSWORD });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ rspcode: 40026, rspmsg: '用户名已存在，请重新输入' });
    expect((await send<{ total: number }>(main.token, 'GET', '/api/v1/subuser/list')).body.result.total).toBe(1);
  });

  it('refuses bad names, passwords and levels with a Chinese message and creates nothing', async () => {
    const main = await mainAccount();
    const cases: [Record<string, unknown>, string][] = [
      [{ username: 'has space', password: SUB_PASSWORD }, '用户名为4-32位'],
      [{ username: 'x'.repeat(200), password: SUB_PASSWORD }, '用户名为4-32位'],
      [{ username: '13800138000', password: SUB_PASSWORD }, '不能是手机号'],
      [{ username: 'abc', password: SUB_PASSWORD }, '用户名为4-32位'],
      [{ username: uniqueName(), password: '123' }, '密码'],
      [{ username: uniqueName(), password: SUB_PASSWORD, permissions: [{ authorityType: 'INVOICE', level: 'SELF' }] }, '费用中心只能设置为全部数据、无权限'],
      [{ username: uniqueName(), password: SUB_PASSWORD, permissions: [{ authorityType: 'ROOT', level: 'ALL' }] }, '权限类型必须是'],
    ];
    for (const [body, message] of cases) {
      const refused = await send(main.token, 'POST', '/api/v1/subuser/create', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.rspmsg).toContain(message);
    }
    expect((await send<{ total: number }>(main.token, 'GET', '/api/v1/subuser/list')).body.result.total).toBe(0);
  });

  it('locks a name after 5 wrong passwords, even for the right one; one message for unknown names', async () => {
    const main = await mainAccount();
    const { username } = await createSub(main.token);
    const unknown = await subLogin(uniqueName('nobody'));
    expect(unknown.body).toMatchObject({ rspcode: 40020, rspmsg: '用户名或密码错误' });
    for (let index = 0; index < 5; index += 1) expect((await subLogin(username, 'wrong-pass-1')).body.rspmsg).toBe('用户名或密码错误');
    const locked = await subLogin(username);
    expect(locked.status).toBe(429);
    expect(locked.body.rspmsg).toContain('密码错误次数过多');
  });

  it('checks at most 5 wrong passwords of one name in a concurrent burst', async () => {
    const main = await mainAccount();
    const { username } = await createSub(main.token);
    const answers = await Promise.all(Array.from({ length: 30 }, () => subLogin(username, 'wrong-pass-1')));
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(5);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(25);
  });
});

describe('who may manage', () => {
  it('a sub-account cannot manage sub-accounts, and one main account cannot touch another’s', async () => {
    const main = await mainAccount();
    const other = await mainAccount();
    const { id, username } = await createSub(main.token);
    const subToken = (await subLogin(username)).body.result.jwtToken;
    expect((await send(subToken, 'POST', '/api/v1/subuser/create', { username: uniqueName(), password: SUB_PASSWORD })).status).toBe(403);
    expect((await send(subToken, 'GET', '/api/v1/subuser/list')).status).toBe(403);
    for (const [method, url, payload] of [
      ['GET', `/api/v1/subuser/detail/${id}`, undefined],
      ['POST', '/api/v1/subuser/permission', { id, permissions: [{ authorityType: 'CONTAINER', level: 'ALL' }] }],
      ['POST', '/api/v1/subuser/password/change', { id, password: 'stolen2026x' }],
      ['POST', '/api/v1/subuser/recharge', { id, amount: 100 }],
      ['DELETE', `/api/v1/subuser/delete/${id}`, undefined],
    ] as const) {
      const answer = await send(other.token, method, url, payload);
      expect(answer.status, url).toBe(404);
      expect(answer.body.rspmsg).toBe('子账号不存在');
    }
    expect((await subLogin(username)).status).toBe(200);
  });

  it('sets permissions, keeping the types not named, and the password; the old sign-ins end', async () => {
    const main = await mainAccount();
    const { id, username } = await createSub(main.token, { permissions: [{ authorityType: 'INVOICE', level: 'ALL' }] });
    const subToken = (await subLogin(username)).body.result.jwtToken;
    const set = await send<SubAccountView>(main.token, 'POST', '/api/v1/subuser/permission', { id, permissions: [{ authorityType: 'CONTAINER', level: 'SELF' }] });
    expect(set.body.result.permissions).toMatchObject({ CONTAINER: 'SELF', INVOICE: 'ALL', MIRROR: 'NONE' });
    expect((await send<{ permissions: string[] }>(subToken, 'GET', '/api/v1/subuser/me')).body.result.permissions).toEqual(['CONTAINER', 'INVOICE']);

    expect((await send(main.token, 'POST', '/api/v1/subuser/password/change', { id, password: 'newpass2026x' })).status).toBe(200);
    expect((await send(subToken, 'GET', '/api/v1/subuser/me')).status).toBe(401);
    expect((await subLogin(username)).status).toBe(400);
    const fresh = await subLogin(username, 'newpass2026x');
    expect(fresh.status).toBe(200);
    // The sub-account changes its own password with the old one.
    const wrongOld = await send(fresh.body.result.jwtToken, 'POST', '/api/v1/subuser/password/old', { oldPassword: 'nope-nope-1', password: 'mine2026xx' });
    expect(wrongOld.body.rspmsg).toBe('原密码不正确');
    expect((await send(fresh.body.result.jwtToken, 'POST', '/api/v1/subuser/password/old', { oldPassword: 'newpass2026x', password: 'mine2026xx' })).status).toBe(200);
    expect((await subLogin(username, 'mine2026xx')).status).toBe(200);
  });
});

describe('balances', () => {
  it('recharges and deducts a sub-account’s own wallet as balanced transfers, never overdrawing either side', async () => {
    const main = await mainAccount(10_000);
    const { id } = await createSub(main.token);
    const recharged = await send<{ balance: number }>(main.token, 'POST', '/api/v1/subuser/recharge', { id, amount: 3_000 });
    expect(recharged.body.result.balance).toBe(3_000);
    expect(await balanceOf(main.id)).toBe(7_000);
    const tooMuch = await send(main.token, 'POST', '/api/v1/subuser/deduct', { id, amount: 5_000 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.rspmsg).toBe('子账号余额不足，扣款金额不能超过其余额');
    const overdraw = await send(main.token, 'POST', '/api/v1/subuser/recharge', { id, amount: 8_000 });
    expect(overdraw.body.rspmsg).toBe('主账号余额不足，请先充值');
    expect((await send<{ balance: number }>(main.token, 'POST', '/api/v1/subuser/deduct', { id, amount: 1_000 })).body.result.balance).toBe(2_000);
    expect(await balanceOf(main.id)).toBe(8_000);
    expect((await send(main.token, 'POST', '/api/v1/subuser/recharge', { id, amount: 0 })).status).toBe(400);
    await ledgerBalanced();

    // Sharing the main balance: its own balance goes back to the main wallet, and nothing is left to move.
    expect((await send(main.token, 'POST', '/api/v1/subuser/update', { id, sharedMainBalance: true })).status).toBe(200);
    expect(await balanceOf(id)).toBe(0);
    expect(await balanceOf(main.id)).toBe(10_000);
    await ledgerBalanced();
    expect((await send(main.token, 'POST', '/api/v1/subuser/recharge', { id, amount: 100 })).body.rspmsg).toContain('共用主账号余额');
  });
});

describe('deleting', () => {
  it('asks before taking running instances, then hands them and the balance to the main account; the sub-account is gone at once', async () => {
    const main = await mainAccount(20_000);
    const { id, username } = await createSub(main.token, { permissions: [{ authorityType: 'CONTAINER', level: 'SELF' }], sharedMainBalance: true });
    const subToken = (await subLogin(username)).body.result.jwtToken;
    const created = await send<{ instanceId: string }>(subToken, 'POST', '/api/v1/rental', { hostId: 'bj-a-4090-03', gpuNum: 1, imageId: IMAGE, chargingRuleId: 1 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await new Reconciler(t.deps).tick();
    await send(main.token, 'POST', '/api/v1/subuser/update', { id, sharedMainBalance: false });
    await send(main.token, 'POST', '/api/v1/subuser/recharge', { id, amount: 1_500 });

    const asked = await send(main.token, 'DELETE', `/api/v1/subuser/delete/${id}`);
    expect(asked.status).toBe(409);
    expect(asked.body.rspmsg).toBe('子账号还有1个未释放的实例，确认转移给主账号后才能删除');
    expect((await send(subToken, 'GET', '/api/v1/subuser/me')).status).toBe(200);

    const mainBefore = await balanceOf(main.id);
    const removed = await send<{ transferred: number }>(main.token, 'DELETE', `/api/v1/subuser/delete/${id}?transferResources=true`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.result.transferred).toBeGreaterThanOrEqual(1);
    expect((await send(subToken, 'GET', '/api/v1/subuser/me')).status).toBe(401);
    expect((await subLogin(username)).status).toBe(400);
    const [instance] = await t.deps.database.db.select().from(instances).where(and(eq(instances.instanceId, created.body.result.instanceId)));
    expect(instance).toMatchObject({ ownerId: main.id, creatorId: main.id });
    expect(await balanceOf(main.id)).toBe(mainBefore + 1_500);
    expect(await balanceOf(id)).toBe(0);
    expect((await send<{ total: number }>(main.token, 'GET', '/api/v1/subuser/list')).body.result.total).toBe(0);
    // The name can be used again.
    await createSub(main.token, { username });
    await ledgerBalanced();
  });
});
