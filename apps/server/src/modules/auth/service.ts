import { and, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.js';
import type { Executor } from '../../db/client.js';
import { users, wallets } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import { SmsCodeService } from '../sms/service.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.js';
import { SessionService, type TokenPair } from './sessions.js';
import { clearAttempts, giveBackAttempt, takeAttempt } from '../security/attempts.js';
import { PASSWORD_CHECKS, passwordLocked, passwordSubject } from '../security/rules.js';

export class AuthService {
  private readonly sms: SmsCodeService;
  readonly sessions: SessionService;

  constructor(private readonly deps: AppDeps) {
    this.sms = new SmsCodeService(deps);
    this.sessions = new SessionService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  async isRegistered(telephone: string): Promise<boolean> {
    const [row] = await this.db.select({ id: users.id }).from(users).where(eq(users.telephone, telephone));
    return row !== undefined;
  }

  /** A new main account with its wallet (also used by the WeChat sign-up, modules/wechat). */
  async createMainAccount(
    tx: Executor,
    input: { telephone: string; passwordHash: string | null; inviteCode?: string | undefined },
  ): Promise<number> {
    const now = this.deps.now();
    const [user] = await tx
      .insert(users)
      .values({
        accountType: 1,
        telephone: input.telephone,
        passwordHash: input.passwordHash,
        nickName: `用户${input.telephone.slice(-4)}`,
        roles: this.deps.config.operatorTelephones.includes(input.telephone) ? ['operator'] : [],
        inviteCode: input.inviteCode ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: users.id });
    if (!user) throw new Error('insert users returned nothing');
    await tx.insert(wallets).values({ accountId: user.id, createdAt: now, updatedAt: now });
    return user.id;
  }

  async register(input: { telephone: string; password: string; code: string; inviteCode?: string | undefined }): Promise<TokenPair> {
    if (await this.isRegistered(input.telephone)) throw new AppError('PHONE_REGISTERED');
    const codeId = await this.sms.check(input.telephone, 'register', input.code);
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.db.transaction(async (tx) => {
        await this.sms.consume(tx, codeId);
        const userId = await this.createMainAccount(tx, { telephone: input.telephone, passwordHash, inviteCode: input.inviteCode });
        return this.sessions.start(tx, userId);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('PHONE_REGISTERED');
      throw error;
    }
  }

  /** SMS sign-in; creates the account on first use (`other` tells the console to ask for a password). */
  async signInWithCode(input: { telephone: string; code: string }): Promise<TokenPair & { other: boolean }> {
    const codeId = await this.sms.check(input.telephone, 'login', input.code);
    try {
      return await this.db.transaction(async (tx) => {
        await this.sms.consume(tx, codeId);
        const [existing] = await tx
          .select({ id: users.id, accountType: users.accountType, disabledAt: users.disabledAt })
          .from(users)
          .where(eq(users.telephone, input.telephone));
        // A sub-account's bound phone only resets its password; it signs in at 子账号登录.
        if (existing && existing.accountType !== 1) throw new AppError('FORBIDDEN', '该手机号绑定的是子账号，请在子账号登录页使用用户名登录');
        if (existing?.disabledAt) throw new AppError('FORBIDDEN', '该账号已被停用，请联系客服');
        if (existing) return { ...(await this.sessions.start(tx, existing.id)), other: false };
        const userId = await this.createMainAccount(tx, { telephone: input.telephone, passwordHash: null });
        return { ...(await this.sessions.start(tx, userId)), other: true };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('SMS_CODE_INVALID', '登录冲突，请重新获取验证码后再试');
      throw error;
    }
  }

  /**
   * Password sign-in. The check is counted before the password is verified (one statement that counts
   * and decides), so however many requests arrive at once, at most 5 wrong passwords per phone are
   * ever checked in 15 minutes; a right one gives its count back. One message for every wrong
   * credential, so it never tells whether a phone exists.
   */
  async login(input: { telephone: string; password: string }): Promise<TokenPair> {
    const subject = passwordSubject({ id: 0, telephone: input.telephone });
    const attempt = await takeAttempt(this.db, PASSWORD_CHECKS, subject, this.deps.now());
    if (!attempt.allowed) throw passwordLocked(attempt.retryAfterSeconds);
    const [user] = await this.db
      .select({ id: users.id, passwordHash: users.passwordHash, disabledAt: users.disabledAt })
      .from(users)
      .where(and(eq(users.telephone, input.telephone), eq(users.accountType, 1)));
    const passwordOk = user?.passwordHash
      ? await verifyPassword(user.passwordHash, input.password)
      : (await burnPasswordCheck(input.password), false);
    if (!user || !passwordOk) throw new AppError('LOGIN_FAILED');
    await giveBackAttempt(this.db, PASSWORD_CHECKS, subject, attempt);
    if (user.disabledAt) throw new AppError('FORBIDDEN', '该账号已被停用，请联系客服');
    return this.db.transaction((tx) => this.sessions.start(tx, user.id));
  }

  async resetForgottenPassword(input: { telephone: string; code: string; password: string }): Promise<void> {
    const codeId = await this.sms.check(input.telephone, 'reset', input.code);
    const passwordHash = await hashPassword(input.password);
    await this.db.transaction(async (tx) => {
      await this.sms.consume(tx, codeId);
      const updated = await tx
        .update(users)
        .set({ passwordHash, updatedAt: this.deps.now() })
        .where(and(eq(users.telephone, input.telephone), eq(users.accountType, 1)))
        .returning({ id: users.id });
      const [user] = updated;
      if (!user) throw new AppError('PHONE_NOT_REGISTERED');
      await this.sessions.endAllFor(tx, user.id);
      // Whoever holds the phone proved it: the lockout of wrong passwords is lifted.
      await clearAttempts(tx, PASSWORD_CHECKS, passwordSubject({ id: user.id, telephone: input.telephone }));
    });
  }
}
