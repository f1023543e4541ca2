import { describe, expect, it, vi } from 'vitest';
import { createApiClient, type TokenPair } from './client';

type FetchArgs = Parameters<typeof fetch>;

const ok = (result: unknown) =>
  new Response(JSON.stringify({ rspcode: 0, code: 200, rspmsg: 'success', result }), { status: 200 });
const unauthorized = () => new Response(JSON.stringify({ rspcode: 40100, code: 40100, rspmsg: '', result: null }), { status: 401 });

function setup(responses: Response[], tokens: { token: string | null; refreshToken: string | null }) {
  const queue = [...responses];
  const fetchMock = vi.fn<(...args: FetchArgs) => Promise<Response>>(async () => {
    const next = queue.shift();
    if (!next) throw new Error('unexpected fetch');
    return next;
  });
  const client = createApiClient({
    fetch: fetchMock,
    notify: () => undefined,
    onUnauthorized: () => undefined,
    session: {
      getToken: () => tokens.token,
      getRefreshToken: () => tokens.refreshToken,
      setTokens: (pair: TokenPair) => {
        tokens.token = pair.jwtToken;
        tokens.refreshToken = pair.refreshToken;
      },
    },
  });
  return { client, fetch: fetchMock };
}

const header = (init: RequestInit | undefined, name: string) => new Headers(init?.headers).get(name);

describe('request headers option', () => {
  it('sends extra headers such as Idempotency-Key', async () => {
    const h = setup([ok(1)], { token: 'jwt-1', refreshToken: null });
    await h.client.request({ method: 'POST', url: '/payment/recharge', data: {}, headers: { 'Idempotency-Key': 'k-1' } });
    const init = h.fetch.mock.calls[0]?.[1];
    expect(header(init, 'Idempotency-Key')).toBe('k-1');
    expect(header(init, 'Authorization')).toBe('Bearer jwt-1');
    expect(header(init, 'Content-Type')).toBe('application/json');
  });

  it('never lets a header replace the bearer token', async () => {
    const h = setup([ok(1)], { token: 'jwt-1', refreshToken: null });
    await h.client.request({ url: '/x', headers: { Authorization: 'Bearer forged' } });
    expect(header(h.fetch.mock.calls[0]?.[1], 'Authorization')).toBe('Bearer jwt-1');
  });

  it('keeps the same headers when retrying after a token refresh', async () => {
    const h = setup([unauthorized(), ok({ jwtToken: 'jwt-2', refreshToken: 'r-2' }), ok(2)], { token: 'jwt-1', refreshToken: 'r-1' });
    await expect(
      h.client.request({ method: 'POST', url: '/order/O1/pay', data: {}, headers: { 'Idempotency-Key': 'k-2' } }),
    ).resolves.toBe(2);
    const retry = h.fetch.mock.calls[2]?.[1];
    expect(header(retry, 'Idempotency-Key')).toBe('k-2');
    expect(header(retry, 'Authorization')).toBe('Bearer jwt-2');
  });
});
