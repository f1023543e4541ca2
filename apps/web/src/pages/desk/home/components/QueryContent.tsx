import type { ReactNode } from 'react';
import { Button } from '../../../../ui/Button';
import { ExclamationCircleOutlined } from '../../../../ui/icons/ExclamationCircleOutlined';
import { ReloadOutlined } from '../../../../ui/icons/ReloadOutlined';
import type { UseQueryResult } from '@tanstack/react-query';
import { HOME_TEXTS } from '../texts';
import { gridClass, type CardGrid } from './layout';

export interface QueryContentProps<T> {
  query: UseQueryResult<T[]>;
  /** Title of the error state, e.g. "GPU 型号加载失败". */
  errorTitle: string;
  /** Text of the empty state. */
  emptyText: string;
  /** Grid of the placeholder cards (same as the real cards). */
  grid?: CardGrid;
  skeletonCount?: number;
  children: (items: T[]) => ReactNode;
}

/** Renders a list query with its loading (placeholder cards), error (with 重试) and empty states. */
export default function QueryContent<T>({ query, errorTitle, emptyText, grid, skeletonCount = 4, children }: QueryContentProps<T>) {
  if (query.isPending) {
    return (
      <div className={gridClass(grid)} aria-busy="true">
        {Array.from({ length: skeletonCount }, (_, index) => (
          <div key={index} className="slg-home-card" aria-hidden="true">
            <span className="slg-home-skeleton-line" />
            <span className="slg-home-skeleton-line" />
            <span className="slg-home-skeleton-line" />
            <span className="slg-home-skeleton-line" />
          </div>
        ))}
      </div>
    );
  }

  if (query.isError) {
    return (
      <div className="slg-home-state" role="alert">
        <ExclamationCircleOutlined className="slg-home-state-icon" aria-hidden />
        <p className="slg-home-state-title">{errorTitle}</p>
        <p className="slg-home-muted">{query.error.message || HOME_TEXTS.state.errorFallback}</p>
        <Button icon={<ReloadOutlined />} loading={query.isFetching} onClick={() => void query.refetch()}>
          {HOME_TEXTS.state.retry}
        </Button>
      </div>
    );
  }

  if (query.data.length === 0) {
    return <p className="slg-home-state">{emptyText}</p>;
  }

  return <>{children(query.data)}</>;
}
