import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes, MAX_BODY_BYTES } from '@slg/shared';
import { call, createTestApp, registerThroughApi, sendCode, TEST_PASSWORD, uniquePhone, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const login = (telephone: string, password: string) =>
  call<{ jwtToken: string; refreshToken: string }>(t.app, {
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { telephone, password, countryCode: 86 },
  });

describe('SMS codes', () => {
  it('sends a 6-digit code to the outbox and limits resends to one per 60 s', async () => {
    const phone = uniquePhone();
    const first = await call<{ expiresIn: number; resendAfter: number }>(t.app, {
      method: 'GET',
      url: `/api/v1/smscode/phone?telephone=${phone}&countryCode=86&type=login`,
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ rspcode: 0, code: 200, rspmsg: 'success', result: { expiresIn: 300, resendAfter: 60 } });
    const outbox = await call<{ telephone: string; type: string; code: string; createdAt: string }[]>(t.app, {
      method: 'GET',
      url: `/api/dev/sms?telephone=${phone}`,
    });
    expect(outbox.body.result).toHaveLength(1);
    expect(outbox.body.result[0]).toMatchObject({ telephone: phone, type: 'login' });
    expect(outbox.body.result[0]?.code).toMatch(/^\d{6}$/);

    const again = await call(t.app, { method: 'GET', url: `/api/v1/smscode/phone?telephone=${phone}&countryCode=86&type=login` });
    expect(again.status).toBe(429);
    expect(again.body.rspmsg).toBe(ErrorCodes.SMS_TOO_FREQUENT.message);
    t.clock.advance(61);
    const later = await call(t.app, { method: 'GET', url: `/api/v1/smscode/phone?telephone=${phone}&countryCode=86&type=login` });
    expect(later.status).toBe(200);
  });

  it('allows at most 10 codes a day per phone', async () => {
    const phone = uniquePhone();
    for (let i = 0; i < 10; i += 1) {
      await sendCode(t.app, phone, 'login');
      t.clock.advance(61);
    }
    const eleventh = await call(t.app, { method: 'GET', url: `/api/v1/smscode/phone?telephone=${phone}&countryCode=86&type=login` });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.rspcode).toBe(ErrorCodes.SMS_DAILY_LIMIT.code);
  });

  it('validates without consuming, rejects wrong codes and burns the code after 5 wrong tries', async () => {
    const phone = uniquePhone();
    const code = await sendCode(t.app, phone, 'login');
    const wrong = code === '000000' ? '111111' : '000000';
    const validate = (c: string) =>
      call(t.app, { method: 'POST', url: `/api/v1/smscode/validate?type=login&countryCode=86&telephone=${phone}&code=${c}` });
    expect((await validate(code)).body.result).toEqual({ valid: true });
    expect((await validate(code)).status).toBe(200);
    for (let i = 0; i < 4; i += 1) {
      const attempt = await validate(wrong);
      expect(attempt.status).toBe(400);
      expect(attempt.body.rspmsg).toBe(ErrorCodes.SMS_CODE_INVALID.message);
    }
    const fifth = await validate(wrong);
    expect(fifth.body.rspmsg).toBe(ErrorCodes.SMS_CODE_BURNED.message);
    expect((await validate(code)).status).toBe(400);
  });

  it('expires codes after 5 minutes', async () => {
    const phone = uniquePhone();
    const code = await sendCode(t.app, phone, 'login');
    t.clock.advance(301);
    const signIn = await call(t.app, { method: 'POST', url: '/api/v1/auth/register/phone', payload: { telephone: phone, code, countryCode: 86 } });
    expect(signIn.status).toBe(400);
    expect(signIn.body.rspcode).toBe(ErrorCodes.SMS_CODE_INVALID.code);
  });

  it('refuses bad phone numbers and unknown types in Chinese', async () => {
    const badPhone = await call(t.app, { method: 'GET', url: '/api/v1/smscode/phone?telephone=12345&countryCode=86&type=login' });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.rspmsg).toContain('手机号');
    const badType = await call(t.app, { method: 'GET', url: `/api/v1/smscode/phone?telephone=${uniquePhone()}&countryCode=86&type=hack` });
    expect(badType.status).toBe(400);
    expect(badType.body.rspmsg).toContain('验证码类型');
    const badCountry = await call(t.app, { method: 'GET', url: `/api/v1/smscode/phone?telephone=${uniquePhone()}&countryCode=1&type=login` });
    expect(badCountry.status).toBe(400);
    expect(badCountry.body.rspmsg).toContain('86');
  });

  it('sends to the signed-in user own phone', async () => {
    const user = await registerThroughApi(t);
    const sent = await call(t.app, { method: 'GET', url: '/api/v1/smscode?type=bind', token: user.jwtToken });
    expect(sent.status).toBe(200);
    const outbox = await call<{ type: string }[]>(t.app, { method: 'GET', url: `/api/dev/sms?telephone=${user.telephone}` });
    expect(outbox.body.result[0]?.type).toBe('bind');
    expect((await call(t.app, { method: 'GET', url: '/api/v1/smscode?type=bind' })).status).toBe(401);
  });
});

