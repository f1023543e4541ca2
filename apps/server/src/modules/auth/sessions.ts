import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { createSigner, createVerifier } from 'fast-jwt';
import type { TokenPair } from '@slg/shared/views/account';
import type { AppDeps } from '../../deps.js';
import type { Executor } from '../../db/client.js';
import { refreshTokens, revokedSessions, users } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { principalOf, type Principal } from '../../core/principal.js';
import { SessionChecks } from './session-checks.js';

const ISSUER = 'suanligang';

/** What every sign-in answers: the schema in packages/shared (views/account), which the console reads too. */
export type { TokenPair };

/** The caller's own account row, read by the same statement as the session check. */
export interface SignedInAccount {
  username: string | null;
  nickName: string;
  telephone: string | null;
  hasPassword: boolean;
  createdAt: Date;
  sharedMainBalance: boolean;
  /** Fen in the wallet the caller spends from; read only when the route asked for it, else null. */
  balanceFen: number | null;
}

export interface Authenticated {
  principal: Principal;
  account: SignedInAccount;
}

interface AccessClaims {
  sub?: unknown;
  sid?: unknown;
  exp?: unknown;
}

export class SessionService {
  // HMAC with node:crypto, synchronously (~8 µs a check): jose's WebCrypto verify went through the
  // thread pool and cost 250–500 µs, more than the database round trip.
  private readonly sign: (claims: Record<string, unknown>) => string;
  private readonly verify: (token: string) => AccessClaims;
  private checks: SessionChecks | null = null;

  constructor(private readonly deps: AppDeps) {
    const key = Buffer.from(deps.config.jwtSecret, 'utf8');
    this.sign = createSigner({ key, algorithm: 'HS256' });
    this.verify = createVerifier({
      key,
      algorithms: ['HS256'],
      allowedIss: ISSUER,
      requiredClaims: ['sub', 'sid', 'exp', 'iat'],
      // Lifetimes are checked below against the app's clock (tests move it), not the system's.
      ignoreExpiration: true,
      ignoreNotBefore: true,
      // A verified token's claims are remembered (by its full text, so nothing forged matches): a
      // script polling with one token pays the HMAC once. Revocation is still read on every request.
      cache: 2048,
    });
  }

  private async signAccess(userId: number, sessionId: string): Promise<string> {
    const issuedAt = Math.floor(this.deps.now().getTime() / 1000);
    return this.sign({
      sid: sessionId,
      sub: String(userId),
      iss: ISSUER,
      iat: issuedAt,
      exp: issuedAt + this.deps.config.accessTokenTtlSeconds,
    });
  }

  private async issueRefresh(executor: Executor, userId: number, familyId: string): Promise<string> {
    const token = randomToken();
    const now = this.deps.now();
    await executor.insert(refreshTokens).values({
      tokenHash: sha256Hex(token),
      familyId,
      userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.deps.config.refreshTokenTtlDays * 86400 * 1000),
    });
    return token;
  }

  /** Starts a new sign-in (a new refresh-token family). */
  async start(executor: Executor, userId: number): Promise<TokenPair> {
    const familyId = randomUUID();
    const refreshToken = await this.issueRefresh(executor, userId, familyId);
    return { jwtToken: await this.signAccess(userId, familyId), refreshToken };
  }

  private async revokeFamily(executor: Executor, familyId: string): Promise<void> {
    const now = this.deps.now();
    await executor.insert(revokedSessions).values({ familyId, revokedAt: now }).onConflictDoNothing();
    await executor
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }

  /**
   * Rotates a refresh token. A token that was already used means it leaked (or was replayed), so the
   * whole family is revoked and both parties must sign in again.
   */
  async refresh(presented: string): Promise<TokenPair> {
    const db = this.deps.database.db;
    const now = this.deps.now();
    const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256Hex(presented)));
    if (!row || row.revokedAt || row.expiresAt.getTime() <= now.getTime()) throw new AppError('REFRESH_TOKEN_INVALID');
    if (row.usedAt) {
      await db.transaction((tx) => this.revokeFamily(tx, row.familyId));
      throw new AppError('REFRESH_TOKEN_INVALID');
    }
    const outcome = await db.transaction(async (tx) => {
      const claimed = await tx
        .update(refreshTokens)
        .set({ usedAt: now })
        .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
        .returning({ id: refreshTokens.id });
      if (claimed.length === 0) return null;
      const [user] = await tx
        .select({ disabledAt: users.disabledAt })
        .from(users)
        .where(eq(users.id, row.userId));
      if (!user || user.disabledAt) return null;
      const refreshToken = await this.issueRefresh(tx, row.userId, row.familyId);
      return { jwtToken: await this.signAccess(row.userId, row.familyId), refreshToken };
    });
    if (!outcome) {
      // Lost a race with another use of the same token: treat it as reuse.
      await db.transaction((tx) => this.revokeFamily(tx, row.familyId));
      throw new AppError('REFRESH_TOKEN_INVALID');
    }
    return outcome;
  }

  /** Signs out: the session's refresh tokens and access tokens stop working. */
  async end(options: { refreshToken?: string | undefined; sessionId?: string | undefined }): Promise<void> {
    const db = this.deps.database.db;
    let familyId = options.sessionId;
    if (!familyId && options.refreshToken) {
      const [row] = await db
        .select({ familyId: refreshTokens.familyId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, sha256Hex(options.refreshToken)));
      familyId = row?.familyId;
    }
    if (familyId) await db.transaction((tx) => this.revokeFamily(tx, familyId));
  }

  /** Signs the user out everywhere except `keepSessionId` (after a password change or reset). */
  async endAllFor(executor: Executor, userId: number, keepSessionId?: string): Promise<void> {
    const families = await executor
      .selectDistinct({ familyId: refreshTokens.familyId })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
    for (const { familyId } of families) {
      if (familyId !== keepSessionId) await this.revokeFamily(executor, familyId);
    }
  }

  /**
   * Resolves a bearer access token to the caller, or null when it is invalid, expired or revoked.
   * Exact on every replica: the revocation is read from the database on every call, never cached
   * (see SessionChecks for how concurrent checks share a statement).
   */
  async authenticate(token: string, options: { withBalance?: boolean } = {}): Promise<Authenticated | null> {
    let userId: number;
    let sessionId: string;
    try {
      const claims = this.verify(token);
      userId = Number(claims.sub);
      sessionId = typeof claims.sid === 'string' ? claims.sid : '';
      if (!Number.isSafeInteger(userId) || sessionId === '') return null;
      if (typeof claims.exp !== 'number' || claims.exp * 1000 <= this.deps.now().getTime()) return null;
    } catch {
      return null;
    }
    this.checks ??= new SessionChecks(this.deps.database);
    const user = await this.checks.check(userId, sessionId, options.withBalance === true);
    if (!user || user.disabled || user.revoked) return null;
    return {
      principal: principalOf(user, sessionId),
      account: {
        username: user.username,
        nickName: user.nickName,
        telephone: user.telephone,
        hasPassword: user.hasPassword,
        createdAt: user.createdAt,
        sharedMainBalance: user.sharedMainBalance,
        balanceFen: user.balanceFen,
      },
    };
  }
}
