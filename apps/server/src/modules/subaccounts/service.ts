import { and, count, desc, eq, isNull } from 'drizzle-orm';
import {
  ALLOWED_LEVELS,
  AUTHORITY_TYPE_LABELS,
  AccountType,
  authorityNotOfferedMessage,
  formatYuan,
  isOfferedAuthorityType,
  NO_PERMISSIONS,
  OFFERED_AUTHORITY_TYPES,
  PERMISSION_LEVEL_LABELS,
  SUB_ACCOUNT_LIMIT,
  type AuthorityType,
  type PermissionLevel,
  type PermissionMap,
} from '@slg/shared';
import type { SubAccountView } from '@slg/shared/views/sub-accounts';
import type { AppDeps } from '../../deps.js';
import type { Executor, Transaction } from '../../db/client.js';
import { instances, users, wallets } from '../../db/schema/index.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError, forbidden } from '../../core/errors.js';
import { offsetOf, pageOf, type PageQuery } from '../../http/pagination.js';
import { isMainAccount, type Principal } from '../../core/principal.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../auth/passwords.js';
import { SessionService, type TokenPair } from '../auth/sessions.js';
import { postTransaction } from '../billing/ledger.js';
import { applySubAccountDeletion, payFromMainWallet } from './deletion.js';
import { clearAttempts, giveBackAttempt, takeAttempt } from '../security/attempts.js';
import { PASSWORD_CHECKS, passwordLocked } from '../security/rules.js';
import { SmsCodeService } from '../sms/service.js';

/** The answer's shape: the schema in packages/shared (views/sub-accounts), which the console reads too. */
export type { SubAccountView };

export interface PermissionGrant {
  authorityType: AuthorityType;
  level: PermissionLevel;
}

export interface CreateSubAccountInput {
  username: string;
  password: string;
  nickname?: string | undefined;
  sharedMainBalance?: boolean | undefined;
  permissions?: PermissionGrant[] | undefined;
}

/** The sign-in lockout subject of a sub-account name (names are case-insensitive for the lockout). */
function loginSubject(username: string): string {
  return `sub:${username.toLowerCase()}`;
}

/**
 * The grants as a full map: types not named keep `base`; a type not offered yet (its product does not
 * exist) and a level a type does not offer are refused.
 */
export function permissionMapOf(grants: readonly PermissionGrant[], base: PermissionMap = NO_PERMISSIONS): PermissionMap {
  const seen = new Set<AuthorityType>();
  const map: PermissionMap = { ...base };
  for (const grant of grants) {
    if (seen.has(grant.authorityType)) throw new AppError('VALIDATION', `权限类型 ${grant.authorityType} 重复`);
    seen.add(grant.authorityType);
    if (!isOfferedAuthorityType(grant.authorityType)) throw new AppError('VALIDATION', authorityNotOfferedMessage(grant.authorityType));
    if (!ALLOWED_LEVELS[grant.authorityType].includes(grant.level)) {
      const offered = ALLOWED_LEVELS[grant.authorityType].map((level) => PERMISSION_LEVEL_LABELS[level]).join('、');
      throw new AppError('VALIDATION', `${AUTHORITY_TYPE_LABELS[grant.authorityType]}只能设置为${offered}`);
    }
    map[grant.authorityType] = grant.level;
  }
  return map;
}

/**
 * 子账号 (spec §6, §7 Sub-accounts): a main account's team members. Only a main account signed in
 * (not with an API token) manages them; every query is bounded by `parent_id = caller`, so one main
 * account can never touch another's sub-accounts. A deleted sub-account is disabled (its sessions
 * refused at once by the per-request session check), its name freed, its resources handed to the main
 * account and its own balance given back, in one transaction.
 */
export class SubAccountService {
  private readonly sessions: SessionService;
  private readonly sms: SmsCodeService;

