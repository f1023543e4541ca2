import { MAX_ELASTIC_GPUS, MAX_ELASTIC_REPLICAS, type ElasticTypeValue } from '@slg/shared';
import { Form, InputNumber } from 'antd';
import { ELASTIC_TEXTS } from '../texts';

const T = ELASTIC_TEXTS.fields;

/** GPUs per container: 1 to MAX_ELASTIC_GPUS. */
export function GpuNumField() {
  return (
    <Form.Item
      name="gpuNum"
      label={T.gpuNum}
      extra={T.gpuNumRange}
      rules={[
        { required: true, message: T.countRequired },
        { type: 'integer', min: 1, max: MAX_ELASTIC_GPUS, message: T.gpuNumRange },
      ]}
    >
      <InputNumber<number> min={1} max={MAX_ELASTIC_GPUS} precision={0} suffix={T.gpuSuffix} className="slg-elastic-count" />
    </Form.Item>
  );
}

/**
 * How many containers: a replica set's count (0 allowed when editing: every container released,
 * the deployment kept), a job's 需完成数 and 并行数; a temporary container has one.
 */
export function ReplicaFields({ type, editing = false }: { type: ElasticTypeValue; editing?: boolean }) {
  if (type === 'CONTAINER') return null;
  if (type === 'REPLICA_SET') {
    const min = editing ? 0 : 1;
    const range = editing ? T.replicaEditRange : T.replicaRange;
    return (
      <Form.Item
        name="replicaNum"
        label={T.replicaNum}
        extra={range}
        rules={[
          { required: true, message: T.countRequired },
          { type: 'integer', min, max: MAX_ELASTIC_REPLICAS, message: range },
        ]}
      >
        <InputNumber<number> min={min} max={MAX_ELASTIC_REPLICAS} precision={0} className="slg-elastic-count" />
      </Form.Item>
    );
  }
  return (
    <div className="slg-elastic-row">
      <Form.Item
        name="replicaNum"
        label={T.jobReplicaNum}
        extra={T.jobReplicaRange}
        rules={[
          { required: true, message: T.countRequired },
          { type: 'integer', min: 1, max: MAX_ELASTIC_REPLICAS, message: T.jobReplicaRange },
        ]}
      >
        <InputNumber<number> min={1} max={MAX_ELASTIC_REPLICAS} precision={0} className="slg-elastic-count" />
      </Form.Item>
      <Form.Item
        name="parallelismNum"
        label={T.parallelismNum}
        extra={T.parallelismRange}
        dependencies={['replicaNum']}
        rules={[
          { required: true, message: T.countRequired },
          { type: 'integer', min: 1, max: MAX_ELASTIC_REPLICAS, message: T.parallelismRange },
          ({ getFieldValue }) => ({
            validator: async (_rule, value: number | null | undefined) => {
              const replicas = getFieldValue('replicaNum') as number | null | undefined;
              if (typeof value === 'number' && typeof replicas === 'number' && value > replicas) throw new Error(T.parallelismTooMany);
            },
          }),
        ]}
      >
        <InputNumber<number> min={1} max={MAX_ELASTIC_REPLICAS} precision={0} className="slg-elastic-count" />
      </Form.Item>
    </div>
  );
}
