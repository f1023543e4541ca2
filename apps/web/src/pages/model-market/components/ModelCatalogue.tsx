import { Card, Empty, Input, Pagination, Segmented, Skeleton } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useModelsQuery, type ModelType } from '../../../api/models';
import { QueryError, StaleDataAlert } from '../../../components/QueryError';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { PAGE_SIZE, useListState } from '../../ctrl-cost-center/shared/useListState';
import { MODEL_TEXTS, MODEL_TYPE_LABELS } from '../texts';
import { ModelCard } from './ModelCard';
import { TryButton } from './TryButton';

const T = MODEL_TEXTS.list;
const S = MODEL_TEXTS.search;
const FILTER_KEYS = ['name', 'type'] as const;
const ALL = 'all';

function typeOf(value: string | undefined): ModelType | undefined {
  return value === 'text' || value === 'visual' ? value : undefined;
}

interface ModelCatalogueProps {
  /** Only models of this type (文本模型, 视觉模型); without it the page offers the type filter. */
  type?: ModelType;
}

/**
 * The catalogue as cards: search by name, the type filter (模型中心), loading, empty, a failed load
 * with 重试, the pagination, and 体验 on each card. Page and filters live in the URL query.
 */
export function ModelCatalogue({ type: fixedType }: ModelCatalogueProps) {
  const phone = useIsPhone();
  const list = useListState(FILTER_KEYS);
  const name = list.filters.name?.trim() || undefined;
  const type = fixedType ?? typeOf(list.filters.type);
  const [search, setSearch] = useState(name ?? '');
  const query = useModelsQuery({ page: list.page, pageSize: PAGE_SIZE, type, name });
  const data = query.data;

  // A page past the end (the catalogue shrank): the last page instead.
  const lastPage = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  const pastEnd = data !== undefined && !query.isPlaceholderData && data.list.length === 0 && list.page > lastPage;
  const { setPage } = list;
  useEffect(() => {
    if (pastEnd) setPage(lastPage);
  }, [pastEnd, lastPage, setPage]);

  let content: ReactNode;
  if (query.isError && !data) {
    content = <QueryError variant="page" title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  } else if (query.isPending) {
    content = <Skeleton active paragraph={{ rows: 6 }} />;
  } else if (!data || data.list.length === 0) {
    content = <Empty description={name || (!fixedType && type) ? T.emptyFiltered : T.empty} />;
  } else {
    content = (
      <ul className="slg-model-grid" aria-label={T.label} aria-busy={query.isPlaceholderData && query.isFetching}>
        {data.list.map((model) => (
          <li key={model.id}>
            <ModelCard model={model} actions={<TryButton modelId={model.id} name={model.name} />} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Card className="slg-model-card-main">
      <div className="slg-model-filters" role="search" aria-label={S.label}>
        <Input.Search
          className="slg-model-search"
          aria-label={S.label}
          placeholder={S.placeholder}
          allowClear
          maxLength={64}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          onSearch={(value) => list.setFilters({ name: value.trim() })}
        />
        {fixedType ? null : (
          <Segmented<string>
            aria-label={S.type}
            className="slg-model-type-filter"
            value={type ?? ALL}
            options={[
              { label: S.all, value: ALL },
              { label: MODEL_TYPE_LABELS.text, value: 'text' },
              { label: MODEL_TYPE_LABELS.visual, value: 'visual' },
            ]}
            onChange={(value) => list.setFilters({ type: value === ALL ? undefined : value })}
          />
        )}
      </div>
      <div className="slg-model-list">
        {query.isError && data ? <StaleDataAlert title={T.refreshFailed} error={query.error} onRetry={() => void query.refetch()} /> : null}
        {content}
        {data && data.total > 0 ? (
          <Pagination
            className="slg-model-pagination"
            current={list.page}
            pageSize={PAGE_SIZE}
            total={data.total}
            showSizeChanger={false}
            showTotal={T.total}
            size={phone ? 'small' : undefined}
            onChange={list.setPage}
          />
        ) : null}
      </div>
    </Card>
  );
}
