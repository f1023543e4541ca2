import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Modal } from 'antd';
import { apiTokenKeys, isNameRefusal, renameApiToken, type ApiTokenView } from '../../../../api/apiTokens';
import { claimError } from '../../../../api/client';
import { toast } from '../../../../api/toast';
import { SETTING_TEXTS } from '../texts';
import { TokenNameField, type TokenNameValues } from './TokenNameField';

const T = SETTING_TEXTS.tokens.rename;

/** 重命名: the name field starting from the current name; a duplicate (40026) shows under it. */
export function RenameTokenDialog({ token, onClose }: { token: ApiTokenView; onClose: () => void }) {
  const [form] = Form.useForm<TokenNameValues>();
  const queryClient = useQueryClient();
  const rename = useMutation({
    mutationFn: (name: string) => renameApiToken(token.id, name),
    onSuccess: () => {
      toast.success(T.done);
      void queryClient.invalidateQueries({ queryKey: apiTokenKeys.all });
      onClose();
    },
    onError: (error) => {
      if (isNameRefusal(error) && error instanceof Error) {
        claimError(error);
        form.setFields([{ name: 'name', errors: [error.message] }]);
      }
    },
  });

  return (
    <Modal open title={T.title} okText={T.submit} cancelText={T.cancel} confirmLoading={rename.isPending} onOk={() => form.submit()} onCancel={onClose} width={520}>
      <Form<TokenNameValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: token.name }}
        onFinish={(values) => {
          form.setFields([{ name: 'name', errors: [] }]);
          const name = values.name.trim();
          if (name === token.name) onClose();
          else rename.mutate(name);
        }}
      >
        <TokenNameField />
      </Form>
    </Modal>
  );
}
