/**
 * 扩容设置: the data disk of an instance. 50 GB are free; above that the disk is metered per GB per day
 * (docs/api-compute.md "Data disk"), whether the instance is on or off. The server decides every size and
 * price; the console reads them here and sends the new total size.
 */
import { diskRateFenPerDay } from '@slg/shared';
import type { DiskInfo, DiskResized } from '@slg/shared/views/rental';
import { useQuery } from '@tanstack/react-query';
import { request } from './client';
import { queryKeys } from './queryKeys';

export type { DiskInfo, DiskResized } from '@slg/shared/views/rental';

export interface DiskResizeBody {
  instanceId: string;
  /** The new total size in GB. */
  sizeGb: number;
}

/** Under the instances key, so every change to an instance refreshes it too. */
export const diskKeys = {
  info: (instanceId: string) => [...queryKeys.instances, 'disk', instanceId] as const,
};

export function fetchDiskInfo(instanceId: string): Promise<DiskInfo> {
  return request<DiskInfo>({ url: '/rental/disk', params: { instanceId } });
}

export function extendDisk(body: DiskResizeBody): Promise<DiskResized> {
  return request<DiskResized>({ method: 'POST', url: '/rental/extend_disk', data: body });
}

export function shrinkDisk(body: DiskResizeBody): Promise<DiskResized> {
  return request<DiskResized>({ method: 'POST', url: '/rental/shrink_disk', data: body });
}

/** The dialog's figures; only fetched while it is open. */
export function useDiskInfoQuery(instanceId: string, enabled: boolean) {
  return useQuery({ queryKey: diskKeys.info(instanceId), queryFn: () => fetchDiskInfo(instanceId), enabled });
}

/** The largest size this instance can be given now: the host's limit, and what the host has free. */
export function largestSizeGb(info: Pick<DiskInfo, 'sizeGb' | 'maxGb' | 'hostFreeGb'>): number {
  return Math.max(info.sizeGb, Math.min(info.maxGb, info.sizeGb + info.hostFreeGb));
}

/** What a disk of `sizeGb` costs per day at the server's price (the server charges exactly this). */
export function dailyDiskFen(info: Pick<DiskInfo, 'priceFenPerGbDay'>, sizeGb: number): number {
  return diskRateFenPerDay(sizeGb, info.priceFenPerGbDay);
}
