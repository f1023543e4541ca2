import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { call, createTestApp, eventually, rechargeThroughSandbox, registerUser, sendCode, type TestApp } from '../../../test/helpers.js';
import { apiTokens, instances, recharges, simMachines, sshKeys, users, wallets } from '../../db/schema/index.js';
import { rowsOf } from '../../db/client.js';
import { Reconciler } from '../rental/reconciler.js';
import { unbalancedTransactions, walletsOutOfBalance } from '../billing/ledger.js';
import { SUB_ACCOUNT_DELETION } from './deletion.js';

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

type Method = 'GET' | 'POST' | 'DELETE';
const send = <T = unknown>(token: string, method: Method, url: string, payload?: Record<string, unknown>) =>
  call<T>(t.app, { method, url, token, ...(payload ? { payload } : {}) });

function ed25519Line(comment: string): string {
  const raw = Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  const part = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  return `ssh-ed25519 ${Buffer.concat([part(Buffer.from('ssh-ed25519')), part(raw)]).toString('base64')} ${comment}`;
}

async function mainAccount(rechargeFen: number) {
  const user = await registerUser(t);
  await rechargeThroughSandbox(t, user.jwtToken, rechargeFen);
  const info = await send<{ userId: number }>(user.jwtToken, 'GET', '/api/v1/user/userinfo');
  return { token: user.jwtToken, id: info.body.result.userId };
}

