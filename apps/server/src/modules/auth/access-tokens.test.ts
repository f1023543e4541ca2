import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSigner } from 'fast-jwt';
import { call, createTestApp, registerUser, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let user: { jwtToken: string };
let claims: { sub: string; sid: string; iat: number; exp: number; iss: string };

beforeAll(async () => {
  t = await createTestApp();
  user = await registerUser(t);
  const payload = user.jwtToken.split('.')[1] ?? '';
  claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
});

afterAll(async () => {
  await t.close();
});

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const signWith = (secret: string, algorithm: 'HS256' | 'HS512', payload: Record<string, unknown>) =>
  createSigner({ key: Buffer.from(secret), algorithm })(payload);
const status = async (token: string) => (await call(t.app, { method: 'GET', url: '/api/v1/user/userinfo', token })).status;

describe('access token verification', () => {
  it('accepts the token the server issued, with its session and lifetime', async () => {
    expect(await status(user.jwtToken)).toBe(200);
    expect(claims.iss).toBe('suanligang');
    expect(claims.exp - claims.iat).toBe(t.deps.config.accessTokenTtlSeconds);
    expect(claims.sid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses tokens that are not ours: no signature, another key, another algorithm, another issuer', async () => {
    const secret = t.deps.config.jwtSecret;
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
    expect(await status(unsigned)).toBe(401);
    expect(await status(signWith('some-other-secret-that-is-long-enough!!', 'HS256', claims))).toBe(401);
    expect(await status(signWith(secret, 'HS512', claims))).toBe(401);
    expect(await status(signWith(secret, 'HS256', { ...claims, iss: 'someone-else' }))).toBe(401);
    // A signature copied onto changed claims does not verify.
    const [header, , signature] = user.jwtToken.split('.');
    expect(await status(`${header}.${base64url({ ...claims, sub: String(Number(claims.sub) + 1) })}.${signature}`)).toBe(401);
  });

  it('refuses well-signed tokens with missing or malformed claims, never with a 5xx', async () => {
    const secret = t.deps.config.jwtSecret;
    const { sid: _sid, ...withoutSession } = claims;
    const { exp: _exp, ...withoutExpiry } = claims;
    for (const payload of [withoutSession, withoutExpiry, { ...claims, sid: 'not-a-uuid' }, { ...claims, sub: 'abc' }, { ...claims, sid: 42 }]) {
      expect(await status(signWith(secret, 'HS256', payload))).toBe(401);
    }
  });

  it('judges expiry by the server clock', async () => {
    const secret = t.deps.config.jwtSecret;
    const nowSeconds = Math.floor(t.clock.now().getTime() / 1000);
    expect(await status(signWith(secret, 'HS256', { ...claims, iat: nowSeconds - 100, exp: nowSeconds + 60 }))).toBe(200);
    expect(await status(signWith(secret, 'HS256', { ...claims, iat: nowSeconds - 100, exp: nowSeconds }))).toBe(401);
  });
});
