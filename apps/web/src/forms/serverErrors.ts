import type { FormInstance } from 'antd';
import { isApiError } from '../api/client';

/** Maps business error codes to the form field that caused them. */
export type ServerErrorFields<Field extends string> = Partial<Record<number, Field>>;

/**
 * Puts a server error on its field (the toast was already shown by the client).
 * Returns whether the error was placed on a field.
 */
export function applyServerError<Field extends string>(
  form: Pick<FormInstance, 'setFields'>,
  error: unknown,
  fields: ServerErrorFields<Field>,
): boolean {
  if (!isApiError(error)) return false;
  const name = fields[error.code];
  if (!name) return false;
  form.setFields([{ name, errors: [error.message] }]);
  return true;
}
