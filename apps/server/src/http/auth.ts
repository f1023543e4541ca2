import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthorityType } from '@slg/shared';
import { AppError, forbidden } from './errors.js';
import { levelOf, type Principal } from '../modules/auth/principal.js';
import type { SessionService } from '../modules/auth/sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a bearer token. Everything under /api/v1 is private unless it says so. */
    public?: boolean;
  }
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/** Resolves the principal of every API request; private routes refuse a missing or bad token with 401. */
export function registerAuthentication(app: FastifyInstance, sessions: SessionService): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    if (request.is404 || !request.url.startsWith('/api/v1/')) return;
    const token = bearerOf(request);
    const principal = token ? await sessions.authenticate(token) : null;
    request.principal = principal;
    if (!principal && request.routeOptions.config.public !== true) throw new AppError('UNAUTHORIZED');
  });
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('UNAUTHORIZED');
  return request.principal;
}

/** Route-level check for an authority type; row-level scoping is `ownedBy` in db/scope.ts. */
export function requireAuthority(authority: AuthorityType) {
  return async (request: FastifyRequest) => {
    if (levelOf(principalOf(request), authority) === 'NONE') throw forbidden();
  };
}

export function requireRole(role: 'operator') {
  return async (request: FastifyRequest) => {
    if (!principalOf(request).roles.includes(role)) throw forbidden();
  };
}
