import { CloseOutlined, PlusOutlined } from '@ant-design/icons';
import { DATASET_STATUS_LABELS, DATASET_STATUSES, type DatasetStatus } from '@slg/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Select, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  deleteDataset,
  invalidateDatasets,
  useFavoriteDatasetsQuery,
  useMyDatasetsQuery,
  useSharedDatasetsQuery,
  type DatasetView,
} from '../../../api/datasets';
import { useZones } from '../../../api/meta';
import { toast } from '../../../api/toast';
import { ConfirmAction } from '../../../components/ConfirmDialog';
import { PageHeader } from '../../../components/PageHeader';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { permissionList, useUserStore } from '../../../stores/user';
import { withAntd } from '../../../theme/AntdScope';
import { PAGE_SIZE, useListState } from '../../ctrl-cost-center/shared/useListState';
import { DatasetCard } from '../components/DatasetCard';
import { DatasetFilesDrawer } from '../components/DatasetFilesDrawer';
import { DatasetList } from '../components/DatasetList';
import { DatasetSearch } from '../components/DatasetSearch';
import { FavoriteButton } from '../components/FavoriteButton';
import { ShareDatasetDialog } from '../components/ShareDatasetDialog';
import '../dataSet.css';
import { DATA_SET_TEXTS } from '../texts';

const T = DATA_SET_TEXTS.sharedData;
const S = DATA_SET_TEXTS.search;
const FILTER_KEYS = ['name', 'tag', 'status'] as const;
const TABS = ['square', 'favorites', 'mine'] as const;
type TabKey = (typeof TABS)[number];

type Dialog = { kind: 'share' } | { kind: 'edit'; dataset: DatasetView } | null;

/** Whether the caller may share, edit and delete datasets (a sub-account needs the FILE_STORAGE authority); true while not known. */
export function useMayShareDatasets(): boolean {
  const user = useUserStore((state) => state.userInfo);
  return permissionList(user)?.includes('FILE_STORAGE') ?? true;
}

function tabOf(value: string | null): TabKey {
  return (TABS as readonly string[]).includes(value ?? '') ? (value as TabKey) : 'square';
}

function BrowseButton({ dataset, onBrowse }: { dataset: DatasetView; onBrowse: (dataset: DatasetView) => void }) {
  return (
    <Button aria-label={DATA_SET_TEXTS.browse.label(dataset.name)} onClick={() => onBrowse(dataset)}>
      {DATA_SET_TEXTS.browse.action}
    </Button>
  );
}

interface TabProps {
  phone: boolean;
  onBrowse: (dataset: DatasetView) => void;
}

/** 共享广场: every approved dataset, newest first; by name or description, by tag; 收藏 on each. */
function SquareTab({ phone, onBrowse }: TabProps) {
  const list = useListState(FILTER_KEYS);
  const name = list.filters.name?.trim() || undefined;
  const tag = list.filters.tag?.trim() || undefined;
  const [search, setSearch] = useState(name ?? '');
  const query = useSharedDatasetsQuery({ page: list.page, pageSize: PAGE_SIZE, name, tag });
  return (
    <>
      <DatasetSearch label={S.label} placeholder={S.placeholderShared} value={search} onChange={setSearch} onSearch={(name) => list.setFilters({ name })}>
        {tag ? (
          <Button icon={<CloseOutlined aria-hidden />} title={S.clearTag} onClick={() => list.setFilters({ tag: undefined })}>
            {S.tag(tag)}
          </Button>
        ) : null}
      </DatasetSearch>
      <DatasetList
        query={query}
        label={T.square.listLabel}
        texts={{ ...T, loadFailed: T.square.loadFailed }}
        empty={<Empty description={name || tag ? T.square.emptyFiltered : T.square.empty} />}
        page={list.page}
        pageSize={PAGE_SIZE}
        onPage={list.setPage}
        phone={phone}
        card={(dataset) => (
          <DatasetCard
            dataset={dataset}
            corner={<FavoriteButton dataset={dataset} />}
            onTag={(next) => list.setFilters({ tag: next })}
            actions={<BrowseButton dataset={dataset} onBrowse={onBrowse} />}
          />
        )}
      />
    </>
  );
}

/** 我的收藏: the favourites that are still visible; 取消收藏 takes one out. */
function FavoritesTab({ phone, onBrowse, onSquare }: TabProps & { onSquare: () => void }) {
  const list = useListState(FILTER_KEYS);
  const query = useFavoriteDatasetsQuery({ page: list.page, pageSize: PAGE_SIZE });
  return (
    <DatasetList
      query={query}
      label={T.favorites.listLabel}
      texts={{ ...T, loadFailed: T.favorites.loadFailed }}
      empty={
        <Empty description={T.favorites.empty}>
          <Typography.Paragraph type="secondary">{T.favorites.emptyHint}</Typography.Paragraph>
          <Button type="primary" onClick={onSquare}>
            {T.favorites.toSquare}
          </Button>
        </Empty>
      }
      page={list.page}
      pageSize={PAGE_SIZE}
      onPage={list.setPage}
      phone={phone}
      card={(dataset) => (
        <DatasetCard
          dataset={dataset}
          actions={
            <>
              <BrowseButton dataset={dataset} onBrowse={onBrowse} />
              <FavoriteButton dataset={dataset} withText />
            </>
          }
        />
      )}
    />
  );
}

