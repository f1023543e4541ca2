import { FileOutlined, FolderFilled } from '@ant-design/icons';
import { datasetMountPath } from '@slg/shared';
import { Alert, Breadcrumb, Button, Drawer, Empty, Pagination, Skeleton, Typography } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { datasetFileDownloadLink, useDatasetFolderQuery, type DatasetView } from '../../../api/datasets';
import { followDownloadLink } from '../../../api/download';
import type { StorageEntryView } from '../../../api/storage';
import { QueryError } from '../../../components/QueryError';
import { crumbsOf, formatBytes, joinPath, ROOT, sortEntries } from '../../ctrl-file-storage/file-storage/files';
import { DATA_SET_TEXTS } from '../texts';

const T = DATA_SET_TEXTS.browse;
const PAGE_SIZE = 50;

function DownloadButton({ datasetId, path, name }: { datasetId: number; path: string; name: string }) {
  const [downloading, setDownloading] = useState(false);
  async function download() {
    setDownloading(true);
    try {
      followDownloadLink(await datasetFileDownloadLink(datasetId, path));
    } catch {
      // The client showed the error.
    } finally {
      setDownloading(false);
    }
  }
  return (
    <Button type="link" size="small" className="slg-ds-entry-action" aria-label={T.downloadLabel(name)} loading={downloading} onClick={() => void download()}>
      {T.download}
    </Button>
  );
}

/** One folder of the dataset: where it is, its folders (to open) and files (to download), 50 at a time. */
function DatasetFolder({ dataset }: { dataset: DatasetView }) {
  const [path, setPath] = useState(ROOT);
  const [page, setPage] = useState(1);
  const folder = useDatasetFolderQuery(dataset.id, path);
  const entries = useMemo(() => sortEntries(folder.data?.items ?? []), [folder.data]);
  const rows = entries.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const open = (next: string) => {
    setPath(next);
    setPage(1);
  };

  const crumbs = crumbsOf(path, T.root);
  let content: ReactNode;
  if (folder.isError && !folder.data) content = <QueryError title={T.loadFailed} error={folder.error} onRetry={() => void folder.refetch()} />;
  else if (folder.isPending) content = <Skeleton active title={false} paragraph={{ rows: 5 }} />;
  else if (entries.length === 0) content = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.empty} />;
  else {
    content = (
      <ul className="slg-ds-entries" aria-label={T.title(dataset.name)}>
        {rows.map((entry: StorageEntryView) => {
          const entryPath = joinPath(path, entry.name);
          return (
            <li key={entry.name} className="slg-ds-entry">
              {entry.type === 'dir' ? (
                <button type="button" className="slg-ds-entry-name slg-ds-entry-open" aria-label={T.openFolder(entry.name)} onClick={() => open(entryPath)}>
                  <FolderFilled className="slg-ds-icon slg-ds-icon-dir" aria-label={T.folder} role="img" />
                  <span className="slg-ds-break">{entry.name}</span>
                </button>
              ) : (
                <span className="slg-ds-entry-name">
                  <FileOutlined className="slg-ds-icon" aria-label={T.file} role="img" />
                  <span className="slg-ds-break">{entry.name}</span>
                </span>
              )}
              {entry.type === 'file' ? (
                <span className="slg-ds-entry-side">
                  <Typography.Text type="secondary" className="slg-ds-nowrap">
                    {formatBytes(entry.size)}
                  </Typography.Text>
                  <DownloadButton datasetId={dataset.id} path={entryPath} name={entry.name} />
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <div className="slg-ds-browser">
      <Typography.Text type="secondary">
        {T.readOnly(dataset.mountPath || datasetMountPath(dataset.name))}
      </Typography.Text>
      <nav aria-label={T.breadcrumb}>
        <Breadcrumb
          items={crumbs.map((crumb, index) => ({
            key: crumb.path,
            title:
              index === crumbs.length - 1 ? (
                <span aria-current="location" className="slg-ds-break">
                  {crumb.name}
                </span>
              ) : (
                <button type="button" className="slg-ds-crumb" onClick={() => open(crumb.path)}>
                  {crumb.name}
                </button>
              ),
          }))}
        />
      </nav>
      {folder.data?.truncated ? <Alert type="info" showIcon title={T.truncated} /> : null}
      {content}
      {entries.length > PAGE_SIZE ? (
        <Pagination className="slg-ds-pagination" size="small" current={page} pageSize={PAGE_SIZE} total={entries.length} showSizeChanger={false} showTotal={T.total} onChange={setPage} />
      ) : null}
    </div>
  );
}

/** 浏览: the files of a dataset in a drawer (read-only: folders open, files download). Mounted while a dataset is chosen. */
export function DatasetFilesDrawer({ dataset, onClose }: { dataset: DatasetView | null; onClose: () => void }) {
  // The last one stays in the drawer while it closes.
  const [shown, setShown] = useState(dataset);
  if (dataset && dataset !== shown) setShown(dataset);
  return (
    <Drawer
      open={dataset !== null}
      onClose={onClose}
      title={shown ? T.title(shown.name) : undefined}
      size={560}
      className="slg-ds-drawer"
      closable={{ 'aria-label': T.close }}
      destroyOnHidden
    >
      {shown ? <DatasetFolder key={shown.id} dataset={shown} /> : null}
    </Drawer>
  );
}
