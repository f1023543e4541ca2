import { SMS_RESEND_INTERVAL_SECONDS, type SmsCodeType } from '@slg/shared';
import { useCallback, useState } from 'react';
import { sendSmsCode } from '../api/auth';
import { toast } from '../api/toast';
import { COMPONENT_TEXTS } from '../components/texts';
import { useCountdown } from './useCountdown';

/** Sends SMS codes of one type and runs the resend countdown (the server's `resendAfter`, else 60 s). */
export function useSmsCode(type: SmsCodeType) {
  const countdown = useCountdown();
  const [sending, setSending] = useState(false);
  const { start } = countdown;

  /** Rejects with the ApiError so the caller can put it on the phone field. */
  const send = useCallback(
    async (telephone: string): Promise<void> => {
      setSending(true);
      try {
        const result = await sendSmsCode(telephone, type);
        start(result?.resendAfter ?? SMS_RESEND_INTERVAL_SECONDS);
        toast.success(COMPONENT_TEXTS.sms.sent);
      } finally {
        setSending(false);
      }
    },
    [start, type],
  );

  return { send, sending, remaining: countdown.remaining, waiting: countdown.running };
}
