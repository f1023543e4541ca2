import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import helmet from 'helmet';
import { createTestApp, registerUser, type TestApp } from '../../test/helpers.js';
import { securityHeadersOf } from './security-headers.js';

let t: TestApp;
/** Behind a proxy at 127.0.0.1 (what app.inject comes from), whose X-Forwarded-Proto is believed. */
let proxied: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  proxied = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
});

afterAll(async () => {
  await t.close();
  await proxied.close();
});

describe('security headers (helmet, built once)', () => {
  it('go out on every kind of answer, identical each time', async () => {
    const user = await registerUser(t);
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/v1/meta/gpu' }),
      await t.app.inject({ method: 'GET', url: '/api/v1/user/userinfo', headers: { authorization: `Bearer ${user.jwtToken}` } }),
      await t.app.inject({ method: 'GET', url: '/api/v1/user/userinfo' }),
      await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' }),
      await t.app.inject({ method: 'GET', url: '/healthz' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 401, 404, 200]);
    for (const answer of answers) {
      expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
      expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      // Plain HTTP from a client no proxy vouches for: no HSTS (RFC 6797 §7.2).
      expect(answer.headers['strict-transport-security']).toBeUndefined();
      expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(answer.headers['cross-origin-embedder-policy']).toBeUndefined();
      expect(answer.headers['content-security-policy']).toBe(answers[0]?.headers['content-security-policy']);
    }
  });
});

describe('HSTS', () => {
  it('goes only on answers to requests that came over TLS through a trusted proxy, never on plain HTTP', async () => {
    const overTls = await proxied.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
    expect(overTls.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    const plain = await proxied.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    // Without a trusted proxy the header is the client's word and changes nothing.
    const claimed = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('securityHeadersOf', () => {
  it('records exactly what helmet sets on a real response', () => {
    const options = {
      contentSecurityPolicy: { directives: { scriptSrc: ["'self'", "'sha256-abc'"], upgradeInsecureRequests: null } },
      crossOriginEmbedderPolicy: false,
    };
    const request = new IncomingMessage(new Socket());
    const response = new ServerResponse(request);
    response.setHeader('X-Powered-By', 'something');
    helmet(options)(request, response, () => {});
    const applied = Object.fromEntries(Object.entries(response.getHeaders()).map(([name, value]) => [name, String(value)]));
    expect(securityHeadersOf(options)).toEqual(applied);
  });
});
