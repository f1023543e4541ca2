import { describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  buildQuery,
  buildUrl,
  claimError,
  createApiClient,
  parseContentDisposition,
  type ClientDeps,
  type DownloadResult,
  type TokenPair,
} from './client';

type FetchArgs = Parameters<typeof fetch>;

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

const ok = (result: unknown) => json(200, { rspcode: 0, code: 200, rspmsg: 'success', result });
const fail = (status: number, code: number, rspmsg: string) => json(status, { rspcode: code, code, rspmsg, result: null });

interface Harness {
  client: ReturnType<typeof createApiClient>;
  fetch: ReturnType<typeof vi.fn<(...args: FetchArgs) => Promise<Response>>>;
  notify: ReturnType<typeof vi.fn<(text: string) => void>>;
  onUnauthorized: ReturnType<typeof vi.fn<() => void>>;
  tokens: { token: string | null; refreshToken: string | null };
  clock: { now: number };
  /** Runs the deferred toasts (the default client runs them at the next task). */
  flush: () => void;
}

function setup(responses: Array<Response | ((url: string, init?: RequestInit) => Response | Promise<Response>)>, tokens: Harness['tokens'] = { token: null, refreshToken: null }): Harness {
  const queue = [...responses];
  const fetchMock = vi.fn<(...args: FetchArgs) => Promise<Response>>(async (input, init) => {
    const next = queue.shift();
    if (!next) throw new Error(`unexpected fetch ${String(input)}`);
    return typeof next === 'function' ? next(String(input), init) : next;
  });
  const notify = vi.fn<(text: string) => void>();
  const onUnauthorized = vi.fn<() => void>();
  const clock = { now: 1_000_000 };
  const deferred: Array<() => void> = [];
  const deps: Partial<ClientDeps> = {
    fetch: fetchMock,
    notify,
    defer: (run) => {
      deferred.push(run);
    },
    onUnauthorized,
    now: () => clock.now,
    session: {
      getToken: () => tokens.token,
      getRefreshToken: () => tokens.refreshToken,
      setTokens: (pair: TokenPair) => {
        tokens.token = pair.jwtToken;
        tokens.refreshToken = pair.refreshToken;
      },
    },
  };
  const flush = () => {
    for (const run of deferred.splice(0)) run();
  };
  return { client: createApiClient(deps), fetch: fetchMock, notify, onUnauthorized, tokens, clock, flush };
}

function headerOf(init: RequestInit | undefined, name: string): string | null {
  return new Headers(init?.headers).get(name);
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected a rejection');
}

describe('success', () => {
  it('resolves with result and sends JSON to /api/v1', async () => {
    const h = setup([ok({ totalBalance: 1234 })]);
    await expect(h.client.request({ method: 'POST', url: '/account/', data: { a: 1 } })).resolves.toEqual({ totalBalance: 1234 });
    const [url, init] = h.fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/account/');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"a":1}');
    expect(headerOf(init, 'Content-Type')).toBe('application/json');
    h.flush();
    expect(h.notify).not.toHaveBeenCalled();
  });

  it('is a success when only one of rspcode 0 / code 200 holds', async () => {
    const h = setup([json(200, { rspcode: 0, code: 5, result: 'a' }), json(200, { rspcode: 7, code: 200, result: 'b' })]);
    await expect(h.client.request({ url: '/x' })).resolves.toBe('a');
    await expect(h.client.request({ url: '/x' })).resolves.toBe('b');
  });

  it('sends the bearer token when logged in, none otherwise', async () => {
    const h = setup([ok(1), ok(2)], { token: 'jwt-1', refreshToken: 'r-1' });
    await h.client.request({ url: '/user/userinfo' });
    expect(headerOf(h.fetch.mock.calls[0]?.[1], 'Authorization')).toBe('Bearer jwt-1');
    h.tokens.token = null;
    await h.client.request({ url: '/meta/zone' });
    expect(headerOf(h.fetch.mock.calls[1]?.[1], 'Authorization')).toBeNull();
  });

  it('resolves with the whole envelope when raw', async () => {
    const h = setup([ok({ a: 1 })]);
    await expect(h.client.request({ url: '/x', raw: true })).resolves.toEqual({ rspcode: 0, code: 200, rspmsg: 'success', result: { a: 1 }, message: undefined });
  });
});

