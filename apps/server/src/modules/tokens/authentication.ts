import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { AccountType, API_TOKEN_PREFIX, ApiTokenStatus } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import { apiTokens, users, wallets } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';
import { principalOf } from '../../core/principal.js';
import type { Authenticated } from '../auth/sessions.js';

/** `slg_` and 32 random bytes in base64url (43 characters). */
const API_TOKEN_SHAPE = new RegExp(`^${API_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);

/** lastUsedAt is written at most this often per token, so a busy script costs no write per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export function looksLikeApiToken(bearer: string): boolean {
  return bearer.startsWith(API_TOKEN_PREFIX);
}

/**
 * Resolves an API token to its creator, acting with the creator's rights (a sub-account's token with
 * the sub-account's permissions, read from the row now). One indexed look-up by the secret's hash,
 * on every request and never cached: a token disabled or deleted (or whose account was disabled) is
 * refused by the very next request, on every replica.
 */
export class ApiTokenAuthenticator {
  constructor(private readonly deps: Pick<AppDeps, 'database' | 'now'>) {}

  async authenticate(bearer: string, options: { withBalance?: boolean; recordUse?: boolean } = {}): Promise<Authenticated | null> {
    if (!API_TOKEN_SHAPE.test(bearer)) return null;
    const db = this.deps.database.db;
    // The wallet the caller spends from, as payingWalletOf (billing/ledger.ts) decides it.
    const payingWallet = sql`case when ${users.accountType} = ${AccountType.SUB} and ${users.sharedMainBalance} then ${users.parentId} else ${users.id} end`;
    const [row] = await db
      .select({
        tokenId: apiTokens.id,
        status: apiTokens.status,
        lastUsedAt: apiTokens.lastUsedAt,
        id: users.id,
        accountType: users.accountType,
        parentId: users.parentId,
        permissions: users.permissions,
        roles: users.roles,
        disabledAt: users.disabledAt,
        username: users.username,
        nickName: users.nickName,
        telephone: users.telephone,
        hasPassword: sql<boolean>`${users.passwordHash} is not null`,
        createdAt: users.createdAt,
        sharedMainBalance: users.sharedMainBalance,
        balanceFen: options.withBalance
          ? sql<number>`coalesce((select ${wallets.balanceFen} from ${wallets} where ${wallets.accountId} = ${payingWallet}), 0)::float8`
          : sql<null>`null`,
      })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.creatorId))
      .where(eq(apiTokens.tokenHash, sha256Hex(bearer)));
    if (!row || row.status !== ApiTokenStatus.ENABLED || row.disabledAt) return null;
    if (options.recordUse !== false) await this.noteUse(row.tokenId, row.lastUsedAt);
    return {
      principal: { ...principalOf(row, ''), apiTokenId: row.tokenId },
      account: {
        username: row.username,
        nickName: row.nickName,
        telephone: row.telephone,
        hasPassword: row.hasPassword,
        createdAt: row.createdAt,
        sharedMainBalance: row.sharedMainBalance,
        balanceFen: row.balanceFen === null ? null : Number(row.balanceFen),
      },
    };
  }

  /** Records the use when the last one recorded is a minute old; the WHERE keeps concurrent requests to one write. */
  private async noteUse(tokenId: number, lastUsedAt: Date | null): Promise<void> {
    const now = this.deps.now();
    if (lastUsedAt && now.getTime() - lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    await this.deps.database.db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(and(eq(apiTokens.id, tokenId), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, staleBefore))));
  }
}
