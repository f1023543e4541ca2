import type { Page } from '@slg/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import { Skeleton, Table, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { QueryError, StaleDataAlert } from '../../../components/QueryError';
import { COST_TEXTS } from './texts';
import { PAGE_SIZE } from './useListState';

type OwnProps = 'dataSource' | 'pagination' | 'loading' | 'locale';

export interface DataTableProps<T extends object> extends Omit<TableProps<T>, OwnProps> {
  query: UseQueryResult<Page<T>>;
  page: number;
  onPageChange: (page: number) => void;
  /** The empty state: an Empty with a call to action. */
  empty: ReactNode;
  /** Shown when the first load failed. */
  errorTitle: string;
}

/**
 * A server-paginated table (10 per page) over a `Page<T>` query with its loading (skeleton, then a
 * spinner while the next page loads), empty and error (重试) states.
 */
export function DataTable<T extends object>({ query, page, onPageChange, empty, errorTitle, ...tableProps }: DataTableProps<T>) {
  if (query.isError && !query.data) {
    return <QueryError variant="page" title={errorTitle} error={query.error} onRetry={() => void query.refetch()} />;
  }
  const data = query.data;
  return (
    <>
      {query.isError ? (
        <StaleDataAlert className="slg-cost-alert" title={COST_TEXTS.refreshFailed} error={query.error} onRetry={() => void query.refetch()} />
      ) : null}
      <Table<T>
        {...tableProps}
        dataSource={data?.list ?? []}
        // Only while another page or filter loads over the previous rows: a background refresh (a live
        // list polling, a refetch after a change) updates the rows in place without covering them.
        loading={query.isFetching && query.isPlaceholderData}
        locale={{ emptyText: query.isPending ? <Skeleton active title={false} paragraph={{ rows: 4 }} /> : empty }}
        // Compact rows leave every column room at 1440 px; on a phone the table scrolls inside itself.
        size={tableProps.size ?? 'middle'}
        scroll={tableProps.scroll ?? { x: 'max-content' }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: data?.total ?? 0,
          showSizeChanger: false,
          showTotal: COST_TEXTS.total,
          hideOnSinglePage: false,
          onChange: onPageChange,
        }}
      />
    </>
  );
}
