import { useQuery } from '@tanstack/react-query';
import { request } from './client';
import { queryKeys } from './queryKeys';

/** GET /api/v1/account/ — balances are integer fen. */
export interface BalanceDto {
  totalBalance: number;
}

export function fetchBalance(): Promise<BalanceDto> {
  return request<BalanceDto>({ url: '/account/' });
}

export function useBalanceQuery(enabled = true) {
  return useQuery({ queryKey: queryKeys.balance, queryFn: fetchBalance, enabled });
}
