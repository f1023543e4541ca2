import { claimError, isApiError } from '../api/client';

/** Maps business error codes to the form field that caused them. */
export type ServerErrorFields<Field extends string> = Partial<Record<number, Field>>;

/** What a form offers to show an error on one of its fields. */
export interface FieldErrorTarget<Field extends string> {
  setError(field: Field, message: string): void;
}

/**
 * Each error is shown once: a server error of a mapped code goes on its field and is claimed, so the
 * client leaves out its toast; any other error keeps its one toast. Call it in the promise chain of
 * the failed call (a `catch`, a mutation's `onError`), before the client's toast is due.
 * Returns whether the error was placed on a field.
 */
export function applyServerError<Field extends string>(
  form: FieldErrorTarget<Field>,
  error: unknown,
  fields: ServerErrorFields<Field>,
): boolean {
  if (!isApiError(error)) return false;
  const name = fields[error.code];
  if (!name) return false;
  form.setError(name, error.message);
  claimError(error);
  return true;
}
