import { describe, expect, it, vi } from 'vitest';
import type { SessionTransport } from './client';
import { ChatError, sseData, streamChatCompletion, usageOf } from './models';

/** A byte stream that delivers these pieces, one read each. */
function bytes(...pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const events: string[] = [];
  for await (const data of sseData(stream)) events.push(data);
  return events;
}

function transport(fetch: SessionTransport['fetch'], overrides: Partial<SessionTransport> = {}): SessionTransport {
  return { fetch, token: () => 'jwt', renew: async () => false, expire: vi.fn(), ...overrides };
}

const sse = (...pieces: string[]) => new Response(bytes(...pieces), { status: 200, headers: { 'Content-Type': 'text/event-stream' } });

describe('sseData', () => {
  it('yields the data of each event, across reads, line endings and multi-line data', async () => {
    const events = await collect(bytes('data: {"a":', '1}\n\n', ': keep-alive\r\n\r\n', 'event: x\r\ndata: one\r', '\ndata: two\r\n\r\n', 'data:[DONE]\n\n'));
    expect(events).toEqual(['{"a":1}', 'one\ntwo', '[DONE]']);
  });

  it('keeps a character split between two reads and an event without the last blank line', async () => {
    const encoded = new TextEncoder().encode('data: 你好\n\ndata: 末尾');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoded.slice(0, 8));
        controller.enqueue(encoded.slice(8));
        controller.close();
      },
    });
    expect(await collect(stream)).toEqual(['你好', '末尾']);
  });
});

describe('streamChatCompletion', () => {
  it('gathers the pieces, the finish and the usage with cost_fen and free_tokens', async () => {
    const fetch = vi.fn<SessionTransport['fetch']>(async () =>
      sse(
        'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\n\n',
        'data: {"choices":[{"index":0,"delta":{"content":"你"},"finish_reason":null}]}\n\n',
        'data: {"choices":[{"index":0,"delta":{"content":"好"},"finish_reason":null}]}\n\n',
        'data: {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}\n\n',
        'data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5,"cost_fen":1,"free_tokens":4}}\n\n',
        'data: [DONE]\n\n',
      ),
    );
    const pieces: string[] = [];
    const result = await streamChatCompletion({ model: 'm', messages: [{ role: 'user', content: 'hi' }], onDelta: (piece) => pieces.push(piece) }, transport(fetch));
    expect(pieces).toEqual(['你', '好']);
    expect(result).toEqual({
      content: '你好',
      finishReason: 'length',
      aborted: false,
      usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5, costFen: 1, freeTokens: 4 },
    });
    expect(fetch.mock.calls[0]?.[0]).toBe('/v1/chat/completions');
  });

  it('says the connection broke for a stream cut off before its end', async () => {
    const fetch = vi.fn<SessionTransport['fetch']>(async () => sse('data: {"choices":[{"index":0,"delta":{"content":"半"},"finish_reason":null}]}\n\n'));
    const error = await streamChatCompletion({ model: 'm', messages: [] }, transport(fetch)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChatError);
    expect((error as ChatError).message).toBe('连接中断，回答不完整');
    expect((error as ChatError).partial).toBe('半');
  });

  it('names a refusal without OpenAI’s body by its status, and a failed connection', async () => {
    const proxy = vi.fn<SessionTransport['fetch']>(async () => new Response('<html>Bad Gateway</html>', { status: 502 }));
    await expect(streamChatCompletion({ model: 'm', messages: [] }, transport(proxy))).rejects.toMatchObject({ status: 502, message: '模型服务暂时不可用，请稍后再试' });
    const offline = vi.fn<SessionTransport['fetch']>(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(streamChatCompletion({ model: 'm', messages: [] }, transport(offline))).rejects.toMatchObject({ status: 0, message: '网络连接失败，请检查网络后重试' });
  });

  it('keeps Retry-After of a 429', async () => {
    const limited = vi.fn<SessionTransport['fetch']>(
      async () =>
        new Response(JSON.stringify({ error: { message: '请求过于频繁', type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' } }), {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '12' },
        }),
    );
    await expect(streamChatCompletion({ model: 'm', messages: [] }, transport(limited))).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfterSeconds: 12 });
  });

  it('resolves as stopped when aborted before the answer', async () => {
    const controller = new AbortController();
    const fetch = vi.fn<SessionTransport['fetch']>(async (_input, init) => {
      controller.abort();
      if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
      return sse('data: [DONE]\n\n');
    });
    expect(await streamChatCompletion({ model: 'm', messages: [], signal: controller.signal }, transport(fetch))).toEqual({ content: '', usage: null, finishReason: null, aborted: true });
  });

  it('a 401 without a renewed session is the client’s 401 policy, marked as already told', async () => {
    const expire = vi.fn();
    const fetch = vi.fn<SessionTransport['fetch']>(async () => new Response(JSON.stringify({ error: { message: '令牌无效', type: 'invalid_request_error', code: 'invalid_api_key' } }), { status: 401 }));
    await expect(streamChatCompletion({ model: 'm', messages: [] }, transport(fetch, { expire }))).rejects.toMatchObject({ status: 401, notified: true });
    expect(expire).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('usageOf', () => {
  it('reads OpenAI’s usage without 算力港’s fields too', () => {
    expect(usageOf({ prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 })).toEqual({ promptTokens: 1, completionTokens: 2, totalTokens: 3, costFen: null, freeTokens: 0 });
    expect(usageOf(null)).toBeNull();
  });
});
