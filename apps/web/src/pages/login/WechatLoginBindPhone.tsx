import { useState } from 'react';
import type { PhoneLoginResult } from '../../api/auth';
import { toast } from '../../api/toast';
import { envelopeResult, registerWithWechat, type WechatBindTicket } from '../../api/wechat';
import { AuthForm } from '../../components/AuthForm';
import { SmsCodeField } from '../../components/SmsCodeField';
import { TelephoneField } from '../../components/TelephoneField';
import { applyServerError } from '../../forms/serverErrors';
import { smsCodeRules, telephoneRules } from '../../forms/rules';
import { useForm } from '../../forms/useForm';
import { useFormSmsCode } from '../../hooks/useFormSmsCode';
import { Button } from '../../ui/Button';
import { WechatOutlined } from '../../ui/icons/WechatOutlined';
import { LOGIN_TEXTS } from './texts';

interface BindPhoneValues {
  telephone: string;
  code: string;
}

const T = LOGIN_TEXTS.wechatFlow;
const SEND_FIELDS = { 40000: 'telephone', 42901: 'telephone', 42902: 'telephone' } as const;
/** Where the sign-up's refusals go: the code's on the code, the phone account's on the phone. */
const BIND_FIELDS = { 40010: 'code', 40011: 'code', 40300: 'telephone', 40901: 'telephone' } as const;

/**
 * After a sign-in by a WeChat bound to no account: a phone and its SMS code (type `login`) bind it.
 * A registered phone's account gets the WeChat; a new phone gets a new account (`other`).
 * `onExpired` when the ticket died (the person starts over with the QR code).
 */
export function WechatLoginBindPhone({
  ticket,
  onSuccess,
  onBack,
}: {
  ticket: WechatBindTicket;
  onSuccess: (result: PhoneLoginResult) => void;
  onBack: () => void;
}) {
  const form = useForm<BindPhoneValues>({
    name: 'wechat-bind-phone',
    initialValues: { telephone: '', code: '' },
    rules: { telephone: telephoneRules, code: smsCodeRules },
  });
  const sms = useFormSmsCode(form, 'login', SEND_FIELDS);
  const [submitting, setSubmitting] = useState(false);

  async function onFinish(values: BindPhoneValues) {
    setSubmitting(true);
    try {
      const envelope = await registerWithWechat({ ticket: ticket.bindTicket, telephone: values.telephone, code: values.code });
      onSuccess(envelopeResult(envelope, T.failed));
    } catch (error) {
      // The sign-up answers with its envelope (no toast of the client's): one place for each message.
      if (!applyServerError(form, error, BIND_FIELDS)) {
        const message = error instanceof Error && error.message ? error.message : T.failed;
        toast.error(message);
        if (message === T.expired) onBack();
      }
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="slg-wechat-bind">
      <p className="slg-wechat-bind-intro">
        <WechatOutlined className="slg-oauth-wechat" />
        <span>{T.bindIntro(ticket.nickname)}</span>
      </p>
      <AuthForm form={form} onFinish={(values) => void onFinish(values)} submitting={submitting} submitText={T.bindSubmit}>
        <TelephoneField form={form} autoComplete="tel-national" />
        <SmsCodeField form={form} sms={sms} />
      </AuthForm>
      <Button variant="link" block onClick={onBack}>
        {T.back}
      </Button>
    </div>
  );
}
