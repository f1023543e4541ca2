import { Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { updatePassword } from '../../api/user';
import { toast } from '../../api/toast';
import { confirmPasswordRules, newPasswordRules } from '../../forms/rules';
import { applyServerError } from '../../forms/serverErrors';
import { FORM_TEXTS } from '../../forms/texts';
import { LOGIN_TEXTS } from './texts';

interface SetPasswordValues {
  password: string;
  confirm: string;
}

/** Offered after the first SMS sign-in (`other` true): set a password, or skip. */
export function SetPasswordModal({ open, onDone }: { open: boolean; onDone: () => void }) {
  const [form] = Form.useForm<SetPasswordValues>();
  const [saving, setSaving] = useState(false);
  const T = LOGIN_TEXTS.setPassword;

  async function submit() {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await updatePassword({ password: values.password });
      toast.success(T.success);
      onDone();
    } catch (error) {
      applyServerError(form, error, { 40000: 'password' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open={open}
      title={T.title}
      okText={T.confirm}
      cancelText={T.skip}
      confirmLoading={saving}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onDone}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{T.intro}</Typography.Paragraph>
      <Form form={form} name="set-password" layout="vertical" requiredMark={false}>
        <Form.Item name="password" label={FORM_TEXTS.password.label} rules={newPasswordRules()}>
          <Input.Password placeholder={FORM_TEXTS.password.placeholder} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirm" label={FORM_TEXTS.confirmPassword.label} dependencies={['password']} rules={confirmPasswordRules('password')}>
          <Input.Password placeholder={FORM_TEXTS.confirmPassword.placeholder} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
