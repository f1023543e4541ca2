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

describe('security headers (built once)', () => {
  it('go out on every kind of API answer, identical each time: the short API set', async () => {
    const user = await registerUser(t);
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/v1/meta/gpu' }),
      await t.app.inject({ method: 'GET', url: '/api/v1/user/userinfo', headers: { authorization: `Bearer ${user.jwtToken}` } }),
      await t.app.inject({ method: 'GET', url: '/api/v1/user/userinfo' }),
      await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 401, 404]);
    for (const answer of answers) {
      expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
      // Plain HTTP from a client no proxy vouches for: no HSTS (RFC 6797 §7.2).
      expect(answer.headers['strict-transport-security']).toBeUndefined();
      // The rate limit speaks when it is reached, not on every answer.
      expect(answer.headers['x-ratelimit-remaining']).toBeUndefined();
    }
    // Signed-in data is never stored; the dictionaries keep their revalidated cache.
    expect(answers[1]?.headers['cache-control']).toBe('no-store');
    expect(answers[0]?.headers['cache-control']).toBe('no-cache');
  });

  it('documents (the console, the API documentation, the health page) get helmet’s full set', async () => {
    for (const url of ['/healthz', '/api/docs/json']) {
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
      expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(answer.headers['cross-origin-embedder-policy']).toBeUndefined();
      expect(answer.headers['strict-transport-security']).toBeUndefined();
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
