/**
 * 模型 (docs/api-models.md): the public catalogue under /api/v1 and a streaming client of the
 * OpenAI-compatible `POST /v1/chat/completions` (outside the API base and its envelope), called with the
 * console session's token as the Bearer. Prices of the catalogue are fen per million tokens.
 */
import { MAX_PAGE_SIZE, type Page } from '@slg/shared';
import type { ModelView } from '@slg/shared/views/models';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, request, retryAfterOf, type SessionTransport } from './client';
import { queryKeys } from './queryKeys';
import { API_TEXTS } from './texts';

export type { ModelView } from '@slg/shared/views/models';
export type ModelType = ModelView['type'];

export interface ModelListQuery {
  page: number;
  pageSize: number;
  type?: ModelType | undefined;
  /** Part of the name (the server also matches the id and the provider). */
  name?: string | undefined;
}

export const modelKeys = {
  all: queryKeys.models,
  list: (query: ModelListQuery) => [...queryKeys.models, 'list', query] as const,
  /** Every model at once: the choice of 模型对话. */
  options: () => [...queryKeys.models, 'options'] as const,
};

/** Leaves out an empty filter, so the query string and the query key stay the same without it. */
function withoutEmpty<T extends object>(query: T): T {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== '')) as T;
}

/** `GET /models` (public). Silent: the pages show a failed list in place. */
export function fetchModels(query: ModelListQuery): Promise<Page<ModelView>> {
  return request<Page<ModelView>>({ url: '/models', params: { ...withoutEmpty(query) }, silent: true });
}

/** The whole catalogue (one page of the most the server gives). */
export async function fetchModelOptions(): Promise<ModelView[]> {
  return (await fetchModels({ page: 1, pageSize: MAX_PAGE_SIZE })).list;
}

export function useModelsQuery(query: ModelListQuery) {
  return useQuery({ queryKey: modelKeys.list(query), queryFn: () => fetchModels(query), placeholderData: keepPreviousData });
}

export function useModelOptionsQuery() {
  return useQuery({ queryKey: modelKeys.options(), queryFn: fetchModelOptions, staleTime: 60_000 });
}

// ---------------------------------------------------------------------------------------------
// 模型对话: the streamed chat completion
// ---------------------------------------------------------------------------------------------

/** Where the OpenAI-compatible API lives (not under /api/v1). */
export const OPENAI_BASE = '/v1';
export const CHAT_COMPLETIONS_PATH = `${OPENAI_BASE}/chat/completions`;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The usage chunk: the engine's token counts, what the call cost and the free tokens it used. */
export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Fen; null when the server did not say. */
  costFen: number | null;
  freeTokens: number;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  maxTokens?: number | undefined;
  temperature?: number | undefined;
  /** 停止: aborts the request; what arrived so far is kept (the result says `aborted`). */
  signal?: AbortSignal | undefined;
  /** Each piece of the answer as it arrives. */
  onDelta?: (text: string) => void;
}

export interface ChatResult {
  content: string;
  usage: ChatUsage | null;
  /** `stop`, `length` …; null when the stream ended without one (stopped). */
  finishReason: string | null;
  aborted: boolean;
}

/** Messages for failures whose body does not say (a proxy's page, a cut connection). */
export const CHAT_ERROR_TEXTS = {
  network: API_TEXTS.networkError,
  interrupted: '连接中断，回答不完整',
  byStatus: (status: number): string => {
    if (status === 401) return '登录已过期，请重新登录';
    if (status === 402) return '余额不足，请充值后再试';
    if (status === 403) return '没有使用该模型的权限';
    if (status === 404) return '模型不存在或已下线';
    if (status === 429) return '请求过于频繁，请稍后再试';
    if (status >= 500) return '模型服务暂时不可用，请稍后再试';
    return `请求失败（HTTP ${status}）`;
  },
} as const;

