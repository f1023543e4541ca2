/**
 * The one HTTP client of the console: the response envelope, the error catalogue of spec §8, the 401
 * policy and the transparent token refresh. Navigation and the session live outside; they are injected.
 */
import {
  ErrorCodes,
  SUCCESS_CODE,
  SUCCESS_RSPCODE,
  UNAUTHORIZED_TOAST_THROTTLE_MS,
} from '@slg/shared';
import type { TokenPair } from '@slg/shared/views/account';
import { API_TEXTS } from './texts';
import { toast } from './toast';

export const API_BASE = '/api/v1';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  /** Relative to the API base, e.g. `/user/userinfo`. */
  url: string;
  params?: Record<string, unknown>;
  data?: unknown;
  /** Resolve with the whole envelope and leave business error codes to the caller. */
  raw?: boolean;
  /**
   * Do not toast on failure (the promise still rejects). Without it the toast of a failure waits one
   * task, so that a caller which shows the error in place (a form field) can claim it first.
   */
  silent?: boolean;
  /** Extra request headers, e.g. `Idempotency-Key`; they never replace `Authorization`. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The response envelope as the client reads it (spec §7): every field may be missing on a foreign body. */
export interface ResponseEnvelope<T = unknown> {
  rspcode?: number;
  code?: number;
  rspmsg?: string;
  message?: string;
  result: T;
}

/** What a download (a response with `content-disposition`) resolves with. */
export interface DownloadResult {
  blob: Blob;
  filename: string | null;
  contentType: string | null;
}

/** What every sign-in answers (the server's schema in packages/shared/src/views/account). */
export type { TokenPair } from '@slg/shared/views/account';

/** Typed failure of a call: `status` is the HTTP status (0 when no response), `code` the business code. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: number;
  /** Seconds the server asked to wait before trying again (its Retry-After), when it said so. */
  readonly retryAfterSeconds: number | undefined;
  #claimed = false;

  constructor(status: number, code: number, message: string, retryAfterSeconds?: number) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** Whether the caller shows this error itself (on a field, in the page), so it gets no toast. */
  get claimed(): boolean {
    return this.#claimed;
  }

  /** Marks the error as shown by the caller; a toast not shown yet is then left out. */
  claim(): void {
    this.#claimed = true;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * Claims an error for display by the caller (a field, an inline alert): the client's toast for it,
 * still waiting for the end of the current task, is left out. Returns whether it was an ApiError.
 */
export function claimError(error: unknown): boolean {
  if (!isApiError(error)) return false;
  error.claim();
  return true;
}

export interface SessionAdapter {
  getToken(): string | null;
  getRefreshToken(): string | null;
  setTokens(pair: TokenPair): void;
}

export interface ClientDeps {
  fetch: typeof fetch;
  session: SessionAdapter;
  /** Shows an error toast. */
  notify: (text: string) => void;
  /**
   * Runs the toast of a failed call after the caller had its chance to claim the error: by default at
   * the next task, when every promise reaction of the failure (form handlers, mutation callbacks) ran.
   */
  defer: (run: () => void) => void;
  /** The 401 policy outside the transport: clear the session, go to /login?redirect=… */
  onUnauthorized: () => void;
  now: () => number;
  baseUrl: string;
}

/**
 * Paths whose responses resolve with the whole envelope (spec §8 exceptions): WeChat register and
 * login, power on, redeem codes. Matched against the URL path relative to the API base.
 */
export const ENVELOPE_PASSTHROUGH: readonly RegExp[] = [
  /^\/auth\/(?:login|register)\/wechat(?:\/|$)/,
  /^\/rental\/power_on(?:\/|$)/,
  /redeem/i,
];

const REFRESH_PATH = '/auth/refresh-token';

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function isEnvelopePassthrough(url: string): boolean {
  const path = pathOf(url);
  return ENVELOPE_PASSTHROUGH.some((pattern) => pattern.test(path));
}

/** Query string of spec §7: arrays become repeated `key[]` entries, each item JSON-encoded. */
export function buildQuery(params: Record<string, unknown> | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) search.append(`${key}[]`, JSON.stringify(item));
    } else if (value instanceof Date) {
      search.append(key, value.toISOString());
    } else if (typeof value === 'object') {
      search.append(key, JSON.stringify(value));
    } else {
      search.append(key, String(value));
    }
  }
  return search.toString();
}