describe('array query parameters (spec §7)', () => {
  it('repeats the key with [] and JSON-encodes each item', () => {
    const query = buildQuery({ ids: [1, 2], names: ['a', 'b c'], page: 1, empty: undefined, none: null });
    const params = new URLSearchParams(query);
    expect(params.getAll('ids[]')).toEqual(['1', '2']);
    expect(params.getAll('names[]')).toEqual(['"a"', '"b c"']);
    expect(params.get('page')).toBe('1');
    expect(params.has('empty')).toBe(false);
    expect(params.has('none')).toBe(false);
  });

  it('appends to a URL that already has a query', () => {
    expect(buildUrl('/api/v1', '/auth/login/wechat?state=s', { a: 1 })).toBe('/api/v1/auth/login/wechat?state=s&a=1');
    expect(buildUrl('/api/v1', 'rental', { status: ['Running'] })).toBe('/api/v1/rental?status%5B%5D=%22Running%22');
  });

  it('is what the client sends', async () => {
    const h = setup([ok([])]);
    await h.client.request({ url: '/rental', params: { status: ['Running', 'Stopped'], page: 2 } });
    const url = new URL(String(h.fetch.mock.calls[0]?.[0]), 'http://x');
    expect(url.searchParams.getAll('status[]')).toEqual(['"Running"', '"Stopped"']);
    expect(url.searchParams.get('page')).toBe('2');
  });
});

describe('error catalogue (spec §8)', () => {
  it('code 40026 → 名称已存在，请重新输入 (whatever the server says)', async () => {
    const h = setup([fail(409, 40026, '实例名称重复')]);
    const error = await rejection(h.client.request({ url: '/x' }));
    expect(error.message).toBe('名称已存在，请重新输入');
    expect(error.code).toBe(40026);
    expect(error.status).toBe(409);
    h.flush();
    expect(h.notify).toHaveBeenCalledWith('名称已存在，请重新输入');
  });

  it('code 40026 wins even on a 200 response', async () => {
    const h = setup([fail(200, 40026, 'dup')]);
    expect((await rejection(h.client.request({ url: '/x' }))).message).toBe('名称已存在，请重新输入');
  });

  it('HTTP 404 → 服务器资源不存在', async () => {
    const h = setup([fail(404, 40400, '实例不存在')]);
    const error = await rejection(h.client.request({ url: '/x' }));
    expect(error.message).toBe('服务器资源不存在');
    h.flush();
    expect(h.notify).toHaveBeenCalledWith('服务器资源不存在');
  });

  it('HTTP 500 → the server message', async () => {
    const h = setup([fail(500, 50000, '数据库连接失败')]);
    expect((await rejection(h.client.request({ url: '/x' }))).message).toBe('数据库连接失败');
    h.flush();
    expect(h.notify).toHaveBeenCalledWith('数据库连接失败');
  });

  it('HTTP 500 → its `message` field, else 服务器内部错误', async () => {
    const h = setup([json(500, { code: 500, message: '网关错误', result: null }), new Response('oops', { status: 500 })]);
    expect((await rejection(h.client.request({ url: '/x' }))).message).toBe('网关错误');
    expect((await rejection(h.client.request({ url: '/x' }))).message).toBe('服务器内部错误');
  });

  it('HTTP 403 → 没有权限访问该资源', async () => {
    const h = setup([fail(403, 40300, '子账号无此权限')]);
    expect((await rejection(h.client.request({ url: '/x' }))).message).toBe('没有权限访问该资源');
    h.flush();
    expect(h.notify).toHaveBeenCalledWith('没有权限访问该资源');
  });

  it('other → rspmsg', async () => {
    const h = setup([fail(400, 40020, '手机号或密码错误')]);
    const error = await rejection(h.client.request({ url: '/auth/login', method: 'POST', data: {} }));
    expect(error).toMatchObject({ status: 400, code: 40020, message: '手机号或密码错误' });
    h.flush();
    expect(h.notify).toHaveBeenCalledWith('手机号或密码错误');
  });

  it('other → message when there is no rspmsg', async () => {
    const h = setup([json(200, { rspcode: 1, code: 1, message: '操作失败', result: null })]);
    expect((await rejection(h.client.request({ url: '/x' }))).message).toBe('操作失败');
  });

  it('other → 未知错误！ when the body says nothing', async () => {
    const h = setup([json(200, { rspcode: 3, code: 3, result: null }), new Response('', { status: 502 })]);
    expect((await rejection(h.client.request({ url: '/x' }))).message).toBe('未知错误！');
    const bare = await rejection(h.client.request({ url: '/x' }));
    expect(bare).toMatchObject({ status: 502, code: 502, message: '未知错误！' });
    h.flush();
    expect(h.notify).toHaveBeenLastCalledWith('未知错误！');
  });

  it('a failed fetch is a network error with status 0', async () => {
    const h = setup([
      () => {
        throw new TypeError('Failed to fetch');
      },
    ]);
    const error = await rejection(h.client.request({ url: '/x' }));
    expect(error.status).toBe(0);
    h.flush();
    expect(h.notify).toHaveBeenCalledWith(error.message);
  });

  it('does not toast when silent, but still rejects', async () => {
    const h = setup([fail(400, 40000, '请求参数不正确')]);
    await rejection(h.client.request({ url: '/x', silent: true }));
    h.flush();
    expect(h.notify).not.toHaveBeenCalled();
  });
});