/** A failed chat call, from OpenAI's error shape `{error: {message, type, code}}` (messages in Chinese). */
export class ChatError extends Error {
  override readonly name = 'ChatError';
  /** HTTP status; 200 for an error sent inside the stream, 0 without a response. */
  readonly status: number;
  readonly type: string | null;
  readonly code: string | null;
  readonly retryAfterSeconds: number | undefined;
  /** The client already told the user (the 401 policy's toast and sign-in page): do not show it again. */
  readonly notified: boolean;
  /** The answer that had arrived before the failure. */
  readonly partial: string;

  constructor(
    status: number,
    message: string,
    extra: { type?: string | null; code?: string | null; retryAfterSeconds?: number | undefined; notified?: boolean; partial?: string } = {},
  ) {
    super(message);
    this.status = status;
    this.type = extra.type ?? null;
    this.code = extra.code ?? null;
    this.retryAfterSeconds = extra.retryAfterSeconds;
    this.notified = extra.notified ?? false;
    this.partial = extra.partial ?? '';
  }
}

export function isChatError(error: unknown): error is ChatError {
  return error instanceof ChatError;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{error: {message, type, code}}` → its parts; null for anything else. */
export function openAiErrorOf(payload: unknown): { message: string; type: string | null; code: string | null } | null {
  if (!isRecord(payload) || !isRecord(payload.error)) return null;
  const { message, type, code } = payload.error;
  if (typeof message !== 'string' || !message) return null;
  return { message, type: typeof type === 'string' ? type : null, code: typeof code === 'string' ? code : null };
}

function numberOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** The `usage` of a chunk (snake case, with 算力港's `cost_fen` and `free_tokens`). */
export function usageOf(value: unknown): ChatUsage | null {
  if (!isRecord(value)) return null;
  const promptTokens = numberOf(value.prompt_tokens);
  const completionTokens = numberOf(value.completion_tokens);
  return {
    promptTokens,
    completionTokens,
    totalTokens: typeof value.total_tokens === 'number' ? value.total_tokens : promptTokens + completionTokens,
    costFen: typeof value.cost_fen === 'number' ? value.cost_fen : null,
    freeTokens: numberOf(value.free_tokens),
  };
}

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * The `data` of each Server-Sent Event of a byte stream (several `data:` lines of one event are
 * joined by a newline; comments and other fields are skipped). Reads until the stream ends, or until
 * the consumer stops; the reader is cancelled then.
 */
export async function* sseData(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<string, void, undefined> {
  const reader = body.getReader();
  // Aborting cancels the reader: a read waiting for the next bytes ends at once.
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let finished = false;

  /** The field of one line; true when the line ended an event that had data. */
  function take(line: string): boolean {
    if (line === '') return data.length > 0;
    if (line.startsWith(':')) return false;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    return false;
  }

  try {
    while (!finished && !signal?.aborted) {
      const { value, done } = await reader.read();
      finished = done;
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (;;) {
        const match = LINE_BREAK.exec(buffer);
        if (!match) break;
        // A CR at the end of what arrived may be the first half of a CRLF: wait for the next bytes.
        if (match[0] === '\r' && match.index === buffer.length - 1 && !finished) break;
        const line = buffer.slice(0, match.index);
        buffer = buffer.slice(match.index + match[0].length);
        if (take(line)) {
          const event = data.join('\n');
          data = [];
          yield event;
        }
      }
    }
    if (signal?.aborted) return;
    // The stream ended without the blank line after the last event.
    if (buffer) take(buffer);
    if (data.length > 0) yield data.join('\n');
  } finally {
    signal?.removeEventListener('abort', cancel);
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** The error of a refused call (its JSON body in OpenAI's shape, else a message for its status). */
async function refusalOf(response: Response): Promise<ChatError> {
  const text = await response.text().catch(() => '');
  let payload: unknown = null;
  try {
    payload = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    payload = null;
  }
  const error = openAiErrorOf(payload);
  return new ChatError(response.status, error?.message ?? CHAT_ERROR_TEXTS.byStatus(response.status), {
    type: error?.type,
    code: error?.code,
    retryAfterSeconds: retryAfterOf(response.headers),
  });
}

/**
 * `POST /v1/chat/completions` with `stream: true` and the usage chunk, read as it arrives: each piece
 * of the answer goes to `onDelta`. Resolves with the whole answer and its usage, also when `signal`
 * stopped it (`aborted`, with what had arrived); rejects with a ChatError. A 401 refreshes the session
 * once, like the API client, then retries; a second one is the client's 401 policy.
 */
export async function streamChatCompletion(input: ChatRequest, transport: SessionTransport = apiClient.session): Promise<ChatResult> {
  const { signal } = input;
  const body = JSON.stringify({
    model: input.model,
    messages: input.messages,
    ...(input.maxTokens !== undefined ? { max_tokens: input.maxTokens } : {}),
    ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
    stream: true,
    stream_options: { include_usage: true },
  });
  let content = '';
  let usage: ChatUsage | null = null;
  let finishReason: string | null = null;
  const stopped = (): ChatResult => ({ content, usage, finishReason, aborted: true });

  async function post(retried: boolean): Promise<Response | null> {
    const token = transport.token();
    const headers: Record<string, string> = { Accept: 'text/event-stream', 'Content-Type': 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    let response: Response;
    try {
      response = await transport.fetch(CHAT_COMPLETIONS_PATH, { method: 'POST', headers, body, signal });
    } catch (error) {
      if (isAbort(error) || signal?.aborted) return null;
      throw new ChatError(0, CHAT_ERROR_TEXTS.network);
    }
    if (response.status !== 401) return response;
    const refusal = await refusalOf(response);
    if (!retried && token && (await transport.renew(token))) return post(true);
    transport.expire();
    throw new ChatError(401, refusal.message, { type: refusal.type, code: refusal.code, notified: true });
  }

  const response = await post(false);
  if (!response) return stopped();
  if (!response.ok) throw await refusalOf(response);

  // An answer that is not a stream (a server ignoring `stream`): the whole completion at once.
  const contentType = response.headers.get('content-type') ?? '';
  if (!response.body || contentType.includes('application/json')) {
    const payload = (await response.json().catch(() => null)) as unknown;
    const error = openAiErrorOf(payload);
    if (error) throw new ChatError(response.status, error.message, { type: error.type, code: error.code });
    const choice = isRecord(payload) && Array.isArray(payload.choices) ? (payload.choices[0] as unknown) : null;
    const message = isRecord(choice) && isRecord(choice.message) ? choice.message.content : null;
    if (typeof message === 'string' && message) {
      content = message;
      input.onDelta?.(message);
    }
    finishReason = isRecord(choice) && typeof choice.finish_reason === 'string' ? choice.finish_reason : null;
    usage = isRecord(payload) ? usageOf(payload.usage) : null;
    return { content, usage, finishReason, aborted: false };
  }

  let done = false;
  try {
    // 停止 also cancels the reader, whatever the transport does with the signal.
    for await (const data of sseData(response.body, signal)) {
      if (data === '[DONE]') {
        done = true;
        break;
      }
      let payload: unknown;
      try {
        payload = JSON.parse(data) as unknown;
      } catch {
        continue;
      }
      const error = openAiErrorOf(payload);
      if (error) throw new ChatError(200, error.message, { ...error, partial: content });
      if (!isRecord(payload)) continue;
      const choice = Array.isArray(payload.choices) ? (payload.choices[0] as unknown) : undefined;
      if (isRecord(choice)) {
        const delta = isRecord(choice.delta) ? choice.delta.content : undefined;
        if (typeof delta === 'string' && delta) {
          content += delta;
          input.onDelta?.(delta);
        }
        if (typeof choice.finish_reason === 'string') finishReason = choice.finish_reason;
      }
      const chunkUsage = usageOf(payload.usage);
      if (chunkUsage) usage = chunkUsage;
    }
  } catch (error) {
    if (isChatError(error)) throw error;
    if (isAbort(error) || signal?.aborted) return stopped();
    throw new ChatError(0, CHAT_ERROR_TEXTS.interrupted, { partial: content });
  }
  if (signal?.aborted) return stopped();
  // The stream ended without [DONE] and without a finish: cut off on the way.
  if (!done && finishReason === null && usage === null) throw new ChatError(0, CHAT_ERROR_TEXTS.interrupted, { partial: content });
  return { content, usage, finishReason, aborted: false };
}
