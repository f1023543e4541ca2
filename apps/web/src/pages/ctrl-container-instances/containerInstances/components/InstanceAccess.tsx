import { ROOT_PASSWORD_MESSAGE, ROOT_PASSWORD_PATTERN } from '@slg/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Form, Input, Modal, Typography, type MenuProps } from 'antd';
import { useState } from 'react';
import { claimError, isApiError } from '../../../../api/client';
import { computeKeys, revealInstancePassword, updateInstancePassword, type InstanceView } from '../../../../api/compute';
import { toast } from '../../../../api/toast';
import { fetchTerminalAvailability, openToolsSession, terminalKeys, type ToolAddresses } from '../../../../api/terminal';
import { instanceTerminalPath } from '../../paths';
import { canDo } from '../instanceRules';
import { INSTANCE_LIST_TEXTS } from '../texts';

const T = INSTANCE_LIST_TEXTS;

interface PasswordForm {
  password: string;
  confirm: string;
}

/** 修改密码: a new root password twice, checked against the rule of @slg/shared before it is sent. */
function ChangePasswordDialog({ instance, open, onClose }: { instance: InstanceView; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<PasswordForm>();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (password: string) => updateInstancePassword(instance.instanceId, password),
    onSuccess: (_result, password) => {
      // A password on show is now the new one (the server keeps exactly what was sent).
      const key = computeKeys.rootPassword(instance.instanceId);
      if (queryClient.getQueryData(key)) queryClient.setQueryData(key, { password });
      toast.success(T.changePassword.done);
      onClose();
    },
    onError: (error) => {
      // The server's word on the password itself goes under the field; other failures keep their toast.
      if (isApiError(error) && error.status === 400) {
        claimError(error);
        form.setFields([{ name: 'password', errors: [error.message] }]);
      }
    },
  });
  return (
    <Modal
      open={open}
      title={T.changePassword.title}
      okText={T.changePassword.submit}
      cancelText={T.changePassword.cancel}
      confirmLoading={change.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{T.changePassword.intro(instance.name)}</Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => change.mutate(values.password)}>
        <Form.Item
          name="password"
          label={T.changePassword.password}
          extra={ROOT_PASSWORD_MESSAGE}
          rules={[
            { required: true, message: T.changePassword.required },
            { pattern: ROOT_PASSWORD_PATTERN, message: ROOT_PASSWORD_MESSAGE },
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={30} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={T.changePassword.confirm}
          dependencies={['password']}
          rules={[
            { required: true, message: T.changePassword.confirmRequired },
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(T.changePassword.mismatch)),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={30} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * The root password: hidden until 查看 asks the server for it; 隐藏 forgets it again. It lives in the
 * query cache, so 修改密码 replaces the one on show.
 */
function RootPassword({ instance }: { instance: InstanceView }) {
  const [shown, setShown] = useState(false);
  const [changing, setChanging] = useState(false);
  const queryClient = useQueryClient();
  const key = computeKeys.rootPassword(instance.instanceId);
  const reveal = useQuery({
    queryKey: key,
    queryFn: () => revealInstancePassword(instance.instanceId),
    enabled: shown,
    staleTime: Infinity,
    // Forgotten as soon as nothing shows it.
    gcTime: 0,
    retry: false,
  });
  const password = shown ? (reveal.data?.password ?? null) : null;
  function hide() {
    setShown(false);
    queryClient.removeQueries({ queryKey: key, exact: true });
  }
  return (
    <div className="slg-instance-access-line">
      <span className="slg-instance-access-label">{T.password.label}</span>
      {password !== null ? (
        <Typography.Text code copyable={{ text: password, tooltips: [T.copy, T.copied] }} className="slg-instance-mono">
          {password}
        </Typography.Text>
      ) : (
        <span className="slg-instance-mono" title={T.password.hiddenLabel}>
          <span aria-hidden="true">{T.password.hidden}</span>
          <span className="slg-instance-sr-only">{T.password.hiddenLabel}</span>
        </span>
      )}
      {password !== null ? (
        <Button type="link" size="small" onClick={hide}>
          {T.password.hide}
        </Button>
      ) : canDo(instance, 'reveal_pwd') ? (
        <Button
          type="link"
          size="small"
          loading={shown && reveal.isFetching}
          aria-label={T.password.revealLabel(instance.name)}
          onClick={() => (reveal.isError ? void reveal.refetch() : setShown(true))}
        >
          {T.password.reveal}
        </Button>
      ) : null}
      {canDo(instance, 'update_pwd') ? (
        <Button type="link" size="small" onClick={() => setChanging(true)}>
          {T.password.change}
        </Button>
      ) : null}
      <ChangePasswordDialog instance={instance} open={changing} onClose={() => setChanging(false)} />
    </div>
  );
}

/**
 * 快捷工具 of a running instance, each in a tab of its own: Jupyter and TensorBoard (through the
 * platform's gateway, signed in by this console session) and 终端. Where machines are simulated both items are disabled and
 * the menu says why (the server's words), so nobody looks for a shell that is not there.
 */
function ToolsMenu({ instance }: { instance: InstanceView }) {
  const availability = useQuery({ queryKey: terminalKeys.availability, queryFn: ({ signal }) => fetchTerminalAvailability(signal), staleTime: Infinity });
  const running = instance.status === 'PoweredOn' || instance.status === 'PoweredOnNoGPU';
  if (!running || !availability.data) return null;
  const { available, reason } = availability.data;
  const openTool = (address: keyof ToolAddresses) => {
    // Opened at once, inside the click, so no popup blocker stops it; it goes to the tool once the gateway let this browser in.
    const tab = window.open('about:blank', '_blank');
    openToolsSession(instance.instanceId).then(
      (addresses) => {
        if (tab) tab.location.href = addresses[address];
        else window.location.href = addresses[address];
      },
      () => tab?.close(),
    );
  };
  const items: MenuProps['items'] = [
    { key: 'jupyter', label: T.actions.jupyter, disabled: !available, onClick: () => openTool('jupyterUrl') },
    { key: 'tensorboard', label: T.actions.tensorboard, disabled: !available, onClick: () => openTool('tensorboardUrl') },
    { key: 'terminal', label: T.actions.terminal, disabled: !available, onClick: () => window.open(instanceTerminalPath(instance.instanceId), '_blank', 'noopener') },
    ...(available ? [] : [{ type: 'group' as const, key: 'why', label: <span className="slg-instance-tools-note">{reason}</span> }]),
  ];
  return (
    <div className="slg-instance-access-line">
      <Dropdown menu={{ items }} trigger={['click']}>
        <Button size="small">
          {T.actions.tools} <DownOutlined />
        </Button>
      </Dropdown>
    </div>
  );
}

/** How to log in: the SSH command (copyable, once running), the root password, and 快捷工具 (Jupyter, TensorBoard, 终端) while it runs. */
export function InstanceAccess({ instance }: { instance: InstanceView }) {
  return (
    <div className="slg-instance-access">
      <div className="slg-instance-access-line">
        <span className="slg-instance-access-label">{T.ssh.label}</span>
        {instance.sshCommand ? (
          <Typography.Text copyable={{ text: instance.sshCommand, tooltips: [T.copy, T.copied] }} className="slg-instance-mono slg-instance-ssh">
            {instance.sshCommand}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">{T.ssh.pending}</Typography.Text>
        )}
      </div>
      <RootPassword instance={instance} />
      <ToolsMenu instance={instance} />
    </div>
  );
}
