import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { API_TOKEN_PREFIX, ApiTokenStatus, MAX_API_TOKENS, type Page } from '@slg/shared';
import type { ApiTokenView, CreatedApiToken } from '@slg/shared/views/api-tokens';
import type { AppDeps } from '../../deps.js';
import { apiTokens, users } from '../../db/schema/index.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../core/errors.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import type { Principal } from '../../core/principal.js';
import { ApiTokenAuthenticator } from './authentication.js';

/** The answers' shapes: the schemas in packages/shared (views/api-tokens), which the console reads too. */
export type { ApiTokenView, CreatedApiToken };

export interface TokenValidity {
  valid: boolean;
  /** Whose it is, when valid. */
  tokenId: number | null;
  name: string | null;
  userId: number | null;
  username: string | null;
  nickName: string | null;
}

type ApiTokenRow = typeof apiTokens.$inferSelect;

/** Characters of the secret after `slg_` kept for display: 36 of its 256 bits, enough to tell tokens apart. */
const SHOWN_SECRET_CHARACTERS = 6;

const notFound = () => new AppError('NOT_FOUND', '没有找到该API令牌，可能已被删除');

function viewOf(row: ApiTokenRow): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    status: row.status === ApiTokenStatus.ENABLED ? ApiTokenStatus.ENABLED : ApiTokenStatus.DISABLED,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * API tokens (API令牌): personal to the account that creates them, main account or sub-account alike.
 * No authority type governs them (a token carries whatever its creator may do), so they are scoped to
 * the caller's own rows by owner and creator, the two columns `ownedBy` would test for SELF; a main
 * account does not see its sub-accounts' tokens. Managing tokens is session-only (see http/auth.ts).
 */
export class ApiTokenService {
  private readonly authenticator: ApiTokenAuthenticator;

  constructor(private readonly deps: Pick<AppDeps, 'database' | 'now'>) {
    this.authenticator = new ApiTokenAuthenticator(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  private mine(principal: Principal): SQL {
    return and(eq(apiTokens.ownerId, principal.ownerId), eq(apiTokens.creatorId, principal.userId)) as SQL;
  }

  async list(principal: Principal, query: PageQuery): Promise<Page<ApiTokenView>> {
    const where = this.mine(principal);
    return paged(
      query,
      (limit, offset) => this.db.select().from(apiTokens).where(where).orderBy(desc(apiTokens.createdAt), desc(apiTokens.id)).limit(limit).offset(offset),
      () => this.db.$count(apiTokens, where),
      (rows) => rows.map(viewOf),
    );
  }

  async get(principal: Principal, id: number): Promise<ApiTokenView> {
    const [row] = await this.db.select().from(apiTokens).where(and(this.mine(principal), eq(apiTokens.id, id)));
    if (!row) throw notFound();
    return viewOf(row);
  }

  /**
   * Creates a token and returns its secret, which is stored only as a hash. The limit is counted
   * under a lock on the user's row, so a burst of creates is decided one after the other (a
   * conditional INSERT alone would let concurrent statements each count from their own snapshot);
   * a duplicate name is decided by the unique index on (creator, name).
   */
  async create(principal: Principal, name: string): Promise<CreatedApiToken> {
    const token = `${API_TOKEN_PREFIX}${randomToken(32)}`;
    const now = this.deps.now();
    try {
      const row = await this.db.transaction(async (tx) => {
        // NO KEY UPDATE: waits for other creates of this user, not for rows that merely reference the user.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, principal.userId)).for('no key update');
        const [kept] = await tx.select({ count: count() }).from(apiTokens).where(eq(apiTokens.creatorId, principal.userId));
        if ((kept?.count ?? 0) >= MAX_API_TOKENS) {
          throw new AppError('STATE_CONFLICT', `最多创建${MAX_API_TOKENS}个API令牌，请先删除不再使用的令牌`);
        }
        const [created] = await tx
          .insert(apiTokens)
          .values({
            ownerId: principal.ownerId,
            creatorId: principal.userId,
            name,
            tokenHash: sha256Hex(token),
            prefix: token.slice(0, API_TOKEN_PREFIX.length + SHOWN_SECRET_CHARACTERS),
            status: ApiTokenStatus.ENABLED,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        return created as ApiTokenRow;
      });
      return { ...viewOf(row), token };
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('NAME_EXISTS');
      throw error;
    }
  }

  private async change(principal: Principal, id: number, values: Partial<Pick<ApiTokenRow, 'name' | 'status'>>): Promise<ApiTokenView> {
    try {
      const [row] = await this.db
        .update(apiTokens)
        .set({ ...values, updatedAt: this.deps.now() })
        .where(and(this.mine(principal), eq(apiTokens.id, id)))
        .returning();
      if (!row) throw notFound();
      return viewOf(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('NAME_EXISTS');
      throw error;
    }
  }

  rename(principal: Principal, id: number, name: string): Promise<ApiTokenView> {
    return this.change(principal, id, { name });
  }

  /** Takes effect with the next request: the token is looked up on every request, never cached. */
  setStatus(principal: Principal, id: number, status: ApiTokenStatus): Promise<ApiTokenView> {
    return this.change(principal, id, { status });
  }

  async remove(principal: Principal, id: number): Promise<void> {
    const removed = await this.db
      .delete(apiTokens)
      .where(and(this.mine(principal), eq(apiTokens.id, id)))
      .returning({ id: apiTokens.id });
    if (removed.length === 0) throw notFound();
  }

  /** Whether a secret would be accepted right now, and whose it is (having the secret already gives its rights). */
  async validateSecret(token: string): Promise<TokenValidity> {
    const found = await this.authenticator.authenticate(token.trim(), { recordUse: false });
    if (!found) return { valid: false, tokenId: null, name: null, userId: null, username: null, nickName: null };
    const [row] = await this.db.select({ name: apiTokens.name }).from(apiTokens).where(eq(apiTokens.id, found.principal.apiTokenId ?? 0));
    return {
      valid: true,
      tokenId: found.principal.apiTokenId ?? null,
      name: row?.name ?? null,
      userId: found.principal.userId,
      username: found.account.username,
      nickName: found.account.nickName,
    };
  }

  /** Whether one of the caller's tokens is enabled (GET /settings/token/validate/{id}). */
  async validateById(principal: Principal, id: number): Promise<{ id: number; valid: boolean }> {
    const token = await this.get(principal, id);
    return { id: token.id, valid: token.status === ApiTokenStatus.ENABLED };
  }
}