  constructor(private readonly deps: AppDeps) {
    this.sessions = new SessionService(deps);
    this.sms = new SmsCodeService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  private assertManager(principal: Principal): void {
    if (!isMainAccount(principal)) throw forbidden('子账号不能管理子账号');
    if (principal.apiTokenId !== undefined) throw forbidden('API令牌不能用于此操作');
  }

  /** The caller's live sub-account `id`, locked for the rest of the transaction; 404 for anything else. */
  private async lockSub(tx: Transaction, principal: Principal, id: number) {
    const [sub] = await tx
      .select()
      .from(users)
      .where(and(eq(users.id, id), eq(users.parentId, principal.userId), eq(users.accountType, AccountType.SUB), isNull(users.disabledAt)))
      .for('update');
    if (!sub) throw new AppError('NOT_FOUND', '子账号不存在');
    return sub;
  }

  async create(principal: Principal, input: CreateSubAccountInput): Promise<{ id: number }> {
    this.assertManager(principal);
    const permissions = permissionMapOf(input.permissions ?? []);
    const passwordHash = await hashPassword(input.password);
    const now = this.deps.now();
    try {
      return await this.db.transaction(async (tx) => {
        // The limit is counted under a lock on the main account, so a burst cannot pass it.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, principal.userId)).for('no key update');
        const [existing] = await tx
          .select({ n: count() })
          .from(users)
          .where(and(eq(users.parentId, principal.userId), eq(users.accountType, AccountType.SUB), isNull(users.disabledAt)));
        if ((existing?.n ?? 0) >= SUB_ACCOUNT_LIMIT) throw new AppError('STATE_CONFLICT', `每个主账号最多创建${SUB_ACCOUNT_LIMIT}个子账号`);
        const [sub] = await tx
          .insert(users)
          .values({
            accountType: AccountType.SUB,
            parentId: principal.userId,
            username: input.username,
            passwordHash,
            nickName: input.nickname ?? input.username,
            permissions,
            sharedMainBalance: input.sharedMainBalance ?? false,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: users.id });
        if (!sub) throw new Error('sub-account insert returned nothing');
        await tx.insert(wallets).values({ accountId: sub.id, balanceFen: 0 });
        return { id: sub.id };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('NAME_EXISTS', '用户名已存在，请重新输入');
      throw error;
    }
  }

  private selectViews() {
    return this.db
      .select({
        id: users.id,
        username: users.username,
        nickname: users.nickName,
        sharedMainBalance: users.sharedMainBalance,
        permissions: users.permissions,
        balance: wallets.balanceFen,
        createdAt: users.createdAt,
      })
      .from(users)
      .leftJoin(wallets, eq(wallets.accountId, users.id));
  }

  private toView(row: Awaited<ReturnType<ReturnType<SubAccountService['selectViews']>['execute']>>[number]): SubAccountView {
    return {
      id: row.id,
      username: row.username ?? '',
      nickname: row.nickname,
      sharedMainBalance: row.sharedMainBalance,
      permissions: { ...NO_PERMISSIONS, ...(row.permissions ?? {}) },
      balance: row.balance ?? 0,
      createdAt: row.createdAt.toISOString(),
    };
  }

  private mine(principal: Principal) {
    return and(eq(users.parentId, principal.userId), eq(users.accountType, AccountType.SUB), isNull(users.disabledAt));
  }

  async list(principal: Principal, query: PageQuery) {
    this.assertManager(principal);
    const [rows, [total]] = await Promise.all([
      this.selectViews().where(this.mine(principal)).orderBy(desc(users.createdAt), desc(users.id)).limit(query.pageSize).offset(offsetOf(query)),
      this.db.select({ n: count() }).from(users).where(this.mine(principal)),
    ]);
    return pageOf(
      rows.map((row) => this.toView(row)),
      total?.n ?? 0,
      query,
    );
  }

  async detail(principal: Principal, id: number): Promise<SubAccountView> {
    this.assertManager(principal);
    const [row] = await this.selectViews().where(and(eq(users.id, id), this.mine(principal)));
    if (!row) throw new AppError('NOT_FOUND', '子账号不存在');
    return this.toView(row);
  }

  async setPermissions(principal: Principal, id: number, grants: readonly PermissionGrant[]): Promise<SubAccountView> {
    this.assertManager(principal);
    await this.db.transaction(async (tx) => {
      const sub = await this.lockSub(tx, principal, id);
      const permissions = permissionMapOf(grants, { ...NO_PERMISSIONS, ...(sub.permissions ?? {}) });
      await tx.update(users).set({ permissions, updatedAt: this.deps.now() }).where(eq(users.id, sub.id));
    });
    return this.detail(principal, id);
  }

  async update(principal: Principal, id: number, input: { nickname?: string | undefined; sharedMainBalance?: boolean | undefined }): Promise<SubAccountView> {
    this.assertManager(principal);
    await this.db.transaction(async (tx) => {
      const sub = await this.lockSub(tx, principal, id);
      if (input.sharedMainBalance === true && !sub.sharedMainBalance) {
        // From now on it spends the main balance: what it had of its own goes back there.
        const own = await walletBalance(tx, sub.id);
        if (own < 0) throw new AppError('STATE_CONFLICT', `子账号欠费${formatYuan(-own)}，请先为其充值后再改为共用主账号余额`);
        if (own > 0) {
          await postTransaction(tx, {
            type: 'TRANSFER',
            channel: 'BALANCE',
            description: `子账号 ${sub.username ?? sub.id} 改为共用主账号余额，余额退回主账号`,
            lines: [
              { wallet: sub.id, amountFen: -own },
              { wallet: principal.userId, amountFen: own },
            ],
            now: this.deps.now(),
          });
        }
        await payFromMainWallet(tx, sub.id, principal.userId);
      }
      await tx
        .update(users)
        .set({
          ...(input.nickname !== undefined ? { nickName: input.nickname } : {}),
          ...(input.sharedMainBalance !== undefined ? { sharedMainBalance: input.sharedMainBalance } : {}),
          updatedAt: this.deps.now(),
        })
        .where(eq(users.id, sub.id));
    });
    return this.detail(principal, id);
  }

  /** The main account sets a sub-account's password: its sign-ins end and its lockout is lifted. */
  async setPassword(principal: Principal, id: number, password: string): Promise<void> {
    this.assertManager(principal);
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      const sub = await this.lockSub(tx, principal, id);
      await tx.update(users).set({ passwordHash, updatedAt: this.deps.now() }).where(eq(users.id, sub.id));
      await this.sessions.endAllFor(tx, sub.id);
      if (sub.username) await clearAttempts(tx, PASSWORD_CHECKS, loginSubject(sub.username));
    });
  }

  /** A sub-account changes its own password with the old one (same lockout as sign-in); other sign-ins end. */
  async changeOwnPassword(principal: Principal, input: { oldPassword: string; password: string }): Promise<void> {
    if (isMainAccount(principal)) throw forbidden('主账号请在账号设置中修改密码');
    if (principal.apiTokenId !== undefined) throw forbidden('API令牌不能用于此操作');
    const [me] = await this.db.select({ username: users.username, passwordHash: users.passwordHash }).from(users).where(eq(users.id, principal.userId));
    const subject = loginSubject(me?.username ?? `id:${principal.userId}`);
    const attempt = await takeAttempt(this.db, PASSWORD_CHECKS, subject, this.deps.now());
    if (!attempt.allowed) throw passwordLocked(attempt.retryAfterSeconds);
    const passwordOk = me?.passwordHash ? await verifyPassword(me.passwordHash, input.oldPassword) : false;
    if (!passwordOk) throw new AppError('VALIDATION', '原密码不正确');
    await giveBackAttempt(this.db, PASSWORD_CHECKS, subject, attempt);
    const passwordHash = await hashPassword(input.password);
    await this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, updatedAt: this.deps.now() }).where(eq(users.id, principal.userId));
      await this.sessions.endAllFor(tx, principal.userId, principal.sessionId);
    });
  }

  /**
   * `POST /subuser/bind`: a sub-account binds (or changes) its own phone, proved by a `bind` code sent to
   * it. The phone is what a forgotten password is reset with; the unique phone index decides, so a phone
   * holds one account whatever the concurrency.
   */
  async bindPhone(principal: Principal, input: { telephone: string; code: string }): Promise<{ telephone: string }> {
    if (isMainAccount(principal)) throw forbidden('主账号请在账号设置中修改手机号');
    if (principal.apiTokenId !== undefined) throw forbidden('API令牌不能用于此操作');
    const codeId = await this.sms.check(input.telephone, 'bind', input.code);
    try {
      await this.db.transaction(async (tx) => {
        await this.sms.consume(tx, codeId);
        await tx.update(users).set({ telephone: input.telephone, updatedAt: this.deps.now() }).where(eq(users.id, principal.userId));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('PHONE_REGISTERED', '该手机号已绑定其他账号');
      throw error;
    }
    return { telephone: input.telephone };
  }

  /**
   * `POST /subuser/password/phone`: a sub-account that forgot its password sets a new one with a `reset`
   * code sent to the phone it bound. Name and phone must match one live sub-account; every sign-in of it
   * ends and its lockout is lifted.
   */
  async resetPasswordByPhone(input: { username: string; telephone: string; code: string; password: string }): Promise<void> {
    const codeId = await this.sms.check(input.telephone, 'reset', input.code);
    const passwordHash = await hashPassword(input.password);
    await this.db.transaction(async (tx) => {
      await this.sms.consume(tx, codeId);
      const [sub] = await tx
        .update(users)
        .set({ passwordHash, updatedAt: this.deps.now() })
        .where(
          and(eq(users.username, input.username), eq(users.telephone, input.telephone), eq(users.accountType, AccountType.SUB), isNull(users.disabledAt)),
        )
        .returning({ id: users.id, username: users.username });
      if (!sub) throw new AppError('VALIDATION', '用户名与绑定的手机号不匹配');
      await this.sessions.endAllFor(tx, sub.id);
      await clearAttempts(tx, PASSWORD_CHECKS, loginSubject(sub.username ?? input.username));
    });
  }

  /**
   * `POST /subuser/login`: counted before the password is checked (at most 5 wrong ones per name in
   * 15 minutes, whatever the concurrency), one message for every wrong credential.
   */
  async login(input: { username: string; password: string }): Promise<TokenPair> {
    const subject = loginSubject(input.username);
    const attempt = await takeAttempt(this.db, PASSWORD_CHECKS, subject, this.deps.now());
    if (!attempt.allowed) throw passwordLocked(attempt.retryAfterSeconds);
    const [sub] = await this.db
      .select({ id: users.id, passwordHash: users.passwordHash })
      .from(users)
      .where(and(eq(users.username, input.username), eq(users.accountType, AccountType.SUB), isNull(users.disabledAt)));
    const passwordOk = sub?.passwordHash ? await verifyPassword(sub.passwordHash, input.password) : (await burnPasswordCheck(input.password), false);
    if (!sub || !passwordOk) throw new AppError('LOGIN_FAILED', '用户名或密码错误');
    await giveBackAttempt(this.db, PASSWORD_CHECKS, subject, attempt);
    return this.db.transaction((tx) => this.sessions.start(tx, sub.id));
  }

  /** 充值 (main → sub) or 扣款 (sub → main): one ledger transfer between the two wallets. */
  async transfer(principal: Principal, id: number, amountFen: number, direction: 'recharge' | 'deduct'): Promise<{ balance: number }> {
    this.assertManager(principal);
    return this.db.transaction(async (tx) => {
      const sub = await this.lockSub(tx, principal, id);
      if (sub.sharedMainBalance) throw new AppError('STATE_CONFLICT', '该子账号共用主账号余额，没有独立余额，无需充值或扣款');
      const label = sub.username ?? String(sub.id);
      const toSub = direction === 'recharge' ? amountFen : -amountFen;
      try {
        await postTransaction(tx, {
          type: 'TRANSFER',
          channel: 'BALANCE',
          description: direction === 'recharge' ? `为子账号 ${label} 充值` : `从子账号 ${label} 扣款`,
          lines: [
            { wallet: principal.userId, amountFen: -toSub },
            { wallet: sub.id, amountFen: toSub },
          ],
          now: this.deps.now(),
        });
      } catch (error) {
        if (error instanceof AppError && error.codeName === 'INSUFFICIENT_BALANCE') {
          throw new AppError('INSUFFICIENT_BALANCE', direction === 'recharge' ? '主账号余额不足，请先充值' : '子账号余额不足，扣款金额不能超过其余额');
        }
        throw error;
      }
      return { balance: await walletBalance(tx, sub.id) };
    });
  }

  /**
   * Deletes a sub-account. With resources still running (unreleased instances) the caller must say
   * they go to the main account (`transferResources`); then everything it created is the main
   * account's, its own balance goes back to the main wallet, and it can never sign in again.
   */
  async remove(principal: Principal, id: number, transferResources: boolean): Promise<{ transferred: number }> {
    this.assertManager(principal);
    return this.db.transaction(async (tx) => {
      const sub = await this.lockSub(tx, principal, id);
      const [running] = await tx
        .select({ n: count() })
        .from(instances)
        .where(and(eq(instances.ownerId, principal.userId), eq(instances.creatorId, sub.id), isNull(instances.releasedAt)));
      const instanceCount = running?.n ?? 0;
      if (instanceCount > 0 && !transferResources) {
        throw new AppError('STATE_CONFLICT', `子账号还有${instanceCount}个未释放的实例，确认转移给主账号后才能删除`);
      }
      const balance = await walletBalance(tx, sub.id);
      if (balance < 0) throw new AppError('STATE_CONFLICT', `子账号欠费${formatYuan(-balance)}，请先为其充值后再删除`);
      const { transferred } = await applySubAccountDeletion(tx, sub.id, principal.userId);
      if (balance > 0) {
        await postTransaction(tx, {
          type: 'TRANSFER',
          channel: 'BALANCE',
          description: `删除子账号 ${sub.username ?? sub.id}，余额退回主账号`,
          lines: [
            { wallet: sub.id, amountFen: -balance },
            { wallet: principal.userId, amountFen: balance },
          ],
          now: this.deps.now(),
        });
      }
      const now = this.deps.now();
      // The name and the phone are freed for another account; the row stays for the history that names it.
      await tx.update(users).set({ disabledAt: now, username: null, telephone: null, updatedAt: now }).where(eq(users.id, sub.id));
      await this.sessions.endAllFor(tx, sub.id);
      return { transferred };
    });
  }

  /** What `POST /subuser/permission` accepts: each authority type offered today with its levels. */
  authorityOptions() {
    return OFFERED_AUTHORITY_TYPES.map((type) => ({
      authorityType: type,
      name: AUTHORITY_TYPE_LABELS[type],
      levels: ALLOWED_LEVELS[type].map((level) => ({ level, name: PERMISSION_LEVEL_LABELS[level] })),
    }));
  }
}

async function walletBalance(executor: Executor, accountId: number): Promise<number> {
  const [wallet] = await executor.select({ balance: wallets.balanceFen }).from(wallets).where(eq(wallets.accountId, accountId));
  return wallet?.balance ?? 0;
}
