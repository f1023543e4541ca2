import { StarOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Grid, Typography, theme } from 'antd';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { useSharedDatasetsQuery, type DatasetView } from '../../../api/datasets';
import { loginRedirectPath } from '../../../router/guards';
import { useUserStore } from '../../../stores/user';
import { withAntd } from '../../../theme/AntdScope';
import { PAGE_SIZE, useListState } from '../../ctrl-cost-center/shared/useListState';
import { DatasetCard } from '../../ctrl-data-set/components/DatasetCard';
import { DatasetFilesDrawer } from '../../ctrl-data-set/components/DatasetFilesDrawer';
import { DatasetList } from '../../ctrl-data-set/components/DatasetList';
import { DatasetSearch } from '../../ctrl-data-set/components/DatasetSearch';
import { FavoriteButton } from '../../ctrl-data-set/components/FavoriteButton';
import '../../ctrl-data-set/dataSet.css';
import { DATA_SET_PATHS, DATA_SET_TEXTS } from '../../ctrl-data-set/texts';
import LinkButton from '../components/LinkButton';
import { SHARE_DATA_TEXTS as T } from './texts';

const FILTER_KEYS = ['name'] as const;

/** 收藏: signed in it toggles; signed out it leads through the sign-in back here. */
function Favorite({ dataset }: { dataset: DatasetView }) {
  const signedIn = useUserStore((state) => Boolean(state.token));
  const location = useLocation();
  if (signedIn) return <FavoriteButton dataset={dataset} withText />;
  return (
    <LinkButton to={loginRedirectPath(location)} icon={<StarOutlined aria-hidden />} aria-label={T.favoriteLabel(dataset.name)} title={T.signInHint}>
      {T.favorite}
    </LinkButton>
  );
}

/** 共享数据 (`/share-data`): the approved shared datasets for anyone, by name or description, with their files. */
function ShareDataPage() {
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const wide = Boolean(screens.md);
  const signedIn = useUserStore((state) => Boolean(state.token));
  const list = useListState(FILTER_KEYS);
  const name = list.filters.name?.trim() || undefined;
  const [search, setSearch] = useState(name ?? '');
  const query = useSharedDatasetsQuery({ page: list.page, pageSize: PAGE_SIZE, name });
  const [browsing, setBrowsing] = useState<DatasetView | null>(null);

  return (
    <div style={{ maxWidth: 1200, margin: '0 auto', paddingInline: wide ? 24 : 12, paddingBlock: wide ? 48 : 24 }}>
      <Flex vertical gap={wide ? 24 : 16}>
        <header>
          <Typography.Title level={1} style={{ marginTop: 0, fontSize: wide ? 36 : 28 }}>
            {T.title}
          </Typography.Title>
          <Typography.Paragraph type="secondary" style={{ fontSize: token.fontSizeLG, marginBottom: 0 }}>
            {T.subtitle}
          </Typography.Paragraph>
        </header>
        <DatasetSearch label={T.search} placeholder={T.searchPlaceholder} value={search} onChange={setSearch} onSearch={(name) => list.setFilters({ name })} style={{ marginBottom: 0 }}>
          {signedIn ? <LinkButton to={DATA_SET_PATHS.sharedData}>{T.console}</LinkButton> : null}
        </DatasetSearch>
        <DatasetList
          query={query}
          label={T.listLabel}
          texts={T}
          empty={<Empty description={name ? T.emptyFiltered : T.empty} />}
          page={list.page}
          pageSize={PAGE_SIZE}
          onPage={list.setPage}
          phone={!wide}
          card={(dataset) => (
            <DatasetCard
              dataset={dataset}
              actions={
                <>
                  <Button aria-label={DATA_SET_TEXTS.browse.label(dataset.name)} onClick={() => setBrowsing(dataset)}>
                    {DATA_SET_TEXTS.browse.action}
                  </Button>
                  <Favorite dataset={dataset} />
                </>
              }
            />
          )}
        />
      </Flex>
      <DatasetFilesDrawer dataset={browsing} onClose={() => setBrowsing(null)} />
    </div>
  );
}

export default withAntd(ShareDataPage);
