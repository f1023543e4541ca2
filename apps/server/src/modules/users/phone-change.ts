import { and, eq, isNull } from 'drizzle-orm';
import {
  AccountType,
  PHONE_CHANGE_EXPIRED_MESSAGE,
  PHONE_CHANGE_TICKET_TTL_SECONDS,
  PHONE_SAME_MESSAGE,
  PHONE_TAKEN_MESSAGE,
} from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import { isUniqueViolation } from '../../db/errors.js';
import { smsCodes, users } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import { text } from '../../http/fields.js';
import { hmacHex, safeEqualHex } from '../../lib/crypto.js';
import type { Principal } from '../../core/principal.js';
import { SessionService } from '../auth/sessions.js';
import { SmsCodeService } from '../sms/service.js';

/** The longest ticket the API accepts; a real one is about 150 characters. */
export const PHONE_CHANGE_TICKET_MAX_LENGTH = 512;
export const SUB_ACCOUNT_PHONE_MESSAGE = '子账号不能修改主账号的手机号';

const TICKET_PURPOSE = 'phone-change-ticket';

export const ticketField = text('原手机号验证凭证').min(1, '请先验证原手机号').max(PHONE_CHANGE_TICKET_MAX_LENGTH, PHONE_CHANGE_EXPIRED_MESSAGE);

export const phoneChangeExpired = () => new AppError('VALIDATION', PHONE_CHANGE_EXPIRED_MESSAGE);
export const phoneTaken = () => new AppError('PHONE_REGISTERED', PHONE_TAKEN_MESSAGE);
export const samePhone = () => new AppError('VALIDATION', PHONE_SAME_MESSAGE);

/** Refuses a sub-account: only the main account may move its own phone. */
export function requireMainForPhoneChange(principal: Principal): void {
  if (principal.accountType !== AccountType.MAIN) throw new AppError('FORBIDDEN', SUB_ACCOUNT_PHONE_MESSAGE);
}

interface TicketClaims {
  /** The user, and the sign-in (session) that proved the old phone: the ticket is no use anywhere else. */
  userId: number;
  sessionId: string;
  /** The old phone's code: consumed when the phone changes, which makes the ticket single-use. */
  codeId: number;
  expiresAtMs: number;
}

/**
 * A phone change in two steps. Step 1 checks the code sent to the account's own phone and hands out a
 * ticket: the claims above, signed. Nothing is stored for it — the old phone's code row is its state:
 * the change consumes that row in the same transaction that moves the phone, so a ticket works once,
 * and a fresh code to the old phone (which retires the previous one) voids older tickets.
 */
export class PhoneChangeService {
  private readonly codes: SmsCodeService;
  private readonly sessions: SessionService;

  constructor(private readonly deps: AppDeps) {
    this.codes = new SmsCodeService(deps);
    this.sessions = new SessionService(deps);
  }

  private get db() {
    return this.deps.database.db;
  }

  private sign(payload: string): string {
    return hmacHex(this.deps.config.jwtSecret, `${TICKET_PURPOSE}:${payload}`);
  }

  private issue(claims: TicketClaims): string {
    const payload = Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The claims of a genuine, unexpired ticket of this sign-in; anything else is refused the same way. */
  private claimsOf(principal: Principal, ticket: string): TicketClaims {
    const [payload, signature, extra] = ticket.split('.');
    if (!payload || !signature || extra !== undefined || !/^[0-9a-f]{64}$/.test(signature)) throw phoneChangeExpired();
    if (!safeEqualHex(signature, this.sign(payload))) throw phoneChangeExpired();
    let claims: Partial<TicketClaims>;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<TicketClaims>;
    } catch {
      throw phoneChangeExpired();
    }
    if (
      claims.userId !== principal.userId ||
      claims.sessionId !== principal.sessionId ||
      typeof claims.codeId !== 'number' ||
      !Number.isSafeInteger(claims.codeId) ||
      typeof claims.expiresAtMs !== 'number' ||
      claims.expiresAtMs <= this.deps.now().getTime()
    ) {
      throw phoneChangeExpired();
    }
    return { userId: claims.userId, sessionId: claims.sessionId, codeId: claims.codeId, expiresAtMs: claims.expiresAtMs };
  }

