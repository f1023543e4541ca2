import type { Page } from '@slg/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import { Pagination, Skeleton, Table, type TableColumnsType } from 'antd';
import type { Key, ReactNode } from 'react';
import { QueryError, StaleDataAlert } from '../../../components/QueryError';
import { PAGE_SIZE } from '../../ctrl-cost-center/shared/useListState';

interface ElasticListBodyProps<T> {
  query: UseQueryResult<Page<T>>;
  phone: boolean;
  columns: TableColumnsType<T>;
  rowKey: (item: T) => Key;
  /** How one item shows on a phone (cards instead of the table). */
  card: (item: T) => ReactNode;
  empty: ReactNode;
  texts: { loadFailed: string; refreshFailed: string; total: (total: number) => string };
  page: number;
  onPage: (page: number) => void;
}

/**
 * The body of a 弹性部署 list: the failed first load, a stale-data warning, the table (cards on a
 * phone) with its loading and empty states, and the pagination.
 */
export function ElasticListBody<T extends object>({ query, phone, columns, rowKey, card, empty, texts, page, onPage }: ElasticListBodyProps<T>) {
  const data = query.data;
  if (query.isError && !data) return <QueryError variant="page" title={texts.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  let content: ReactNode;
  if (phone) {
    content = query.isPending ? (
      <Skeleton active paragraph={{ rows: 6 }} />
    ) : data && data.list.length > 0 ? (
      <div className="slg-elastic-cards">{data.list.map((item) => <div key={rowKey(item)}>{card(item)}</div>)}</div>
    ) : (
      empty
    );
  } else {
    content = (
      <Table<T>
        rowKey={rowKey}
        size="middle"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={query.isFetching && query.isPlaceholderData}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: query.isPending ? <Skeleton active title={false} paragraph={{ rows: 4 }} /> : empty }}
      />
    );
  }
  return (
    <>
      {query.isError && data ? <StaleDataAlert className="slg-elastic-alert" title={texts.refreshFailed} error={query.error} onRetry={() => void query.refetch()} /> : null}
      {content}
      {data && data.total > 0 ? (
        <Pagination
          className="slg-elastic-pagination"
          current={page}
          pageSize={PAGE_SIZE}
          total={data.total}
          showSizeChanger={false}
          showTotal={texts.total}
          size={phone ? 'small' : undefined}
          onChange={onPage}
        />
      ) : null}
    </>
  );
}
