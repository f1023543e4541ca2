/** Stock alerts (到货提醒, `/subscriptions`): be told once, by a console notice and an SMS, when GPUs are free. */
import type { Page, StockAlertStatus } from '@slg/shared';
import type { StockAlertView as StockAlert } from '@slg/shared/views/stock-alerts';
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { request } from './client';
import { queryKeys } from './queryKeys';

export type { StockAlertView as StockAlert } from '@slg/shared/views/stock-alerts';

export interface StockAlertInput {
  zoneId: string;
  gpuModelId: string;
  gpuNum: number;
}

export interface StockAlertQuery {
  page: number;
  pageSize: number;
  status?: StockAlertStatus;
}

export const stockAlertKeys = {
  all: queryKeys.stockAlerts,
  list: (query: StockAlertQuery) => [...queryKeys.stockAlerts, 'list', query] as const,
} as const;

/** A waiting alert fires within about 30 s of the GPUs coming free: lists showing status refresh this often. */
export const STOCK_ALERTS_REFRESH_MS = 30_000;

/** Silent: the list shows its own load error, and a failing refresh must not toast. */
export function fetchStockAlerts(query: StockAlertQuery): Promise<Page<StockAlert>> {
  return request<Page<StockAlert>>({ url: '/subscriptions', params: { ...query }, silent: true });
}

/** A refusal (已订阅, the cap, a zone without the model…) is shown in the dialog, which claims it. */
export function createStockAlert(input: StockAlertInput): Promise<StockAlert> {
  return request<StockAlert>({ method: 'POST', url: '/subscriptions', data: input });
}

export function deleteStockAlert(id: number): Promise<null> {
  return request<null>({ method: 'DELETE', url: '/subscriptions', params: { id } });
}

export function invalidateStockAlerts(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.stockAlerts });
}

export function useStockAlertsQuery(query: StockAlertQuery, enabled = true) {
  return useQuery({
    queryKey: stockAlertKeys.list(query),
    queryFn: () => fetchStockAlerts(query),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: STOCK_ALERTS_REFRESH_MS,
  });
}
