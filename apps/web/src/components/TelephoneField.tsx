import { normalizeTelephone } from '@slg/shared';
import { normalizeTelephoneInput } from '../forms/rules';
import { FORM_TEXTS } from '../forms/texts';
import { textFieldProps, type FormApi } from '../forms/useForm';
import { Field, TextInput } from '../ui/fields';

/** `username` where the number signs in with a password; `tel-national` where it only receives codes. */
type TelephoneAutoComplete = 'username' | 'tel-national';

/** Room for a pasted `+86 138 0013 8001` or `0086 138-0013-8001`. */
const PASTED_MAX_LENGTH = 24;

/**
 * The 手机号 field (`telephone`): 11 digits after a +86 prefix. What people paste (spaces, dashes,
 * +86 / 0086, full-width digits) is turned into the 11 digits as soon as it reads as a number, and
 * again on blur, so validation and the request both see the normalised number. Its rules are the
 * form's (forms/rules.ts `telephoneRules`).
 */
export function TelephoneField<Values extends { telephone: string }>({ form, autoComplete }: { form: FormApi<Values>; autoComplete: TelephoneAutoComplete }) {
  const T = FORM_TEXTS.telephone;
  const { onValueChange, ...props } = textFieldProps(form, 'telephone');
  const setTelephone = (value: string) => onValueChange(value);
  return (
    <Field id={props.id} label={T.label} error={form.errors.telephone}>
      <TextInput
        {...props}
        size="large"
        onValueChange={(value) => setTelephone(normalizeTelephoneInput(value))}
        onBlur={(event) => {
          const normalized = normalizeTelephone(event.target.value);
          if (normalized !== event.target.value) setTelephone(normalized);
        }}
        prefix={T.prefix}
        placeholder={T.placeholder}
        maxLength={PASTED_MAX_LENGTH}
        inputMode="tel"
        autoComplete={autoComplete}
      />
    </Field>
  );
}