  /**
   * Step 1: the code sent to the account's phone (type change_phone_old). Wrong codes count against the
   * code's five comparisons like everywhere else.
   */
  async verifyOldPhone(principal: Principal, code: string): Promise<{ ticket: string; expiresIn: number }> {
    requireMainForPhoneChange(principal);
    const telephone = await this.currentTelephone(principal.userId);
    const codeId = await this.codes.check(telephone, 'change_phone_old', code);
    const ticket = this.issue({
      userId: principal.userId,
      sessionId: principal.sessionId,
      codeId,
      expiresAtMs: this.deps.now().getTime() + PHONE_CHANGE_TICKET_TTL_SECONDS * 1000,
    });
    return { ticket, expiresIn: PHONE_CHANGE_TICKET_TTL_SECONDS };
  }

  private async currentTelephone(userId: number): Promise<string> {
    const [user] = await this.db.select({ telephone: users.telephone }).from(users).where(eq(users.id, userId));
    if (!user?.telephone) throw new AppError('VALIDATION', '当前账号未绑定手机号');
    return user.telephone;
  }

  /**
   * A ticket still worth something: signed for this sign-in, unexpired, its old-phone code unused and
   * the account still on the phone that code went to. Returns that phone and the code.
   */
  async openTicket(principal: Principal, ticket: string): Promise<{ oldTelephone: string; codeId: number }> {
    requireMainForPhoneChange(principal);
    const claims = this.claimsOf(principal, ticket);
    const [row] = await this.db
      .select({ telephone: smsCodes.telephone })
      .from(smsCodes)
      .innerJoin(users, eq(users.telephone, smsCodes.telephone))
      .where(
        and(
          eq(smsCodes.id, claims.codeId),
          eq(smsCodes.type, 'change_phone_old'),
          isNull(smsCodes.consumedAt),
          eq(users.id, principal.userId),
        ),
      );
    if (!row) throw phoneChangeExpired();
    return { oldTelephone: row.telephone, codeId: claims.codeId };
  }

  /** Before a code goes to the new phone: it must differ from the old one and belong to nobody. */
  async checkNewTelephone(principal: Principal, ticket: string, telephone: string): Promise<void> {
    const { oldTelephone } = await this.openTicket(principal, ticket);
    if (telephone === oldTelephone) throw samePhone();
    const [holder] = await this.db.select({ id: users.id }).from(users).where(eq(users.telephone, telephone));
    if (holder) throw phoneTaken();
  }

  /**
   * Step 2: the new phone's code (type change_phone_new). One transaction moves the phone — a single
   * update guarded by the account still holding the old phone and by the unique index on phones —,
   * consumes both codes (the old one makes the ticket single-use) and signs out every other session.
   */
  async changePhone(principal: Principal, input: { ticket: string; telephone: string; code: string }): Promise<void> {
    const { oldTelephone, codeId: oldCodeId } = await this.openTicket(principal, input.ticket);
    if (input.telephone === oldTelephone) throw samePhone();
    const newCodeId = await this.codes.check(input.telephone, 'change_phone_new', input.code);
    try {
      await this.db.transaction(async (tx) => {
        const moved = await tx
          .update(users)
          .set({ telephone: input.telephone, updatedAt: this.deps.now() })
          .where(and(eq(users.id, principal.userId), eq(users.telephone, oldTelephone), eq(users.accountType, AccountType.MAIN)))
          .returning({ id: users.id });
        if (moved.length === 0) throw phoneChangeExpired();
        const spent = await tx
          .update(smsCodes)
          .set({ consumedAt: this.deps.now() })
          .where(and(eq(smsCodes.id, oldCodeId), isNull(smsCodes.consumedAt)))
          .returning({ id: smsCodes.id });
        if (spent.length === 0) throw phoneChangeExpired();
        await this.codes.consume(tx, newCodeId);
        await this.sessions.endAllFor(tx, principal.userId, principal.sessionId);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw phoneTaken();
      throw error;
    }
  }
}
