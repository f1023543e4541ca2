import { Form, Typography } from 'antd';
import { updatePassword } from '../../api/user';
import { toast } from '../../api/toast';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { NewPasswordFormItems } from '../../components/NewPasswordFormItems';
import { useSubmit } from '../../hooks/useSubmit';
import { LOGIN_TEXTS } from './texts';

interface SetPasswordValues {
  password: string;
  confirm: string;
}

const T = LOGIN_TEXTS.setPassword;

/** Offered after the first SMS sign-in (`other` true): set a password, or skip. */
export function SetPasswordModal({ open, onDone }: { open: boolean; onDone: () => void }) {
  const [form] = Form.useForm<SetPasswordValues>();
  const { submitting, onFinish } = useSubmit(form, { 40000: 'password' }, async (values) => {
    await updatePassword({ password: values.password });
    toast.success(T.success);
    onDone();
  });

  function confirm() {
    void form.validateFields().then(onFinish).catch(() => undefined);
  }

  return (
    <ConfirmDialog open={open} texts={{ ...T, cancel: T.skip }} loading={submitting} onConfirm={confirm} onCancel={onDone} mask={{ closable: false }}>
      <Typography.Paragraph type="secondary">{T.intro}</Typography.Paragraph>
      <Form form={form} name="set-password" layout="vertical" requiredMark={false}>
        <NewPasswordFormItems labels="password" />
      </Form>
    </ConfirmDialog>
  );
}
