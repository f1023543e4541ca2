/**
 * WeChat sign-in and binding, end to end through the dev stand-in for WeChat: the authorise page, the
 * redirect with code and state, the code exchange, tickets, binding and the refusals; and the real
 * WeChat client against a fake network (URL shapes, errcodes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ErrorCodes, NO_PERMISSIONS } from '@slg/shared';
import { call, createTestApp, registerUser, sendCode, uniquePhone, type TestApp } from '../../../test/helpers.js';
import { redactUrl } from '../../app.js';
import { oauthIdentities, oauthStates, users, wallets } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';
import { SessionService } from '../auth/sessions.js';
import { DEV_OAUTH_PREFIX, DEV_WECHAT_APP_ID, DEV_WECHAT_APP_SECRET, DEV_WECHAT_USERS, devUnionId } from '../../providers/oauth/dev.js';
import { OAuthError } from '../../providers/oauth/provider.js';
import { WechatOAuthClient, cleanNickname } from '../../providers/oauth/wechat.js';
import { AppError } from '../../core/errors.js';
import { AuthService } from '../auth/service.js';
import { WECHAT_BIND_PAGE, WechatService, type WechatBinding } from './service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;
const EXPIRED = '授权已过期，请重新扫码';

interface Tokens {
  jwtToken: string;
  refreshToken: string;
}
interface Ticket {
  bindTicket: string;
  nickname: string;
  expiresIn: number;
}

let wechatCounter = 0;
/** A WeChat user of its own for each test (typed into the authorise page's 其他测试用户 fields). */
function newWechatUser(nickname = '测试微信') {
  wechatCounter += 1;
  return { openid: `t_${process.pid}_${wechatCounter}`, nickname: `${nickname}${wechatCounter}` };
}

async function authorize(purpose: 'login' | 'bind', token?: string, redirect?: string) {
  const query = new URLSearchParams({ purpose, ...(redirect ? { redirect } : {}) });
  return call<{ url: string; state: string; expiresIn: number }>(t.app, { method: 'GET', url: `/api/v1/auth/wechat/authorize?${query}`, token });
}

async function authorized(purpose: 'login' | 'bind', token?: string, redirect?: string) {
  const answer = await authorize(purpose, token, redirect);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.result;
}

/** Path and query of an absolute URL on this server, without WeChat's fragment. */
function local(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/**
 * What a person does on the authorise page: opens it, picks a user (or types one) and confirms or
 * refuses. Returns where the page sends the browser back to.
 */
async function scan(url: string, who: { openid: string; nickname: string } | string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
  const opened = await t.app.inject({ method: 'GET', url: local(url) });
  expect(opened.statusCode).toBe(200);
  const query = new URL(url).searchParams;
  const form = new URLSearchParams({
    appid: query.get('appid') ?? '',
    redirect_uri: query.get('redirect_uri') ?? '',
    state: query.get('state') ?? '',
    decision,
    ...(typeof who === 'string' ? { user: who } : { user: 'custom', nickname: who.nickname, openid: who.openid }),
  });
  const confirmed = await t.app.inject({
    method: 'POST',
    url: `${DEV_OAUTH_PREFIX}/qrconnect`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });
  expect(confirmed.statusCode, confirmed.body).toBe(302);
  return new URL(String(confirmed.headers.location));
}

/** Authorise, scan, and read code and state from the redirect. */
async function codeFor(purpose: 'login' | 'bind', who: { openid: string; nickname: string } | string, token?: string) {
  const { url, state } = await authorized(purpose, token);
  const back = await scan(url, who);
  expect(back.searchParams.get('state')).toBe(state);
  return { state, code: back.searchParams.get('code') ?? '' };
}

function loginWechat(state: string, code: unknown) {
  return call<Tokens | Ticket>(t.app, { method: 'POST', url: `/api/v1/auth/login/wechat?state=${encodeURIComponent(state)}`, payload: { code } as Record<string, unknown> });
}

function registerWechat(payload: Record<string, unknown>) {
  return call<Tokens & { other: boolean }>(t.app, { method: 'POST', url: '/api/v1/auth/register/wechat', payload: { countryCode: 86, ...payload } });
}

function bindWechat(token: string, query: Record<string, string>, payload?: Record<string, unknown>) {
  return call<WechatBinding>(t.app, { method: 'POST', url: `/api/v1/user/wechat_bind?${new URLSearchParams(query)}`, token, payload: payload ?? {} });
}

function bindingOf(token: string) {
  return call<WechatBinding>(t.app, { method: 'GET', url: '/api/v1/user/wechat_bind', token });
}

async function userIdOf(token: string): Promise<number> {
  const info = await call<{ userId: number }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token });
  expect(info.status).toBe(200);
  return info.body.result.userId;
}

