import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthorityType } from '@slg/shared';
import { AppError, forbidden } from './errors.js';
import { levelOf, type Principal } from '../modules/auth/principal.js';
import type { SessionService, SignedInAccount } from '../modules/auth/sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** The caller's account row, read together with the session check (null when anonymous). */
    account: SignedInAccount | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a bearer token. Everything under /api/v1 is private unless it says so. */
    public?: boolean;
    /**
     * Public and the same for everyone (dictionaries): a bearer token is not even looked at, so the
     * answer costs no session check.
     */
    anonymous?: boolean;
    /** The route answers the caller's spendable balance: the session check reads it in the same statement. */
    readsBalance?: boolean;
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
  app.decorateRequest('account', null);
  app.addHook('onRequest', async (request) => {
    if (request.is404 || !request.url.startsWith('/api/v1/')) return;
    const { config } = request.routeOptions;
    if (config.anonymous === true) return;
    const token = bearerOf(request);
    const caller = token ? await sessions.authenticate(token, { withBalance: config.readsBalance === true }) : null;
    if (caller) {
      request.principal = caller.principal;
      request.account = caller.account;
    } else if (config.public !== true) {
      throw new AppError('UNAUTHORIZED');
    }
  });
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('UNAUTHORIZED');
  return request.principal;
}

export function accountOf(request: FastifyRequest): SignedInAccount {
  if (!request.account) throw new AppError('UNAUTHORIZED');
  return request.account;
}

/** Fen in the wallet the caller spends from, read with the session check (route config `readsBalance`). */
export function spendableBalanceOf(request: FastifyRequest): number {
  const balance = accountOf(request).balanceFen;
  if (balance === null) throw new Error(`${request.routeOptions.url ?? request.url} reads the balance without config.readsBalance`);
  return balance;
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
