import { Button, Card, Typography } from 'antd';
import { useState } from 'react';
import { toast } from '../../../api/toast';
import { changeSubAccountPassword } from '../../../api/user';
import { NewPasswordFields } from '../../../components/NewPasswordFields';
import { confirmPasswordRules, newPasswordRules } from '../../../forms/rules';
import type { ServerErrorFields } from '../../../forms/serverErrors';
import { textFieldProps, useForm } from '../../../forms/useForm';
import { useSubmit } from '../../../hooks/useSubmit';
import { Field, PasswordInput } from '../../../ui/fields';
import { CHILD_ACCOUNT_INFO_TEXTS } from './texts';

const T = CHILD_ACCOUNT_INFO_TEXTS.password;

interface PasswordValues {
  oldPassword: string;
  password: string;
  confirm: string;
}

/**
 * The server answers a wrong old password with 40000 原密码不正确 (the new one is checked here with the
 * same rule first) and the lockout after too many with 42903: both belong to 原密码.
 */
const FIELDS: ServerErrorFields<keyof PasswordValues> = { 40000: 'oldPassword', 40021: 'oldPassword', 42903: 'oldPassword' };

function PasswordForm({ onChanged }: { onChanged: () => void }) {
  const form = useForm<PasswordValues>({
    name: 'sub-account-password',
    initialValues: { oldPassword: '', password: '', confirm: '' },
    rules: {
      oldPassword: [{ required: true, message: T.oldRequired }],
      password: newPasswordRules(),
      confirm: confirmPasswordRules,
    },
    dependencies: { password: ['confirm'] },
  });
  const { submitting, onFinish } = useSubmit(form, FIELDS, async (values: PasswordValues) => {
    await changeSubAccountPassword({ oldPassword: values.oldPassword, password: values.password });
    toast.success(T.success);
    onChanged();
  });
  const oldProps = textFieldProps(form, 'oldPassword');

  return (
    <form id={form.name} className="slg-child-password-form" noValidate onSubmit={form.handleSubmit((values) => void onFinish(values))}>
      <Field id={oldProps.id} label={T.oldLabel} error={form.errors.oldPassword}>
        <PasswordInput {...oldProps} placeholder={T.oldPlaceholder} autoComplete="current-password" />
      </Field>
      <NewPasswordFields form={form} labels="newPassword" size="middle" />
      <Button type="primary" htmlType="submit" loading={submitting}>
        {T.submit}
      </Button>
    </form>
  );
}

/** 修改密码 with the old one; a success empties the form (a fresh one replaces it). */
export function PasswordCard() {
  const [generation, setGeneration] = useState(0);
  return (
    <Card title={T.title} className="slg-child-card slg-child-area-password">
      <Typography.Paragraph type="secondary">{T.hint}</Typography.Paragraph>
      <PasswordForm key={generation} onChanged={() => setGeneration((value) => value + 1)} />
    </Card>
  );
}