/** Binds a WeChat user to the account through the 账号设置 flow. */
async function bound(token: string, who: { openid: string; nickname: string }): Promise<WechatBinding> {
  const { state, code } = await codeFor('bind', who, token);
  const answer = await bindWechat(token, { state }, { code });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.result;
}

/** Signs in with WeChat from the login page and returns the answer. */
async function wechatLogin(who: { openid: string; nickname: string } | string) {
  const { state, code } = await codeFor('login', who);
  return loginWechat(state, code);
}

async function ticketFor(who: { openid: string; nickname: string }): Promise<Ticket> {
  const answer = await wechatLogin(who);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.result).not.toHaveProperty('jwtToken');
  return answer.body.result as Ticket;
}

describe('authorize', () => {
  it('gives the qrconnect URL of the dev stand-in and a 10-minute LOGIN state kept only as its hash', async () => {
    const { url, state, expiresIn } = await authorized('login', undefined, '/ctrl-cost-center/cost-center/order?tab=1');
    const publicUrl = t.deps.config.publicUrl;
    const redirectUri = `${publicUrl}/login?wechat=1&redirect=${encodeURIComponent('/ctrl-cost-center/cost-center/order?tab=1')}`;
    expect(url).toBe(
      `${publicUrl}${DEV_OAUTH_PREFIX}/qrconnect?appid=${DEV_WECHAT_APP_ID}&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code&scope=snsapi_login&state=${state}#wechat_redirect`,
    );
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresIn).toBe(600);
    const [row] = await db().select().from(oauthStates).where(eq(oauthStates.keyHash, sha256Hex(state)));
    expect(row).toMatchObject({ purpose: 'LOGIN', provider: 'wechat', userId: null, consumedAt: null });
    expect((row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)).toBe(600_000);
    expect((await db().select().from(oauthStates).where(eq(oauthStates.keyHash, state))).length).toBe(0);
  });

  it('bind needs a signed-in main account and returns to 账号设置', async () => {
    const anonymous = await authorize('bind');
    expect(anonymous.status).toBe(401);
    const user = await registerUser(t);
    const { url, state } = await authorized('bind', user.jwtToken);
    expect(new URL(url).searchParams.get('redirect_uri')).toBe(`${t.deps.config.publicUrl}${WECHAT_BIND_PAGE}?wechat=1`);
    const [row] = await db().select().from(oauthStates).where(eq(oauthStates.keyHash, sha256Hex(state)));
    expect(row).toMatchObject({ purpose: 'BIND', userId: await userIdOf(user.jwtToken) });
  });

  it('keeps states and tickets out of the request log', () => {
    expect(redactUrl('/api/v1/auth/login/wechat?state=S')).toBe('/api/v1/auth/login/wechat?state=***');
    expect(redactUrl('/api/v1/user/wechat_bind?openId=T')).toBe('/api/v1/user/wechat_bind?openId=***');
    expect(redactUrl(`${DEV_OAUTH_PREFIX}/sns/oauth2/access_token?appid=wx&secret=s&code=c`)).toBe(`${DEV_OAUTH_PREFIX}/sns/oauth2/access_token?appid=wx&secret=***&code=***`);
  });

  it('refuses a redirect to another site and an unknown purpose', async () => {
    for (const redirect of ['//evil.example.com/x', 'https://evil.example.com', '/\\evil.example.com']) {
      const answer = await authorize('login', undefined, redirect);
      expect(answer.status).toBe(400);
      expect(answer.body.rspmsg).toBe('跳转地址必须是本站路径');
    }
    const odd = await call(t.app, { method: 'GET', url: '/api/v1/auth/wechat/authorize?purpose=admin' });
    expect(odd.status).toBe(400);
    expect(odd.body.rspmsg).toBe('purpose 可选 login、bind');
  });
});

