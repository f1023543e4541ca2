import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { ErrorCodes } from '@slg/shared';
import { inArray } from 'drizzle-orm';
import { smsOutbox } from '../../db/schema/index.js';
import { call, createTestApp, registerThroughApi, uniquePhone, type TestApp } from '../../../test/helpers.js';

/** The limits as deployed: 20 sends per client address an hour, a check after 3 of them or a phone's 2nd code of the day. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { SMS_SENDS_PER_CLIENT_PER_HOUR: '20', HUMAN_CHECK_AFTER_CLIENT_SENDS_PER_HOUR: '3', HUMAN_CHECK_AFTER_PHONE_SENDS_PER_DAY: '2' },
  });
});
afterAll(async () => {
  await t.close();
});

let addressCounter = 0;
/** A client address no other test uses. */
function newClient(): string {
  addressCounter += 1;
  return `198.51.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

function send(test: TestApp, telephone: string, options: { from: string; captcha?: string; type?: string }) {
  const query = new URLSearchParams({ telephone, countryCode: '86', type: options.type ?? 'login' });
  if (options.captcha !== undefined) query.set('captcha', options.captcha);
  return call<{ expiresIn: number; resendAfter: number } | null>(test.app, {
    method: 'GET',
    url: `/api/v1/smscode/phone?${query.toString()}`,
    remoteAddress: options.from,
  });
}

/** Does what the ALTCHA widget does: fetch a challenge, solve it, hand back the base64 payload. */
async function solveHumanCheck(test: TestApp): Promise<string> {
  const challenge = await call<{ provider: string; altcha: { parameters: Record<string, unknown>; signature: string } }>(test.app, {
    method: 'GET',
    url: '/api/v1/captcha/challenge',
  });
  expect(challenge.status).toBe(200);
  expect(challenge.body.result.provider).toBe('altcha');
  const altcha = challenge.body.result.altcha as unknown as Parameters<typeof solveChallenge>[0]['challenge'];
  const solution = await solveChallenge({ challenge: altcha, deriveKey });
  if (!solution) throw new Error('challenge not solved');
  return Buffer.from(JSON.stringify({ challenge: altcha, solution })).toString('base64');
}

async function outboxCount(test: TestApp, phones: string[]): Promise<number> {
  return (await test.deps.database.db.select({ id: smsOutbox.id }).from(smsOutbox).where(inArray(smsOutbox.telephone, phones))).length;
}

describe('SMS sends per client address', () => {
  it('a burst to 50 new phones from one address sends 20, checks passed or not, and refuses the rest with the minutes left', async () => {
    const client = newClient();
    const phones = Array.from({ length: 50 }, () => uniquePhone());
    const captchas = await Promise.all(phones.map(() => solveHumanCheck(t)));
    const answers = await Promise.all(phones.map((phone, index) => send(t, phone, { from: client, captcha: captchas[index] })));
    const refused = answers.filter((answer) => answer.status === 429);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(20);
    expect(refused).toHaveLength(30);
    for (const answer of refused) {
      expect(answer.body.rspcode).toBe(ErrorCodes.SMS_CLIENT_LIMIT.code);
      expect(answer.body.rspmsg).toBe('当前网络发送验证码过于频繁，请60分钟后再试');
      expect(Number(answer.response.headers['retry-after'])).toBeGreaterThan(3500);
    }
    expect(await outboxCount(t, phones)).toBe(20);

    // Another address is not affected; this one may send again once the hour has passed.
    expect((await send(t, uniquePhone(), { from: newClient() })).status).toBe(200);
    t.clock.advance(20 * 60);
    const stillRefused = await send(t, uniquePhone(), { from: client, captcha: await solveHumanCheck(t) });
    expect(stillRefused.body.rspmsg).toBe('当前网络发送验证码过于频繁，请40分钟后再试');
    t.clock.advance(40 * 60 + 1);
    expect((await send(t, uniquePhone(), { from: client })).status).toBe(200);
  }, 120_000);

  it('without a check, past the hard limit the answer is the hard limit: a check would not help', async () => {
    const client = newClient();
    for (let sent = 0; sent < 20; sent += 1) {
      expect((await send(t, uniquePhone(), { from: client, captcha: await solveHumanCheck(t) })).status).toBe(200);
    }
    expect((await send(t, uniquePhone(), { from: client })).body.rspcode).toBe(ErrorCodes.SMS_CLIENT_LIMIT.code);
  }, 120_000);
});

describe('human check before SMS sends', () => {
  it('after 3 sends an hour a client must pass a check, also under a burst; a passed check sends', async () => {
    const client = newClient();
    const phones = Array.from({ length: 12 }, () => uniquePhone());
    const answers = await Promise.all(phones.map((phone) => send(t, phone, { from: client })));
    const refused = answers.filter((answer) => answer.status === 428);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    expect(refused).toHaveLength(9);
    for (const answer of refused) {
      expect(answer.body).toEqual({
        rspcode: ErrorCodes.HUMAN_CHECK_REQUIRED.code,
        code: ErrorCodes.HUMAN_CHECK_REQUIRED.code,
        rspmsg: '当前网络获取验证码次数较多，请先完成人机验证',
        result: null,
      });
    }

    const checkedPhone = uniquePhone();
    expect((await send(t, checkedPhone, { from: client, captcha: await solveHumanCheck(t) })).status).toBe(200);
    expect(await outboxCount(t, [...phones, checkedPhone])).toBe(4);
  });

  it('counts only codes that were sent: a send refused for the phone leaves the client budget alone', async () => {
    const client = newClient();
    const phone = uniquePhone();
    expect((await send(t, phone, { from: client })).status).toBe(200);
    expect((await send(t, phone, { from: client })).body.rspcode).toBe(ErrorCodes.SMS_TOO_FREQUENT.code);
    expect((await send(t, uniquePhone(), { from: client })).status).toBe(200);
    expect((await send(t, uniquePhone(), { from: client })).status).toBe(200);
    expect((await send(t, uniquePhone(), { from: client })).status).toBe(428);
  });

  it("a phone's third code of the day needs a check, the next day not", async () => {
    const phone = uniquePhone();
    expect((await send(t, phone, { from: newClient() })).status).toBe(200);
    t.clock.advance(61);
    expect((await send(t, phone, { from: newClient() })).status).toBe(200);
    t.clock.advance(61);
    const third = await send(t, phone, { from: newClient() });
    expect(third.status).toBe(428);
    expect(third.body.rspmsg).toBe('该手机号今日已多次获取验证码，请先完成人机验证');
    expect((await send(t, phone, { from: newClient(), captcha: await solveHumanCheck(t) })).status).toBe(200);

    t.clock.advance(24 * 3600);
    expect((await send(t, phone, { from: newClient() })).status).toBe(200);
  });

  it('a solved check passes once, even when it is presented many times at once', async () => {
    const client = newClient();
    const captcha = await solveHumanCheck(t);
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(t, uniquePhone(), { from: client, captcha })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const failed = answers.filter((answer) => answer.status === 400);
    expect(failed).toHaveLength(7);
    for (const answer of failed) {
      expect(answer.body).toMatchObject({ rspcode: ErrorCodes.HUMAN_CHECK_FAILED.code, rspmsg: '人机验证未通过或已失效，请重新验证' });
    }
    expect((await send(t, uniquePhone(), { from: client, captcha })).status).toBe(400);
  });

  it('refuses forged, tampered and expired solutions', async () => {
    const client = newClient();
    for (const forged of ['x', 'bm90IGpzb24=', Buffer.from('{"challenge":1}').toString('base64')]) {
      const answer = await send(t, uniquePhone(), { from: client, captcha: forged });
      expect(answer.status).toBe(400);
      expect(answer.body.rspcode).toBe(ErrorCodes.HUMAN_CHECK_FAILED.code);
    }

    const payload = JSON.parse(Buffer.from(await solveHumanCheck(t), 'base64').toString('utf8')) as {
      challenge: { parameters: { data: { expiresAt: number }; cost: number } };
      solution: { counter: number; derivedKey: string };
    };
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
    const wrongKey = { ...payload, solution: { ...payload.solution, derivedKey: '00'.repeat(32) } };
    const longerLife = structuredClone(payload);
    longerLife.challenge.parameters.data.expiresAt += 3600;
    const cheaper = structuredClone(payload);
    cheaper.challenge.parameters.cost = 0;
    for (const tampered of [wrongKey, longerLife, cheaper]) {
      expect((await send(t, uniquePhone(), { from: client, captcha: encode(tampered) })).body.rspcode).toBe(ErrorCodes.HUMAN_CHECK_FAILED.code);
    }

    t.clock.advance(10 * 60 + 1);
    const expired = await send(t, uniquePhone(), { from: client, captcha: encode(payload) });
    expect(expired.body.rspcode).toBe(ErrorCodes.HUMAN_CHECK_FAILED.code);
    // The untouched solution was still good until then: it had not been spent by the refused copies.
  });

  it('the signed-in send to the own phone follows the same rules', async () => {
    // Registered through the API: its register code is the phone's first of the day.
    const { jwtToken } = await registerThroughApi(t);
    const client = newClient();
    const own = (captcha?: string) =>
      call(t.app, {
        method: 'GET',
        url: `/api/v1/smscode?type=reset${captcha ? `&captcha=${encodeURIComponent(captcha)}` : ''}`,
        token: jwtToken,
        remoteAddress: client,
      });
    expect((await own()).status).toBe(200);
    t.clock.advance(61);
    const third = await own();
    expect(third.status).toBe(428);
    expect(third.body.rspcode).toBe(ErrorCodes.HUMAN_CHECK_REQUIRED.code);
    expect((await own(await solveHumanCheck(t))).status).toBe(200);
  });

  it('serves challenges that are never cached', async () => {
    const first = await call<{ altcha: { parameters: { nonce: string } } }>(t.app, { method: 'GET', url: '/api/v1/captcha/challenge' });
    const second = await call<{ altcha: { parameters: { nonce: string } } }>(t.app, { method: 'GET', url: '/api/v1/captcha/challenge' });
    expect(first.response.headers['cache-control']).toBe('no-store');
    expect(first.body.result.altcha.parameters.nonce).not.toBe(second.body.result.altcha.parameters.nonce);
  });
});

describe('each refused send says why', () => {
  it('per phone: the real seconds left with Retry-After, and the daily limit until midnight', async () => {
    // Move to 10:00 China time of a new day, so the day's sends start at zero and midnight is 14 hours away.
    const sinceTen = (t.deps.now().getTime() - Date.parse('2026-06-01T02:00:00Z')) % (24 * 3600 * 1000);
    t.clock.advance((24 * 3600 * 1000 - sinceTen) / 1000);
    const phone = uniquePhone();
    const client = () => newClient();
    expect((await send(t, phone, { from: client() })).status).toBe(200);
    t.clock.advance(15);
    const soon = await send(t, phone, { from: client() });
    expect(soon.status).toBe(429);
    expect(soon.body.rspmsg).toMatch(/^验证码发送过于频繁，请4[45]秒后再试$/);
    expect(['44', '45']).toContain(soon.response.headers['retry-after']);

    for (let sent = 1; sent < 10; sent += 1) {
      t.clock.advance(61);
      const captcha = sent >= 2 ? await solveHumanCheck(t) : undefined;
      expect((await send(t, phone, { from: client(), captcha })).status).toBe(200);
    }
    t.clock.advance(61);
    const daily = await send(t, phone, { from: client(), captcha: await solveHumanCheck(t) });
    expect(daily.status).toBe(429);
    expect(daily.body.rspmsg).toBe('该手机号今日验证码发送次数已达上限，请明天再试');
    // About 10:10 now: a little under 14 hours remain until midnight in China.
    const retryAfter = Number(daily.response.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(13 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(14 * 3600);
  });
});
