import { useState } from 'react';
import { applyServerError, type FieldErrorTarget, type ServerErrorFields } from '../forms/serverErrors';

/**
 * Runs `action` with the form's values while `submitting` is true; a server error of a mapped code
 * goes on its field (any other keeps the client's toast). `onFinish` never rejects.
 */
export function useSubmit<Values, Field extends string>(
  form: FieldErrorTarget<Field>,
  fields: ServerErrorFields<Field>,
  action: (values: Values) => Promise<void>,
) {
  const [submitting, setSubmitting] = useState(false);

  async function onFinish(values: Values): Promise<void> {
    setSubmitting(true);
    try {
      await action(values);
    } catch (error) {
      applyServerError(form, error, fields);
    } finally {
      setSubmitting(false);
    }
  }

  return { submitting, onFinish };
}
