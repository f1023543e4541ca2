import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import type { AppDeps } from '../../deps.js';
import type { Executor } from '../../db/client.js';
import { refreshTokens, revokedSessions, users } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { principalOf, type Principal } from './principal.js';

const ISSUER = 'suanligang';

export interface TokenPair {
  jwtToken: string;
  refreshToken: string;
}

export class SessionService {
  private readonly key: Uint8Array;

  constructor(private readonly deps: AppDeps) {
    this.key = new TextEncoder().encode(deps.config.jwtSecret);
  }

  private async signAccess(userId: number, sessionId: string): Promise<string> {
    const issuedAt = Math.floor(this.deps.now().getTime() / 1000);
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuer(ISSUER)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.deps.config.accessTokenTtlSeconds)
      .sign(this.key);
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

  /** Resolves a bearer access token to its principal, or null when it is invalid, expired or revoked. */
  async authenticate(token: string): Promise<Principal | null> {
    let userId: number;
    let sessionId: string;
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        algorithms: ['HS256'],
        currentDate: this.deps.now(),
      });
      userId = Number(payload.sub);
      sessionId = String(payload.sid ?? '');
      if (!Number.isSafeInteger(userId) || sessionId === '') return null;
    } catch {
      return null;
    }
    const [user] = await this.deps.database.db
      .select({
        id: users.id,
        accountType: users.accountType,
        parentId: users.parentId,
        permissions: users.permissions,
        roles: users.roles,
        disabledAt: users.disabledAt,
        revoked: sql<boolean>`exists (select 1 from ${revokedSessions} where ${revokedSessions.familyId} = ${sessionId})`,
      })
      .from(users)
      .where(eq(users.id, userId));
    if (!user || user.disabledAt || user.revoked) return null;
    return principalOf(user, sessionId);
  }
}
