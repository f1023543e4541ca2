import { normalizeTelephone } from '@slg/shared';
import { Form, Input } from 'antd';
import type { FocusEvent } from 'react';
import { normalizeTelephoneInput, telephoneRules } from '../forms/rules';
import { FORM_TEXTS } from '../forms/texts';

/** `username` where the number signs in with a password; `tel-national` where it only receives codes. */
type TelephoneAutoComplete = 'username' | 'tel-national';

/** Room for a pasted `+86 138 0013 8001` or `0086 138-0013-8001`. */
const PASTED_MAX_LENGTH = 24;

/**
 * The 手机号 field (`telephone`): 11 digits after a +86 prefix. What people paste (spaces, dashes,
 * +86 / 0086, full-width digits) is turned into the 11 digits as soon as it reads as a number, and
 * again on blur, so validation and the request both see the normalised number.
 */
export function TelephoneFormItem({ autoComplete }: { autoComplete: TelephoneAutoComplete }) {
  const T = FORM_TEXTS.telephone;
  const form = Form.useFormInstance();
  function normalizeOnBlur(event: FocusEvent<HTMLInputElement>) {
    const normalized = normalizeTelephone(event.target.value);
    if (normalized !== event.target.value) form.setFieldValue('telephone', normalized);
  }
  return (
    <Form.Item name="telephone" label={T.label} rules={telephoneRules} normalize={normalizeTelephoneInput}>
      <Input
        prefix={T.prefix}
        placeholder={T.placeholder}
        maxLength={PASTED_MAX_LENGTH}
        inputMode="tel"
        autoComplete={autoComplete}
        onBlur={normalizeOnBlur}
      />
    </Form.Item>
  );
}
