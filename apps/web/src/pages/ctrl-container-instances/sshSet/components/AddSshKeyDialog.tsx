import { SSH_KEY_NAME_MESSAGE, SSH_KEY_NAME_MAX, SSH_KEY_NAME_PATTERN } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal } from 'antd';
import { claimError } from '../../../../api/client';
import { addSshKey, sshKeyFieldOf, sshKeyKeys, type NewSshKey } from '../../../../api/sshKeys';
import { toast } from '../../../../api/toast';
import { SSH_SET_TEXTS } from '../texts';

const T = SSH_SET_TEXTS.dialog;

/**
 * 添加公钥: a name and the pasted .pub line; the server's refusal goes under its field, once (no toast).
 * Mounted while open, so every opening starts empty.
 */
export function AddSshKeyDialog({ onClose }: { onClose: () => void }) {
  const [form] = Form.useForm<NewSshKey>();
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: addSshKey,
    onSuccess: () => {
      toast.success(T.done);
      void queryClient.invalidateQueries({ queryKey: sshKeyKeys.all });
      onClose();
    },
    onError: (error) => {
      const field = sshKeyFieldOf(error);
      if (field && error instanceof Error) {
        claimError(error);
        form.setFields([{ name: field, errors: [error.message] }]);
      }
      // The limit or a failure to reach the server is about no field: the client's toast says it.
    },
  });

  return (
    <Modal
      open
      title={T.title}
      okText={T.submit}
      cancelText={T.cancel}
      confirmLoading={add.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={560}
    >
      <Form<NewSshKey>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => {
          // The server's word on the last try goes; a new one may be about the other field.
          form.setFields([
            { name: 'keyName', errors: [] },
            { name: 'key', errors: [] },
          ]);
          add.mutate({ keyName: values.keyName.trim(), key: values.key.trim() });
        }}
      >
        <Form.Item
          name="keyName"
          label={T.name}
          extra={T.nameExtra}
          rules={[
            { required: true, whitespace: true, message: T.nameRequired },
            { validator: async (_rule, value?: string) => (!value?.trim() || SSH_KEY_NAME_PATTERN.test(value.trim()) ? undefined : Promise.reject(new Error(SSH_KEY_NAME_MESSAGE))) },
          ]}
        >
          <Input placeholder={T.namePlaceholder} maxLength={SSH_KEY_NAME_MAX} autoComplete="off" />
        </Form.Item>
        <Form.Item name="key" label={T.key} extra={T.keyExtra} rules={[{ required: true, whitespace: true, message: T.keyRequired }]}>
          <Input.TextArea className="slg-ssh-key-input" placeholder={T.keyPlaceholder} autoSize={{ minRows: 4, maxRows: 10 }} spellCheck={false} autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
