/**
 * 子账号: a main account's team members (spec §7 Sub-accounts). Only a signed-in main account manages
 * them; balances and amounts are integer fen.
 */
import type { AuthorityType, Page, PermissionLevel } from '@slg/shared';
import type { CreatedSubAccount, SubAccountBalance, SubAccountRemoved, SubAccountView } from '@slg/shared/views/sub-accounts';
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { request } from './client';
import { queryKeys } from './queryKeys';

export type { CreatedSubAccount, SubAccountBalance, SubAccountRemoved, SubAccountView } from '@slg/shared/views/sub-accounts';

export interface PermissionGrant {
  authorityType: AuthorityType;
  level: PermissionLevel;
}

export interface CreateSubAccountInput {
  username: string;
  password: string;
  nickname?: string;
  sharedMainBalance: boolean;
  permissions: PermissionGrant[];
}

export type TransferDirection = 'recharge' | 'deduct';

export const subAccountKeys = {
  all: queryKeys.subAccounts,
  list: (page: number, pageSize: number) => [...queryKeys.subAccounts, 'list', page, pageSize] as const,
  detail: (id: number) => [...queryKeys.subAccounts, 'detail', id] as const,
};

// The pages show a failed load in place (子账号不存在, 重试), so the reads have no toast.
export function fetchSubAccounts(page: number, pageSize: number): Promise<Page<SubAccountView>> {
  return request<Page<SubAccountView>>({ url: '/subuser/list', params: { page, pageSize }, silent: true });
}

export function fetchSubAccount(id: number): Promise<SubAccountView> {
  return request<SubAccountView>({ url: `/subuser/detail/${id}`, silent: true });
}

export function createSubAccount(input: CreateSubAccountInput): Promise<CreatedSubAccount> {
  return request<CreatedSubAccount>({ method: 'POST', url: '/subuser/create', data: input });
}

/** Types not named keep their level. */
export function setSubAccountPermissions(id: number, permissions: PermissionGrant[]): Promise<SubAccountView> {
  return request<SubAccountView>({ method: 'POST', url: '/subuser/permission', data: { id, permissions } });
}

export function updateSubAccount(id: number, changes: { nickname?: string; sharedMainBalance?: boolean }): Promise<SubAccountView> {
  return request<SubAccountView>({ method: 'POST', url: '/subuser/update', data: { id, ...changes } });
}

/** The main account sets a new password; the sub-account's sign-ins end. */
export function resetSubAccountPassword(id: number, password: string): Promise<null> {
  return request<null>({ method: 'POST', url: '/subuser/password/change', data: { id, password } });
}

/** recharge: main → sub; deduct: sub → main. Resolves with the sub-account's new balance. */
export function transferSubAccountBalance(id: number, amount: number, direction: TransferDirection): Promise<SubAccountBalance> {
  return request<SubAccountBalance>({ method: 'POST', url: `/subuser/${direction}`, data: { id, amount } });
}

/** `transferResources` is required while it has unreleased instances (else 409). */
export function deleteSubAccount(id: number, transferResources: boolean): Promise<SubAccountRemoved> {
  return request<SubAccountRemoved>({
    method: 'DELETE',
    url: `/subuser/delete/${id}`,
    params: transferResources ? { transferResources: 'true' } : undefined,
  });
}

export function useSubAccountsQuery(page: number, pageSize: number, enabled = true) {
  return useQuery({ queryKey: subAccountKeys.list(page, pageSize), queryFn: () => fetchSubAccounts(page, pageSize), placeholderData: keepPreviousData, enabled });
}

export function useSubAccountQuery(id: number | null) {
  return useQuery({ queryKey: subAccountKeys.detail(id ?? 0), queryFn: () => fetchSubAccount(id ?? 0), enabled: id !== null });
}

export function invalidateSubAccounts(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: subAccountKeys.all });
}
