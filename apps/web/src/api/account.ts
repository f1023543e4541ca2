import type { Balance as BalanceDto } from '@slg/shared/views/account';
import { useQuery } from '@tanstack/react-query';
import { request } from './client';
import { queryKeys } from './queryKeys';

/** GET /api/v1/account/ — balances are integer fen. */
export type { Balance as BalanceDto } from '@slg/shared/views/account';

export function fetchBalance(): Promise<BalanceDto> {
  return request<BalanceDto>({ url: '/account/' });
}

export function useBalanceQuery(enabled = true) {
  return useQuery({ queryKey: queryKeys.balance, queryFn: fetchBalance, enabled });
}