describe('the dev authorise page', () => {
  it('shows the test users and the two buttons, and checks the request like WeChat does', async () => {
    const { url } = await authorized('login');
    const opened = await t.app.inject({ method: 'GET', url: local(url) });
    expect(opened.headers['content-type']).toContain('text/html');
    for (const text of ['模拟微信扫码授权', '确认登录', '拒绝', '其他测试用户', ...DEV_WECHAT_USERS.map((user) => user.nickname)]) {
      expect(opened.body).toContain(text);
    }
    const query = new URL(url).searchParams;
    query.set('redirect_uri', 'https://evil.example.com/login');
    const foreign = await t.app.inject({ method: 'GET', url: `${DEV_OAUTH_PREFIX}/qrconnect?${query}` });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.body).toContain('redirect_uri 参数错误');
    query.set('appid', 'wx_someone_else');
    expect((await t.app.inject({ method: 'GET', url: `${DEV_OAUTH_PREFIX}/qrconnect?${query}` })).body).toContain('AppID 参数错误');
  });

  it('refusing goes back with the state and no code; a custom user needs a valid openid', async () => {
    const { url, state } = await authorized('login');
    const back = await scan(url, DEV_WECHAT_USERS[0]?.openId ?? '', 'deny');
    expect(back.pathname).toBe('/login');
    expect(back.searchParams.get('wechat')).toBe('1');
    expect(back.searchParams.get('state')).toBe(state);
    expect(back.searchParams.has('code')).toBe(false);

    const query = new URL(url).searchParams;
    const invalid = await t.app.inject({
      method: 'POST',
      url: `${DEV_OAUTH_PREFIX}/qrconnect`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ appid: DEV_WECHAT_APP_ID, redirect_uri: query.get('redirect_uri') ?? '', state, decision: 'allow', user: 'custom', nickname: '某人', openid: 'has space' }).toString(),
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain('openid 为1-64位字母、数字、下划线或连字符');
  });

  it('answers the API like WeChat: errcodes for a bad app secret, a wrong or used code', async () => {
    const { code } = await codeFor('login', newWechatUser());
    const tokenUrl = (overrides: Record<string, string>) =>
      `${DEV_OAUTH_PREFIX}/sns/oauth2/access_token?${new URLSearchParams({ appid: DEV_WECHAT_APP_ID, secret: DEV_WECHAT_APP_SECRET, code, grant_type: 'authorization_code', ...overrides })}`;
    expect((await t.app.inject({ method: 'GET', url: tokenUrl({ secret: 'wrong' }) })).json()).toMatchObject({ errcode: 40125 });
    expect((await t.app.inject({ method: 'GET', url: tokenUrl({ code: 'nonsense' }) })).json()).toMatchObject({ errcode: 40029 });
    const first = (await t.app.inject({ method: 'GET', url: tokenUrl({}) })).json<Record<string, string>>();
    expect(first).toMatchObject({ scope: 'snsapi_login' });
    expect((await t.app.inject({ method: 'GET', url: tokenUrl({}) })).json()).toMatchObject({ errcode: 40163 });
    const info = await t.app.inject({ method: 'GET', url: `${DEV_OAUTH_PREFIX}/sns/userinfo?access_token=${first.access_token}&openid=${first.openid}` });
    expect(info.json()).toMatchObject({ openid: first.openid, unionid: devUnionId(first.openid ?? '') });
    const other = await t.app.inject({ method: 'GET', url: `${DEV_OAUTH_PREFIX}/sns/userinfo?access_token=${first.access_token}&openid=someone` });
    expect(other.json()).toMatchObject({ errcode: 40003 });
  });
});

