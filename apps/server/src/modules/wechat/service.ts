import { and, eq, gt, inArray, isNull, lt } from 'drizzle-orm';
import { AccountType, NICKNAME_MAX_LENGTH } from '@slg/shared';
import type { WechatBinding, WechatLoginResult } from '@slg/shared/views/account';
import type { AppDeps } from '../../deps.js';
import type { Executor } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { oauthIdentities, oauthStates, users } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { OAuthError, type OAuthProvider } from '../../providers/oauth/provider.js';
import type { Principal } from '../../core/principal.js';
import type { AuthService } from '../auth/service.js';
import type { TokenPair } from '../auth/sessions.js';
import { SmsCodeService } from '../sms/service.js';

/** How long a `state` handed out for the WeChat page stays usable, and a ticket after an unbound sign-in. */
export const WECHAT_STATE_TTL_SECONDS = 600;
export const WECHAT_TICKET_TTL_SECONDS = 600;

/** Where WeChat sends the browser back (the console pages that finish the flow). */
export const WECHAT_LOGIN_PAGE = '/login';
export const WECHAT_BIND_PAGE = '/ctrl-personal-center/personal-center/account-settings';

export const WECHAT_MESSAGES = {
  expired: '授权已过期，请重新扫码',
  closed: '微信登录暂未开放，请使用手机号登录',
  disabled: '该账号已被停用，请联系客服',
  subAccount: '子账号不能绑定微信，请使用主账号操作',
  subAccountPhone: '该手机号绑定的是子账号，请换一个手机号',
  identityTaken: '该微信已绑定其他账号',
  accountTaken: '该账号已绑定微信，请先解绑',
  notBound: '当前账号未绑定微信',
  conflict: '操作冲突，请重试',
} as const;

const PROVIDER = 'wechat';
/** Rows of spent or dead states are kept a day (for support), then removed a batch at a time. */
const STATE_KEEP_MS = 24 * 3600 * 1000;
const PRUNE_BATCH = 100;

export type WechatPurpose = 'login' | 'bind';
type StatePurpose = 'LOGIN' | 'BIND' | 'REGISTER';

/** The answers' shapes: the schemas in packages/shared (views/account), which the console reads too. */
export type { WechatBinding, WechatLoginResult };

/** The identity a spent state or ticket leads to. */
interface WechatIdentity {
  subject: string;
  nickname: string;
}

const expired = () => new AppError('VALIDATION', WECHAT_MESSAGES.expired);

/**
 * A console path to return to after signing in: same site, never another origin (the console's
 * `postLoginTarget` applies the same rule when it reads it back).
 */
export function isConsolePath(path: string): boolean {
  const printable = Array.from(path).every((char) => {
    const point = char.codePointAt(0) ?? 0;
    return point > 0x20 && point !== 0x7f;
  });
  return printable && path.startsWith('/') && !path.startsWith('//') && !path.includes('\\');
}

/**
 * WeChat sign-in and binding through the provider's OAuth page. Every `state` and ticket is random
 * (256 bits), stored by its SHA-256 hash in oauth_states, and spent by one conditional update
 * (unspent, unexpired, of the right purpose and user), so it works exactly once however many requests
 * bring it. Which account an identity belongs to is decided by the unique indexes of oauth_identities.
 */
export class WechatService {
  private readonly sms: SmsCodeService;

