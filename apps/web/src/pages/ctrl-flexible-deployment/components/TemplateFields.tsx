import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { ENV_NAME_PATTERN, MAX_ELASTIC_ENV, PROTOCOLS } from '@slg/shared';
import { Button, Form, Input, InputNumber, Select, Typography } from 'antd';
import type { ElasticStockView } from '../../../api/elastic';
import { useGpus, useZones } from '../../../api/meta';
import { cudaChoices, duplicateNames, modelStock, priceRange, zoneStock, type EnvRow, type PortRow } from '../rules';
import { ELASTIC_TEXTS } from '../texts';
import { ImageSelect, type ElasticImages } from './ImageSelect';
import { PriceCapInput } from './PriceCapInput';

const T = ELASTIC_TEXTS.fields;
/** Ports one container may publish, and the one the platform keeps for SSH (the server's rules). */
const MAX_PORTS = 5;
const SSH_PORT = 22;

/** 镜像 and, under it, the CUDA the image asks of a host. */
export function ImageField({ images, name = 'imageId' }: { images: ElasticImages; name?: string }) {
  const imageId = Form.useWatch<string | undefined>(name);
  const cuda = images.cudaOf(imageId);
  return (
    <Form.Item name={name} label={T.image} rules={[{ required: true, message: T.imageRequired }]} extra={cuda ? T.imageCudaHint(cuda) : undefined}>
      <ImageSelect images={images} />
    </Form.Item>
  );
}

/** 启动命令: a shell line, optional. */
export function CommandField() {
  return (
    <Form.Item name="cmd" label={T.cmd} extra={T.cmdHint}>
      <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} maxLength={4096} placeholder={T.cmdPlaceholder} spellCheck={false} className="slg-elastic-mono" />
    </Form.Item>
  );
}

/** 环境变量: name / value rows; names checked by the shared pattern and for duplicates. */
export function EnvFields() {
  const form = Form.useFormInstance();
  return (
    <Form.Item label={T.env} required={false}>
      <Form.List
        name="env"
        rules={[
          {
            validator: async (_rule, rows: EnvRow[] | undefined) => {
              if ((rows?.length ?? 0) > MAX_ELASTIC_ENV) throw new Error(T.envTooMany);
            },
          },
        ]}
      >
        {(fields, { add, remove }, { errors }) => (
          <div className="slg-elastic-stack">
            {fields.map((field, index) => (
              <div key={field.key} className="slg-elastic-pair">
                <Form.Item
                  name={[field.name, 'name']}
                  className="slg-elastic-pair-key"
                  validateTrigger={['onChange', 'onBlur']}
                  rules={[
                    { required: true, whitespace: true, message: T.envNameRequired },
                    { pattern: ENV_NAME_PATTERN, message: T.envNameInvalid },
                    {
                      validator: async (_rule, value: string | undefined) => {
                        const rows = (form.getFieldValue('env') as EnvRow[] | undefined) ?? [];
                        const name = value?.trim();
                        if (name && duplicateNames(rows.map((row) => row?.name)).has(name) && rows.findIndex((row) => row?.name?.trim() === name) !== index) {
                          throw new Error(T.envDuplicate);
                        }
                      },
                    },
                  ]}
                >
                  <Input aria-label={`${T.envName} ${index + 1}`} placeholder={T.envName} maxLength={64} spellCheck={false} className="slg-elastic-mono" />
                </Form.Item>
                <Form.Item name={[field.name, 'value']} className="slg-elastic-pair-value">
                  <Input aria-label={`${T.envValue} ${index + 1}`} placeholder={T.envValue} maxLength={4096} spellCheck={false} className="slg-elastic-mono" />
                </Form.Item>
                <Button type="text" icon={<DeleteOutlined />} aria-label={T.envRemove(index + 1)} onClick={() => remove(field.name)} />
              </div>
            ))}
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: '', value: '' })} disabled={fields.length >= MAX_ELASTIC_ENV} className="slg-elastic-add">
              {T.envAdd}
            </Button>
            <Form.ErrorList errors={errors} />
          </div>
        )}
      </Form.List>
    </Form.Item>
  );
}

