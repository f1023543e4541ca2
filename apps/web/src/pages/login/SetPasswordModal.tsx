import { toast } from '../../api/toast';
import { updatePassword } from '../../api/user';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { confirmPasswordRules, newPasswordRules } from '../../forms/rules';
import { useForm } from '../../forms/useForm';
import { useSubmit } from '../../hooks/useSubmit';
import { ConfirmDialog } from '../../ui/Dialog';
import { LOGIN_TEXTS } from './texts';

interface SetPasswordValues {
  password: string;
  confirm: string;
}

const T = LOGIN_TEXTS.setPassword;

/** Offered after the first SMS sign-in (`other` true): set a password, or skip. */
export function SetPasswordModal({ open, onDone }: { open: boolean; onDone: () => void }) {
  const form = useForm<SetPasswordValues>({
    name: 'set-password',
    initialValues: { password: '', confirm: '' },
    rules: { password: newPasswordRules(), confirm: confirmPasswordRules },
    dependencies: { password: ['confirm'] },
  });
  const { submitting, onFinish } = useSubmit(form, { 40000: 'password' }, async (values: SetPasswordValues) => {
    await updatePassword({ password: values.password });
    toast.success(T.success);
    onDone();
  });

  return (
    <ConfirmDialog
      open={open}
      texts={{ ...T, cancel: T.skip }}
      loading={submitting}
      onConfirm={() => form.handleSubmit(onFinish)()}
      onClose={onDone}
      maskClosable={false}
    >
      <p className="slg-muted">{T.intro}</p>
      <form id={form.name} noValidate onSubmit={form.handleSubmit(onFinish)}>
        <NewPasswordFields form={form} labels="password" size="middle" />
        {/* Enter in a field submits, like the 确认 button. */}
        <button type="submit" hidden />
      </form>
    </ConfirmDialog>
  );
}
