import { DEFAULT_PAGE_SIZE } from '@slg/shared';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export const PAGE_SIZE = DEFAULT_PAGE_SIZE;

export type ListFilters<K extends string> = Partial<Record<K, string>>;

export interface ListState<K extends string> {
  page: number;
  filters: ListFilters<K>;
  /** Sets filters (an empty string or undefined removes one) and goes back to page 1. */
  setFilters: (next: ListFilters<K>) => void;
  setPage: (page: number) => void;
  reset: () => void;
}

function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/**
 * Page and filters of a list kept in the URL query (`?page=2&status=PAID`), so that going back from
 * a detail page, reloading or sharing the link shows the same list. Other query keys are kept.
 */
export function useListState<K extends string>(keys: readonly K[]): ListState<K> {
  const [params, setParams] = useSearchParams();
  const keyList = keys.join('|');

  const filters = useMemo(() => {
    const result: ListFilters<K> = {};
    for (const key of keyList.split('|') as K[]) {
      const value = params.get(key);
      if (value) result[key] = value;
    }
    return result;
  }, [params, keyList]);

  const page = parsePage(params.get('page'));

  const setFilters = useCallback(
    (next: ListFilters<K>) => {
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          for (const [key, value] of Object.entries(next) as [K, string | undefined][]) {
            if (value) updated.set(key, value);
            else updated.delete(key);
          }
          updated.delete('page');
          return updated;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  const setPage = useCallback(
    (nextPage: number) => {
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (nextPage > 1) updated.set('page', String(nextPage));
          else updated.delete('page');
          return updated;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  const reset = useCallback(() => {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        for (const key of keyList.split('|')) updated.delete(key);
        updated.delete('page');
        return updated;
      },
      { replace: true },
    );
  }, [setParams, keyList]);

  return { page, filters, setFilters, setPage, reset };
}
