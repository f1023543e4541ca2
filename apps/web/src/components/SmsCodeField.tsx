import { lazy, Suspense } from 'react';
import { FORM_TEXTS } from '../forms/texts';
import { textFieldProps, type FormApi } from '../forms/useForm';
import type { FormSmsCode } from '../hooks/useFormSmsCode';
import { Field, TextInput } from '../ui/fields';
import { SmsCodeButton } from './SmsCodeButton';

// The human-check dialog (and the check it loads) is needed only when the server asks for it.
const HumanCheckDialog = lazy(() => import('./HumanCheckDialog').then((module) => ({ default: module.HumanCheckDialog })));

interface SmsCodeFieldProps<Values extends { code: string }> {
  form: FormApi<Values>;
  sms: FormSmsCode;
  /** Overrides `sms.sending`, e.g. while a step before sending runs. */
  sending?: boolean;
  /** Overrides sending straight to the `telephone` field. */
  onSend?: () => Promise<void>;
}

/** The 验证码 field (`code`) with its send button, and the human check a send may ask for. */
export function SmsCodeField<Values extends { code: string }>({ form, sms, sending = sms.sending, onSend = sms.sendToTelephone }: SmsCodeFieldProps<Values>) {
  const { onValueChange, ...props } = textFieldProps(form, 'code');
  return (
    <>
      <Field id={props.id} label={FORM_TEXTS.code.label} error={form.errors.code}>
        <div className="slg-input-group">
          <TextInput
            {...props}
            size="large"
            onValueChange={(value) => onValueChange(value.replace(/\D/g, ''))}
            placeholder={FORM_TEXTS.code.placeholder}
            maxLength={6}
            inputMode="numeric"
            autoComplete="one-time-code"
          />
          <SmsCodeButton remaining={sms.remaining} sending={sending} onClick={() => void onSend()} />
        </div>
      </Field>
      {sms.humanCheck.open ? (
        <Suspense fallback={null}>
          <HumanCheckDialog {...sms.humanCheck} />
        </Suspense>
      ) : null}
    </>
  );
}
