import type { FormInstance } from 'antd';
import { useState } from 'react';
import { applyServerError, type ServerErrorFields } from '../forms/serverErrors';

/**
 * Runs `action` with the form's values while `submitting` is true; a server error of a mapped code
 * goes on its field (the client has shown the toast). `onFinish` never rejects.
 */
export function useSubmit<Values, Field extends string>(
  form: FormInstance<Values>,
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
