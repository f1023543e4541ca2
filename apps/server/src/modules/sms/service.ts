import { and, count, desc, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import {
  SMS_CODE_LENGTH,
  SMS_CODE_TTL_SECONDS,
  SMS_DAILY_LIMIT_PER_PHONE,
  SMS_MAX_CHECKS,
  SMS_RESEND_INTERVAL_SECONDS,
  type SmsCodeType,
} from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import type { Executor } from '../../db/client.js';
import { smsCodes } from '../../db/schema/index.js';
import { AppError } from '../../core/errors.js';
import { hmacHex, randomDigits, safeEqualHex } from '../../lib/crypto.js';
import { SmsSendError } from '../../providers/sms/provider.js';
import { takeAttempt } from '../security/attempts.js';
import { smsSendsPerClient, waitText } from '../security/rules.js';

const CHINA_OFFSET_MS = 8 * 3600 * 1000;

/** Midnight of the current day in China (UTC+8), as an instant. */
export function startOfChinaDay(now: Date): Date {
  const shifted = new Date(now.getTime() + CHINA_OFFSET_MS);
  shifted.setUTCHours(0, 0, 0, 0);
  return new Date(shifted.getTime() - CHINA_OFFSET_MS);
}

/** Who asks for a send: the client address (see TRUST_PROXY) and whether it passed a human check just now. */
export interface SmsSender {
  clientAddress: string;
  humanChecked: boolean;
}

/** Why a send needs a human check first: the client sent many codes this hour, or the phone got many today. */
export function humanCheckRequired(reason: 'client' | 'phone'): AppError {
  return new AppError(
    'HUMAN_CHECK_REQUIRED',
    reason === 'client' ? '当前网络获取验证码次数较多，请先完成人机验证' : '该手机号今日已多次获取验证码，请先完成人机验证',
  );
}

export class SmsCodeService {
  constructor(private readonly deps: AppDeps) {}

  private hash(telephone: string, type: SmsCodeType, code: string): string {
    return hmacHex(this.deps.config.jwtSecret, `${telephone}:${type}:${code}`);
  }

  /**
   * Issues a fresh code: one per phone per 60 s, ten per phone per day, SMS_SENDS_PER_CLIENT_PER_HOUR
   * per client address; past the human-check thresholds only after a passed check. Older codes of the
   * type die. Everything is decided inside one transaction under the phone's lock, and the client's
   * count is taken by one atomic statement there, so a refused or failed send counts nothing and a
   * burst cannot get past any limit.
   */
  async send(telephone: string, type: SmsCodeType, sender: SmsSender): Promise<{ expiresIn: number; resendAfter: number }> {
    const now = this.deps.now();
    const { humanCheck, smsSendsPerClientPerHour } = this.deps.config;
    const clientRule = smsSendsPerClient(smsSendsPerClientPerHour);
    // Without a check, a client may send only up to the check threshold; with one, up to the hard limit.
    const clientLimit = sender.humanChecked ? clientRule.limit : Math.min(humanCheck.afterClientSendsPerHour, clientRule.limit);
    await this.deps.database.db.transaction(async (tx) => {
      // Serialises concurrent sends to one phone so the limits cannot be raced.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms:${telephone}`}))`);
      const [latest] = await tx
        .select({ createdAt: smsCodes.createdAt })
        .from(smsCodes)
        .where(eq(smsCodes.telephone, telephone))
        .orderBy(desc(smsCodes.createdAt))
        .limit(1);
      const sinceLatestMs = latest ? now.getTime() - latest.createdAt.getTime() : Number.POSITIVE_INFINITY;
      if (sinceLatestMs < SMS_RESEND_INTERVAL_SECONDS * 1000) {
        const left = Math.max(1, Math.ceil((SMS_RESEND_INTERVAL_SECONDS * 1000 - sinceLatestMs) / 1000));
        throw new AppError('SMS_TOO_FREQUENT', `验证码发送过于频繁，请${left}秒后再试`, { retryAfterSeconds: left });
      }
      const [today] = await tx
        .select({ sent: count() })
        .from(smsCodes)
        .where(and(eq(smsCodes.telephone, telephone), gte(smsCodes.createdAt, startOfChinaDay(now))));
      const sentToday = today?.sent ?? 0;
      if (sentToday >= SMS_DAILY_LIMIT_PER_PHONE) {
        const tomorrow = startOfChinaDay(now).getTime() + 24 * 3600 * 1000;
        throw new AppError('SMS_DAILY_LIMIT', '该手机号今日验证码发送次数已达上限，请明天再试', {
          retryAfterSeconds: Math.max(1, Math.ceil((tomorrow - now.getTime()) / 1000)),
        });
      }
      if (!sender.humanChecked && sentToday >= humanCheck.afterPhoneSendsPerDay) throw humanCheckRequired('phone');
      if (clientLimit === 0) throw humanCheckRequired('client');
      const attempt = await takeAttempt(tx, clientRule, sender.clientAddress, now, clientLimit);
      if (!attempt.allowed) {
        if (attempt.count < clientRule.limit) throw humanCheckRequired('client');
        throw new AppError('SMS_CLIENT_LIMIT', `当前网络发送验证码过于频繁，请${waitText(attempt.retryAfterSeconds)}后再试`, {
          retryAfterSeconds: attempt.retryAfterSeconds,
        });
      }

      await tx
        .update(smsCodes)
        .set({ consumedAt: now })
        .where(and(eq(smsCodes.telephone, telephone), eq(smsCodes.type, type), isNull(smsCodes.consumedAt)));
      const code = randomDigits(SMS_CODE_LENGTH);
      await tx.insert(smsCodes).values({
        telephone,
        type,
        codeHash: this.hash(telephone, type, code),
        expiresAt: new Date(now.getTime() + SMS_CODE_TTL_SECONDS * 1000),
        createdAt: now,
      });
      try {
        await this.deps.sms.send({ telephone, type, code }, tx);
      } catch (error) {
        if (error instanceof SmsSendError) throw new AppError('SERVICE_UNAVAILABLE', '短信发送失败，请稍后再试');
        throw error;
      }
    });
    return { expiresIn: SMS_CODE_TTL_SECONDS, resendAfter: SMS_RESEND_INTERVAL_SECONDS };
  }

  /**
   * Checks a code without consuming it and returns its id. Every comparison is counted before it is
   * made, by one conditional update that refuses once the code's checks are used up, so however many
   * requests arrive at once, a code is compared at most SMS_MAX_CHECKS times on all paths together.
   * The count is committed at once, whatever the caller's transaction does later.
   */
  async check(telephone: string, type: SmsCodeType, code: string): Promise<number> {
    const now = this.deps.now();
    const db = this.deps.database.db;
    const [live] = await db
      .select({ id: smsCodes.id, checks: smsCodes.checks, expiresAt: smsCodes.expiresAt })
      .from(smsCodes)
      .where(and(eq(smsCodes.telephone, telephone), eq(smsCodes.type, type), isNull(smsCodes.consumedAt)))
      .orderBy(desc(smsCodes.createdAt))
      .limit(1);
    if (!live || live.expiresAt.getTime() <= now.getTime()) throw new AppError('SMS_CODE_INVALID');

    const [counted] = await db
      .update(smsCodes)
      .set({ checks: sql`${smsCodes.checks} + 1` })
      .where(and(eq(smsCodes.id, live.id), isNull(smsCodes.consumedAt), lt(smsCodes.checks, SMS_MAX_CHECKS)))
      .returning({ codeHash: smsCodes.codeHash, checks: smsCodes.checks });
    if (!counted) throw new AppError(live.checks >= SMS_MAX_CHECKS ? 'SMS_CODE_BURNED' : 'SMS_CODE_INVALID');
    if (safeEqualHex(counted.codeHash, this.hash(telephone, type, code))) {
      // A right code gives its comparison back: the budget is for wrong guesses (validate, then register).
      await db.update(smsCodes).set({ checks: sql`greatest(${smsCodes.checks} - 1, 0)` }).where(eq(smsCodes.id, live.id));
      return live.id;
    }
    if (counted.checks >= SMS_MAX_CHECKS) {
      await db.update(smsCodes).set({ consumedAt: now }).where(eq(smsCodes.id, live.id));
      throw new AppError('SMS_CODE_BURNED');
    }
    throw new AppError('SMS_CODE_INVALID');
  }

  /** Marks a checked code used inside the caller's transaction; a code can be used once, even under races. */
  async consume(executor: Executor, codeId: number): Promise<void> {
    const consumed = await executor
      .update(smsCodes)
      .set({ consumedAt: this.deps.now() })
      .where(and(eq(smsCodes.id, codeId), isNull(smsCodes.consumedAt)))
      .returning({ id: smsCodes.id });
    if (consumed.length === 0) throw new AppError('SMS_CODE_INVALID');
  }
}
