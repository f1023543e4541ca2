import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { call, createTestApp, registerUser, sendCode, uniquePhone, type TestApp } from '../../../test/helpers.js';
import { wallets } from '../../db/schema/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const SUB_PASSWORD = 'team2026pass';
let counter = 0;
const uniqueName = () => `phone_${process.pid}_${++counter}`;

async function mainWithSub(sharedMainBalance = false) {
  const main = await registerUser(t);
  const username = uniqueName();
  const created = await call<{ id: number }>(t.app, {
    method: 'POST',
    url: '/api/v1/subuser/create',
    token: main.jwtToken,
    payload: { username, password: SUB_PASSWORD, sharedMainBalance },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const login = await call<{ jwtToken: string }>(t.app, { method: 'POST', url: '/api/v1/subuser/login', payload: { username, password: SUB_PASSWORD } });
  const info = await call<{ userId: number }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: main.jwtToken });
  return { main, mainId: info.body.result.userId, subId: created.body.result.id, username, subToken: login.body.result.jwtToken };
}

async function bindPhone(subToken: string) {
  const telephone = uniquePhone();
  const code = await sendCode(t.app, telephone, 'bind');
  const bound = await call(t.app, { method: 'POST', url: '/api/v1/subuser/bind', token: subToken, payload: { telephone, code } });
  expect(bound.status, JSON.stringify(bound.body)).toBe(200);
  // A phone gets one code a minute.
  t.clock.advance(61);
  return telephone;
}

describe('/subuser/me balances', () => {
  it('shows the sub-account its own balance, and the main balance only when it spends it', async () => {
    const own = await mainWithSub(false);
    await t.deps.database.db.update(wallets).set({ balanceFen: 70_000 }).where(eq(wallets.accountId, own.mainId));
    await t.deps.database.db.update(wallets).set({ balanceFen: 1_234 }).where(eq(wallets.accountId, own.subId));
    const me = await call(t.app, { method: 'GET', url: '/api/v1/subuser/me', token: own.subToken });
    expect(me.body.result).toMatchObject({ subAccountBalance: 1_234, mainAccountBalance: null, sharedMainBalance: false, telephone: '' });

    const shared = await mainWithSub(true);
    await t.deps.database.db.update(wallets).set({ balanceFen: 88_800 }).where(eq(wallets.accountId, shared.mainId));
    const sharedMe = await call(t.app, { method: 'GET', url: '/api/v1/subuser/me', token: shared.subToken });
    expect(sharedMe.body.result).toMatchObject({ subAccountBalance: 0, mainAccountBalance: 88_800, sharedMainBalance: true });
  });
});

describe('binding a phone and resetting a forgotten password with it', () => {
  it('binds a phone proved by a code, shows it masked, and resets the password with it', async () => {
    const team = await mainWithSub();
    const telephone = await bindPhone(team.subToken);
    const me = await call<{ telephone: string }>(t.app, { method: 'GET', url: '/api/v1/subuser/me', token: team.subToken });
    expect(me.body.result.telephone).toBe(`${telephone.slice(0, 3)}****${telephone.slice(-4)}`);

    const code = await sendCode(t.app, telephone, 'reset');
    const reset = await call(t.app, {
      method: 'POST',
      url: '/api/v1/subuser/password/phone',
      payload: { username: team.username, telephone, code, password: 'newpass2026' },
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    // The old session ended; the old password no longer works, the new one does.
    expect((await call(t.app, { method: 'GET', url: '/api/v1/subuser/me', token: team.subToken })).status).toBe(401);
    const oldPassword = await call(t.app, { method: 'POST', url: '/api/v1/subuser/login', payload: { username: team.username, password: SUB_PASSWORD } });
    expect(oldPassword.body).toMatchObject({ rspcode: 40020, rspmsg: '用户名或密码错误' });
    const login = await call(t.app, { method: 'POST', url: '/api/v1/subuser/login', payload: { username: team.username, password: 'newpass2026' } });
    expect(login.status).toBe(200);
  });

  it('refuses a reset whose name and phone do not match, and a wrong code, changing nothing', async () => {
    const team = await mainWithSub();
    const other = await mainWithSub();
    const telephone = await bindPhone(team.subToken);
    const code = await sendCode(t.app, telephone, 'reset');
    const mismatch = await call(t.app, {
      method: 'POST',
      url: '/api/v1/subuser/password/phone',
      payload: { username: other.username, telephone, code, password: 'newpass2026' },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.rspmsg).toBe('用户名与绑定的手机号不匹配');
    const wrongCode = await call(t.app, {
      method: 'POST',
      url: '/api/v1/subuser/password/phone',
      payload: { username: team.username, telephone, code: code === '000000' ? '111111' : '000000', password: 'newpass2026' },
    });
    expect(wrongCode.status).toBe(400);
    expect((await call(t.app, { method: 'POST', url: '/api/v1/subuser/login', payload: { username: team.username, password: SUB_PASSWORD } })).status).toBe(200);
    expect((await call(t.app, { method: 'POST', url: '/api/v1/subuser/login', payload: { username: other.username, password: SUB_PASSWORD } })).status).toBe(200);
  });

  it('refuses a phone held by another account, binding for a main account, and signing in at /login with a sub-account phone', async () => {
    const team = await mainWithSub();
    // The main account's own phone is registered: no bind code is sent for it.
    const mainPhone = (await call<{ telephone: string }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: team.main.jwtToken })).body;
    expect(mainPhone.rspcode).toBe(0);
    const taken = await call(t.app, { method: 'GET', url: `/api/v1/smscode/phone?telephone=${team.main.telephone}&countryCode=86&type=bind` });
    expect(taken.status).toBe(409);

    const telephone = uniquePhone();
    const code = await sendCode(t.app, telephone, 'bind');
    const byMain = await call(t.app, { method: 'POST', url: '/api/v1/subuser/bind', token: team.main.jwtToken, payload: { telephone, code } });
    expect(byMain.status).toBe(403);

    const subPhone = await bindPhone(team.subToken);
    const loginCode = await sendCode(t.app, subPhone, 'login');
    const smsLogin = await call(t.app, { method: 'POST', url: '/api/v1/auth/register/phone', payload: { telephone: subPhone, code: loginCode, countryCode: 86 } });
    expect(smsLogin.status).toBe(403);
    expect(smsLogin.body.rspmsg).toContain('子账号登录页');
  });

  it('lets one of two sub-accounts binding the same phone at once win', async () => {
    const first = await mainWithSub();
    const second = await mainWithSub();
    const telephone = uniquePhone();
    const code = await sendCode(t.app, telephone, 'bind');
    const results = await Promise.all(
      [first.subToken, second.subToken].map((token) => call(t.app, { method: 'POST', url: '/api/v1/subuser/bind', token, payload: { telephone, code } })),
    );
    expect(results.map((result) => result.status).sort()).toEqual([200, 400]);
  });
});
