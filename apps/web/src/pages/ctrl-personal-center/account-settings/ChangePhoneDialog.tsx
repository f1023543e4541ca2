import { PHONE_CHANGE_EXPIRED_MESSAGE } from '@slg/shared';
import { Alert } from 'antd';
import { useCallback, useState } from 'react';
import { claimError, isApiError } from '../../../api/client';
import { toast } from '../../../api/toast';
import { sendNewPhoneCode, sendOldPhoneCode, updatePhone, verifyOldPhone } from '../../../api/user';
import { SmsCodeField } from '../../../components/SmsCodeField';
import { TelephoneField } from '../../../components/TelephoneField';
import { smsCodeRules, telephoneRules } from '../../../forms/rules';
import { applyServerError, type ServerErrorFields } from '../../../forms/serverErrors';
import { useForm, type FormApi } from '../../../forms/useForm';
import type { FormSmsCode } from '../../../hooks/useFormSmsCode';
import { useSmsCode, type SmsSend } from '../../../hooks/useSmsCode';
import { ConfirmDialog } from '../../../ui/Dialog';
import { ACCOUNT_SETTINGS_TEXTS } from './texts';

const T = ACCOUNT_SETTINGS_TEXTS.changePhone;

interface OldPhoneValues {
  code: string;
}

interface NewPhoneValues {
  telephone: string;
  code: string;
}

/** Refusals of a send that say what to wait for or what is wrong: next to the button that sent. */
const OLD_SEND_FIELDS: ServerErrorFields<'code'> = { 40000: 'code', 42901: 'code', 42902: 'code', 42905: 'code' };
const OLD_VERIFY_FIELDS: ServerErrorFields<'code'> = { 40000: 'code', 40010: 'code', 40011: 'code' };
const NEW_SEND_FIELDS: ServerErrorFields<'telephone'> = { 40000: 'telephone', 40900: 'telephone', 42901: 'telephone', 42902: 'telephone', 42905: 'telephone' };
const NEW_CHANGE_FIELDS: ServerErrorFields<'telephone' | 'code'> = { 40000: 'telephone', 40900: 'telephone', 40010: 'code', 40011: 'code' };

/** The send button's state for SmsCodeField, with `onSend` doing the sending. */
function smsFieldState(sms: ReturnType<typeof useSmsCode>): FormSmsCode {
  const noop = async () => undefined;
  return { remaining: sms.remaining, sending: sms.sending, send: noop, sendToTelephone: noop, humanCheck: sms.humanCheck };
}

/** Runs a send; its refusal goes on the form's field (or keeps its one toast). */
async function sendInto<Field extends string>(send: () => Promise<void>, form: { setError(field: Field, message: string): void }, fields: ServerErrorFields<Field>) {
  try {
    await send();
  } catch (error) {
    applyServerError(form, error, fields);
  }
}

function StepHeader({ index }: { index: 0 | 1 }) {
  return (
    <ol className="slg-phone-steps" aria-label={T.stepLabel(index + 1, T.steps.length)}>
      {T.steps.map((step, position) => (
        <li key={step} className={position === index ? 'slg-phone-step-current' : position < index ? 'slg-phone-step-done' : undefined} aria-current={position === index ? 'step' : undefined}>
          <span className="slg-phone-step-number">{position + 1}</span>
          {step}
        </li>
      ))}
    </ol>
  );
}

/**
 * 修改手机号 in two steps: a code to the old phone proves the person holds it (the server answers with a
 * ticket for this sign-in), then a code to the new phone and the change. When the ticket is no longer
 * good (expired, used, or a newer code went to the old phone), the dialog goes back to step 1.
 */