describe('exceptions to the error rule', () => {
  it.each([
    ['/auth/login/wechat?state=abc'],
    ['/auth/register/wechat'],
    ['/rental/power_on'],
    ['/voucher/redeem'],
  ])('%s resolves with the whole envelope of an error', async (url) => {
    const h = setup([fail(400, 40500, '主机GPU不足')]);
    const envelope = await h.client.request<{ rspcode: number; rspmsg: string }>({ url, method: 'POST' });
    expect(envelope).toMatchObject({ rspcode: 40500, rspmsg: '主机GPU不足' });
    h.flush();
    expect(h.notify).not.toHaveBeenCalled();
  });

  it('does not except similar paths', async () => {
    const h = setup([fail(400, 40500, '失败')]);
    await rejection(h.client.request({ url: '/rental/power_off' }));
  });

  it('a download (content-disposition) resolves with the file', async () => {
    const h = setup([
      new Response('a,b\n1,2', {
        status: 200,
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': "attachment; filename*=UTF-8''%E8%B4%A6%E5%8D%95.csv" },
      }),
    ]);
    const file = await h.client.request<DownloadResult>({ url: '/bill/export' });
    expect(file.filename).toBe('账单.csv');
    expect(file.contentType).toBe('text/csv');
    expect(await file.blob.text()).toBe('a,b\n1,2');
  });

  it('parses plain and extended filenames', () => {
    expect(parseContentDisposition('attachment; filename="a b.txt"')).toBe('a b.txt');
    expect(parseContentDisposition('attachment; filename=x.zip')).toBe('x.zip');
    expect(parseContentDisposition('attachment')).toBeNull();
  });
});

