import type { SmsCodeType } from '@slg/shared';
import type { FormInstance } from 'antd';
import { applyServerError, type ServerErrorFields } from '../forms/serverErrors';
import { useSmsCode } from './useSmsCode';

/** Sends the SMS codes of a form with a `telephone` field; a failure to send goes on its field. */
export function useFormSmsCode<Values extends { telephone: string }, Field extends string>(
  form: FormInstance<Values>,
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
    try {
      const { telephone } = await form.validateFields(['telephone']);
      await send(telephone);
    } catch {
      // Shown on the fields already.
    }
  }

  return { remaining: sms.remaining, sending: sms.sending, send, sendToTelephone, humanCheck: sms.humanCheck };
}

export type FormSmsCode = ReturnType<typeof useFormSmsCode>;
