/**
 * The caller's 弹性部署 figures (总览, and the create page's live stock). Apart from api/elastic.ts so
 * that the overview page loads these few lines, not the whole elastic API.
 */
import type { ElasticOverview } from '@slg/shared/views/elastic';
import { useQuery } from '@tanstack/react-query';
import { request } from './client';
import { queryKeys } from './queryKeys';

export type { ElasticOverview, ElasticStockView } from '@slg/shared/views/elastic';

/** Under the elastic key: whatever invalidates the deployments refreshes the overview too. */
export const ELASTIC_OVERVIEW_KEY = [...queryKeys.elastic, 'overview'] as const;

/** The overview (and the stock it carries) refreshes this often. */
export const ELASTIC_OVERVIEW_POLL_MS = 10_000;

/** Silent: the overview card and the create page show a failure in place. */
export function fetchElasticOverview(): Promise<ElasticOverview> {
  return request<ElasticOverview>({ method: 'POST', url: '/elastic/overview', silent: true });
}

export function useElasticOverviewQuery(enabled = true) {
  return useQuery({ queryKey: ELASTIC_OVERVIEW_KEY, queryFn: fetchElasticOverview, enabled, refetchInterval: ELASTIC_OVERVIEW_POLL_MS });
}