async function subAccount(mainToken: string, sharedMainBalance = false) {
  const username = `gone_${process.pid}_${++counter}`;
  const created = await send<{ id: number }>(mainToken, 'POST', '/api/v1/subuser/create', {
    username,
    password: SUB_PASSWORD,
    sharedMainBalance,
    permissions: [
      { authorityType: 'CONTAINER', level: 'SELF' },
      { authorityType: 'INVOICE', level: 'ALL' },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const login = await call<{ jwtToken: string }>(t.app, { method: 'POST', url: '/api/v1/subuser/login', payload: { username, password: SUB_PASSWORD } });
  return { id: created.body.result.id, token: login.body.result.jwtToken };
}

async function balanceOf(accountId: number): Promise<number> {
  const [wallet] = await t.deps.database.db.select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, accountId));
  return wallet?.balance ?? 0;
}

async function rent(token: string): Promise<string> {
  const created = await send<{ instanceId: string }>(token, 'POST', '/api/v1/rental', { hostId: 'bj-a-4090-03', gpuNum: 1, imageId: IMAGE, chargingRuleId: 1 });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await new Reconciler(t.deps).tick();
  return created.body.result.instanceId;
}

describe('what deleting a sub-account does to every table', () => {
  it('names a decision for every column of the schema that refers to a user', async () => {
    const columns = rowsOf<{ name: string }>(
      await t.deps.database.db.execute(sql`
        select c.conrelid::regclass::text || '.' || a.attname as name
        from pg_constraint c
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
        where c.contype = 'f' and c.confrelid = 'users'::regclass
        order by 1`),
    ).map((row) => row.name);
    expect(columns.length).toBeGreaterThan(20);
    expect(Object.keys(SUB_ACCOUNT_DELETION).sort()).toEqual(columns.sort());
  });
});

describe('deleting a sub-account', () => {
  it('deletes its credentials instead of handing them to the main account: its API token and its SSH key are refused at once and reach no new instance', async () => {
    const main = await mainAccount(50_000);
    const sub = await subAccount(main.token);
    const token = await send<{ token: string }>(sub.token, 'POST', '/api/v1/settings/token', { name: '训练脚本' });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    const subKey = ed25519Line('intern@laptop');
    expect((await send(sub.token, 'POST', '/api/v1/ssh_key', { keyName: 'intern', key: subKey })).status).toBe(200);
    // The token works as the sub-account before.
    const before = await send<{ userId: number }>(token.body.result.token, 'GET', '/api/v1/user/userinfo');
    expect(before.body.result.userId).toBe(sub.id);

    const removed = await send(main.token, 'DELETE', `/api/v1/subuser/delete/${sub.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    for (const url of ['/api/v1/user/userinfo', '/api/v1/account/', '/api/v1/rental', '/api/v1/payment/recharge']) {
      expect((await send(token.body.result.token, 'GET', url)).status, url).toBe(401);
    }
    expect(await t.deps.database.db.select().from(apiTokens).where(eq(apiTokens.creatorId, sub.id))).toEqual([]);
    expect(await t.deps.database.db.select().from(sshKeys).where(eq(sshKeys.creatorId, sub.id))).toEqual([]);
    const mainKeys = await send<{ list: { keyName: string }[] }>(main.token, 'GET', '/api/v1/ssh_key');
    expect(mainKeys.body.result.list).toEqual([]);
    const instanceId = await rent(main.token);
    const [machine] = await t.deps.database.db.select({ keys: simMachines.authorizedKeys }).from(simMachines).where(eq(simMachines.instanceId, instanceId));
    expect(machine?.keys).toEqual([]);
  });

  it('succeeds when the sub-account holds an SSH key and a stock alert the main account has too (was a 500 that left it signed in)', async () => {
    const main = await mainAccount(1_000);
    const sub = await subAccount(main.token);
    const shared = ed25519Line('team@shared');
    const alert = { zoneId: 'bj-a', gpuModelId: 'rtx4090', gpuNum: 8 };
    for (const account of [main, sub]) {
      expect((await send(account.token, 'POST', '/api/v1/ssh_key', { keyName: 'team', key: shared })).status).toBe(200);
      const subscribed = await send(account.token, 'POST', '/api/v1/subscriptions', alert);
      expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
    }
    const removed = await send(main.token, 'DELETE', `/api/v1/subuser/delete/${sub.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await send(sub.token, 'GET', '/api/v1/subuser/me')).status).toBe(401);
    const mainKeys = await send<{ list: { keyName: string }[] }>(main.token, 'GET', '/api/v1/ssh_key');
    expect(mainKeys.body.result.list.map((key) => key.keyName)).toEqual(['team']);
  });

  it('moves its running instance onto the main wallet, sends a late recharge payment there and frees its phone', async () => {
    const main = await mainAccount(50_000);
    const sub = await subAccount(main.token);
    expect((await send(main.token, 'POST', '/api/v1/subuser/recharge', { id: sub.id, amount: 5_000 })).status).toBe(200);
    const instanceId = await rent(sub.token);
    const pending = await send<{ rechargeId: string }>(sub.token, 'POST', '/api/v1/payment/recharge', { amount: 2_000, channel: 'WXPAY' });
    expect(pending.status, JSON.stringify(pending.body)).toBe(200);
    const phone = `137${String(process.pid * 100 + counter).padStart(8, '0').slice(-8)}`;
    const code = await sendCode(t.app, phone, 'bind');
    expect((await send(sub.token, 'POST', '/api/v1/subuser/bind', { telephone: phone, code })).status).toBe(200);

    const removed = await send<{ transferred: number }>(main.token, 'DELETE', `/api/v1/subuser/delete/${sub.id}?transferResources=true`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.result.transferred).toBe(1);
    const [instance] = await t.deps.database.db.select().from(instances).where(eq(instances.instanceId, instanceId));
    expect(instance).toMatchObject({ ownerId: main.id, creatorId: main.id, walletId: main.id });

    // The payment the sub-account started arrives after it is gone: the main wallet gets it.
    const mainBefore = await balanceOf(main.id);
    expect((await t.app.inject({ method: 'POST', url: `/sandbox-pay/${pending.body.result.rechargeId}/pay` })).statusCode).toBe(200);
    await eventually(async () => {
      const [recharge] = await t.deps.database.db.select().from(recharges).where(eq(recharges.id, pending.body.result.rechargeId));
      expect(recharge).toMatchObject({ status: 'SUCCESS', walletId: main.id, creatorId: sub.id });
    });
    expect(await balanceOf(main.id)).toBe(mainBefore + 2_000);
    expect(await balanceOf(sub.id)).toBe(0);

    // Its phone can belong to another account now.
    const [row] = await t.deps.database.db.select({ telephone: users.telephone }).from(users).where(and(eq(users.id, sub.id)));
    expect(row?.telephone).toBeNull();
    t.clock.advance(61);
    await registerUser(t, phone);
    expect(await walletsOutOfBalance(t.deps.database.db)).toEqual([]);
    expect(await unbalancedTransactions(t.deps.database.db)).toEqual([]);
  });
});

describe('sharing the main balance', () => {
  it('moves the instances the sub-account paid for itself onto the main wallet with its balance', async () => {
    const main = await mainAccount(50_000);
    const sub = await subAccount(main.token);
    expect((await send(main.token, 'POST', '/api/v1/subuser/recharge', { id: sub.id, amount: 5_000 })).status).toBe(200);
    const instanceId = await rent(sub.token);
    expect((await send(main.token, 'POST', '/api/v1/subuser/update', { id: sub.id, sharedMainBalance: true })).status).toBe(200);
    const [instance] = await t.deps.database.db.select({ walletId: instances.walletId }).from(instances).where(eq(instances.instanceId, instanceId));
    expect(instance?.walletId).toBe(main.id);
    expect(await balanceOf(sub.id)).toBe(0);
  });
});
