import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { NO_PERMISSIONS, PHONE_CHANGE_TICKET_TTL_SECONDS, SMS_MAX_CHECKS } from '@slg/shared';
import { call, createTestApp, loginToken, registerUser, TEST_PASSWORD, uniquePhone, type TestApp } from '../../../test/helpers.js';
import { smsCodes, users } from '../../db/schema/index.js';
import { SessionService } from '../auth/sessions.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function latestCode(telephone: string, type: string): Promise<string> {
  const outbox = await call<{ code: string; type: string }[]>(t.app, { method: 'GET', url: `/api/dev/sms?telephone=${telephone}` });
  const latest = outbox.body.result.find((message) => message.type === type);
  if (!latest) throw new Error(`no ${type} code for ${telephone}`);
  return latest.code;
}

/** A code of the same length that is not `code`. */
const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

async function sendOldCode(token: string) {
  return call<{ expiresIn: number; resendAfter: number }>(t.app, { method: 'GET', url: '/api/v1/smscode?type=change_phone_old', token });
}

async function verifyOld(token: string, code: string) {
  return call<{ ticket: string; expiresIn: number }>(t.app, { method: 'POST', url: '/api/v1/user/updatePhone/verify', token, payload: { code } });
}

async function sendNewCode(token: string, ticket: string, telephone: string) {
  return call<{ expiresIn: number; resendAfter: number }>(t.app, {
    method: 'POST',
    url: '/api/v1/smscode/new-phone',
    token,
    payload: { ticket, telephone },
  });
}

async function changePhone(token: string, payload: Record<string, unknown>) {
  return call(t.app, { method: 'POST', url: '/api/v1/user/updatePhone', token, payload });
}

/** Step 1 done: a ticket for the signed-in account. */
async function ticketFor(user: { telephone: string; jwtToken: string }): Promise<string> {
  expect((await sendOldCode(user.jwtToken)).status).toBe(200);
  const verified = await verifyOld(user.jwtToken, await latestCode(user.telephone, 'change_phone_old'));
  expect(verified.status).toBe(200);
  return verified.body.result.ticket;
}

async function login(telephone: string) {
  return call<{ jwtToken: string }>(t.app, {
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { telephone, password: TEST_PASSWORD, countryCode: 86 },
  });
}

