/**
 * API令牌: personal tokens for scripts, sent as `Authorization: Bearer slg_…`. The secret comes back
 * once, from the create call; the list has only its first characters.
 */
import { ErrorCodes, MAX_API_TOKENS, type ApiTokenStatus, type Page } from '@slg/shared';
import type { ApiTokenView, CreatedApiToken } from '@slg/shared/views/api-tokens';
import { useQuery } from '@tanstack/react-query';
import { isApiError, request } from './client';
import { queryKeys } from './queryKeys';

export type { ApiTokenView, CreatedApiToken } from '@slg/shared/views/api-tokens';

export const apiTokenKeys = {
  all: queryKeys.apiTokens,
  list: () => [...queryKeys.apiTokens, 'list'] as const,
};

/** Every token of the caller: at most MAX_API_TOKENS, so one page holds them all. */
export function fetchApiTokens(): Promise<Page<ApiTokenView>> {
  return request<Page<ApiTokenView>>({ url: '/settings/token', params: { page: 1, pageSize: MAX_API_TOKENS } });
}

export function createApiToken(name: string): Promise<CreatedApiToken> {
  return request<CreatedApiToken>({ method: 'POST', url: '/settings/token', data: { name } });
}

export function renameApiToken(id: number, name: string): Promise<ApiTokenView> {
  return request<ApiTokenView>({ method: 'PUT', url: `/settings/token/${id}`, data: { name } });
}

export function setApiTokenStatus(id: number, status: ApiTokenStatus): Promise<ApiTokenView> {
  return request<ApiTokenView>({ method: 'PATCH', url: `/settings/token/${id}/status`, data: { status } });
}

export function deleteApiToken(id: number): Promise<null> {
  return request<null>({ method: 'DELETE', url: `/settings/token/${id}` });
}

export function useApiTokensQuery() {
  // Last used moves while scripts run.
  return useQuery({ queryKey: apiTokenKeys.list(), queryFn: fetchApiTokens, refetchInterval: 60_000 });
}

/** A refusal that belongs under the name field (a duplicate name, or the name's rule); others get the client's toast. */
export function isNameRefusal(error: unknown): boolean {
  return isApiError(error) && (error.code === ErrorCodes.NAME_EXISTS.code || error.status === 400);
}
