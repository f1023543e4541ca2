import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCodes } from '@slg/shared';
import { attemptWindows } from '../../db/schema/index.js';
import { call, createTestApp, uniquePhone, type TestApp } from '../../../test/helpers.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** `count` concurrent requests, each claiming another client in X-Forwarded-For. */
function burst(app: TestApp['app'], count: number, remoteAddress: string, forwardedFor: (index: number) => string) {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      call(app, { method: 'GET', url: '/healthz', remoteAddress, headers: { 'x-forwarded-for': forwardedFor(index) } }),
    ),
  );
}

/** The client address the server used for an SMS send: the subject of its per-client window. */
async function smsClientSubjects(test: TestApp): Promise<string[]> {
  const rows = await test.deps.database.db
    .select({ subject: attemptWindows.subject })
    .from(attemptWindows)
    .where(eq(attemptWindows.scope, 'sms-client'));
  return rows.map((row) => row.subject).sort();
}

async function sendFrom(test: TestApp, remoteAddress: string, forwardedFor: string) {
  return call(test.app, {
    method: 'GET',
    url: `/api/v1/smscode/phone?telephone=${uniquePhone()}&type=login`,
    remoteAddress,
    headers: { 'x-forwarded-for': forwardedFor },
  });
}

describe('client address (TRUST_PROXY)', () => {
  it('by default ignores X-Forwarded-For: a burst with a new forwarded address each still hits the per-IP limit', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
    // The SMS limits key on the socket address too.
    await sendFrom(t, '127.0.0.1', '203.0.113.50');
    expect(await smsClientSubjects(t)).toEqual(['127.0.0.1']);

    const answers = await burst(t.app, 30, '127.0.0.1', (index) => `198.51.100.${index + 2}`);
    const limited = answers.filter((answer) => answer.status === 429);
    // @fastify/rate-limit may refuse even the first ones of a concurrent burst; it never lets more through.
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(5);
    expect(limited.length).toBeGreaterThanOrEqual(25);
    for (const answer of limited) {
      expect(answer.body).toEqual({
        rspcode: ErrorCodes.RATE_LIMITED.code,
        code: ErrorCodes.RATE_LIMITED.code,
        rspmsg: '请求过于频繁，请稍后再试',
        result: null,
      });
    }
  });

  it('with TRUST_PROXY naming the proxy, uses the forwarded address of requests that come through it', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5', TRUST_PROXY: '127.0.0.1' } });
    const viaProxy = await burst(t.app, 12, '127.0.0.1', (index) => `198.51.100.${index + 1}`);
    expect(viaProxy.every((answer) => answer.status === 200)).toBe(true);

    const oneClient = await burst(t.app, 8, '127.0.0.1', () => '203.0.113.7');
    expect(oneClient.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(3);

    // A client connecting directly (not through the trusted proxy) cannot choose its address.
    const direct = await burst(t.app, 8, '192.0.2.99', (index) => `198.51.100.${index + 100}`);
    expect(direct.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(3);

    await sendFrom(t, '127.0.0.1', '203.0.113.50');
    await sendFrom(t, '192.0.2.77', '203.0.113.51');
    expect(await smsClientSubjects(t)).toEqual(['192.0.2.77', '203.0.113.50']);
  });

  it('accepts CIDRs', async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' } });
    await sendFrom(t, '10.1.2.3', '203.0.113.60');
    await sendFrom(t, '11.1.2.3', '203.0.113.62');
    expect(await smsClientSubjects(t)).toEqual(['11.1.2.3', '203.0.113.60']);
  });

  it('accepts a hop count', async () => {
    // One hop: the address the (only) proxy appended is the client, whatever the client wrote before it.
    t = await createTestApp({ env: { TRUST_PROXY: '1' } });
    await sendFrom(t, '10.9.9.9', '198.51.100.250, 203.0.113.61');
    expect(await smsClientSubjects(t)).toEqual(['203.0.113.61']);
  });
});