describe('changing the phone', () => {
  it('moves the account to the new phone with codes to both phones and signs out the other sessions', async () => {
    const user = await registerUser(t);
    const otherSession = await call<{ jwtToken: string; refreshToken: string }>(t.app, {
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { telephone: user.telephone, password: TEST_PASSWORD, countryCode: 86 },
    });
    expect(otherSession.status).toBe(200);

    const sentOld = await sendOldCode(user.jwtToken);
    expect(sentOld.status).toBe(200);
    expect(sentOld.body.result).toEqual({ expiresIn: 300, resendAfter: 60 });
    const verified = await verifyOld(user.jwtToken, await latestCode(user.telephone, 'change_phone_old'));
    expect(verified.status).toBe(200);
    expect(verified.body.result.expiresIn).toBe(PHONE_CHANGE_TICKET_TTL_SECONDS);
    const { ticket } = verified.body.result;

    const newPhone = uniquePhone();
    // Pasted the way people paste numbers: normalised like everywhere else.
    const sentNew = await sendNewCode(user.jwtToken, ticket, `+86 ${newPhone.slice(0, 3)}-${newPhone.slice(3, 7)}-${newPhone.slice(7)}`);
    expect(sentNew.status).toBe(200);
    expect(sentNew.body.result.resendAfter).toBe(60);
    const changed = await changePhone(user.jwtToken, { ticket, telephone: newPhone, code: await latestCode(newPhone, 'change_phone_new') });
    expect(changed.status).toBe(200);

    const info = await call<{ telephone: string }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: user.jwtToken });
    expect(info.status).toBe(200);
    expect(info.body.result.telephone).toBe(`${newPhone.slice(0, 3)}****${newPhone.slice(7)}`);

    // The other sign-in is over: its access token and its refresh token both.
    expect((await call(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: otherSession.body.result.jwtToken })).status).toBe(401);
    const refreshed = await call(t.app, {
      method: 'POST',
      url: '/api/v1/auth/refresh-token',
      payload: { refreshToken: otherSession.body.result.refreshToken },
    });
    expect(refreshed.status).toBe(401);

    expect((await login(user.telephone)).status).toBe(400);
    expect((await login(newPhone)).status).toBe(200);

    // The ticket worked once.
    const again = await changePhone(user.jwtToken, { ticket, telephone: uniquePhone(), code: '123456' });
    expect(again.status).toBe(400);
    expect(again.body.rspmsg).toBe('原手机号验证已失效，请重新验证原手机号');
  });

  it('refuses wrong codes for the old phone and burns the code after five comparisons', async () => {
    const user = await registerUser(t);
    await sendOldCode(user.jwtToken);
    const right = await latestCode(user.telephone, 'change_phone_old');
    const first = await verifyOld(user.jwtToken, wrong(right));
    expect(first.status).toBe(400);
    expect(first.body.code).toBe(40010);
    for (let i = 1; i < SMS_MAX_CHECKS - 1; i += 1) expect((await verifyOld(user.jwtToken, wrong(right))).body.code).toBe(40010);
    const last = await verifyOld(user.jwtToken, wrong(right));
    expect(last.body.code).toBe(40011);
    expect((await verifyOld(user.jwtToken, right)).status).toBe(400);
  });

  it('holds the five comparisons of the new phone code under a parallel burst', async () => {
    const user = await registerUser(t);
    const ticket = await ticketFor(user);
    const newPhone = uniquePhone();
    expect((await sendNewCode(user.jwtToken, ticket, newPhone)).status).toBe(200);
    const right = await latestCode(newPhone, 'change_phone_new');
    const burst = await Promise.all(
      Array.from({ length: 25 }, () => changePhone(user.jwtToken, { ticket, telephone: newPhone, code: wrong(right) })),
    );
    expect(burst.every((answer) => answer.status === 400)).toBe(true);
    const [row] = await t.deps.database.db
      .select({ checks: smsCodes.checks, consumedAt: smsCodes.consumedAt })
      .from(smsCodes)
      .where(and(eq(smsCodes.telephone, newPhone), eq(smsCodes.type, 'change_phone_new')))
      .orderBy(desc(smsCodes.createdAt))
      .limit(1);
    expect(row?.checks).toBe(SMS_MAX_CHECKS);
    expect(row?.consumedAt).not.toBeNull();
    expect((await changePhone(user.jwtToken, { ticket, telephone: newPhone, code: right })).status).toBe(400);
    expect((await login(user.telephone)).status).toBe(200);
  });

  it('holds the five comparisons of the old phone code under a parallel burst', async () => {
    const user = await registerUser(t);
    await sendOldCode(user.jwtToken);
    const right = await latestCode(user.telephone, 'change_phone_old');
    const burst = await Promise.all(Array.from({ length: 25 }, () => verifyOld(user.jwtToken, wrong(right))));
    expect(burst.every((answer) => answer.status === 400)).toBe(true);
    expect((await verifyOld(user.jwtToken, right)).status).toBe(400);
  });

  it('lets one of two parallel changes with the same ticket through', async () => {
    const user = await registerUser(t);
    const ticket = await ticketFor(user);
    const phones = [uniquePhone(), uniquePhone()];
    const codes: string[] = [];
    for (const phone of phones) {
      expect((await sendNewCode(user.jwtToken, ticket, phone)).status).toBe(200);
      codes.push(await latestCode(phone, 'change_phone_new'));
    }
    const answers = await Promise.all(
      phones.map((telephone, index) => changePhone(user.jwtToken, { ticket, telephone, code: codes[index] })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const winner = phones[answers.findIndex((answer) => answer.status === 200)] ?? '';
    const [row] = await t.deps.database.db.select({ telephone: users.telephone }).from(users).where(eq(users.telephone, winner));
    expect(row?.telephone).toBe(winner);
    expect((await login(user.telephone)).status).toBe(400);
  });

  it('refuses an expired, tampered, foreign or superseded ticket', async () => {
    const user = await registerUser(t);
    const ticket = await ticketFor(user);
    const newPhone = uniquePhone();
    // Another sign-in of the same account cannot use it.
    const otherToken = await loginToken(t, user.telephone);
    expect((await sendNewCode(otherToken, ticket, newPhone)).body.rspmsg).toBe('原手机号验证已失效，请重新验证原手机号');

    // Tampered: a claim changed, or the signature.
    const [payload, signature] = ticket.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { expiresAtMs: number };
    const extended = Buffer.from(JSON.stringify({ ...claims, expiresAtMs: claims.expiresAtMs + 3_600_000 })).toString('base64url');
    for (const forged of [`${extended}.${signature}`, `${payload}.${'0'.repeat(64)}`, `${payload}.${signature}.x`, 'x.y', '....', '%00']) {
      const answer = await sendNewCode(user.jwtToken, forged, newPhone);
      expect(answer.status, forged).toBe(400);
    }

    t.clock.advance(PHONE_CHANGE_TICKET_TTL_SECONDS + 1);
    const late = await sendNewCode(user.jwtToken, ticket, newPhone);
    expect(late.status).toBe(400);
    expect(late.body.rspmsg).toBe('原手机号验证已失效，请重新验证原手机号');

    // A fresh code to the old phone retires the previous one, and the tickets made from it.
    const first = await ticketFor(user);
    t.clock.advance(61);
    const second = await ticketFor(user);
    expect((await sendNewCode(user.jwtToken, first, newPhone)).status).toBe(400);
    expect((await sendNewCode(user.jwtToken, second, newPhone)).status).toBe(200);
  });

  it('refuses the same phone and a phone another account holds, also when it was taken between the steps', async () => {
    const user = await registerUser(t);
    const holder = await registerUser(t);
    const ticket = await ticketFor(user);

    const same = await sendNewCode(user.jwtToken, ticket, user.telephone);
    expect(same.status).toBe(400);
    expect(same.body.rspmsg).toBe('新手机号不能与原手机号相同');
    expect((await changePhone(user.jwtToken, { ticket, telephone: user.telephone, code: '123456' })).body.rspmsg).toBe(
      '新手机号不能与原手机号相同',
    );

    const taken = await sendNewCode(user.jwtToken, ticket, holder.telephone);
    expect(taken.status).toBe(409);
    expect(taken.body.rspmsg).toBe('该手机号已被其他账号使用');

    // Free when the code goes out, registered by someone else before the change: the unique index decides.
    const contested = uniquePhone();
    expect((await sendNewCode(user.jwtToken, ticket, contested)).status).toBe(200);
    const code = await latestCode(contested, 'change_phone_new');
    t.clock.advance(61);
    await registerUser(t, contested);
    const lost = await changePhone(user.jwtToken, { ticket, telephone: contested, code });
    expect(lost.status).toBe(409);
    expect(lost.body.rspmsg).toBe('该手机号已被其他账号使用');
    // Nothing moved: the account keeps its phone and the ticket is still good for another number.
    expect((await login(user.telephone)).status).toBe(200);
    const elsewhere = uniquePhone();
    expect((await sendNewCode(user.jwtToken, ticket, elsewhere)).status).toBe(200);
    const done = await changePhone(user.jwtToken, { ticket, telephone: elsewhere, code: await latestCode(elsewhere, 'change_phone_new') });
    expect(done.status).toBe(200);
  });

  it('keeps the phone change codes out of the open send', async () => {
    for (const type of ['change_phone_old', 'change_phone_new']) {
      const answer = await call(t.app, { method: 'GET', url: `/api/v1/smscode/phone?telephone=${uniquePhone()}&countryCode=86&type=${type}` });
      expect(answer.status).toBe(400);
    }
    const user = await registerUser(t);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/smscode?type=change_phone_new', token: user.jwtToken })).status).toBe(400);
    expect((await call(t.app, { method: 'POST', url: '/api/v1/smscode/new-phone', payload: { ticket: 'x', telephone: uniquePhone() } })).status).toBe(401);
    expect((await call(t.app, { method: 'POST', url: '/api/v1/user/updatePhone/verify', payload: { code: '123456' } })).status).toBe(401);
  });

  it('refuses a sub-account', async () => {
    const main = await registerUser(t);
    const [owner] = await t.deps.database.db.select({ id: users.id }).from(users).where(eq(users.telephone, main.telephone));
    if (!owner) throw new Error('no main account');
    const [sub] = await t.deps.database.db
      .insert(users)
      .values({ accountType: 2, parentId: owner.id, username: `phone_sub_${owner.id}`, nickName: '子账号', permissions: NO_PERMISSIONS })
      .returning({ id: users.id });
    if (!sub) throw new Error('no sub-account');
    const { jwtToken: token } = await t.deps.database.db.transaction((tx) => new SessionService(t.deps).start(tx, sub.id));
    const ticket = await ticketFor(main);

    const answers = [
      await sendOldCode(token),
      await verifyOld(token, '123456'),
      await sendNewCode(token, ticket, uniquePhone()),
      await changePhone(token, { ticket, telephone: uniquePhone(), code: '123456' }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.body.rspmsg).toBe('子账号不能修改主账号的手机号');
    }
  });

  it('answers bad input with a 400 and a Chinese message', async () => {
    const user = await registerUser(t);
    const bodies: unknown[] = [
      {},
      { ticket: 1, telephone: '13800000000', code: '123456' },
      { ticket: 'a'.repeat(10_000), telephone: '13800000000', code: '123456' },
      { ticket: 'abc', telephone: '12345', code: '123456' },
      { ticket: 'abc', telephone: '13800000000', code: 'abcdef' },
      { ticket: '\u0000', telephone: '13800000000', code: '123456' },
      { ticket: '\ud800', telephone: '13800000000', code: '123456' },
      [],
      null,
    ];
    for (const payload of bodies) {
      for (const url of ['/api/v1/user/updatePhone', '/api/v1/smscode/new-phone', '/api/v1/user/updatePhone/verify']) {
        const answer = await call(t.app, { method: 'POST', url, token: user.jwtToken, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });
        expect(answer.status, `${url} ${JSON.stringify(payload)}`).toBe(400);
        expect(answer.body.rspmsg).toMatch(/[\u4e00-\u9fff]/);
      }
    }
  });
});