describe('registration', () => {
  it('registers with a code and password, then shows masked user info and a zero balance', async () => {
    const phone = uniquePhone();
    const code = await sendCode(t.app, phone, 'register');
    const registered = await call<{ jwtToken: string; refreshToken: string }>(t.app, {
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { telephone: phone, password: TEST_PASSWORD, code, countryCode: 86, inviteCode: 'FRIEND1' },
    });
    expect(registered.status).toBe(200);
    const { jwtToken } = registered.body.result;
    const info = await call<Record<string, unknown>>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: jwtToken });
    expect(JSON.stringify(info.body)).not.toContain(phone);
    expect(info.body.result).toMatchObject({
      telephone: `${phone.slice(0, 3)}****${phone.slice(7)}`,
      userName: `${phone.slice(0, 3)}****${phone.slice(7)}`,
      accountType: 1,
      nickName: `用户${phone.slice(-4)}`,
      hasPassword: true,
    });
    const account = await call(t.app, { method: 'GET', url: '/api/v1/account/', token: jwtToken });
    expect(account.body.result).toEqual({ totalBalance: 0 });
    const check = await call(t.app, { method: 'GET', url: `/api/v1/user/check-phone?telephone=${phone}` });
    expect(check.body.result).toEqual({ registered: true });
  });

  it('refuses a registered phone with 409 该手机号已注册, both at send and at register', async () => {
    const user = await registerThroughApi(t);
    const send = await call(t.app, { method: 'GET', url: `/api/v1/smscode/phone?telephone=${user.telephone}&countryCode=86&type=register` });
    expect(send.status).toBe(409);
    expect(send.body.rspmsg).toBe('该手机号已注册');
    const again = await call(t.app, {
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { telephone: user.telephone, password: TEST_PASSWORD, code: '123456', countryCode: 86 },
    });
    expect(again.status).toBe(409);
    expect(again.body.rspmsg).toBe('该手机号已注册');
  });

  it('refuses a wrong code and a weak password without creating the account', async () => {
    const phone = uniquePhone();
    const code = await sendCode(t.app, phone, 'register');
    const wrong = await call(t.app, {
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { telephone: phone, password: TEST_PASSWORD, code: code === '999999' ? '888888' : '999999', countryCode: 86 },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.rspcode).toBe(ErrorCodes.SMS_CODE_INVALID.code);
    for (const password of ['short1', 'onlyletters', '1234567890', 'a1'.repeat(11)]) {
      const weak = await call(t.app, { method: 'POST', url: '/api/v1/auth/register', payload: { telephone: phone, password, code, countryCode: 86 } });
      expect(weak.status).toBe(400);
      expect(weak.body.rspmsg).toContain('密码需为8-20位');
    }
    expect((await call(t.app, { method: 'GET', url: `/api/v1/user/check-phone?telephone=${phone}` })).body.result).toEqual({ registered: false });
  });

  it('names every missing field in Chinese', async () => {
    const missing = await call(t.app, { method: 'POST', url: '/api/v1/auth/register', payload: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.rspcode).toBe(ErrorCodes.VALIDATION.code);
    expect(missing.body.rspmsg).toContain('请输入手机号');
    expect(missing.body.rspmsg).toContain('请输入密码');
    expect(missing.body.rspmsg).toContain('请输入验证码');
    expect(missing.body.result).toBeNull();
  });

  it('signs in by SMS code, creating the account on first use (other=true) and not after', async () => {
    const phone = uniquePhone();
    const first = await call<{ jwtToken: string; other: boolean }>(t.app, {
      method: 'POST',
      url: '/api/v1/auth/register/phone',
      payload: { telephone: phone, code: await sendCode(t.app, phone, 'login'), countryCode: 86 },
    });
    expect(first.status).toBe(200);
    expect(first.body.result.other).toBe(true);
    const info = await call<{ hasPassword: boolean }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: first.body.result.jwtToken });
    expect(info.body.result.hasPassword).toBe(false);

    // Setting the first password needs no old password.
    const setPassword = await call(t.app, {
      method: 'POST',
      url: '/api/v1/user/updatePassword',
      token: first.body.result.jwtToken,
      payload: { password: TEST_PASSWORD },
    });
    expect(setPassword.status).toBe(200);
    expect((await login(phone, TEST_PASSWORD)).status).toBe(200);

    t.clock.advance(61);
    const second = await call<{ other: boolean }>(t.app, {
      method: 'POST',
      url: '/api/v1/auth/register/phone',
      payload: { telephone: phone, code: await sendCode(t.app, phone, 'login'), countryCode: 86 },
    });
    expect(second.body.result.other).toBe(false);
  });

  it('uses a code once only', async () => {
    const phone = uniquePhone();
    const code = await sendCode(t.app, phone, 'login');
    const payload = { telephone: phone, code, countryCode: 86 };
    expect((await call(t.app, { method: 'POST', url: '/api/v1/auth/register/phone', payload })).status).toBe(200);
    const reuse = await call(t.app, { method: 'POST', url: '/api/v1/auth/register/phone', payload });
    expect(reuse.status).toBe(400);
    expect(reuse.body.rspcode).toBe(ErrorCodes.SMS_CODE_INVALID.code);
  });
});