export function buildUrl(baseUrl: string, url: string, params?: Record<string, unknown>): string {
  const query = buildQuery(params);
  const full = `${baseUrl}${url.startsWith('/') ? url : `/${url}`}`;
  if (!query) return full;
  return `${full}${full.includes('?') ? '&' : '?'}${query}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asEnvelope(payload: unknown): ResponseEnvelope | null {
  if (!isRecord(payload)) return null;
  const { rspcode, code, rspmsg, message } = payload;
  if (typeof rspcode !== 'number' && typeof code !== 'number') return null;
  return {
    rspcode: typeof rspcode === 'number' ? rspcode : undefined,
    code: typeof code === 'number' ? code : undefined,
    rspmsg: typeof rspmsg === 'string' ? rspmsg : undefined,
    message: typeof message === 'string' ? message : undefined,
    result: payload.result,
  };
}

/** Spec §8: an error when rspcode is not 0 and code is not 200. */
export function isEnvelopeError(envelope: ResponseEnvelope): boolean {
  return envelope.rspcode !== SUCCESS_RSPCODE && envelope.code !== SUCCESS_CODE;
}

function businessCode(envelope: ResponseEnvelope | null, status: number): number {
  if (!envelope) return status;
  if (envelope.rspcode !== undefined && envelope.rspcode !== SUCCESS_RSPCODE) return envelope.rspcode;
  if (envelope.code !== undefined && envelope.code !== SUCCESS_CODE) return envelope.code;
  return status;
}

/** The message catalogue of spec §8, in its order. */
export function describeError(status: number, envelope: ResponseEnvelope | null): string {
  if (envelope && (envelope.rspcode === ErrorCodes.NAME_EXISTS.code || envelope.code === ErrorCodes.NAME_EXISTS.code)) {
    return ErrorCodes.NAME_EXISTS.message;
  }
  // A 403 that is not about permissions: what to do, rather than 没有权限访问该资源.
  if (envelope && (envelope.rspcode === ErrorCodes.VERIFICATION_REQUIRED.code || envelope.code === ErrorCodes.VERIFICATION_REQUIRED.code)) {
    return ErrorCodes.VERIFICATION_REQUIRED.message;
  }
  switch (status) {
    case 404:
      return ErrorCodes.NOT_FOUND.message;
    case 500:
      return envelope?.rspmsg || envelope?.message || ErrorCodes.INTERNAL.message;
    case 403:
      return ErrorCodes.FORBIDDEN.message;
    case 401:
      return ErrorCodes.UNAUTHORIZED.message;
    default:
      return envelope?.rspmsg || envelope?.message || API_TEXTS.unknownError;
  }
}

/** Retry-After in seconds (the server sends whole seconds); undefined when absent or not a number. */
export function retryAfterOf(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** `filename*=UTF-8''…` wins over `filename="…"`. */
export function parseContentDisposition(header: string): string | null {
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      return extended[1].trim();
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim() ?? null;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isTokenPair(value: unknown): value is TokenPair {
  return isRecord(value) && typeof value.jwtToken === 'string' && typeof value.refreshToken === 'string';
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

const noopSession: SessionAdapter = {
  getToken: () => null,
  getRefreshToken: () => null,
  setTokens: () => undefined,
};

export interface ApiClient {
  request<T>(opts: RequestOptions): Promise<T>;
  configure(deps: Partial<ClientDeps>): void;
  /**
   * For calls outside the API base and its envelope (the OpenAI-compatible `/v1`, streamed): the
   * transport, the session's bearer, the shared token refresh and the 401 policy of this client.
   */
  session: SessionTransport;
}

/** What a call outside `request` borrows from the client (see `ApiClient.session`). */
export interface SessionTransport {
  /** The injected fetch. */
  fetch(input: string, init?: RequestInit): Promise<Response>;
  /** The access token of the session now, or null. */
  token(): string | null;
  /**
   * After a 401 answered to a call made with `token`: whether to retry once — another call already
   * refreshed the pair, or this refresh worked (one refresh in flight for every caller).
   */
  renew(token: string): Promise<boolean>;
  /** The 401 policy: the throttled 登录已过期 toast, the session cleared, the sign-in page. */
  expire(): void;
}

export function createApiClient(initial: Partial<ClientDeps> = {}): ApiClient {
  let deps: ClientDeps = {
    fetch: (input, init) => globalThis.fetch(input, init),
    session: noopSession,
    notify: (text) => toast.error(text),
    defer: (run) => {
      setTimeout(run, 0);
    },
    onUnauthorized: () => undefined,
    now: () => Date.now(),
    baseUrl: API_BASE,
    ...initial,
  };
  let lastUnauthorizedToastAt = Number.NEGATIVE_INFINITY;
  let refreshing: Promise<boolean> | null = null;

  /** The error of a failed call; its toast waits (see `defer`) and is left out once claimed. */
  function fail(opts: RequestOptions, status: number, envelope: ResponseEnvelope | null, text?: string, retryAfterSeconds?: number): ApiError {
    const message = text ?? describeError(status, envelope);
    const error = new ApiError(status, businessCode(envelope, status), message, retryAfterSeconds);
    if (!opts.silent) {
      const { notify, defer } = deps;
      defer(() => {
        if (!error.claimed) notify(message);
      });
    }
    return error;
  }

  function unauthorized(opts: RequestOptions, envelope: ResponseEnvelope | null): ApiError {
    const message = ErrorCodes.UNAUTHORIZED.message;
    const now = deps.now();
    if (!opts.silent && now - lastUnauthorizedToastAt >= UNAUTHORIZED_TOAST_THROTTLE_MS) {
      lastUnauthorizedToastAt = now;
      deps.notify(message);
    }
    deps.onUnauthorized();
    return new ApiError(401, businessCode(envelope, 401), message);
  }

  async function doRefresh(): Promise<boolean> {
    const refreshToken = deps.session.getRefreshToken();
    if (!refreshToken) return false;
    try {
      const response = await deps.fetch(`${deps.baseUrl}${REFRESH_PATH}`, {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify({ refreshToken }),
      });
      if (!response.ok) return false;
      const envelope = asEnvelope(await readBody(response));
      if (!envelope || isEnvelopeError(envelope) || !isTokenPair(envelope.result)) return false;
      deps.session.setTokens({ jwtToken: envelope.result.jwtToken, refreshToken: envelope.result.refreshToken });
      return true;
    } catch {
      return false;
    }
  }

  /** Single flight: concurrent 401s share one refresh call. */
  function refreshOnce(): Promise<boolean> {
    refreshing ??= doRefresh().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  /** After a 401 to a call made with `token`: retry with a pair another call refreshed, or refresh it. */
  async function renew(token: string): Promise<boolean> {
    const current = deps.session.getToken();
    // Another request already refreshed the pair: just retry with the new token.
    if (current && current !== token) return true;
    return Boolean(deps.session.getRefreshToken()) && (await refreshOnce());
  }

  async function send<T>(opts: RequestOptions, retried: boolean): Promise<T> {
    const method = opts.method ?? 'GET';
    const headers = new Headers({ Accept: 'application/json', ...opts.headers });
    const token = deps.session.getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);

    let body: BodyInit | undefined;
    if (opts.data !== undefined) {
      if (opts.data instanceof FormData || opts.data instanceof Blob || opts.data instanceof URLSearchParams) {
        body = opts.data;
      } else {
        headers.set('Content-Type', 'application/json');
        body = JSON.stringify(opts.data);
      }
    }

    let response: Response;
    try {
      response = await deps.fetch(buildUrl(deps.baseUrl, opts.url, opts.params), {
        method,
        headers,
        body,
        signal: opts.signal,
      });
    } catch (error) {
      if (isAbort(error)) throw error;
      throw fail(opts, 0, null, API_TEXTS.networkError);
    }

    if (response.status === 401) {
      const envelope = asEnvelope(await readBody(response).catch(() => null));
      if (!retried && token && pathOf(opts.url) !== REFRESH_PATH && (await renew(token))) return send<T>(opts, true);
      throw unauthorized(opts, envelope);
    }

    const disposition = response.headers.get('content-disposition');
    if (disposition && response.ok) {
      const download: DownloadResult = {
        blob: await response.blob(),
        filename: parseContentDisposition(disposition),
        contentType: response.headers.get('content-type'),
      };
      return download as T;
    }

    const payload = await readBody(response);
    const envelope = asEnvelope(payload);

    if (envelope && (opts.raw || isEnvelopePassthrough(opts.url))) return envelope as T;
    if (response.ok) {
      if (!envelope) return payload as T;
      if (!isEnvelopeError(envelope)) return envelope.result as T;
    }
    throw fail(opts, response.status, envelope, undefined, retryAfterOf(response.headers));
  }

  return {
    request: <T>(opts: RequestOptions) => send<T>(opts, false),
    configure(next) {
      deps = { ...deps, ...next };
    },
    session: {
      fetch: (input, init) => deps.fetch(input, init),
      token: () => deps.session.getToken(),
      renew,
      expire: () => {
        unauthorized({ url: '' }, null);
      },
    },
  };
}

/** The console's client; `src/session/wiring.ts` injects the session and the 401 policy. */
export const apiClient = createApiClient();

export function request<T>(opts: RequestOptions): Promise<T> {
  return apiClient.request<T>(opts);
}

export function configureApiClient(deps: Partial<ClientDeps>): void {
  apiClient.configure(deps);
}
