import { toast } from '../../../api/toast';
import { updatePassword } from '../../../api/user';
import { NewPasswordFields } from '../../../components/NewPasswordFields';
import { confirmPasswordRules, newPasswordRules } from '../../../forms/rules';
import type { ServerErrorFields } from '../../../forms/serverErrors';
import { textFieldProps, useForm } from '../../../forms/useForm';
import { useSubmit } from '../../../hooks/useSubmit';
import { ConfirmDialog } from '../../../ui/Dialog';
import { Field, PasswordInput } from '../../../ui/fields';
import { ACCOUNT_SETTINGS_TEXTS } from './texts';

const T = ACCOUNT_SETTINGS_TEXTS.changePassword;

interface PasswordValues {
  oldPassword: string;
  password: string;
  confirm: string;
}

/** 原密码错误 and the lockout of wrong passwords go on 原密码; a refused new password on 新密码. */
const FIELDS: ServerErrorFields<keyof PasswordValues> = { 40021: 'oldPassword', 42903: 'oldPassword', 40000: 'password' };

/**
 * 修改密码 with the old password, or 设置密码 for an account created by SMS that has none yet. The
 * server keeps this sign-in and signs out the others.
 */
export function PasswordDialog({ hasPassword, onClose, onChanged }: { hasPassword: boolean; onClose: () => void; onChanged: () => void }) {
  const form = useForm<PasswordValues>({
    name: 'change-password',
    initialValues: { oldPassword: '', password: '', confirm: '' },
    rules: {
      ...(hasPassword ? { oldPassword: [{ required: true, message: T.oldPassword.required }] } : {}),
      password: newPasswordRules(),
      confirm: confirmPasswordRules,
    },
    dependencies: { password: ['confirm'] },
  });
  const { submitting, onFinish } = useSubmit(form, FIELDS, async (values: PasswordValues) => {
    await updatePassword(hasPassword ? { oldPassword: values.oldPassword, password: values.password } : { password: values.password });
    toast.success(hasPassword ? T.changed : T.created);
    onChanged();
    onClose();
  });
  const oldProps = textFieldProps(form, 'oldPassword');

  return (
    <ConfirmDialog
      open
      texts={{ title: hasPassword ? T.title : T.createTitle, confirm: hasPassword ? T.confirm : T.create, cancel: T.cancel }}
      loading={submitting}
      onConfirm={() => form.handleSubmit((values) => void onFinish(values))()}
      onClose={onClose}
      maskClosable={false}
    >
      <form id={form.name} noValidate onSubmit={form.handleSubmit((values) => void onFinish(values))}>
        {hasPassword ? (
          <Field id={oldProps.id} label={T.oldPassword.label} error={form.errors.oldPassword}>
            <PasswordInput {...oldProps} placeholder={T.oldPassword.placeholder} autoComplete="current-password" />
          </Field>
        ) : (
          <p className="slg-muted">{T.createIntro}</p>
        )}
        <NewPasswordFields form={form} labels={hasPassword ? 'newPassword' : 'password'} size="middle" />
        <button type="submit" hidden />
      </form>
    </ConfirmDialog>
  );
}