describe('password sign-in', () => {
  it('signs in with the right password and refuses wrong ones with one message', async () => {
    const user = await registerThroughApi(t);
    const good = await login(user.telephone, TEST_PASSWORD);
    expect(good.status).toBe(200);
    expect(good.body.result.jwtToken).toBeTruthy();
    const wrongPassword = await login(user.telephone, 'wrong12345');
    const unknownPhone = await login(uniquePhone(), 'wrong12345');
    expect(wrongPassword.status).toBe(400);
    expect(unknownPhone.status).toBe(400);
    expect(wrongPassword.body.rspmsg).toBe('手机号或密码错误');
    expect(unknownPhone.body).toEqual(wrongPassword.body);
  });

  it('locks the phone for 15 minutes after 5 failures in 15 minutes', async () => {
    const user = await registerThroughApi(t);
    for (let i = 0; i < 5; i += 1) expect((await login(user.telephone, 'wrong12345')).status).toBe(400);
    const sixth = await login(user.telephone, TEST_PASSWORD);
    expect(sixth.status).toBe(429);
    expect(sixth.body.rspmsg).toBe('密码错误次数过多，请15分钟后再试');
    expect(sixth.response.headers['retry-after']).toBe('900');
    t.clock.advance(14 * 60);
    expect((await login(user.telephone, TEST_PASSWORD)).status).toBe(429);
    t.clock.advance(61);
    expect((await login(user.telephone, TEST_PASSWORD)).status).toBe(200);
  });

  it('does not lock for failures spread over more than 15 minutes', async () => {
    const user = await registerThroughApi(t);
    for (let i = 0; i < 4; i += 1) await login(user.telephone, 'wrong12345');
    t.clock.advance(16 * 60);
    await login(user.telephone, 'wrong12345');
    expect((await login(user.telephone, TEST_PASSWORD)).status).toBe(200);
  });

  it('resets a forgotten password with a reset code and signs out other sessions', async () => {
    const user = await registerThroughApi(t);
    const code = await sendCode(t.app, user.telephone, 'reset');
    const reset = await call(t.app, {
      method: 'POST',
      url: '/api/v1/user/forgetPassword',
      payload: { telephone: user.telephone, code, password: 'newpass123' },
    });
    expect(reset.status).toBe(200);
    expect((await login(user.telephone, TEST_PASSWORD)).status).toBe(400);
    expect((await login(user.telephone, 'newpass123')).status).toBe(200);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: user.jwtToken })).status).toBe(401);
    const unregistered = await call(t.app, { method: 'GET', url: `/api/v1/smscode/phone?telephone=${uniquePhone()}&countryCode=86&type=reset` });
    expect(unregistered.body.rspmsg).toBe('该手机号未注册');
  });

  it('changes the password only with the right old password', async () => {
    const user = await registerThroughApi(t);
    const wrongOld = await call(t.app, {
      method: 'POST',
      url: '/api/v1/user/updatePassword',
      token: user.jwtToken,
      payload: { oldPassword: 'nope12345', password: 'fresh12345' },
    });
    expect(wrongOld.status).toBe(400);
    expect(wrongOld.body.rspmsg).toBe('原密码错误');
    const missingOld = await call(t.app, { method: 'POST', url: '/api/v1/user/updatePassword', token: user.jwtToken, payload: { password: 'fresh12345' } });
    expect(missingOld.body.rspmsg).toBe('请输入原密码');
    const changed = await call(t.app, {
      method: 'POST',
      url: '/api/v1/user/updatePassword',
      token: user.jwtToken,
      payload: { oldPassword: TEST_PASSWORD, password: 'fresh12345' },
    });
    expect(changed.status).toBe(200);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: user.jwtToken })).status).toBe(200);
    expect((await login(user.telephone, 'fresh12345')).status).toBe(200);
  });

  it('updates the nickname and refuses an empty or overlong one', async () => {
    const user = await registerThroughApi(t);
    const set = (nickName: string) =>
      call(t.app, { method: 'POST', url: '/api/v1/user/updateNickname', token: user.jwtToken, payload: { nickName } });
    expect((await set('炼丹师')).status).toBe(200);
    const info = await call<{ nickName: string }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: user.jwtToken });
    expect(info.body.result.nickName).toBe('炼丹师');
    expect((await set('   ')).body.rspmsg).toContain('昵称');
    expect((await set('长'.repeat(21))).status).toBe(400);
  });
});

