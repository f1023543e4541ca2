import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '@slg/shared';
import type { ChargingAmounts, ChargingRecord } from '@slg/shared/views/rental';
import type { FileStorageChargingRecords } from '@slg/shared/views/storage-billing';
import { request } from './client';

export type ChargingRecordState = 'all' | 'active' | 'released';

export type { ChargingAmounts } from '@slg/shared/views/rental';
/** GET /rental/charging_records: what one instance has cost so far. */
export type ChargingRecordDto = ChargingRecord;

export interface ChargingRecordQuery {
  page: number;
  pageSize: number;
  state?: ChargingRecordState | undefined;
  keyword?: string | undefined;
}

export type ChargingRecordPage = Page<ChargingRecordDto> & { totals: ChargingAmounts };

export function fetchChargingRecords(query: ChargingRecordQuery): Promise<ChargingRecordPage> {
  return request<ChargingRecordPage>({ url: '/rental/charging_records', params: { ...query } });
}

export const CHARGING_RECORDS_QUERY_KEY = ['charging-records'] as const;

/** Running instances are metered every minute: the page follows without a reload. */
const REFRESH_MS = 60_000;

export function useChargingRecords(query: ChargingRecordQuery) {
  return useQuery({
    queryKey: [...CHARGING_RECORDS_QUERY_KEY, query],
    queryFn: () => fetchChargingRecords(query),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
}

export type { FileStorageChargingRecord, FileStorageChargingRecords } from '@slg/shared/views/storage-billing';

/** GET /storage/charging_records: each region's 文件存储 with what it has cost (FILE_STORAGE authority). */
export function fetchFileStorageChargingRecords(): Promise<FileStorageChargingRecords> {
  return request<FileStorageChargingRecords>({ url: '/storage/charging_records' });
}

/** Storage is settled once a day; the page refreshes it with the instances. */
export function useFileStorageChargingRecords(enabled: boolean) {
  return useQuery({
    queryKey: [...CHARGING_RECORDS_QUERY_KEY, 'file-storage'],
    queryFn: fetchFileStorageChargingRecords,
    enabled,
    refetchInterval: REFRESH_MS,
  });
}
