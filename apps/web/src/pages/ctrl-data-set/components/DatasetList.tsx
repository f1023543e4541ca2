import type { Page } from '@slg/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import { Pagination, Skeleton } from 'antd';
import { useEffect, type ReactNode } from 'react';
import type { DatasetView } from '../../../api/datasets';
import { QueryError, StaleDataAlert } from '../../../components/QueryError';

interface DatasetListProps {
  query: UseQueryResult<Page<DatasetView>>;
  /** The accessible name of the list. */
  label: string;
  texts: { loadFailed: string; refreshFailed: string; total: (total: number) => string };
  empty: ReactNode;
  card: (dataset: DatasetView) => ReactNode;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  phone: boolean;
}

/** A page of datasets as cards: the failed first load, a stale-data warning, loading, empty, and the pagination. */
export function DatasetList({ query, label, texts, empty, card, page, pageSize, onPage, phone }: DatasetListProps) {
  const data = query.data;
  // A page past the end (the last item of the last page was deleted or unfavourited): the last page instead.
  const lastPage = data ? Math.max(1, Math.ceil(data.total / pageSize)) : 1;
  const pastEnd = data !== undefined && !query.isPlaceholderData && data.list.length === 0 && page > lastPage;
  useEffect(() => {
    if (pastEnd) onPage(lastPage);
  }, [pastEnd, lastPage, onPage]);
  if (query.isError && !data) return <QueryError variant="page" title={texts.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  let content: ReactNode;
  if (query.isPending) content = <Skeleton active paragraph={{ rows: 6 }} />;
  else if (!data || data.list.length === 0) content = empty;
  else {
    content = (
      <ul className="slg-ds-grid" aria-label={label} aria-busy={query.isPlaceholderData && query.isFetching}>
        {data.list.map((dataset) => (
          <li key={dataset.id}>{card(dataset)}</li>
        ))}
      </ul>
    );
  }
  return (
    <div className="slg-ds-list">
      {query.isError && data ? <StaleDataAlert title={texts.refreshFailed} error={query.error} onRetry={() => void query.refetch()} /> : null}
      {content}
      {data && data.total > 0 ? (
        <Pagination
          className="slg-ds-pagination"
          current={page}
          pageSize={pageSize}
          total={data.total}
          showSizeChanger={false}
          showTotal={texts.total}
          size={phone ? 'small' : undefined}
          onChange={onPage}
        />
      ) : null}
    </div>
  );
}
