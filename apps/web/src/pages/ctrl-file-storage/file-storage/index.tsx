import { Alert, Card, Empty, Skeleton, Tabs } from 'antd';
import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useZones } from '../../../api/meta';
import { useStorageListQuery, type FileStorageView } from '../../../api/storage';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError, StaleDataAlert } from '../../../components/QueryError';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { withAntd } from '../../../theme/AntdScope';
import { DEFAULT_PAGE_SIZE, FileBrowser, PAGE_SIZES, type BrowserLocation } from './components/FileBrowser';
import { InitPanel } from './components/InitPanel';
import { QuotaDialog } from './components/QuotaDialog';
import { UploadPanel } from './components/UploadPanel';
import { UsageBar } from './components/UsageBar';
import './fileStorage.css';
import { normalizePath, ROOT } from './files';
import { FILE_STORAGE_TEXTS } from './texts';

const T = FILE_STORAGE_TEXTS;
export const RECHARGE_PATH = '/ctrl-cost-center/cost-center/recharge';

function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

function parsePageSize(value: string | null): number {
  const size = Number(value);
  return (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE;
}

/** The query string of a place: region, folder, page and page size (defaults left out). */
export function searchOf(zoneId: string, location: Partial<BrowserLocation>): string {
  const params = new URLSearchParams({ zone: zoneId });
  if (location.path && location.path !== ROOT) params.set('path', location.path);
  if (location.page && location.page > 1) params.set('page', String(location.page));
  if (location.pageSize && location.pageSize !== DEFAULT_PAGE_SIZE) params.set('size', String(location.pageSize));
  return `?${params.toString()}`;
}

function ZoneLabel({ name, initialized }: { name: string; initialized: boolean }) {
  return (
    <span className="slg-fs-tab">
      {name}
      {initialized ? <span className="slg-fs-tab-state">{T.zones.initialized}</span> : null}
    </span>
  );
}

/** An initialised region: arrears, usage against the quota, then its files. */
function ZoneStore({ storage, zoneName, location, phone }: { storage: FileStorageView; zoneName: string; location: BrowserLocation; phone: boolean }) {
  const [, setParams] = useSearchParams();
  const [editQuota, setEditQuota] = useState(false);
  const { zoneId } = storage;
  const hrefOf = useCallback(
    (next: Partial<BrowserLocation>) => searchOf(zoneId, { pageSize: location.pageSize, ...next }),
    [zoneId, location.pageSize],
  );
  const onPage = useCallback(
    (page: number, pageSize: number) => setParams(searchOf(zoneId, { path: location.path, page, pageSize }), { replace: true }),
    [setParams, zoneId, location.path],
  );
  return (
    <div className="slg-fs-zone">
      {storage.writesBlocked ? (
        <Alert
          type="error"
          showIcon
          title={T.blocked.title}
          description={T.blocked.body}
          action={
            <LinkButton size="small" type="primary" to={RECHARGE_PATH}>
              {T.blocked.recharge}
            </LinkButton>
          }
        />
      ) : null}
      <UsageBar storage={storage} onEditQuota={() => setEditQuota(true)} />
      <FileBrowser
        key={`${zoneId}:${location.path}`}
        storage={storage}
        zoneName={zoneName}
        location={location}
        hrefOf={hrefOf}
        onPage={onPage}
        phone={phone}
      />
      {editQuota ? <QuotaDialog storage={storage} onClose={() => setEditQuota(false)} /> : null}
    </div>
  );
}

/** 文件存储: per region, initialise once (free), then manage the files every instance there sees at /root/slg-fs. */
function FileStoragePage() {
  const phone = useIsPhone();
  const zones = useZones();
  const list = useStorageListQuery();
  const [params, setParams] = useSearchParams();

  const stores = list.data ?? [];
  const nameOf = (zoneId: string) => zones.data?.find((zone) => zone.id === zoneId)?.name ?? zoneId;
  const requested = params.get('zone');
  const selected = stores.find((store) => store.zoneId === requested) ?? stores.find((store) => store.initialized) ?? stores[0];
  const location: BrowserLocation = {
    path: normalizePath(params.get('path')),
    page: parsePage(params.get('page')),
    pageSize: parsePageSize(params.get('size')),
  };

  let body;
  if (list.isError && !list.data) {
    body = <QueryError variant="page" title={T.loadFailed} error={list.error} onRetry={() => void list.refetch()} />;
  } else if (list.isPending) {
    body = <Skeleton active paragraph={{ rows: 6 }} />;
  } else if (!selected) {
    body = <Empty description={T.noZones} />;
  } else {
    body = (
      <>
        {list.isError ? <StaleDataAlert className="slg-fs-alert" title={T.loadFailed} error={list.error} onRetry={() => void list.refetch()} /> : null}
        <Tabs
          className="slg-fs-tabs"
          aria-label={T.zones.label}
          activeKey={selected.zoneId}
          onChange={(zoneId) => setParams(searchOf(zoneId, { pageSize: location.pageSize }))}
          items={stores.map((store) => ({ key: store.zoneId, label: <ZoneLabel name={nameOf(store.zoneId)} initialized={store.initialized} /> }))}
        />
        {selected.initialized ? (
          <ZoneStore storage={selected} zoneName={nameOf(selected.zoneId)} location={location} phone={phone} />
        ) : (
          <InitPanel storage={selected} zoneName={nameOf(selected.zoneId)} />
        )}
      </>
    );
  }

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} />
      <div className="slg-fs-layout">
        <UploadPanel />
        <Card className="slg-fs-card-main">{body}</Card>
      </div>
    </div>
  );
}

export default withAntd(FileStoragePage);