  constructor(
    private readonly deps: AppDeps,
    private readonly auth: AuthService,
    private readonly provider: OAuthProvider | null,
    /** Told of every provider failure (the route logs it: a wrong secret is the operator's to fix). */
    private readonly onProviderError: (error: OAuthError) => void = () => undefined,
  ) {
    this.sms = new SmsCodeService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  private ready(): OAuthProvider {
    if (!this.provider) throw new AppError('SERVICE_UNAVAILABLE', WECHAT_MESSAGES.closed);
    return this.provider;
  }

  private redirectUri(purpose: WechatPurpose, redirect: string | undefined): string {
    const { publicUrl } = this.deps.config;
    if (purpose === 'bind') return `${publicUrl}${WECHAT_BIND_PAGE}?wechat=1`;
    const back = redirect && isConsolePath(redirect) ? `&redirect=${encodeURIComponent(redirect)}` : '';
    return `${publicUrl}${WECHAT_LOGIN_PAGE}?wechat=1${back}`;
  }

  /** The WeChat page to send the browser to, and the state it will come back with. */
  async authorize(purpose: WechatPurpose, principal: Principal | null, redirect?: string): Promise<{ url: string; state: string; expiresIn: number }> {
    const provider = this.ready();
    if (purpose === 'bind') {
      if (!principal) throw new AppError('UNAUTHORIZED');
      if (principal.accountType !== AccountType.MAIN) throw new AppError('FORBIDDEN', WECHAT_MESSAGES.subAccount);
    }
    const now = this.deps.now();
    const state = randomToken(32);
    await this.db.insert(oauthStates).values({
      keyHash: sha256Hex(state),
      purpose: purpose === 'bind' ? 'BIND' : 'LOGIN',
      provider: PROVIDER,
      userId: purpose === 'bind' && principal ? principal.userId : null,
      expiresAt: new Date(now.getTime() + WECHAT_STATE_TTL_SECONDS * 1000),
      createdAt: now,
    });
    await this.prune(now);
    return { url: provider.authorizeUrl(state, this.redirectUri(purpose, redirect)), state, expiresIn: WECHAT_STATE_TTL_SECONDS };
  }

  /** Removes a batch of states and tickets that died more than a day ago. */
  private async prune(now: Date): Promise<void> {
    const cutoff = new Date(now.getTime() - STATE_KEEP_MS);
    const dead = this.db.select({ keyHash: oauthStates.keyHash }).from(oauthStates).where(lt(oauthStates.expiresAt, cutoff)).limit(PRUNE_BATCH);
    await this.db.delete(oauthStates).where(inArray(oauthStates.keyHash, dead));
  }

  /**
   * Spends a state or ticket: the one statement that decides. Null when it is unknown, spent, expired,
   * of another purpose, or (BIND) of another user.
   */
  private async spend(executor: Executor, key: string, purpose: StatePurpose, userId?: number): Promise<{ subject: string | null; nickname: string | null } | null> {
    const now = this.deps.now();
    const [row] = await executor
      .update(oauthStates)
      .set({ consumedAt: now })
      .where(
        and(
          eq(oauthStates.keyHash, sha256Hex(key)),
          eq(oauthStates.purpose, purpose),
          eq(oauthStates.provider, PROVIDER),
          isNull(oauthStates.consumedAt),
          gt(oauthStates.expiresAt, now),
          ...(userId === undefined ? [] : [eq(oauthStates.userId, userId)]),
        ),
      )
      .returning({ subject: oauthStates.subject, nickname: oauthStates.nickname });
    return row ?? null;
  }

  /** The provider's answer for a code, its failures as the user's messages. */
  private async exchange(code: string): Promise<WechatIdentity> {
    try {
      const profile = await this.ready().exchangeCode(code);
      return { subject: profile.subject, nickname: profile.nickname };
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      this.onProviderError(error);
      throw new AppError(error.reason === 'CODE_INVALID' ? 'VALIDATION' : 'SERVICE_UNAVAILABLE', error.message);
    }
  }

  /**
   * `POST /auth/login/wechat?state`: spends the LOGIN state, exchanges the code; a bound, enabled
   * account is signed in, an unknown identity gets a ticket to bind a phone with (register()).
   */
  async login(state: string, code: string): Promise<WechatLoginResult> {
    this.ready();
    if (!(await this.spend(this.db, state, 'LOGIN'))) throw expired();
    const identity = await this.exchange(code);
    const [bound] = await this.db
      .select({ userId: oauthIdentities.userId, disabledAt: users.disabledAt })
      .from(oauthIdentities)
      .innerJoin(users, eq(users.id, oauthIdentities.userId))
      .where(and(eq(oauthIdentities.provider, PROVIDER), eq(oauthIdentities.subject, identity.subject)));
    if (bound) {
      if (bound.disabledAt) throw new AppError('FORBIDDEN', WECHAT_MESSAGES.disabled);
      return this.db.transaction(async (tx) => {
        await tx
          .update(oauthIdentities)
          .set({ nickname: identity.nickname })
          .where(and(eq(oauthIdentities.provider, PROVIDER), eq(oauthIdentities.subject, identity.subject)));
        return this.auth.sessions.start(tx, bound.userId);
      });
    }
    const now = this.deps.now();
    const ticket = randomToken(32);
    await this.db.insert(oauthStates).values({
      keyHash: sha256Hex(ticket),
      purpose: 'REGISTER',
      provider: PROVIDER,
      subject: identity.subject,
      nickname: identity.nickname,
      expiresAt: new Date(now.getTime() + WECHAT_TICKET_TTL_SECONDS * 1000),
      createdAt: now,
    });
    return { bindTicket: ticket, nickname: identity.nickname, expiresIn: WECHAT_TICKET_TTL_SECONDS };
  }

  /**
   * Binds the identity to the account inside the caller's transaction. The unique indexes decide: one
   * account per identity, one WeChat per account. Binding what is already bound here changes nothing.
   */
  private async link(tx: Executor, userId: number, identity: WechatIdentity): Promise<Date> {
    const now = this.deps.now();
    const [inserted] = await tx
      .insert(oauthIdentities)
      .values({ provider: PROVIDER, subject: identity.subject, userId, nickname: identity.nickname, createdAt: now })
      .onConflictDoNothing()
      .returning({ createdAt: oauthIdentities.createdAt });
    if (inserted) return inserted.createdAt;
    const [owner] = await tx
      .select({ userId: oauthIdentities.userId, createdAt: oauthIdentities.createdAt })
      .from(oauthIdentities)
      .where(and(eq(oauthIdentities.provider, PROVIDER), eq(oauthIdentities.subject, identity.subject)));
    if (owner?.userId === userId) return owner.createdAt;
    throw new AppError('STATE_CONFLICT', owner ? WECHAT_MESSAGES.identityTaken : WECHAT_MESSAGES.accountTaken);
  }

  /**
   * `POST /auth/register/wechat`: a ticket from login() and a phone proven by its SMS code (type
   * `login`). The phone's main account, or a new one (`other: true`, like the SMS sign-in), gets the
   * identity and is signed in; the ticket and the code are spent only when all of it commits.
   */
  async register(input: { ticket: string; telephone: string; code: string }): Promise<TokenPair & { other: boolean }> {
    const now = this.deps.now();
    // A dead ticket is said before the SMS code is checked (and costs none of its checks).
    const [live] = await this.db
      .select({ keyHash: oauthStates.keyHash })
      .from(oauthStates)
      .where(
        and(
          eq(oauthStates.keyHash, sha256Hex(input.ticket)),
          eq(oauthStates.purpose, 'REGISTER'),
          isNull(oauthStates.consumedAt),
          gt(oauthStates.expiresAt, now),
        ),
      );
    if (!live) throw expired();
    const codeId = await this.sms.check(input.telephone, 'login', input.code);
    try {
      return await this.db.transaction(async (tx) => {
        const ticket = await this.spend(tx, input.ticket, 'REGISTER');
        if (!ticket?.subject) throw expired();
        await this.sms.consume(tx, codeId);
        const [existing] = await tx
          .select({ id: users.id, accountType: users.accountType, disabledAt: users.disabledAt })
          .from(users)
          .where(eq(users.telephone, input.telephone));
        if (existing && existing.accountType !== AccountType.MAIN) throw new AppError('FORBIDDEN', WECHAT_MESSAGES.subAccountPhone);
        if (existing?.disabledAt) throw new AppError('FORBIDDEN', WECHAT_MESSAGES.disabled);
        const userId = existing?.id ?? (await this.auth.createMainAccount(tx, { telephone: input.telephone, passwordHash: null }));
        // A new account is called by its WeChat nickname (an existing one keeps its own).
        const wechatNickname = [...(ticket.nickname ?? '').trim()].slice(0, NICKNAME_MAX_LENGTH).join('');
        if (!existing && wechatNickname) await tx.update(users).set({ nickName: wechatNickname }).where(eq(users.id, userId));
        await this.link(tx, userId, { subject: ticket.subject, nickname: ticket.nickname ?? '' });
        return { ...(await this.auth.sessions.start(tx, userId)), other: !existing };
      });
    } catch (error) {
      // The same phone registered by another request at this very moment: nothing was spent, try again.
      if (isUniqueViolation(error)) throw new AppError('STATE_CONFLICT', WECHAT_MESSAGES.conflict);
      throw error;
    }
  }

  /**
   * `POST /user/wechat_bind`: binds to the signed-in main account either the identity of a BIND state
   * of this user and WeChat's code, or (the spec's `openId` parameter) the identity behind a ticket
   * that login() handed out — never an openid the client names.
   */
  async bind(principal: Principal, input: { state: string; code: string } | { ticket: string }): Promise<WechatBinding> {
    if (principal.accountType !== AccountType.MAIN) throw new AppError('FORBIDDEN', WECHAT_MESSAGES.subAccount);
    let boundAt: Date;
    let nickname: string;
    if ('state' in input) {
      this.ready();
      if (!(await this.spend(this.db, input.state, 'BIND', principal.userId))) throw expired();
      const identity = await this.exchange(input.code);
      nickname = identity.nickname;
      boundAt = await this.db.transaction((tx) => this.link(tx, principal.userId, identity));
    } else {
      const linked = await this.db.transaction(async (tx) => {
        const ticket = await this.spend(tx, input.ticket, 'REGISTER');
        if (!ticket?.subject) throw expired();
        const identity = { subject: ticket.subject, nickname: ticket.nickname ?? '' };
        return { identity, at: await this.link(tx, principal.userId, identity) };
      });
      nickname = linked.identity.nickname;
      boundAt = linked.at;
    }
    return { bound: true, nickname, boundAt: boundAt.toISOString() };
  }

  /** `DELETE /user/wechat_bind`: the WeChat can no longer sign in to this account. */
  async unbind(principal: Principal): Promise<void> {
    const removed = await this.db
      .delete(oauthIdentities)
      .where(and(eq(oauthIdentities.provider, PROVIDER), eq(oauthIdentities.userId, principal.userId)))
      .returning({ id: oauthIdentities.id });
    if (removed.length === 0) throw new AppError('VALIDATION', WECHAT_MESSAGES.notBound);
  }

  /** `GET /user/wechat_bind`: whether a WeChat is bound, with its nickname. */
  async binding(principal: Principal): Promise<WechatBinding> {
    const [row] = await this.db
      .select({ nickname: oauthIdentities.nickname, createdAt: oauthIdentities.createdAt })
      .from(oauthIdentities)
      .where(and(eq(oauthIdentities.provider, PROVIDER), eq(oauthIdentities.userId, principal.userId)));
    return row ? { bound: true, nickname: row.nickname, boundAt: row.createdAt.toISOString() } : { bound: false, nickname: null, boundAt: null };
  }
}
