import { Button, Card, Empty } from 'antd';
import { useState } from 'react';
import { usePublicDatasetsQuery, type DatasetView } from '../../../api/datasets';
import { PageHeader } from '../../../components/PageHeader';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { withAntd } from '../../../theme/AntdScope';
import { PAGE_SIZE, useListState } from '../../ctrl-cost-center/shared/useListState';
import { DatasetCard } from '../components/DatasetCard';
import { DatasetFilesDrawer } from '../components/DatasetFilesDrawer';
import { DatasetList } from '../components/DatasetList';
import { DatasetSearch } from '../components/DatasetSearch';
import '../dataSet.css';
import { DATA_SET_TEXTS } from '../texts';

const T = DATA_SET_TEXTS.publicData;
const S = DATA_SET_TEXTS.search;
const FILTER_KEYS = ['name'] as const;

/** 公开数据集: what the platform offers in every instance at /root/slg-pub, by name, with their files. */
function PublicDataPage() {
  const phone = useIsPhone();
  const list = useListState(FILTER_KEYS);
  const name = list.filters.name?.trim() || undefined;
  const [search, setSearch] = useState(name ?? '');
  const query = usePublicDatasetsQuery({ page: list.page, pageSize: PAGE_SIZE, name });
  const [browsing, setBrowsing] = useState<DatasetView | null>(null);

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} />
      <Card className="slg-ds-card-main">
        <DatasetSearch label={S.label} placeholder={S.placeholder} value={search} onChange={setSearch} onSearch={(name) => list.setFilters({ name })} />
        <DatasetList
          query={query}
          label={T.listLabel}
          texts={T}
          empty={<Empty description={name ? T.emptyFiltered : T.empty} />}
          page={list.page}
          pageSize={PAGE_SIZE}
          onPage={list.setPage}
          phone={phone}
          card={(dataset) => (
            <DatasetCard
              dataset={dataset}
              actions={
                <Button aria-label={DATA_SET_TEXTS.browse.label(dataset.name)} onClick={() => setBrowsing(dataset)}>
                  {DATA_SET_TEXTS.browse.action}
                </Button>
              }
            />
          )}
        />
      </Card>
      <DatasetFilesDrawer dataset={browsing} onClose={() => setBrowsing(null)} />
    </div>
  );
}

export default withAntd(PublicDataPage);