export function ChangePhoneDialog({ maskedTelephone, onClose, onChanged }: { maskedTelephone: string; onClose: () => void; onChanged: () => void }) {
  const [ticket, setTicket] = useState<string | null>(null);
  const [restartReason, setRestartReason] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const oldForm = useForm<OldPhoneValues>({ name: 'change-phone-old', initialValues: { code: '' }, rules: { code: smsCodeRules } });
  const newForm = useForm<NewPhoneValues>({
    name: 'change-phone-new',
    initialValues: { telephone: '', code: '' },
    rules: { telephone: telephoneRules, code: smsCodeRules },
  });

  const sendOld = useCallback<SmsSend>((_telephone, humanCheck) => sendOldPhoneCode(humanCheck), []);
  const sendNew = useCallback<SmsSend>((telephone, humanCheck) => sendNewPhoneCode(ticket ?? '', telephone, humanCheck), [ticket]);
  const oldSms = useSmsCode('change_phone_old', sendOld);
  const newSms = useSmsCode('change_phone_new', sendNew);

  /** The ticket is no good any more: back to step 1, saying why. True when that was the error. */
  function restartIfExpired(error: unknown): boolean {
    if (!isApiError(error) || error.message !== PHONE_CHANGE_EXPIRED_MESSAGE) return false;
    claimError(error);
    setTicket(null);
    setRestartReason(error.message);
    oldForm.setValue('code', '', { validate: false });
    return true;
  }

  async function verifyOld(values: OldPhoneValues) {
    setSubmitting(true);
    try {
      const verified = await verifyOldPhone(values.code);
      setRestartReason(null);
      setTicket(verified.ticket);
    } catch (error) {
      applyServerError(oldForm, error, OLD_VERIFY_FIELDS);
    } finally {
      setSubmitting(false);
    }
  }

  async function sendNewCode(form: FormApi<NewPhoneValues>) {
    const values = form.validate(['telephone']);
    if (!values) return;
    try {
      await newSms.send(values.telephone);
    } catch (error) {
      if (!restartIfExpired(error)) applyServerError(form, error, NEW_SEND_FIELDS);
    }
  }

  async function change(values: NewPhoneValues) {
    if (!ticket) return;
    setSubmitting(true);
    try {
      await updatePhone({ ticket, telephone: values.telephone, code: values.code });
      toast.success(T.done);
      onChanged();
      onClose();
    } catch (error) {
      if (!restartIfExpired(error)) applyServerError(newForm, error, NEW_CHANGE_FIELDS);
    } finally {
      setSubmitting(false);
    }
  }

  const step = ticket ? 1 : 0;
  return (
    <ConfirmDialog
      open
      texts={{ title: T.title, confirm: step === 0 ? T.next : T.confirm, cancel: T.cancel }}
      loading={submitting}
      onConfirm={() => (step === 0 ? oldForm.handleSubmit((values) => void verifyOld(values))() : newForm.handleSubmit((values) => void change(values))())}
      onClose={onClose}
      maskClosable={false}
    >
      <StepHeader index={step} />
      {step === 0 ? (
        <form id={oldForm.name} noValidate onSubmit={oldForm.handleSubmit((values) => void verifyOld(values))}>
          {restartReason ? <Alert type="warning" showIcon className="slg-phone-alert" title={restartReason} description={T.restart} /> : null}
          <p className="slg-muted">{T.sendTo(maskedTelephone)}</p>
          <SmsCodeField form={oldForm} sms={smsFieldState(oldSms)} onSend={() => sendInto(() => oldSms.send(''), oldForm, OLD_SEND_FIELDS)} />
          <button type="submit" hidden />
        </form>
      ) : (
        <form id={newForm.name} noValidate onSubmit={newForm.handleSubmit((values) => void change(values))}>
          <p className="slg-muted">{T.newPhoneIntro}</p>
          <TelephoneField form={newForm} autoComplete="tel-national" />
          <SmsCodeField form={newForm} sms={smsFieldState(newSms)} onSend={() => sendNewCode(newForm)} />
          <button type="submit" hidden />
        </form>
      )}
    </ConfirmDialog>
  );
}
