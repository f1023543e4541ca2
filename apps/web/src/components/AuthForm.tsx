import type { ReactNode } from 'react';
import type { FormApi } from '../forms/useForm';
import { Button } from '../ui/Button';

interface AuthFormProps<Values extends object> {
  form: FormApi<Values>;
  onFinish: (values: Values) => void;
  submitting: boolean;
  submitText: string;
  children: ReactNode;
}

/** A form of the account pages: fields with their labels above, and the full-width submit button last. */
export function AuthForm<Values extends object>({ form, onFinish, submitting, submitText, children }: AuthFormProps<Values>) {
  return (
    <form id={form.name} className="slg-auth-form" noValidate onSubmit={form.handleSubmit(onFinish)}>
      {children}
      <div className="slg-field">
        <Button variant="primary" htmlType="submit" size="large" block loading={submitting}>
          {submitText}
        </Button>
      </div>
    </form>
  );
}
