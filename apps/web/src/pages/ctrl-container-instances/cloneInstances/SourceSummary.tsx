import { PACKAGE_LABELS } from '@slg/shared';
import { Card, Descriptions } from 'antd';
import type { ReactNode } from 'react';
import type { InstanceView } from '../../../api/compute';
import { formatDateTime } from '../../../components/DateTime';
import { InstanceStatus } from '../containerInstances/components/InstanceStatus';
import { packageOf } from '../containerInstances/instanceRules';
import { CLONE_PAGE_TEXTS } from './texts';

const T = CLONE_PAGE_TEXTS.source;

export function billingNameOf(instance: InstanceView): string {
  const plan = packageOf(instance);
  return plan ? `${PACKAGE_LABELS[plan]}（到期 ${formatDateTime(instance.expiresAt ?? '')}）` : T.usage;
}

/** 源实例: what the clone is made from — region, host, GPUs, image, data disk — and its status. */
export function SourceSummary({ instance, title = T.title }: { instance: InstanceView; title?: ReactNode }) {
  return (
    <Card title={title} className="slg-create-card">
      <Descriptions
        column={{ xs: 1, sm: 2 }}
        size="small"
        items={[
          {
            key: 'instance',
            label: T.instance,
            children: (
              <span className="slg-clone-source-name">
                <span>
                  {instance.name}（{instance.instanceId}）
                </span>
                <InstanceStatus instance={instance} />
              </span>
            ),
          },
          { key: 'zone', label: T.zone, children: instance.zoneName },
          { key: 'host', label: T.host, children: instance.hostName },
          { key: 'gpu', label: T.gpu, children: T.gpuValue(instance.gpuModelName, instance.gpuNum) },
          { key: 'image', label: T.image, children: instance.imageName },
          { key: 'disk', label: T.dataDisk, children: T.dataDiskValue(instance.dataDiskGb) },
          { key: 'billing', label: T.billing, children: billingNameOf(instance) },
        ]}
      />
    </Card>
  );
}
