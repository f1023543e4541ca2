/**
 * The caller's instance counts and running cost (总览). Apart from api/compute.ts so that the overview
 * page loads these few lines, not the whole instance API.
 */
import type { InstanceSummary } from '@slg/shared/views/rental';
import { useQuery } from '@tanstack/react-query';
import { request } from './client';
import { queryKeys } from './queryKeys';

export type { InstanceSummary } from '@slg/shared/views/rental';

/** Under the instances key: whatever invalidates the instances refreshes the summary too. */
export const INSTANCE_SUMMARY_KEY = [...queryKeys.instances, 'summary'] as const;

/**
 * The summary and a quiet instance list refresh this often (a platform power-off for arrears shows
 * within this time); the list polls faster while an instance changes state (api/compute.ts).
 */
export const INSTANCES_SLOW_POLL_MS = 15_000;

export function fetchInstanceSummary(): Promise<InstanceSummary> {
  return request<InstanceSummary>({ url: '/rental/summary', silent: true });
}

export function useInstanceSummaryQuery(enabled = true) {
  return useQuery({ queryKey: INSTANCE_SUMMARY_KEY, queryFn: fetchInstanceSummary, enabled, refetchInterval: INSTANCES_SLOW_POLL_MS });
}
