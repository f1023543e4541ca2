import { and, eq, inArray, sql } from 'drizzle-orm';
import { AccountType, grantedAuthorities, maskTelephone, type PermissionMap } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Database } from '../../db/client.js';
import { users, wallets } from '../../db/schema/index.js';
import { AppError, notFound } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { SessionService, type SignedInAccount } from '../auth/sessions.js';
import { giveBackAttempt, takeAttempt } from '../security/attempts.js';
import { PASSWORD_CHECKS, passwordLocked, passwordSubject } from '../security/rules.js';

export class UserService {
  private readonly sessions: SessionService;

  constructor(private readonly deps: AppDeps) {
    this.sessions = new SessionService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  private async load(userId: number) {
    const [user] = await this.db.select().from(users).where(eq(users.id, userId));
    if (!user) throw notFound('账号不存在');
    return user;
  }

  /** From the row the session check read in the same request: no second query. */
  userInfo(principal: Principal, account: SignedInAccount) {
    const maskedTelephone = account.telephone ? maskTelephone(account.telephone) : '';
    return {
      userId: principal.userId,
      // A main account has no user name of its own; its (masked) phone stands in, never the full number.
      userName: account.username ?? maskedTelephone,
      nickName: account.nickName,
      telephone: maskedTelephone,
      accountType: principal.accountType,
      roles: [...principal.roles],
      hasPassword: account.hasPassword,
      createdAt: account.createdAt.toISOString(),
    };
  }

  async subAccountInfo(principal: Principal) {
    if (principal.accountType !== AccountType.SUB) throw new AppError('FORBIDDEN', '仅子账号可以查看此信息');
    const user = await this.load(principal.userId);
    // Both wallets in one query: the sub-account's own, and the main one it may spend from.
    const balances = await this.db
      .select({ accountId: wallets.accountId, balance: wallets.balanceFen })
      .from(wallets)
      .where(inArray(wallets.accountId, [user.id, principal.ownerId]));
    const balanceOf = (accountId: number) => balances.find((row) => row.accountId === accountId)?.balance ?? 0;
    return {
      userId: user.id,
      username: user.username ?? '',
      telephone: user.telephone ? maskTelephone(user.telephone) : '',
      nickname: user.nickName,
      accountType: AccountType.SUB,
      permissions: grantedAuthorities(principal.permissions),
      permissionLevels: principal.permissions satisfies PermissionMap,
      sharedMainBalance: user.sharedMainBalance,
      mainAccountId: principal.ownerId,
      // The main balance is shown only to a sub-account that spends it.
      mainAccountBalance: user.sharedMainBalance ? balanceOf(principal.ownerId) : null,
      subAccountBalance: balanceOf(user.id),
    };
  }

  async updateNickname(principal: Principal, nickName: string): Promise<void> {
    await this.db.update(users).set({ nickName, updatedAt: this.deps.now() }).where(eq(users.id, principal.userId));
  }

  /**
   * Changes the password. The old one is required unless the account has none yet (first SMS sign-in).
   * Every other session of the account is signed out.
   */
  async updatePassword(principal: Principal, input: { oldPassword?: string | undefined; password: string }): Promise<void> {
    const user = await this.load(principal.userId);
    if (user.passwordHash) {
      if (!input.oldPassword) throw new AppError('VALIDATION', '请输入原密码');
      // The old password is a password check like sign-in, counted against the same phone.
      const subject = passwordSubject(user);
      const attempt = await takeAttempt(this.db, PASSWORD_CHECKS, subject, this.deps.now());
      if (!attempt.allowed) throw passwordLocked(attempt.retryAfterSeconds);
      if (!(await verifyPassword(user.passwordHash, input.oldPassword))) throw new AppError('OLD_PASSWORD_WRONG');
      await giveBackAttempt(this.db, PASSWORD_CHECKS, subject, attempt);
    }
    const passwordHash = await hashPassword(input.password);
    await this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, updatedAt: this.deps.now() }).where(eq(users.id, user.id));
      await this.sessions.endAllFor(tx, user.id, principal.sessionId);
    });
  }
}

/** Gives the operator role to the registered accounts of OPERATOR_TELEPHONES (at start-up). */
export async function applyOperatorTelephones(db: Database, telephones: readonly string[]): Promise<number> {
  if (telephones.length === 0) return 0;
  const granted = await db
    .update(users)
    .set({ roles: sql`array_append(${users.roles}, 'operator')` })
    .where(and(inArray(users.telephone, [...telephones]), eq(users.accountType, 1), sql`not ('operator' = any(${users.roles}))`))
    .returning({ id: users.id });
  return granted.length;
}
