/**
 * 跨实例拷贝: copying a path of one instance's data disk to the same path on another instance of the
 * same region (docs/api-compute.md). The machines copy disk to disk; the server follows the progress,
 * and the console polls the instance's copy tasks while one runs.
 */
import type { CopyTask } from '@slg/shared/views/rental';
import { useQuery } from '@tanstack/react-query';
import { request } from './client';
import { queryKeys } from './queryKeys';

export type { CopyStatus, CopyTask } from '@slg/shared/views/rental';

export interface CopyDataBody {
  fromInstanceId: string;
  toInstanceId: string;
  path: string;
}

/** How often an instance's copies are polled while one of them runs. */
export const COPY_POLL_MS = 2_000;

/** Under the instances key, so every change to an instance refreshes it too. */
export const copyKeys = {
  tasks: (instanceId: string) => [...queryKeys.instances, 'copy-data', instanceId] as const,
};

export function startCopy(body: CopyDataBody): Promise<CopyTask> {
  return request<CopyTask>({ method: 'POST', url: '/rental/copy_data', data: body });
}

/** Stops a running copy (what was copied stays on the target); a copy that already ended is refused with 409. */
export function cancelCopy(taskId: string): Promise<CopyTask> {
  return request<CopyTask>({ method: 'DELETE', url: '/rental/copy_data', params: { taskId } });
}

/** Silent: the dialog shows a failed load in place. */
export function fetchCopyTasks(instanceId: string): Promise<CopyTask[]> {
  return request<CopyTask[]>({ url: '/rental/copy_data', params: { instanceId }, silent: true });
}

export function copyTasksPollInterval(tasks: readonly CopyTask[] | undefined): number | false {
  return tasks?.some((task) => task.status === 'running') ? COPY_POLL_MS : false;
}

/** The instance's recent copies (newest first), polled while one runs; only fetched while the dialog is open. */
export function useCopyTasksQuery(instanceId: string, enabled: boolean) {
  return useQuery({
    queryKey: copyKeys.tasks(instanceId),
    queryFn: () => fetchCopyTasks(instanceId),
    enabled,
    refetchInterval: (current) => copyTasksPollInterval(current.state.data),
  });
}
