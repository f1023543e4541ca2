import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { apiTokenKeys, createApiToken, isNameRefusal, type CreatedApiToken } from '../../../../api/apiTokens';
import { claimError } from '../../../../api/client';
import { SETTING_TEXTS } from '../texts';
import { TokenNameField, type TokenNameValues } from './TokenNameField';
import { UsageExample } from './UsageExample';

const T = SETTING_TEXTS.createDialog;

/**
 * 创建令牌: a name, then the secret, shown this once with a copy button and a warning that it will not
 * be shown again. Mounted while open, so the secret is gone from memory once it closes.
 */
export function CreateTokenDialog({ onClose }: { onClose: () => void }) {
  const [form] = Form.useForm<TokenNameValues>();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const create = useMutation({
    mutationFn: createApiToken,
    onSuccess: (token) => {
      setCreated(token);
      void queryClient.invalidateQueries({ queryKey: apiTokenKeys.all });
    },
    onError: (error) => {
      if (isNameRefusal(error) && error instanceof Error) {
        claimError(error);
        form.setFields([{ name: 'name', errors: [error.message] }]);
      }
      // The limit or the network is about no field: the client's toast says it.
    },
  });

  if (created) {
    return (
      <Modal
        open
        title={T.createdTitle}
        onCancel={onClose}
        mask={{ closable: false }}
        keyboard={false}
        width={640}
        footer={
          <Button type="primary" onClick={onClose}>
            {T.close}
          </Button>
        }
      >
        <Alert type="warning" showIcon className="slg-token-alert" title={T.warning} />
        <Typography.Text strong>{T.tokenLabel}</Typography.Text>
        <Typography.Paragraph
          className="slg-token-secret"
          copyable={{ text: created.token, tooltips: [T.copy, T.copied] }}
          data-testid="created-token"
        >
          <code>{created.token}</code>
        </Typography.Paragraph>
        <Typography.Text type="secondary">{T.usage}</Typography.Text>
        <UsageExample token={created.token} />
      </Modal>
    );
  }

  return (
    <Modal open title={T.title} okText={T.submit} cancelText={T.cancel} confirmLoading={create.isPending} onOk={() => form.submit()} onCancel={onClose} width={520}>
      <Form<TokenNameValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => {
          form.setFields([{ name: 'name', errors: [] }]);
          create.mutate(values.name.trim());
        }}
      >
        <TokenNameField />
      </Form>
    </Modal>
  );
}