describe('sessions', () => {
  it('rotates refresh tokens and revokes the whole session when a used one comes back', async () => {
    const user = await registerThroughApi(t);
    const refresh = (refreshToken: string) =>
      call<{ jwtToken: string; refreshToken: string }>(t.app, { method: 'POST', url: '/api/v1/auth/refresh-token', payload: { refreshToken } });
    const rotated = await refresh(user.refreshToken);
    expect(rotated.status).toBe(200);
    expect(rotated.body.result.refreshToken).not.toBe(user.refreshToken);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: rotated.body.result.jwtToken })).status).toBe(200);

    const reused = await refresh(user.refreshToken);
    expect(reused.status).toBe(401);
    // The thief's replay killed the family: the newest refresh token and access token die too.
    expect((await refresh(rotated.body.result.refreshToken)).status).toBe(401);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: rotated.body.result.jwtToken })).status).toBe(401);
    // Other sign-ins are untouched.
    expect((await login(user.telephone, TEST_PASSWORD)).status).toBe(200);
  });

  it('refuses unknown and expired refresh tokens', async () => {
    const user = await registerThroughApi(t);
    expect((await call(t.app, { method: 'POST', url: '/api/v1/auth/refresh-token', payload: { refreshToken: 'garbage' } })).status).toBe(401);
    t.clock.advance(31 * 86400);
    const expired = await call(t.app, { method: 'POST', url: '/api/v1/auth/refresh-token', payload: { refreshToken: user.refreshToken } });
    expect(expired.status).toBe(401);
    expect(expired.body.rspmsg).toBe(ErrorCodes.REFRESH_TOKEN_INVALID.message);
  });

  it('expires access tokens after their lifetime', async () => {
    const user = await registerThroughApi(t);
    t.clock.advance(t.deps.config.accessTokenTtlSeconds + 1);
    const expired = await call(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: user.jwtToken });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ rspcode: 40100, code: 40100, rspmsg: '登录状态已过期，需要重新登录', result: null });
  });

  it('signs out: the refresh token and the access token stop working', async () => {
    const user = await registerThroughApi(t);
    const out = await call(t.app, { method: 'POST', url: '/api/v1/auth/logout', token: user.jwtToken, payload: { refreshToken: user.refreshToken } });
    expect(out.status).toBe(200);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: user.jwtToken })).status).toBe(401);
    expect((await call(t.app, { method: 'POST', url: '/api/v1/auth/refresh-token', payload: { refreshToken: user.refreshToken } })).status).toBe(401);
  });

  it('signs out with only the bearer token and no body', async () => {
    const user = await registerThroughApi(t);
    expect((await call(t.app, { method: 'POST', url: '/api/v1/auth/logout', token: user.jwtToken })).status).toBe(200);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: user.jwtToken })).status).toBe(401);
  });

  it('refuses every private call without a valid bearer token', async () => {
    for (const url of ['/api/v1/user/userinfo', '/api/v1/account/', '/api/v1/subuser/me']) {
      for (const authorization of [undefined, 'Bearer not-a-jwt', 'Basic abc']) {
        const response = await call(t.app, { method: 'GET', url, headers: authorization ? { authorization } : {} });
        expect(response.status).toBe(401);
        expect(response.body.rspcode).toBe(40100);
      }
    }
    const forged = await call(t.app, {
      method: 'GET',
      url: '/api/v1/user/userinfo',
      token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwic2lkIjoieCIsImlzcyI6InN1YW5saWdhbmcifQ.invalidsignature',
    });
    expect(forged.status).toBe(401);
  });

  it('a main account cannot read sub-account info', async () => {
    const user = await registerThroughApi(t);
    expect((await call(t.app, { method: 'GET', url: '/api/v1/subuser/me', token: user.jwtToken })).status).toBe(403);
  });
});