function DeleteButton({ dataset }: { dataset: DatasetView }) {
  const queryClient = useQueryClient();
  const D = DATA_SET_TEXTS.remove;
  return (
    <ConfirmAction
      danger
      texts={{ title: D.title(dataset.name), confirm: D.confirm, cancel: D.cancel }}
      onConfirm={async () => {
        await deleteDataset(dataset.id);
        toast.success(D.done);
        await invalidateDatasets(queryClient);
      }}
      trigger={(open) => (
        <Button danger aria-label={D.label(dataset.name)} onClick={open}>
          {D.action}
        </Button>
      )}
    >
      <Typography.Paragraph>{D.body}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{D.source}</Typography.Paragraph>
    </ConfirmAction>
  );
}

/** 我的共享: the account's datasets in every state, the reason of a refusal, 编辑 and 删除. */
function MineTab({ phone, onBrowse, mayShare, onEdit }: TabProps & { mayShare: boolean; onEdit: (dataset: DatasetView) => void }) {
  const list = useListState(FILTER_KEYS);
  const status = (DATASET_STATUSES as readonly string[]).includes(list.filters.status ?? '') ? (list.filters.status as DatasetStatus) : undefined;
  const query = useMyDatasetsQuery({ page: list.page, pageSize: PAGE_SIZE, status });
  const zones = useZones();
  const zoneName = (zoneId: string) => zones.data?.find((zone) => zone.id === zoneId)?.name ?? zoneId;
  return (
    <>
      <div className="slg-ds-filters">
        <Select
          className="slg-ds-status-filter"
          aria-label={T.mine.status}
          placeholder={T.mine.allStatuses}
          allowClear
          value={status}
          onChange={(value: DatasetStatus | undefined) => list.setFilters({ status: value })}
          options={DATASET_STATUSES.map((value) => ({ value, label: DATASET_STATUS_LABELS[value] }))}
        />
      </div>
      {mayShare ? null : <Alert type="info" showIcon title={T.noAuthority} className="slg-ds-alert" />}
      <DatasetList
        query={query}
        label={T.mine.listLabel}
        texts={{ ...T, loadFailed: T.mine.loadFailed }}
        empty={
          <Empty description={status ? T.square.emptyFiltered : T.mine.empty}>
            {status ? null : <Typography.Paragraph type="secondary">{T.mine.emptyHint}</Typography.Paragraph>}
          </Empty>
        }
        page={list.page}
        pageSize={PAGE_SIZE}
        onPage={list.setPage}
        phone={phone}
        card={(dataset) => (
          <DatasetCard
            dataset={dataset}
            own
            zoneName={zoneName}
            actions={
              <>
                <BrowseButton dataset={dataset} onBrowse={onBrowse} />
                {mayShare ? (
                  <>
                    <Button aria-label={DATA_SET_TEXTS.edit.label(dataset.name)} onClick={() => onEdit(dataset)}>
                      {DATA_SET_TEXTS.edit.action}
                    </Button>
                    <DeleteButton dataset={dataset} />
                  </>
                ) : null}
              </>
            }
          />
        )}
      />
    </>
  );
}

/** 共享数据集: 共享广场, 我的收藏 and 我的共享, and 共享数据集 (a folder of 文件存储, reviewed before others see it). */
function SharedDataPage() {
  const phone = useIsPhone();
  const mayShare = useMayShareDatasets();
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  const [browsing, setBrowsing] = useState<DatasetView | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const openTab = (next: TabKey) => setParams(next === 'square' ? {} : { tab: next }, { replace: true });

  const tabProps = { phone, onBrowse: setBrowsing };
  const shareButton = mayShare ? (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'share' })}>
      {T.share}
    </Button>
  ) : null;

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} extra={shareButton} />
      <Card className="slg-ds-card-main">
        <Tabs
          aria-label={T.tabs.label}
          activeKey={tab}
          onChange={(key) => openTab(tabOf(key))}
          destroyOnHidden
          items={[
            { key: 'square', label: T.tabs.square, children: <SquareTab {...tabProps} /> },
            { key: 'favorites', label: T.tabs.favorites, children: <FavoritesTab {...tabProps} onSquare={() => openTab('square')} /> },
            {
              key: 'mine',
              label: T.tabs.mine,
              children: <MineTab {...tabProps} mayShare={mayShare} onEdit={(dataset) => setDialog({ kind: 'edit', dataset })} />,
            },
          ]}
        />
      </Card>
      <DatasetFilesDrawer dataset={browsing} onClose={() => setBrowsing(null)} />
      {dialog?.kind === 'share' ? <ShareDatasetDialog onClose={() => setDialog(null)} onDone={() => openTab('mine')} /> : null}
      {dialog?.kind === 'edit' ? <ShareDatasetDialog dataset={dialog.dataset} onClose={() => setDialog(null)} /> : null}
    </div>
  );
}

export default withAntd(SharedDataPage);
