import {
  AUTHORITY_TYPE_LABELS,
  ErrorCodes,
  NICKNAME_MAX_LENGTH,
  OFFERED_AUTHORITY_TYPES,
  PASSWORD_MESSAGE,
  PASSWORD_PATTERN,
  SUB_ACCOUNT_USERNAME_MESSAGE,
  SUB_ACCOUNT_USERNAME_PATTERN,
  type PermissionMap,
} from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal, Space, Typography } from 'antd';
import { claimError, isApiError } from '../../../api/client';
import { createSubAccount, invalidateSubAccounts, type CreateSubAccountInput } from '../../../api/subAccounts';
import { toast } from '../../../api/toast';
import { BalanceModeOptions } from './BalanceModeOptions';
import { DEFAULT_PERMISSIONS, PermissionLevelPicker } from './permissions';
import { CHILD_ACCOUNT_TEXTS } from './texts';

const T = CHILD_ACCOUNT_TEXTS.createDialog;

interface CreateValues {
  username: string;
  password: string;
  confirm: string;
  nickname?: string;
  sharedMainBalance: boolean;
  permissions: PermissionMap;
}

/** 创建子账号: sign-in name, password, nickname, balance mode and the first permissions. Mounted while open. */
export function CreateSubAccountDialog({ onClose }: { onClose: () => void }) {
  const [form] = Form.useForm<CreateValues>();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: createSubAccount,
    onSuccess: (_created, input) => {
      toast.success(T.done(input.username));
      void invalidateSubAccounts(queryClient);
      onClose();
    },
    onError: (error) => {
      // A taken name belongs under the username; the limit or the network keep the client's toast.
      if (isApiError(error) && error.code === ErrorCodes.NAME_EXISTS.code) {
        claimError(error);
        form.setFields([{ name: 'username', errors: [T.usernameTaken] }]);
      }
    },
  });

  function submit(values: CreateValues) {
    const nickname = values.nickname?.trim();
    const input: CreateSubAccountInput = {
      username: values.username.trim(),
      password: values.password,
      ...(nickname ? { nickname } : {}),
      sharedMainBalance: values.sharedMainBalance,
      permissions: OFFERED_AUTHORITY_TYPES.map((authorityType) => ({ authorityType, level: values.permissions[authorityType] })),
    };
    create.mutate(input);
  }

  return (
    <Modal open title={T.title} okText={T.submit} cancelText={T.cancel} confirmLoading={create.isPending} onOk={() => form.submit()} onCancel={onClose} width={600} destroyOnHidden>
      <Form<CreateValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ sharedMainBalance: false, permissions: DEFAULT_PERMISSIONS }}
        onFinish={submit}
        className="slg-child-form"
      >
        <Form.Item
          name="username"
          label={T.username}
          extra={T.usernameExtra}
          rules={[
            { required: true, whitespace: true, message: T.usernameRequired },
            {
              validator: async (_rule, value?: string) =>
                !value?.trim() || SUB_ACCOUNT_USERNAME_PATTERN.test(value.trim()) ? undefined : Promise.reject(new Error(SUB_ACCOUNT_USERNAME_MESSAGE)),
            },
          ]}
        >
          <Input placeholder={T.usernamePlaceholder} maxLength={32} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="password"
          label={T.password}
          rules={[
            { required: true, message: T.passwordRequired },
            { pattern: PASSWORD_PATTERN, message: PASSWORD_MESSAGE },
          ]}
        >
          <Input.Password placeholder={T.passwordPlaceholder} maxLength={20} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={T.confirm}
          dependencies={['password']}
          rules={[
            { required: true, message: T.confirmRequired },
            ({ getFieldValue }) => ({
              validator: async (_rule, value?: string) => (!value || value === getFieldValue('password') ? undefined : Promise.reject(new Error(T.confirmMismatch))),
            }),
          ]}
        >
          <Input.Password placeholder={T.confirmPlaceholder} maxLength={20} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="nickname" label={T.nickname} extra={T.nicknameExtra} rules={[{ max: NICKNAME_MAX_LENGTH, message: T.nicknameExtra }]}>
          <Input placeholder={T.nicknamePlaceholder} maxLength={NICKNAME_MAX_LENGTH} autoComplete="off" />
        </Form.Item>
        <Form.Item name="sharedMainBalance" label={T.balanceMode}>
          <BalanceModeOptions />
        </Form.Item>
        <Form.Item label={T.permissions} extra={T.permissionsExtra} className="slg-child-form-permissions">
          <Space orientation="vertical" size={10} className="slg-child-permission-list">
            {OFFERED_AUTHORITY_TYPES.map((type) => (
              <div key={type} className="slg-child-permission-line">
                <Typography.Text className="slg-child-permission-label">{AUTHORITY_TYPE_LABELS[type]}</Typography.Text>
                <Form.Item name={['permissions', type]} noStyle>
                  <PermissionLevelPicker authorityType={type} />
                </Form.Item>
              </div>
            ))}
          </Space>
        </Form.Item>
      </Form>
    </Modal>
  );
}
