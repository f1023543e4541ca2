import { ErrorCodes, SMS_RESEND_INTERVAL_SECONDS, type SmsCodeType } from '@slg/shared';
import { useCallback, useRef, useState } from 'react';
import { sendSmsCode, type SmsSendResult } from '../api/auth';
import { claimError, isApiError } from '../api/client';
import { toast } from '../api/toast';
import type { HumanCheckDialogProps } from '../components/HumanCheckDialog';
import { COMPONENT_TEXTS } from '../components/texts';
import { useCountdown } from './useCountdown';

/** Refusals that say how long to wait (Retry-After): the button counts those seconds down. */
const WAIT_CODES: ReadonlySet<number> = new Set([
  ErrorCodes.SMS_TOO_FREQUENT.code,
  ErrorCodes.SMS_DAILY_LIMIT.code,
  ErrorCodes.SMS_CLIENT_LIMIT.code,
]);

type HumanCheckState = { open: false } | { open: true; failed: boolean };

/** A send other than the open one (e.g. to the signed-in account's own phone); keep it stable. */
export type SmsSend = (telephone: string, humanCheck: string | undefined) => Promise<SmsSendResult>;

/**
 * Sends SMS codes of one type and runs the resend countdown: the server's `resendAfter` after a send,
 * the server's real seconds left when it says to wait. When the server asks for a human check, the
 * dialog opens (`humanCheck`, for HumanCheckDialog) and the send is retried with its solution.
 */
export function useSmsCode(type: SmsCodeType, sender?: SmsSend) {
  const countdown = useCountdown();
  const [sending, setSending] = useState(false);
  const [check, setCheck] = useState<HumanCheckState>({ open: false });
  const answer = useRef<((solution: string | null) => void) | null>(null);
  const { start } = countdown;

  /** Opens the dialog; resolves with the solution, or null when the person closed it. */
  const askHumanCheck = useCallback(
    (failed: boolean) =>
      new Promise<string | null>((resolve) => {
        answer.current = resolve;
        setCheck({ open: true, failed });
      }),
    [],
  );

  const settle = useCallback((solution: string | null) => {
    const resolve = answer.current;
    answer.current = null;
    setCheck({ open: false });
    resolve?.(solution);
  }, []);

  /**
   * Rejects with the ApiError so the caller can put it on the phone field; a human check the person
   * closed rejects with the (claimed, so not toasted) HUMAN_CHECK_REQUIRED error.
   */
  const send = useCallback(
    async (telephone: string): Promise<void> => {
      setSending(true);
      try {
        let solution: string | undefined;
        for (;;) {
          try {
            const result = await (sender ? sender(telephone, solution) : sendSmsCode(telephone, type, solution));
            start(result?.resendAfter ?? SMS_RESEND_INTERVAL_SECONDS);
            toast.success(COMPONENT_TEXTS.sms.sent);
            return;
          } catch (error) {
            if (!isApiError(error)) throw error;
            const refusedCheck = solution !== undefined && error.code === ErrorCodes.HUMAN_CHECK_FAILED.code;
            if (error.code === ErrorCodes.HUMAN_CHECK_REQUIRED.code || refusedCheck) {
              claimError(error);
              const next = await askHumanCheck(refusedCheck);
              if (next === null) throw error;
              solution = next;
              continue;
            }
            if (error.retryAfterSeconds !== undefined && WAIT_CODES.has(error.code)) start(error.retryAfterSeconds);
            throw error;
          }
        }
      } finally {
        setSending(false);
      }
    },
    [askHumanCheck, sender, start, type],
  );

  // Stable callbacks: the widget in the dialog is created once per challenge, not on every render.
  const cancelCheck = useCallback(() => settle(null), [settle]);
  const humanCheck: HumanCheckDialogProps = {
    open: check.open,
    failed: check.open && check.failed,
    onSolved: settle,
    onCancel: cancelCheck,
  };

  return { send, sending, remaining: countdown.remaining, waiting: countdown.running, humanCheck };
}
