/**
 * Every limit holds under a burst of real, parallel HTTP requests (the app listens on a port and
 * fetch fires them at once): password checks per phone, comparisons per SMS code, redemption
 * look-ups per user, old-password checks of a password change (sharing the phone's budget with
 * sign-in). Runs on PGlite and on PostgreSQL (DATABASE_URL).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_MAX_FAILURES, REDEEM_MAX_FAILURES, SMS_MAX_CHECKS } from '@slg/shared';
import { hosts, instances, smsCodes } from '../src/db/schema/index.js';
import { Reconciler } from '../src/modules/rental/reconciler.js';
import { createTestApp, listenLocally, rechargeThroughSandbox, registerUser, sendCode, TEST_PASSWORD, uniquePhone, type TestApp } from './helpers.js';

interface Answer {
  status: number;
  rspcode: number;
  rspmsg: string;
  retryAfter: string | null;
}

describe('limits under bursts of parallel requests', () => {
  let test: TestApp;
  let base: string;

  beforeAll(async () => {
    test = await createTestApp();
    base = await listenLocally(test);
  });

  afterAll(async () => {
    await test?.close();
  });

  async function send(method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<Answer> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const body = (await response.json()) as { rspcode: number; rspmsg: string };
    return { status: response.status, rspcode: body.rspcode, rspmsg: body.rspmsg, retryAfter: response.headers.get('retry-after') };
  }

  /** Fires every request at once and waits for all answers. */
  const burst = (requests: (() => Promise<Answer>)[]) => Promise.all(requests.map((request) => request()));
  const count = (answers: Answer[], test: (answer: Answer) => boolean) => answers.filter(test).length;

  /** Refusals by a limit: 429, a Chinese message and a positive Retry-After. */
  function expectLimited(answers: Answer[], message: RegExp) {
    for (const answer of answers.filter((item) => item.status === 429)) {
      expect(answer.rspmsg).toMatch(message);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
  }

  async function codeRow(telephone: string, type: string) {
    const [row] = await test.deps.database.db
      .select({ checks: smsCodes.checks, consumedAt: smsCodes.consumedAt })
      .from(smsCodes)
      .where(and(eq(smsCodes.telephone, telephone), eq(smsCodes.type, type)));
    if (!row) throw new Error(`no ${type} code for ${telephone}`);
    return row;
  }

  it('100 concurrent password logins for one phone check at most 5 wrong passwords', async () => {
    const { telephone } = await registerUser(test);
    const attempts = Array.from({ length: 100 }, (_, index) => (index === 0 ? TEST_PASSWORD : `wrong${index}pass`));
    const answers = await burst(attempts.map((password) => () => send('POST', '/api/v1/auth/login', { body: { telephone, password, countryCode: 86 } })));

    const wrong = count(answers, (answer) => answer.status === 400 && answer.rspmsg === '手机号或密码错误');
    const succeeded = count(answers, (answer) => answer.status === 200);
    const locked = count(answers, (answer) => answer.status === 429);
    expect(wrong + succeeded + locked).toBe(100);
    expect(wrong).toBeLessThanOrEqual(PASSWORD_MAX_FAILURES);
    expect(succeeded).toBeLessThanOrEqual(1);
    // The right password gives its check back (it is no guess), so at most one check beyond the five.
    expect(wrong + succeeded).toBeLessThanOrEqual(PASSWORD_MAX_FAILURES + 1);
    expectLimited(answers, /^密码错误次数过多，请\d+(秒|分钟)后再试$/);
    // The budget is spent: now even the right password waits.
    if (wrong === PASSWORD_MAX_FAILURES) {
      expect((await send('POST', '/api/v1/auth/login', { body: { telephone, password: TEST_PASSWORD, countryCode: 86 } })).status).toBe(429);
    }
  });

  it('60 concurrent guesses at /auth/register/phone compare one code at most 5 times', async () => {
    const telephone = uniquePhone();
    const code = await sendCode(test.app, telephone, 'login');
    const guesses = Array.from({ length: 60 }, (_, index) => String((Number(code) + 1 + index) % 1_000_000).padStart(6, '0'));
    const answers = await burst(guesses.map((guess) => () => send('POST', '/api/v1/auth/register/phone', { body: { telephone, code: guess, countryCode: 86 } })));

    expect(count(answers, (answer) => answer.status === 400)).toBe(60);
    const row = await codeRow(telephone, 'login');
    expect(row.checks).toBe(SMS_MAX_CHECKS);
    expect(row.consumedAt).not.toBeNull();
    // The right code, not among the first five compared, is found no more.
    const late = await send('POST', '/api/v1/auth/register/phone', { body: { telephone, code, countryCode: 86 } });
    expect(late.status).toBe(400);
    expect(late.rspmsg).toMatch(/验证码/);
  });

  it('60 concurrent guesses at /smscode/validate compare one code at most 5 times', async () => {
    const telephone = uniquePhone();
    const code = await sendCode(test.app, telephone, 'register');
    const guesses = Array.from({ length: 60 }, (_, index) => String((Number(code) + 1 + index) % 1_000_000).padStart(6, '0'));
    const answers = await burst(
      guesses.map((guess) => () => send('POST', `/api/v1/smscode/validate?type=register&countryCode=86&telephone=${telephone}&code=${guess}`)),
    );

    expect(count(answers, (answer) => answer.status === 400)).toBe(60);
    const row = await codeRow(telephone, 'register');
    expect(row.checks).toBe(SMS_MAX_CHECKS);
    const late = await send('POST', `/api/v1/smscode/validate?type=register&countryCode=86&telephone=${telephone}&code=${code}`);
    expect(late.status).toBe(400);
  });

  it('a burst on both paths at once with the right code among the guesses still compares at most 5 times', async () => {
    const telephone = uniquePhone();
    const code = await sendCode(test.app, telephone, 'login');
    const guesses = Array.from({ length: 60 }, (_, index) => (index === 45 ? code : String((Number(code) + 1 + index) % 1_000_000).padStart(6, '0')));
    const answers = await burst(
      guesses.map((guess, index) =>
        index % 2 === 0
          ? () => send('POST', '/api/v1/auth/register/phone', { body: { telephone, code: guess, countryCode: 86 } })
          : () => send('POST', `/api/v1/smscode/validate?type=login&countryCode=86&telephone=${telephone}&code=${guess}`),
      ),
    );
    const row = await codeRow(telephone, 'login');
    const rightFound = count(answers, (answer) => answer.status === 200);
    // Wrong comparisons are what the column holds (a right one gives its comparison back).
    expect(row.checks).toBeLessThanOrEqual(SMS_MAX_CHECKS);
    expect(rightFound).toBeLessThanOrEqual(1);
    expect(count(answers, (answer) => answer.status === 400)).toBe(60 - rightFound);
  });

  it('40 concurrent wrong redemption codes for one user make exactly 5 look-ups', async () => {
    const { jwtToken } = await registerUser(test);
    const answers = await burst(
      Array.from({ length: 40 }, (_, index) => () => send('POST', '/api/v1/voucher/redeem', { token: jwtToken, body: { code: `WRONG-${index}-CODE` } })),
    );
    expect(count(answers, (answer) => answer.status === 400 && answer.rspmsg === '兑换码不存在或已失效')).toBe(REDEEM_MAX_FAILURES);
    expect(count(answers, (answer) => answer.status === 429)).toBe(40 - REDEEM_MAX_FAILURES);
    expectLimited(answers, /^兑换失败次数过多，请\d+(秒|分钟)后再试$/);
  });

  it('a burst of wrong old passwords checks at most 5, then locks sign-in too', async () => {
    const { telephone, jwtToken } = await registerUser(test);
    const answers = await burst(
      Array.from({ length: 30 }, (_, index) => () =>
        send('POST', '/api/v1/user/updatePassword', { token: jwtToken, body: { oldPassword: `wrong${index}pass`, password: 'newpass123' } }),
      ),
    );
    const checked = count(answers, (answer) => answer.status === 400 && answer.rspmsg === '原密码错误');
    expect(checked).toBe(PASSWORD_MAX_FAILURES);
    expect(count(answers, (answer) => answer.status === 429)).toBe(30 - PASSWORD_MAX_FAILURES);
    expectLimited(answers, /^密码错误次数过多，请\d+(秒|分钟)后再试$/);
    // One budget per phone: sign-in with the right password now waits as well.
    const login = await send('POST', '/api/v1/auth/login', { body: { telephone, password: TEST_PASSWORD, countryCode: 86 } });
    expect(login.status).toBe(429);
  });

  it('wrong sign-ins and wrong old passwords share one budget per phone', async () => {
    const { telephone, jwtToken } = await registerUser(test);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const login = await send('POST', '/api/v1/auth/login', { body: { telephone, password: `wrong${attempt}pass`, countryCode: 86 } });
      expect(login.status).toBe(400);
    }
    const answers = await burst(
      Array.from({ length: 20 }, (_, index) => () =>
        send('POST', '/api/v1/user/updatePassword', { token: jwtToken, body: { oldPassword: `wrong${index}pass`, password: 'newpass123' } }),
      ),
    );
    expect(count(answers, (answer) => answer.rspmsg === '原密码错误')).toBe(PASSWORD_MAX_FAILURES - 3);
    expect(count(answers, (answer) => answer.status === 429)).toBe(20 - (PASSWORD_MAX_FAILURES - 3));
  });
  it('20 concurrent pay-as-you-go creates on one hour of balance start exactly one: the hour covers everything the wallet runs', async () => {
    // RTX 4090 at the seed price: 198 fen per GPU-hour; the balance covers one GPU for one hour.
    const hostIds = ['bj-a-4090-01', 'bj-a-4090-02', 'bj-a-4090-03'];
    await test.deps.database.db.update(hosts).set({ gpuAllocated: 0 }).where(inArray(hosts.id, hostIds));
    const { jwtToken } = await registerUser(test);
    await rechargeThroughSandbox(test, jwtToken, 198);
    const answers = await burst(
      Array.from({ length: 20 }, (_, index) => () =>
        send('POST', '/api/v1/rental', {
          token: jwtToken,
          body: { hostId: hostIds[index % hostIds.length], gpuNum: 1, imageId: 'pytorch-2.5.1-py3.12-cu124', chargingRuleId: 1 },
        }),
      ),
    );
    expect(count(answers, (answer) => answer.status === 200)).toBe(1);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.every((answer) => answer.rspmsg.startsWith('账户余额不足：创建按量计费实例需要余额至少可支付1小时（¥3.96（含其他运行中按量实例¥1.98/时）'))).toBe(true);

    // Running now: a second one still needs an hour of both, and gets it after a recharge.
    await new Reconciler(test.deps).tick();
    test.clock.advance(120);
    await new Reconciler(test.deps).tick();
    const create = () =>
      send('POST', '/api/v1/rental', { token: jwtToken, body: { hostId: hostIds[0], gpuNum: 1, imageId: 'pytorch-2.5.1-py3.12-cu124', chargingRuleId: 1 } });
    const short = await create();
    expect(short.status).toBe(400);
    expect(short.rspmsg).toContain('含其他运行中按量实例¥1.98/时');
    await rechargeThroughSandbox(test, jwtToken, 300);
    expect((await create()).status).toBe(200);
    const mine = await test.deps.database.db.select({ instanceId: instances.instanceId }).from(instances);
    expect(mine.length).toBe(2);
  });
});
