import { useCallback, useMemo, useRef, useState, type FormEvent } from 'react';

/**
 * A field rule: required, a pattern, or a check that returns the message of what is wrong (null when
 * the value is fine). Rules run in order and the first failure is the field's error, as in antd.
 */
export type FieldRule<Values> =
  | { required: true; message: string }
  | { pattern: RegExp; message: string }
  | { validate: (value: unknown, values: Values) => string | null };

export type FieldName<Values> = keyof Values & string;

export interface FormOptions<Values> {
  /** Names the form: field ids are `<name>_<field>`, their messages `<name>_<field>_help`. */
  name: string;
  initialValues: Values;
  rules?: Partial<Record<FieldName<Values>, FieldRule<Values>[]>>;
  /** Fields checked again when another one changes (e.g. 确认密码 when 密码 changes). */
  dependencies?: Partial<Record<FieldName<Values>, FieldName<Values>[]>>;
}

type Errors<Values> = Partial<Record<FieldName<Values>, string>>;

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || value === false;
}

function firstError<Values>(rules: FieldRule<Values>[] | undefined, value: unknown, values: Values): string | null {
  for (const rule of rules ?? []) {
    if ('required' in rule) {
      if (isEmpty(value)) return rule.message;
    } else if ('pattern' in rule) {
      // Like antd: a pattern judges only a value that is there; `required` speaks for an empty one.
      if (typeof value === 'string' && value !== '' && !rule.pattern.test(value)) return rule.message;
    } else {
      const message = rule.validate(value, values);
      if (message) return message;
    }
  }
  return null;
}

/**
 * The state of a small form: values, per-field errors, validation when a field changes and on submit,
 * and errors the server gives a field. The account pages use it instead of antd's Form, which brings
 * rc-field-form, async-validator, the grid and the tooltip with it.
 */
export function useForm<Values extends object>({ name, initialValues, rules, dependencies }: FormOptions<Values>) {
  const [values, setValues] = useState<Values>(initialValues);
  const [errors, setErrors] = useState<Errors<Values>>({});
  // The latest values between renders: a submit right after a change validates what was typed.
  const latest = useRef(values);
  const options = useRef({ rules, dependencies });
  options.current = { rules, dependencies };

  const setError = useCallback((field: FieldName<Values>, message: string | null) => {
    setErrors((current) => {
      if ((current[field] ?? null) === message) return current;
      const next = { ...current };
      if (message) next[field] = message;
      else delete next[field];
      return next;
    });
  }, []);

  const check = useCallback(
    (field: FieldName<Values>): string | null => {
      const message = firstError(options.current.rules?.[field], latest.current[field], latest.current);
      setError(field, message);
      return message;
    },
    [setError],
  );

  const setValue = useCallback(
    <Field extends FieldName<Values>>(field: Field, value: Values[Field], { validate = true }: { validate?: boolean } = {}) => {
      latest.current = { ...latest.current, [field]: value };
      setValues(latest.current);
      if (!validate) return;
      check(field);
      for (const dependent of options.current.dependencies?.[field] ?? []) {
        if (!isEmpty(latest.current[dependent])) check(dependent);
      }
    },
    [check],
  );

  /** Checks the fields (all when none are named); the values when they are all fine, else null. */
  const validate = useCallback(
    (fields?: FieldName<Values>[]): Values | null => {
      const names = fields ?? (Object.keys(latest.current) as FieldName<Values>[]);
      let valid = true;
      for (const field of names) if (check(field)) valid = false;
      return valid ? latest.current : null;
    },
    [check],
  );

  const fieldId = useCallback((field: FieldName<Values>) => `${name}_${field}`, [name]);

  /** A submit handler: validates everything, then runs `onValid`; focuses the first wrong field. */
  const handleSubmit = useCallback(
    (onValid: (values: Values) => void) => (event?: FormEvent) => {
      event?.preventDefault();
      const valid = validate();
      if (valid) {
        onValid(valid);
        return;
      }
      const firstInvalid = (Object.keys(latest.current) as FieldName<Values>[]).find(
        (field) => firstError(options.current.rules?.[field], latest.current[field], latest.current) !== null,
      );
      if (firstInvalid && typeof document !== 'undefined') document.getElementById(`${name}_${firstInvalid}`)?.focus();
    },
    [name, validate],
  );

  return useMemo(
    () => ({ name, values, errors, setValue, setError, validate, fieldId, handleSubmit }),
    [name, values, errors, setValue, setError, validate, fieldId, handleSubmit],
  );
}

export type FormApi<Values extends object> = ReturnType<typeof useForm<Values>>;

/** What a text input needs from the form for one field: id, value, change handler and error wiring. */
export function textFieldProps<Values extends object>(form: FormApi<Values>, field: FieldName<Values>) {
  const id = form.fieldId(field);
  const error = form.errors[field];
  return {
    id,
    name: field,
    value: String(form.values[field] ?? ''),
    onValueChange: (value: string) => form.setValue(field, value as Values[typeof field]),
    invalid: Boolean(error),
    describedBy: `${id}_help`,
  };
}