describe('each error is shown once', () => {
  it('toasts a failure only at the end of the task, so that the caller can claim it first', async () => {
    const h = setup([fail(400, 40020, '手机号或密码错误'), fail(400, 40020, '手机号或密码错误')]);
    const claimed = await rejection(h.client.request({ url: '/auth/login', method: 'POST' }));
    expect(h.notify).not.toHaveBeenCalled();
    expect(claimError(claimed)).toBe(true);
    h.flush();
    expect(h.notify).not.toHaveBeenCalled();

    await rejection(h.client.request({ url: '/auth/login', method: 'POST' }));
    h.flush();
    expect(h.notify).toHaveBeenCalledTimes(1);
    expect(h.notify).toHaveBeenCalledWith('手机号或密码错误');
  });

  it('by default the toast waits for the next task: a claim in the promise chain of the call still counts', async () => {
    const notify = vi.fn<(text: string) => void>();
    const client = createApiClient({ fetch: async () => fail(400, 40010, '验证码错误'), notify });
    const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

    // A form handler two awaits away from the call, as in useSubmit → mutateAsync.
    const handler = async () => {
      try {
        await (async () => client.request({ url: '/auth/register', method: 'POST' }))();
      } catch (error) {
        claimError(error);
      }
    };
    await handler();
    await nextTask();
    expect(notify).not.toHaveBeenCalled();

    await client.request({ url: '/auth/register', method: 'POST' }).catch(() => undefined);
    expect(notify).not.toHaveBeenCalled();
    await nextTask();
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it('claimError ignores what is not an ApiError', () => {
    expect(claimError(new Error('x'))).toBe(false);
    expect(claimError(undefined)).toBe(false);
  });

  it('toasts 登录状态已过期 at once, before the redirect of the 401 policy', async () => {
    const order: string[] = [];
    const client = createApiClient({
      fetch: async () => fail(401, 40100, ''),
      notify: (text) => order.push(`toast ${text}`),
      onUnauthorized: () => order.push('redirect'),
      defer: () => {
        throw new Error('the 401 toast is not deferred');
      },
    });
    await client.request({ url: '/x' }).catch(() => undefined);
    expect(order).toEqual(['toast 登录状态已过期，需要重新登录', 'redirect']);
  });
});

describe('401 policy', () => {
  it('toasts 登录状态已过期，需要重新登录 and calls the injected handler', async () => {
    const h = setup([fail(401, 40100, '未登录')]);
    const error = await rejection(h.client.request({ url: '/user/userinfo' }));
    expect(error).toMatchObject({ status: 401, code: 40100, message: '登录状态已过期，需要重新登录' });
    h.flush();
    expect(h.notify).toHaveBeenCalledWith('登录状态已过期，需要重新登录');
    expect(h.onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('shows the message at most once per 3 s', async () => {
    const h = setup([fail(401, 40100, ''), fail(401, 40100, ''), fail(401, 40100, ''), fail(401, 40100, '')]);
    await rejection(h.client.request({ url: '/a' }));
    h.clock.now += 1000;
    await rejection(h.client.request({ url: '/b' }));
    h.clock.now += 1999;
    await rejection(h.client.request({ url: '/c' }));
    h.flush();
    expect(h.notify).toHaveBeenCalledTimes(1);
    h.clock.now += 1;
    await rejection(h.client.request({ url: '/d' }));
    h.flush();
    expect(h.notify).toHaveBeenCalledTimes(2);
    expect(h.onUnauthorized).toHaveBeenCalledTimes(4);
  });
});

describe('transparent refresh', () => {
  const refreshed = () => ok({ jwtToken: 'jwt-2', refreshToken: 'r-2' });

  it('refreshes once and retries the request with the new token', async () => {
    const h = setup([fail(401, 40100, ''), refreshed(), ok({ nickName: '小明' })], { token: 'jwt-1', refreshToken: 'r-1' });
    await expect(h.client.request({ url: '/user/userinfo' })).resolves.toEqual({ nickName: '小明' });
    const [refreshUrl, refreshInit] = h.fetch.mock.calls[1] ?? [];
    expect(refreshUrl).toBe('/api/v1/auth/refresh-token');
    expect(refreshInit?.method).toBe('POST');
    expect(JSON.parse(String(refreshInit?.body))).toEqual({ refreshToken: 'r-1' });
    expect(headerOf(h.fetch.mock.calls[2]?.[1], 'Authorization')).toBe('Bearer jwt-2');
    expect(h.tokens).toEqual({ token: 'jwt-2', refreshToken: 'r-2' });
    h.flush();
    expect(h.notify).not.toHaveBeenCalled();
    expect(h.onUnauthorized).not.toHaveBeenCalled();
  });

  it('shares one refresh between concurrent requests', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const h = setup(
      [
        fail(401, 40100, ''),
        fail(401, 40100, ''),
        async () => {
          await gate;
          return refreshed();
        },
        ok('a'),
        ok('b'),
      ],
      { token: 'jwt-1', refreshToken: 'r-1' },
    );
    const a = h.client.request({ url: '/a' });
    const b = h.client.request({ url: '/b' });
    await vi.waitFor(() => expect(h.fetch).toHaveBeenCalledTimes(3));
    release();
    await expect(Promise.all([a, b])).resolves.toEqual(['a', 'b']);
    const refreshCalls = h.fetch.mock.calls.filter(([url]) => String(url).endsWith('/auth/refresh-token'));
    expect(refreshCalls).toHaveLength(1);
  });

  it('retries without refreshing again when another request already refreshed', async () => {
    const h = setup(
      [
        (_url, init) => {
          h.tokens.token = 'jwt-2'; // refreshed meanwhile by another request
          expect(headerOf(init, 'Authorization')).toBe('Bearer jwt-1');
          return fail(401, 40100, '');
        },
        ok('done'),
      ],
      { token: 'jwt-1', refreshToken: 'r-1' },
    );
    await expect(h.client.request({ url: '/a' })).resolves.toBe('done');
    expect(h.fetch).toHaveBeenCalledTimes(2);
  });

  it('applies the 401 policy when the refresh fails', async () => {
    const h = setup([fail(401, 40100, ''), fail(401, 40101, '登录状态已失效，请重新登录')], { token: 'jwt-1', refreshToken: 'r-1' });
    const error = await rejection(h.client.request({ url: '/a' }));
    expect(error.status).toBe(401);
    expect(h.fetch).toHaveBeenCalledTimes(2);
    expect(h.onUnauthorized).toHaveBeenCalledTimes(1);
    h.flush();
    expect(h.notify).toHaveBeenCalledWith('登录状态已过期，需要重新登录');
    expect(h.tokens).toEqual({ token: 'jwt-1', refreshToken: 'r-1' });
  });

  it('retries only once: a second 401 applies the policy', async () => {
    const h = setup([fail(401, 40100, ''), refreshed(), fail(401, 40100, '')], { token: 'jwt-1', refreshToken: 'r-1' });
    await rejection(h.client.request({ url: '/a' }));
    expect(h.fetch).toHaveBeenCalledTimes(3);
    expect(h.onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not refresh without a refresh token', async () => {
    const h = setup([fail(401, 40100, '')], { token: 'jwt-1', refreshToken: null });
    await rejection(h.client.request({ url: '/a' }));
    expect(h.fetch).toHaveBeenCalledTimes(1);
    expect(h.onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not refresh for a request sent without a token', async () => {
    const h = setup([fail(401, 40100, '')], { token: null, refreshToken: 'r-1' });
    await rejection(h.client.request({ url: '/a' }));
    expect(h.fetch).toHaveBeenCalledTimes(1);
  });

  it('treats a network failure of the refresh as a failed refresh', async () => {
    const h = setup(
      [
        fail(401, 40100, ''),
        () => {
          throw new TypeError('Failed to fetch');
        },
      ],
      { token: 'jwt-1', refreshToken: 'r-1' },
    );
    await rejection(h.client.request({ url: '/a' }));
    expect(h.onUnauthorized).toHaveBeenCalledTimes(1);
  });
});
