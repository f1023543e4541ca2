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
 * Helmet's security headers (CSP, nosniff, …) on every answer. @fastify/helmet built a new helmet
 * middleware, parsing every CSP directive, on each request; with static options (no per-request
 * nonces) the headers are the same every time, so they are computed once and copied. HSTS goes only
 * on answers to requests that came over TLS, directly or through a trusted proxy's
 * `X-Forwarded-Proto` (Fastify's `request.protocol` honours TRUST_PROXY): RFC 6797 §7.2 says a host
 * must not send it over plain HTTP, where a man in the middle could add or strip it anyway.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const { 'strict-transport-security': hsts, ...always } = securityHeadersOf(options);
  const overTls = hsts === undefined ? always : { ...always, 'strict-transport-security': hsts };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.protocol === 'https' ? overTls : always);
    done();
  });
}