/** 开放端口: port + protocol rows (create only). */
export function PortFields() {
  const form = Form.useFormInstance();
  return (
    <Form.Item label={T.ports} extra={T.portsHint(MAX_PORTS)}>
      <Form.List name="ports">
        {(fields, { add, remove }) => (
          <div className="slg-elastic-stack">
            {fields.map((field, index) => (
              <div key={field.key} className="slg-elastic-pair">
                <Form.Item
                  name={[field.name, 'port']}
                  className="slg-elastic-pair-key"
                  rules={[
                    { required: true, message: T.portRequired },
                    { type: 'integer', min: 1, max: 65535, message: T.portRange },
                    {
                      validator: async (_rule, value: number | null | undefined) => {
                        const rows = (form.getFieldValue('ports') as PortRow[] | undefined) ?? [];
                        if (value === SSH_PORT) throw new Error(T.portReserved);
                        if (typeof value === 'number' && rows.findIndex((row) => row?.port === value) !== index) throw new Error(T.portDuplicate);
                      },
                    },
                  ]}
                >
                  <InputNumber<number> aria-label={`${T.port} ${index + 1}`} placeholder={T.port} min={1} max={65535} precision={0} className="slg-elastic-port" />
                </Form.Item>
                <Form.Item name={[field.name, 'protocol']} className="slg-elastic-pair-value">
                  <Select aria-label={`${T.protocol} ${index + 1}`} options={PROTOCOLS.map((item) => ({ value: item.value, label: item.label }))} />
                </Form.Item>
                <Button type="text" icon={<DeleteOutlined />} aria-label={T.portRemove(index + 1)} onClick={() => remove(field.name)} />
              </div>
            ))}
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ port: null, protocol: 1 })} disabled={fields.length >= MAX_PORTS} className="slg-elastic-add">
              {T.portAdd}
            </Button>
          </div>
        )}
      </Form.List>
    </Form.Item>
  );
}

interface FilterFieldsProps {
  /** The live stock (overview.stock); undefined while it loads or when it failed. */
  stock: readonly ElasticStockView[] | undefined;
  stockFailed: boolean;
}

/** 调度条件: zones and GPU models with their free GPUs now, CUDA at least, and a price cap per GPU-hour. */
export function FilterFields({ stock, stockFailed }: FilterFieldsProps) {
  const zones = useZones();
  const gpus = useGpus();
  const zoneIds = Form.useWatch<string[] | undefined>('zoneIds') ?? [];
  const gpuModelIds = Form.useWatch<string[] | undefined>('gpuModelIds') ?? [];
  const cudaMin = Form.useWatch<string | null | undefined>('cudaMin');
  const rows = stock ?? [];
  const cudas = cudaChoices(rows);
  if (cudaMin && !cudas.includes(cudaMin)) cudas.push(cudaMin);
  const zoneOptions = (zones.data ?? []).map((zone) => {
    const sum = stock ? zoneStock(rows, zone.id, gpuModelIds) : undefined;
    return { value: zone.id, label: stock ? T.zoneOption(zone.name, sum?.free ?? null) : zone.name };
  });
  const gpuOptions = (gpus.data ?? []).map((gpu) => ({ value: gpu.id, label: stock ? T.gpuModelOption(gpu.name, modelStock(rows, gpu.id, zoneIds)) : gpu.name }));
  return (
    <>
      <Typography.Paragraph type="secondary" className="slg-elastic-note">
        {T.filtersHint}
      </Typography.Paragraph>
      {stockFailed ? (
        <Typography.Paragraph type="warning" className="slg-elastic-note">
          {T.stockFailed}
        </Typography.Paragraph>
      ) : null}
      <Form.Item name="zoneIds" label={T.zones}>
        <Select mode="multiple" aria-label={T.zones} allowClear placeholder={T.zonesPlaceholder} options={zoneOptions} loading={zones.isPending} showSearch={{ optionFilterProp: 'label' }} />
      </Form.Item>
      <Form.Item name="gpuModelIds" label={T.gpuModels}>
        <Select mode="multiple" aria-label={T.gpuModels} allowClear placeholder={T.gpuModelsPlaceholder} options={gpuOptions} loading={gpus.isPending} showSearch={{ optionFilterProp: 'label' }} />
      </Form.Item>
      <Form.Item name="cudaMin" label={T.cudaMin}>
        <Select
          aria-label={T.cudaMin}
          allowClear
          placeholder={T.cudaPlaceholder}
          options={cudas.map((cuda) => ({ value: cuda, label: T.cudaOption(cuda) }))}
          className="slg-elastic-narrow"
        />
      </Form.Item>
      <Form.Item name="priceMaxFen" label={T.priceMax}>
        <PriceCapInput range={priceRange(rows)} />
      </Form.Item>
    </>
  );
}
