import type { SmsCodeType } from '@slg/shared';
import { applyServerError, type ServerErrorFields } from '../forms/serverErrors';
import type { FormApi } from '../forms/useForm';
import { useSmsCode } from './useSmsCode';

/** Sends the SMS codes of a form with a `telephone` field; a failure to send goes on its field. */
export function useFormSmsCode<Values extends { telephone: string }, Field extends keyof Values & string>(
  form: FormApi<Values>,
  type: SmsCodeType,
  fields: ServerErrorFields<Field>,
) {
  const sms = useSmsCode(type);

  /** Sends to `telephone`; rejects with the error after putting it on its field. */
  async function send(telephone: string): Promise<void> {
    try {
      await sms.send(telephone);
    } catch (error) {
      applyServerError(form, error, fields);
      throw error;
    }
  }

  /** Validates the `telephone` field, then sends to it; never rejects (errors are on the fields). */
  async function sendToTelephone(): Promise<void> {
    const values = form.validate(['telephone']);
    if (!values) return;
    try {
      await send(values.telephone);
    } catch {
      // Shown on the fields already.
    }
  }

  return { remaining: sms.remaining, sending: sms.sending, send, sendToTelephone, humanCheck: sms.humanCheck };
}

export type FormSmsCode = ReturnType<typeof useFormSmsCode>;
