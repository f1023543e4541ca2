import { Form, Input } from 'antd';
import { telephoneRules } from '../forms/rules';
import { FORM_TEXTS } from '../forms/texts';

/** `username` where the number signs in with a password; `tel-national` where it only receives codes. */
type TelephoneAutoComplete = 'username' | 'tel-national';

/** The 手机号 field (`telephone`): 11 digits after a +86 prefix. */
export function TelephoneFormItem({ autoComplete }: { autoComplete: TelephoneAutoComplete }) {
  const T = FORM_TEXTS.telephone;
  return (
    <Form.Item name="telephone" label={T.label} rules={telephoneRules}>
      <Input prefix={T.prefix} placeholder={T.placeholder} maxLength={11} inputMode="tel" autoComplete={autoComplete} />
    </Form.Item>
  );
}
