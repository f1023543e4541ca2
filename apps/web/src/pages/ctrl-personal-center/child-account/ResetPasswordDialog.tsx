import { PASSWORD_MESSAGE, PASSWORD_PATTERN } from '@slg/shared';
import { useMutation } from '@tanstack/react-query';
import { Form, Input, Modal, Typography } from 'antd';
import { claimError, isApiError } from '../../../api/client';
import { resetSubAccountPassword, type SubAccountView } from '../../../api/subAccounts';
import { toast } from '../../../api/toast';
import { CHILD_ACCOUNT_TEXTS } from './texts';

const T = CHILD_ACCOUNT_TEXTS.resetPassword;
const F = CHILD_ACCOUNT_TEXTS.createDialog;

/** 重置密码: the main account sets a new one; the sub-account's sign-ins end. */
export function ResetPasswordDialog({ sub, onClose }: { sub: SubAccountView; onClose: () => void }) {
  const [form] = Form.useForm<{ password: string; confirm: string }>();
  const reset = useMutation({
    mutationFn: (password: string) => resetSubAccountPassword(sub.id, password),
    onSuccess: () => {
      toast.success(T.done);
      onClose();
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 400) {
        claimError(error);
        form.setFields([{ name: 'password', errors: [error.message] }]);
      }
    },
  });
  return (
    <Modal open title={T.title(sub.username)} okText={T.submit} cancelText={T.cancel} confirmLoading={reset.isPending} onOk={() => form.submit()} onCancel={onClose} width={480} destroyOnHidden>
      <Typography.Paragraph type="secondary">{T.intro}</Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => reset.mutate(values.password)}>
        <Form.Item
          name="password"
          label={T.password}
          rules={[
            { required: true, message: F.passwordRequired },
            { pattern: PASSWORD_PATTERN, message: PASSWORD_MESSAGE },
          ]}
        >
          <Input.Password placeholder={F.passwordPlaceholder} maxLength={20} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={T.confirm}
          dependencies={['password']}
          rules={[
            { required: true, message: F.confirmRequired },
            ({ getFieldValue }) => ({
              validator: async (_rule, value?: string) => (!value || value === getFieldValue('password') ? undefined : Promise.reject(new Error(F.confirmMismatch))),
            }),
          ]}
        >
          <Input.Password placeholder={F.confirmPlaceholder} maxLength={20} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
