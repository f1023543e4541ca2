import { Form } from 'antd';
import { smsCodeRules } from '../forms/rules';
import { FORM_TEXTS } from '../forms/texts';
import type { FormSmsCode } from '../hooks/useFormSmsCode';
import { HumanCheckDialog } from './HumanCheckDialog';
import { SmsCodeInput } from './SmsCodeInput';

interface SmsCodeFormItemProps {
  sms: FormSmsCode;
  /** Overrides `sms.sending`, e.g. while a step before sending runs. */
  sending?: boolean;
  /** Overrides sending straight to the `telephone` field. */
  onSend?: () => Promise<void>;
}

/** The 验证码 field (`code`) with its send button, and the human check a send may ask for. */
export function SmsCodeFormItem({ sms, sending = sms.sending, onSend = sms.sendToTelephone }: SmsCodeFormItemProps) {
  return (
    <>
      <Form.Item name="code" label={FORM_TEXTS.code.label} rules={smsCodeRules}>
        <SmsCodeInput remaining={sms.remaining} sending={sending} onSend={() => void onSend()} />
      </Form.Item>
      <HumanCheckDialog {...sms.humanCheck} />
    </>
  );
}
