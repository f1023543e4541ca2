import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskTelephone } from '@slg/shared';
import { call, createTestApp, TEST_PASSWORD, uniquePhone, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** `13912345678` written the way people paste it: `+86 139-1234-5678`. */
const pasted = (phone: string) => `+86 ${phone.slice(0, 3)}-${phone.slice(3, 7)}-${phone.slice(7)}`;
const fullWidth = (phone: string) => [...phone].map((digit) => String.fromCharCode(digit.charCodeAt(0) + 0xfee0)).join('');

describe('phone numbers as people paste them', () => {
  it('registers and signs in with +86 138-0013-8001 and stores the 11 digits', async () => {
    const phone = uniquePhone();
    const sent = await call(t.app, {
      method: 'GET',
      url: `/api/v1/smscode/phone?${new URLSearchParams({ telephone: pasted(phone), countryCode: '86', type: 'register' }).toString()}`,
    });
    expect(sent.status).toBe(200);
    const outbox = await call<{ code: string; telephone: string }[]>(t.app, { method: 'GET', url: `/api/dev/sms?telephone=${encodeURIComponent(`0086 ${phone}`)}` });
    expect(outbox.body.result[0]?.telephone).toBe(phone);
    const code = outbox.body.result[0]?.code ?? '';

    const registered = await call<{ jwtToken: string }>(t.app, {
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { telephone: pasted(phone), password: TEST_PASSWORD, code, countryCode: 86 },
    });
    expect(registered.status).toBe(200);
    const info = await call<{ telephone: string }>(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token: registered.body.result.jwtToken });
    expect(info.body.result.telephone).toBe(maskTelephone(phone));

    for (const written of [pasted(phone), `${phone.slice(0, 3)} ${phone.slice(3, 7)} ${phone.slice(7)}`, fullWidth(phone), `86${phone}`]) {
      const login = await call(t.app, { method: 'POST', url: '/api/v1/auth/login', payload: { telephone: written, password: TEST_PASSWORD, countryCode: 86 } });
      expect(login.status, written).toBe(200);
    }
  });

  it('still refuses what is no mainland mobile number, in Chinese', async () => {
    for (const written of ['+1 415 555 0100', '138 0013 800', '２３８００１３８００１']) {
      const login = await call(t.app, { method: 'POST', url: '/api/v1/auth/login', payload: { telephone: written, password: TEST_PASSWORD, countryCode: 86 } });
      expect(login.status, written).toBe(400);
      expect(login.body.rspmsg).toBe('请输入正确的11位手机号');
    }
  });
});
