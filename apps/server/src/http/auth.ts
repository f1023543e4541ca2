import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_TOKEN_NOT_ALLOWED_MESSAGE, type AuthorityType } from '@slg/shared';
import { AppError, forbidden } from '../core/errors.js';
import { isMainAccount, levelOf, type Principal } from '../core/principal.js';
import type { Authenticated, SessionService, SignedInAccount } from '../modules/auth/sessions.js';
import { looksLikeApiToken, type ApiTokenAuthenticator } from '../modules/tokens/authentication.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** The caller's account row, read together with the session check (null when anonymous). */
    account: SignedInAccount | null;
  }
  interface FastifyInstance {
    /** Every /api/v1 route with what it demands of its caller (the permission matrix test reads it). */
    apiRoutes: ApiRoute[];
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
    /**
     * Only a signed-in person may call it, never an API token (403 `API令牌不能用于此操作`). Routes
     * matching SESSION_ONLY_PATHS get it without saying so.
     */
    sessionOnly?: boolean;
    /**
     * A private route open to every signed-in caller, main account or sub-account whatever its
     * permissions, because it only ever touches the caller's own things (its profile, notifications,
     * tokens). Every other private route names its rule with requireAuthority / requireRole /
     * requireMainAccount; the permission matrix test fails for a route that does neither.
     */
    access?: 'account';
  }
}

export interface ApiRoute {
  method: string;
  url: string;
  public: boolean;
  /** Read when asked: a plugin's own onRoute hook (e.g. `openToEveryAccount`) may add it after the app's. */
  readonly rule: RouteRule | null;
}

/** Marks every route of a plugin as open to every signed-in account (`access: 'account'`). */
export function openToEveryAccount(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, access: 'account' };
  });
}

/** What a private route demands of its caller, read from its preValidation checks (the permission matrix lists them). */
export type RouteRule = { authority: AuthorityType } | { role: 'operator' } | { mainAccount: true } | { account: true };
const RULES = new WeakMap<object, RouteRule>();

function ruled<T extends object>(check: T, rule: RouteRule): T {
  RULES.set(check, rule);
  return check;
}

/** The rule of a route: its tagged preValidation check, or `access: 'account'`; null when it has none. */
export function ruleOfRoute(route: { preValidation?: unknown; config?: { access?: 'account' } }): RouteRule | null {
  const hooks = Array.isArray(route.preValidation) ? route.preValidation : route.preValidation ? [route.preValidation] : [];
  for (const hook of hooks) {
    const rule = typeof hook === 'function' ? RULES.get(hook) : undefined;
    if (rule) return rule;
  }
  return route.config?.access === 'account' ? { account: true } : null;
}

/**
 * Routes an API token may never call, whatever the route itself says: the account's credentials and
 * identity. Matched on the route's path pattern when the route is registered, so a route added later
 * under these names is covered without remembering to mark it.
 * - /auth/…: sign-in, sign-out, refresh (a token is no session to end or refresh);
 * - /settings/token…: managing tokens, including validating one (a leaked token must not mint,
 *   re-enable or rename tokens); GET /settings/validate/token stays open so a script can check itself;
 * - anything about a password, a phone or WeChat (change, bind, unbind, reset), of the account or of a
 *   sub-account;
 * - /subuser/… except GET /subuser/me: creating, deleting and setting up sub-accounts.
 */
export const SESSION_ONLY_PATHS: readonly RegExp[] = [
  /^\/api\/v1\/auth\//,
  /^\/api\/v1\/settings\/token(\/|$)/,
  /password/i,
  /phone/i,
  /wechat/i,
  /^\/api\/v1\/subuser\/(?!me$)/,
];

export function isSessionOnlyPath(path: string): boolean {
  return SESSION_ONLY_PATHS.some((pattern) => pattern.test(path));
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/**
 * Resolves the principal of every API request; private routes refuse a missing or bad token with 401.
 * A bearer starting with `slg_` is an API token, looked up by its hash on every request; anything
 * else is a sign-in's access token.
 */
export function registerAuthentication(app: FastifyInstance, sessions: SessionService, apiTokens: ApiTokenAuthenticator): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('account', null);
  app.decorate('apiRoutes', [] as ApiRoute[]);
  app.addHook('onRoute', (route) => {
    if (route.config?.sessionOnly !== true && isSessionOnlyPath(route.url)) route.config = { ...route.config, sessionOnly: true };
    if (!route.url.startsWith('/api/v1/')) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      app.apiRoutes.push({
        method,
        url: route.url,
        public: route.config?.public === true,
        get rule() {
          return ruleOfRoute(route);
        },
      });
    }
  });
  app.addHook('onRequest', async (request) => {
    if (request.is404 || !request.url.startsWith('/api/v1/')) return;
    const { config } = request.routeOptions;
    if (config.anonymous === true) return;
    const token = bearerOf(request);
    const options = { withBalance: config.readsBalance === true };
    let caller: Authenticated | null = null;
    if (token && looksLikeApiToken(token)) {
      if (config.sessionOnly === true) throw new AppError('FORBIDDEN', API_TOKEN_NOT_ALLOWED_MESSAGE);
      caller = await apiTokens.authenticate(token, options);
    } else if (token) {
      caller = await sessions.authenticate(token, options);
    }
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

/**
 * Route-level check for an authority type (before the body is validated, so NONE is always 403);
 * row-level scoping is `ownedBy` in db/scope.ts.
 */
export function requireAuthority(authority: AuthorityType) {
  return ruled(
    async (request: FastifyRequest) => {
      if (levelOf(principalOf(request), authority) === 'NONE') throw forbidden();
    },
    { authority },
  );
}

export function requireRole(role: 'operator') {
  return ruled(
    async (request: FastifyRequest) => {
      if (!principalOf(request).roles.includes(role)) throw forbidden();
    },
    { role },
  );
}

/** Only a main account (managing sub-accounts, the account's own identity). */
export function requireMainAccount(message = '子账号不能进行此操作') {
  return ruled(
    async (request: FastifyRequest) => {
      if (!isMainAccount(principalOf(request))) throw forbidden(message);
    },
    { mainAccount: true },
  );
}