describe('HTTP envelope', () => {
  it('answers malformed JSON with 400 and the envelope', async () => {
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"telephone": ',
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ rspcode: 40001, code: 40001, rspmsg: '请求体不是合法的 JSON', result: null });
  });

  it('answers an oversize body with 413', async () => {
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ telephone: '13800000000', password: 'x'.repeat(MAX_BODY_BYTES) }),
    });
    expect(response.status).toBe(413);
    expect(response.body.rspmsg).toBe('请求内容过大');
  });

  it('answers an unknown route with 404 and an unsupported content type with 415', async () => {
    const missing = await call(t.app, { method: 'GET', url: '/api/v1/no-such-thing' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ rspcode: 40400, code: 40400, rspmsg: '服务器资源不存在', result: null });
    const xml = await call(t.app, { method: 'POST', url: '/api/v1/auth/login', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(xml.status).toBe(415);
  });

  it('refuses wrong types in the body by field name', async () => {
    const response = await call(t.app, { method: 'POST', url: '/api/v1/auth/login', payload: { telephone: 13800000000, password: ['x'] } });
    expect(response.status).toBe(400);
    expect(response.body.rspmsg).toContain('手机号必须是文本');
    expect(response.body.rspmsg).toContain('密码必须是文本');
  });

  it('reports liveness, readiness and the OpenAPI document', async () => {
    expect((await call(t.app, { method: 'GET', url: '/healthz' })).body.result).toEqual({ status: 'ok' });
    const ready = await call<{ status: string; database: string }>(t.app, { method: 'GET', url: '/readyz' });
    expect(ready.body.result.status).toBe('ready');
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    const document = docs.json() as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/v1/auth/register', '/api/v1/auth/login', '/api/v1/user/userinfo', '/api/v1/smscode/phone']),
    );
  });

  it('echoes a request id', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(response.headers['x-request-id']).toBe('abc-123');
  });
});
