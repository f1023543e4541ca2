import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** The headers helmet sets for these options, recorded once (they do not depend on the request). */
export function securityHeadersOf(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return Object.fromEntries(headers);
}

/**
 * What an API answer (JSON, CSV) needs, after OWASP's REST Security Cheat Sheet: nothing it returns is
 * a document to render, frame or cache, so the policy forbids everything. A dozen document headers
 * (a long CSP among them) on every API answer were a tenth of an authenticated read's CPU.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  // Signed-in data stays out of shared caches and history; routes that allow caching (the dictionaries' ETags) say so themselves.
  'cache-control': 'no-store',
};

/** API routes answer data; everything else (the console, the API documentation) is a document. */
function isApiRequest(url: string): boolean {
  return url.startsWith('/api/v1/') || url.startsWith('/api/dev/');
}

/**
 * Security headers on every answer: helmet's document headers (CSP, nosniff, …) for the console and
 * other pages, the short API set for API answers. @fastify/helmet built a new helmet middleware,
 * parsing every CSP directive, on each request; with static options (no per-request nonces) the
 * headers are the same every time, so they are computed once and copied. HSTS goes only on answers
 * to requests that came over TLS, directly or through a trusted proxy's `X-Forwarded-Proto`
 * (Fastify's `request.protocol` honours TRUST_PROXY): RFC 6797 §7.2 says a host must not send it over
 * plain HTTP, where a man in the middle could add or strip it anyway.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const { 'strict-transport-security': hsts, ...document } = securityHeadersOf(options);
  const withHsts = (headers: Readonly<Record<string, string>>) => (hsts === undefined ? headers : { ...headers, 'strict-transport-security': hsts });
  const sets = {
    document: { plain: document, tls: withHsts(document) },
    api: { plain: API_SECURITY_HEADERS, tls: withHsts(API_SECURITY_HEADERS) },
  };
  app.addHook('onRequest', (request, reply, done) => {
    const set = isApiRequest(request.url) ? sets.api : sets.document;
    reply.headers(request.protocol === 'https' ? set.tls : set.plain);
    done();
  });
}