describe('WeChat sign-in', () => {
  it('signs a bound account in, following the whole flow', async () => {
    const user = await registerUser(t);
    const who = newWechatUser('小港');
    const binding = await bound(user.jwtToken, who);
    expect(binding).toMatchObject({ bound: true, nickname: who.nickname });
    const [identity] = await db().select().from(oauthIdentities).where(eq(oauthIdentities.userId, await userIdOf(user.jwtToken)));
    // The stable identity is the unionid, not the openid.
    expect(identity).toMatchObject({ provider: 'wechat', subject: devUnionId(who.openid), nickname: who.nickname });

    const { url, state } = await authorized('login', undefined, '/ctrl-overview/overview');
    const back = await scan(url, who);
    expect(`${back.pathname}?${back.searchParams.toString()}`).toBe(
      `/login?wechat=1&redirect=${encodeURIComponent('/ctrl-overview/overview')}&code=${back.searchParams.get('code')}&state=${state}`,
    );
    const login = await loginWechat(state, back.searchParams.get('code'));
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const tokens = login.body.result as Tokens;
    expect(Object.keys(tokens).sort()).toEqual(['jwtToken', 'refreshToken']);
    expect(await userIdOf(tokens.jwtToken)).toBe(await userIdOf(user.jwtToken));
    // A real session: its refresh token works.
    const refreshed = await call(t.app, { method: 'POST', url: '/api/v1/auth/refresh-token', payload: { refreshToken: tokens.refreshToken } });
    expect(refreshed.status).toBe(200);
  });

  it('an unbound WeChat gets a ticket; binding a new phone creates the account (other: true), then WeChat signs it in', async () => {
    const who = newWechatUser('新用户');
    const ticket = await ticketFor(who);
    expect(ticket).toMatchObject({ nickname: who.nickname, expiresIn: 600 });
    const [row] = await db().select().from(oauthStates).where(eq(oauthStates.keyHash, sha256Hex(ticket.bindTicket)));
    expect(row).toMatchObject({ purpose: 'REGISTER', subject: devUnionId(who.openid), consumedAt: null });

    const telephone = uniquePhone();
    const code = await sendCode(t.app, telephone, 'login');
    const registered = await registerWechat({ ticket: ticket.bindTicket, telephone, code });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect(registered.body.result.other).toBe(true);
    const userId = await userIdOf(registered.body.result.jwtToken);
    const [account] = await db().select().from(users).where(eq(users.id, userId));
    expect(account).toMatchObject({ telephone, accountType: 1, passwordHash: null, nickName: who.nickname });
    expect((await db().select().from(wallets).where(eq(wallets.accountId, userId))).length).toBe(1);
    expect((await bindingOf(registered.body.result.jwtToken)).body.result).toMatchObject({ bound: true, nickname: who.nickname });

    // The ticket worked once.
    const again = await registerWechat({ ticket: ticket.bindTicket, telephone, code });
    expect(again.status).toBe(400);
    expect(again.body.rspmsg).toBe(EXPIRED);

    t.clock.advance(61);
    const next = await wechatLogin(who);
    expect(next.status).toBe(200);
    expect(await userIdOf((next.body.result as Tokens).jwtToken)).toBe(userId);
  });

  it('binding an existing phone links the WeChat to that account (other: false)', async () => {
    const user = await registerUser(t);
    const who = newWechatUser();
    const ticket = await ticketFor(who);
    const code = await sendCode(t.app, user.telephone, 'login');
    // A wrong SMS code spends nothing: the ticket still works with the right one.
    const wrong = await registerWechat({ ticket: ticket.bindTicket, telephone: user.telephone, code: code === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe(ErrorCodes.SMS_CODE_INVALID.code);
    const linked = await registerWechat({ ticket: ticket.bindTicket, telephone: user.telephone, code });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.result.other).toBe(false);
    expect(await userIdOf(linked.body.result.jwtToken)).toBe(await userIdOf(user.jwtToken));
  });

  it('refuses a used state, a state of another purpose, an expired state and an expired ticket', async () => {
    const who = newWechatUser();
    const { state, code } = await codeFor('login', who);
    expect((await loginWechat(state, code)).status).toBe(200);
    const reused = await loginWechat(state, code);
    expect(reused.status).toBe(400);
    expect(reused.body.rspmsg).toBe(EXPIRED);

    const user = await registerUser(t);
    const bindState = await codeFor('bind', who, user.jwtToken);
    const crossed = await loginWechat(bindState.state, bindState.code);
    expect(crossed.body.rspmsg).toBe(EXPIRED);
    const unknown = await loginWechat('x'.repeat(43), 'whatever');
    expect(unknown.status).toBe(400);
    expect(unknown.body.rspmsg).toBe(EXPIRED);

    const late = await codeFor('login', who);
    const ticket = await ticketFor(newWechatUser());
    t.clock.advance(601);
    const expired = await loginWechat(late.state, late.code);
    expect(expired.status).toBe(400);
    expect(expired.body.rspmsg).toBe(EXPIRED);
    const expiredTicket = await registerWechat({ ticket: ticket.bindTicket, telephone: uniquePhone(), code: '123456' });
    expect(expiredTicket.status).toBe(400);
    expect(expiredTicket.body.rspmsg).toBe(EXPIRED);
  });

  it('refuses a WeChat code used twice, and one older than five minutes', async () => {
    const who = newWechatUser();
    const first = await codeFor('login', who);
    expect((await loginWechat(first.state, first.code)).status).toBe(200);
    const { state } = await authorized('login');
    const twice = await loginWechat(state, first.code);
    expect(twice.status).toBe(400);
    expect(twice.body.rspmsg).toBe('微信授权码已被使用，请重新扫码');

    const slow = await codeFor('login', who);
    t.clock.advance(301);
    const stale = await loginWechat(slow.state, slow.code);
    expect(stale.status).toBe(400);
    expect(stale.body.rspmsg).toBe('微信授权码已过期，请重新扫码');
  });

  it('two sign-ins bringing the same state at once: exactly one gets through', async () => {
    const user = await registerUser(t);
    const who = newWechatUser();
    await bound(user.jwtToken, who);
    const { state, code } = await codeFor('login', who);
    const answers = await Promise.all([loginWechat(state, code), loginWechat(state, code), loginWechat(state, code)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
    expect(answers.filter((answer) => answer.status === 400).map((answer) => answer.body.rspmsg)).toEqual([EXPIRED, EXPIRED]);
    const [row] = await db().select().from(oauthStates).where(eq(oauthStates.keyHash, sha256Hex(state)));
    expect(row?.consumedAt).not.toBeNull();
  });

  it('a disabled account cannot sign in with its WeChat', async () => {
    const user = await registerUser(t);
    const who = newWechatUser();
    await bound(user.jwtToken, who);
    await db().update(users).set({ disabledAt: t.clock.now() }).where(eq(users.id, await userIdOf(user.jwtToken)));
    const answer = await wechatLogin(who);
    expect(answer.status).toBe(403);
    expect(answer.body.rspmsg).toBe('该账号已被停用，请联系客服');
  });
});

describe('binding', () => {
  it('binds, shows and unbinds; afterwards the WeChat no longer signs in to the account', async () => {
    const user = await registerUser(t);
    expect((await bindingOf(user.jwtToken)).body.result).toEqual({ bound: false, nickname: null, boundAt: null });
    const who = newWechatUser('绑定');
    const before = t.clock.now().getTime();
    const binding = await bound(user.jwtToken, who);
    expect(Date.parse(binding.boundAt ?? '')).toBeGreaterThanOrEqual(before);
    expect(Date.parse(binding.boundAt ?? '')).toBeLessThanOrEqual(t.clock.now().getTime());
    expect((await bindingOf(user.jwtToken)).body.result).toEqual(binding);

    const removed = await call(t.app, { method: 'DELETE', url: '/api/v1/user/wechat_bind', token: user.jwtToken });
    expect(removed.status).toBe(200);
    expect((await bindingOf(user.jwtToken)).body.result.bound).toBe(false);
    const after = await wechatLogin(who);
    expect(after.body.result).toHaveProperty('bindTicket');
    const twice = await call(t.app, { method: 'DELETE', url: '/api/v1/user/wechat_bind', token: user.jwtToken });
    expect(twice.status).toBe(400);
    expect(twice.body.rspmsg).toBe('当前账号未绑定微信');
  });

  it('refuses a WeChat bound to another account, and a second WeChat on one account (409)', async () => {
    const owner = await registerUser(t);
    const other = await registerUser(t);
    const who = newWechatUser();
    await bound(owner.jwtToken, who);

    const { state, code } = await codeFor('bind', who, other.jwtToken);
    const taken = await bindWechat(other.jwtToken, { state }, { code });
    expect(taken.status).toBe(409);
    expect(taken.body.rspmsg).toBe('该微信已绑定其他账号');

    const second = await codeFor('bind', newWechatUser(), owner.jwtToken);
    const again = await bindWechat(owner.jwtToken, { state: second.state }, { code: second.code });
    expect(again.status).toBe(409);
    expect(again.body.rspmsg).toBe('该账号已绑定微信，请先解绑');

    // Through the sign-up ticket as well: the phone's account already has a WeChat.
    const ticket = await ticketFor(newWechatUser());
    const sms = await sendCode(t.app, owner.telephone, 'login');
    const viaPhone = await registerWechat({ ticket: ticket.bindTicket, telephone: owner.telephone, code: sms });
    expect(viaPhone.status).toBe(409);
    expect(viaPhone.body.rspmsg).toBe('该账号已绑定微信，请先解绑');
    // Nothing was spent: the same ticket still binds another (new) phone.
    t.clock.advance(61);
    const fresh = uniquePhone();
    const freshCode = await sendCode(t.app, fresh, 'login');
    expect((await registerWechat({ ticket: ticket.bindTicket, telephone: fresh, code: freshCode })).status).toBe(200);
  });

  it('a BIND state works only for the user it was given to, and binding again is harmless', async () => {
    const alice = await registerUser(t);
    const bob = await registerUser(t);
    const who = newWechatUser();
    const { state, code } = await codeFor('bind', who, alice.jwtToken);
    const stolen = await bindWechat(bob.jwtToken, { state }, { code });
    expect(stolen.status).toBe(400);
    expect(stolen.body.rspmsg).toBe(EXPIRED);
    const login = await codeFor('login', who);
    const wrongPurpose = await bindWechat(alice.jwtToken, { state: login.state }, { code: login.code });
    expect(wrongPurpose.body.rspmsg).toBe(EXPIRED);

    await bound(alice.jwtToken, who);
    const same = await codeFor('bind', who, alice.jwtToken);
    expect((await bindWechat(alice.jwtToken, { state: same.state }, { code: same.code })).status).toBe(200);
    expect((await bindWechat(alice.jwtToken, {})).body.rspmsg).toBe('请先完成微信扫码授权');
  });

  it('accepts the spec’s openId only as a ticket the sign-in handed out, never a raw openid', async () => {
    const user = await registerUser(t);
    const who = newWechatUser();
    const raw = await bindWechat(user.jwtToken, { openId: who.openid });
    expect(raw.status).toBe(400);
    expect(raw.body.rspmsg).toBe(EXPIRED);
    const ticket = await ticketFor(who);
    const linked = await bindWechat(user.jwtToken, { openId: ticket.bindTicket });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.result).toMatchObject({ bound: true, nickname: who.nickname });
    const replay = await bindWechat(user.jwtToken, { openId: ticket.bindTicket });
    expect(replay.body.rspmsg).toBe(EXPIRED);
  });

  it('is for signed-in main accounts only: sub-accounts and API tokens are refused', async () => {
    const main = await registerUser(t);
    const mainId = await userIdOf(main.jwtToken);
    const [sub] = await db()
      .insert(users)
      .values({ accountType: 2, parentId: mainId, username: `wx_sub_${process.pid}`, nickName: '子账号', permissions: NO_PERMISSIONS })
      .returning({ id: users.id });
    if (!sub) throw new Error('no sub-account');
    const subToken = (await db().transaction((tx) => new SessionService(t.deps).start(tx, sub.id))).jwtToken;
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const answer = await call(t.app, { method, url: '/api/v1/user/wechat_bind', token: subToken, ...(method === 'POST' ? { payload: {} } : {}) });
      expect(answer.status).toBe(403);
      expect(answer.body.rspmsg).toBe('子账号不能绑定微信，请使用主账号操作');
    }
    expect((await authorize('bind', subToken)).status).toBe(403);

    const created = await call<{ token: string }>(t.app, { method: 'POST', url: '/api/v1/settings/token', token: main.jwtToken, payload: { name: 'script' } });
    expect(created.status).toBe(200);
    const viaApiToken = await call(t.app, { method: 'GET', url: '/api/v1/user/wechat_bind', token: created.body.result.token });
    expect(viaApiToken.status).toBe(403);
  });
});

describe('WECHAT_LOGIN_PROVIDER=off', () => {
  it('says WeChat sign-in is closed and serves no stand-in', async () => {
    const closed = await createTestApp({ env: { WECHAT_LOGIN_PROVIDER: 'off' } });
    try {
      const answer = await call(closed.app, { method: 'GET', url: '/api/v1/auth/wechat/authorize?purpose=login' });
      expect(answer.status).toBe(503);
      expect(answer.body.rspmsg).toBe('微信登录暂未开放，请使用手机号登录');
      const login = await call(closed.app, { method: 'POST', url: '/api/v1/auth/login/wechat?state=abc', payload: { code: 'x' } });
      expect(login.status).toBe(503);
      expect((await closed.app.inject({ method: 'GET', url: `${DEV_OAUTH_PREFIX}/qrconnect` })).statusCode).toBe(404);
    } finally {
      await closed.close();
    }
  });
});

describe('WechatOAuthClient (the real one) over a fake network', () => {
  type Answer = Record<string, unknown> | Error | { status: number; text: string };
  function clientWith(answers: Answer[]) {
    const calls: string[] = [];
    const client = new WechatOAuthClient({
      appId: 'wx1234567890abcdef',
      appSecret: 's3cr3t&=',
      fetchImpl: async (input) => {
        calls.push(input);
        const answer = answers.shift();
        if (!answer) throw new Error('no answer left');
        if (answer instanceof Error) throw answer;
        if ('status' in answer && typeof answer.status === 'number' && typeof answer.text === 'string') return new Response(answer.text, { status: answer.status });
        // WeChat sends its JSON as text/plain.
        return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'text/plain' } });
      },
    });
    return { client, calls };
  }

  it('builds WeChat’s qrconnect URL', () => {
    const { client } = clientWith([]);
    expect(client.authorizeUrl('st-1', 'https://slg.example.com/login?wechat=1&redirect=%2Fa')).toBe(
      'https://open.weixin.qq.com/connect/qrconnect?appid=wx1234567890abcdef&redirect_uri=https%3A%2F%2Fslg.example.com%2Flogin%3Fwechat%3D1%26redirect%3D%252Fa&response_type=code&scope=snsapi_login&state=st-1#wechat_redirect',
    );
  });

  it('exchanges the code, then reads the profile; the subject is the unionid, else the openid', async () => {
    const { client, calls } = clientWith([
      { access_token: 'AT', expires_in: 7200, refresh_token: 'RT', openid: 'OPEN', scope: 'snsapi_login', unionid: 'UNION' },
      { openid: 'OPEN', nickname: '  小港\u0000🚀  ', unionid: 'UNION' },
    ]);
    expect(await client.exchangeCode('CODE/1')).toEqual({ subject: 'UNION', openId: 'OPEN', unionId: 'UNION', nickname: '小港🚀' });
    expect(calls).toEqual([
      'https://api.weixin.qq.com/sns/oauth2/access_token?appid=wx1234567890abcdef&secret=s3cr3t%26%3D&code=CODE%2F1&grant_type=authorization_code',
      'https://api.weixin.qq.com/sns/userinfo?access_token=AT&openid=OPEN',
    ]);
    const withoutUnion = clientWith([{ access_token: 'AT', openid: 'OPEN2' }, { openid: 'OPEN2', nickname: '' }]);
    expect(await withoutUnion.client.exchangeCode('c')).toEqual({ subject: 'OPEN2', openId: 'OPEN2', unionId: null, nickname: '微信用户' });
  });

  it('maps errcodes and transport failures to the user’s messages', async () => {
    const failureOf = async (answers: Answer[]) => {
      try {
        await clientWith(answers).client.exchangeCode('c');
      } catch (error) {
        if (error instanceof OAuthError) return { reason: error.reason, message: error.message, code: error.providerCode };
        throw error;
      }
      throw new Error('no failure');
    };
    expect(await failureOf([{ errcode: 40029, errmsg: 'invalid code' }])).toEqual({ reason: 'CODE_INVALID', message: '微信授权码无效，请重新扫码', code: 40029 });
    expect(await failureOf([{ errcode: 40163, errmsg: 'code been used' }])).toMatchObject({ reason: 'CODE_INVALID', message: '微信授权码已被使用，请重新扫码' });
    expect(await failureOf([{ errcode: 40125, errmsg: 'invalid appsecret' }])).toMatchObject({ reason: 'MISCONFIGURED' });
    expect(await failureOf([{ errcode: 40013, errmsg: 'invalid appid' }])).toMatchObject({ reason: 'MISCONFIGURED' });
    expect(await failureOf([{ errcode: -1, errmsg: 'system error' }])).toMatchObject({ reason: 'UNAVAILABLE', message: '微信服务繁忙，请稍后再试' });
    expect(await failureOf([{ access_token: 'AT', openid: 'O' }, { errcode: 40001, errmsg: 'invalid credential' }])).toMatchObject({
      reason: 'UNAVAILABLE',
      message: '微信接口返回错误（40001：invalid credential），请稍后再试',
    });
    expect(await failureOf([new TypeError('fetch failed')])).toMatchObject({ reason: 'UNAVAILABLE', message: '无法连接微信服务，请稍后再试' });
    expect(await failureOf([{ status: 502, text: 'Bad Gateway' }])).toMatchObject({ reason: 'UNAVAILABLE' });
    expect(await failureOf([{ status: 200, text: '<html>' }])).toMatchObject({ reason: 'UNAVAILABLE' });
  });

  it('the service turns a refused code into a 400 and a misconfiguration into a logged 503', async () => {
    expect(cleanNickname(undefined)).toBe('微信用户');
    const who = newWechatUser();
    const { state } = await codeFor('login', who);
    const refused = await loginWechat(state, 'not-a-code');
    expect(refused.status).toBe(400);
    expect(refused.body.rspmsg).toBe('微信授权码无效，请重新扫码');
    const identities = await db().select().from(oauthIdentities).where(and(eq(oauthIdentities.provider, 'wechat'), eq(oauthIdentities.subject, devUnionId(who.openid))));
    expect(identities).toEqual([]);

    const reported: OAuthError[] = [];
    const misconfigured = new WechatService(
      t.deps,
      new AuthService(t.deps),
      {
        name: 'wechat',
        authorizeUrl: () => 'https://open.weixin.qq.com/connect/qrconnect',
        exchangeCode: async () => {
          throw new OAuthError('MISCONFIGURED', '微信登录配置有误（AppID 或 AppSecret 不正确），请联系平台客服', 40125);
        },
      },
      (error) => reported.push(error),
    );
    const fresh = await misconfigured.authorize('login', null);
    const failure = await misconfigured.login(fresh.state, 'c').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ status: 503, message: '微信登录配置有误（AppID 或 AppSecret 不正确），请联系平台客服' });
    expect(reported.map((error) => error.providerCode)).toEqual([40125]);
  });
});
