import { Button, Form, type FormInstance } from 'antd';
import type { ReactNode } from 'react';

interface AuthFormProps<Values> {
  form: FormInstance<Values>;
  name: string;
  onFinish: (values: Values) => void;
  submitting: boolean;
  submitText: string;
  children: ReactNode;
}

/** A form of the account pages: vertical, large, no required marks, with its full-width submit button last. */
export function AuthForm<Values>({ form, name, onFinish, submitting, submitText, children }: AuthFormProps<Values>) {
  return (
    <Form form={form} name={name} layout="vertical" requiredMark={false} onFinish={onFinish} size="large">
      {children}
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {submitText}
        </Button>
      </Form.Item>
    </Form>
  );
}
