import { useMutation, useQueryClient } from '@tanstack/react-query';
import { claimError } from '../../../../api/client';
import { Button, Form, InputNumber, Modal, Radio, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import {
  mapInstancePort,
  removeInstancePort,
  updatePortProtocol,
  useInstancePortsQuery,
  type InstancePort,
  type InstanceView,
} from '../../../../api/compute';
import { queryKeys } from '../../../../api/queryKeys';
import { toast } from '../../../../api/toast';
import { ConfirmAction } from '../../../../components/ConfirmDialog';
import { QueryError } from '../../../../components/QueryError';
import { PORT_TEXTS } from './portTexts';

const T = PORT_TEXTS;
/** As the server: ports per instance, and the port SSH keeps. */
const MAX_PORTS = 5;
const SSH_PORT = 22;
const PROTOCOLS = [
  { value: 1 as const, label: 'HTTP' },
  { value: 2 as const, label: 'TCP' },
];

interface AddValues {
  port: number;
  protocol: 1 | 2;
}

/**
 * 自定义服务: the instance's exposed ports with their addresses (copy; HTTP opens), the protocol of each
 * (switching gives a new address), delete with a confirm naming the address that stops working, and a
 * form to add one. A refusal of the form shows on its port field.
 */
export function CustomServiceDialog({ instance, open, onClose }: { instance: InstanceView; open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AddValues>();
  const ports = useInstancePortsQuery(instance.instanceId, open);
  const key = [...queryKeys.instances, 'ports', instance.instanceId];
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const add = useMutation({
    mutationFn: (values: AddValues) => mapInstancePort({ instanceId: instance.instanceId, ...values }),
    onSuccess: (port) => {
      toast.success(T.add.done(port.port));
      form.resetFields(['port']);
    },
    onError: (error) => {
      if (claimError(error) && error instanceof Error) form.setFields([{ name: 'port', errors: [error.message] }]);
    },
    onSettled: () => void refresh(),
  });
  const switchProtocol = useMutation({
    mutationFn: (input: { port: number; protocol: 1 | 2 }) => updatePortProtocol({ instanceId: instance.instanceId, ...input }),
    onSuccess: (port) => toast.success(T.switched(port.port, port.protocolName)),
    onSettled: () => void refresh(),
  });

  const list = ports.data ?? [];
  const full = list.length >= MAX_PORTS;
  const columns: TableColumnsType<InstancePort> = [
    { title: T.columns.port, dataIndex: 'port', width: 90 },
    {
      title: T.columns.protocol,
      dataIndex: 'protocol',
      width: 110,
      render: (protocol: 1 | 2, port) => (
        <Select
          size="small"
          aria-label={`${T.columns.protocol} ${port.port}`}
          value={protocol}
          options={PROTOCOLS}
          disabled={switchProtocol.isPending}
          onChange={(value) => switchProtocol.mutate({ port: port.port, protocol: value })}
        />
      ),
    },
    {
      title: T.columns.address,
      dataIndex: 'address',
      render: (address: string, port) => (
        <Typography.Text copyable={{ text: address, tooltips: [T.copy, T.copied] }} className="slg-instance-mono">
          {port.protocol === 1 ? (
            <a href={address} target="_blank" rel="noreferrer">
              {address}
            </a>
          ) : (
            address
          )}
        </Typography.Text>
      ),
    },
    {
      title: T.columns.actions,
      width: 80,
      render: (_, port) => (
        <ConfirmAction
          danger
          texts={{ title: T.remove.title(port.port), confirm: T.remove.confirm, cancel: T.remove.cancel }}
          onConfirm={async () => {
            await removeInstancePort(instance.instanceId, port.port);
            toast.success(T.remove.done(port.port));
            await refresh();
          }}
          trigger={(ask) => (
            <Button type="link" danger size="small" onClick={ask}>
              {T.remove.action}
            </Button>
          )}
        >
          {T.remove.body(port.address)}
        </ConfirmAction>
      ),
    },
  ];

  return (
    <Modal open={open} title={T.title(instance.name)} onCancel={onClose} footer={<Button onClick={onClose}>{T.close}</Button>} width={760} destroyOnHidden>
      <Space direction="vertical" size="middle" className="slg-port-dialog">
        <Typography.Paragraph type="secondary">{T.intro}</Typography.Paragraph>
        {ports.isError && !ports.data ? <QueryError title={T.loadFailed} error={ports.error} onRetry={() => void ports.refetch()} /> : null}
        <Table<InstancePort>
          rowKey="port"
          size="small"
          columns={columns}
          dataSource={list}
          loading={ports.isLoading}
          pagination={false}
          scroll={{ x: 560 }}
          locale={{ emptyText: T.empty }}
        />
        <Form<AddValues>
          form={form}
          layout="inline"
          initialValues={{ protocol: 1 }}
          onFinish={(values) => add.mutate(values)}
          onValuesChange={() => form.setFields([{ name: 'port', errors: [] }])}
          className="slg-port-form"
        >
          <Form.Item
            name="port"
            label={T.add.port}
            rules={[
              { required: true, message: T.add.required },
              { type: 'integer', min: 1, max: 65535, message: T.add.range },
              { validator: (_, value: number | undefined) => (value === SSH_PORT ? Promise.reject(new Error(T.add.reserved)) : Promise.resolve()) },
            ]}
          >
            <InputNumber<number> placeholder={T.add.portPlaceholder} precision={0} controls={false} />
          </Form.Item>
          <Form.Item name="protocol" label={T.add.protocol}>
            <Radio.Group options={PROTOCOLS} optionType="button" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={add.isPending} disabled={full}>
              {T.add.submit}
            </Button>
          </Form.Item>
        </Form>
        <Typography.Text type="secondary">{T.limit(MAX_PORTS)}</Typography.Text>
      </Space>
    </Modal>
  );
}

