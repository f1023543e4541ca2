import { FREE_DATA_DISK_GB } from '@slg/shared';
import { Card, Descriptions } from 'antd';
import type { ReactNode } from 'react';
import type { MarketHost } from '../../../api/compute';
import { CREATE_INSTANCE_TEXTS } from './texts';

const T = CREATE_INSTANCE_TEXTS.host;

/** What a market host offers per GPU (创建实例, 确认克隆订单): zone, GPU, free GPUs, CPU, memory, disk, CUDA. */
export function HostSummary({ host, title = T.title, extra }: { host: MarketHost; title?: ReactNode; extra?: ReactNode }) {
  return (
    <Card title={title} extra={extra} className="slg-create-card">
      <Descriptions
        column={{ xs: 1, sm: 2 }}
        size="small"
        items={[
          { key: 'name', label: T.name, children: host.hostName },
          { key: 'zone', label: T.zone, children: host.zoneName },
          { key: 'gpu', label: T.gpu, children: T.gpuValue(host.gpuModelName, host.gpuMemoryGb) },
          { key: 'free', label: T.free, children: T.freeValue(host.gpuFree, host.gpuTotal) },
          { key: 'cpu', label: T.cpu, children: T.cpuValue(host.cpuPerGpu, host.cpuModelName) },
          { key: 'memory', label: T.memory, children: T.memoryValue(host.memoryGbPerGpu) },
          { key: 'disk', label: T.disk, children: T.diskValue(FREE_DATA_DISK_GB, host.dataDiskFreeGb) },
          { key: 'cuda', label: T.cuda, children: T.cudaValue(host.cudaVersion, host.driverVersion) },
        ]}
      />
    </Card>
  );
}
