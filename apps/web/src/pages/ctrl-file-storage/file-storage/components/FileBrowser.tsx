import { FileOutlined, FolderFilled, FolderAddOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { LISTING_DEFAULT_PAGE_SIZE } from '@slg/shared';
import { Breadcrumb, Button, Empty, Input, Pagination, Skeleton, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { createFolder, renameEntry, storageKeys, useFolderPageQuery, type FileStorageView, type StorageEntryView } from '../../../../api/storage';
import { DateTime } from '../../../../components/DateTime';
import { QueryError, StaleDataAlert } from '../../../../components/QueryError';
import { crumbsOf, formatBytes, joinPath, ROOT } from '../files';
import { FILE_STORAGE_TEXTS } from '../texts';
import { addUploads } from '../uploads';
import { ShareDatasetDialog } from '../../../ctrl-data-set/components/ShareDatasetDialog';
import { EntryActions } from './EntryActions';
import { NameDialog } from './NameDialog';

const T = FILE_STORAGE_TEXTS;
/** The page size of a link that names none: the server's default page (100). */
export const DEFAULT_PAGE_SIZE = LISTING_DEFAULT_PAGE_SIZE;
export const PAGE_SIZES = [10, 50, DEFAULT_PAGE_SIZE] as const;
/** How long the name filter waits for the typing to stop before it asks the server. */
export const FILTER_DELAY_MS = 300;

export interface BrowserLocation {
  path: string;
  page: number;
  pageSize: number;
}

interface FileBrowserProps {
  storage: FileStorageView;
  zoneName: string;
  location: BrowserLocation;
  /** The link (query string) of another place in this region's store. */
  hrefOf: (next: Partial<BrowserLocation>) => string;
  /** Moves to another page or page size of the same folder (replaces the history entry). */
  onPage: (page: number, pageSize: number) => void;
  phone: boolean;
}

type Dialog = { kind: 'folder' } | { kind: 'rename' | 'share'; entry: StorageEntryView } | null;

function EntryName({ entry, href }: { entry: StorageEntryView; href: string }) {
  if (entry.type === 'dir') {
    return (
      <Link to={href} className="slg-fs-name" aria-label={T.openFolder(entry.name)}>
        <FolderFilled className="slg-fs-icon slg-fs-icon-dir" aria-label={T.folder} role="img" />
        <span className="slg-fs-break">{entry.name}</span>
      </Link>
    );
  }
  return (
    <span className="slg-fs-name">
      <FileOutlined className="slg-fs-icon" aria-label={T.file} role="img" />
      <span className="slg-fs-break">{entry.name}</span>
    </span>
  );
}

function sizeText(entry: StorageEntryView): string {
  return entry.type === 'dir' ? '—' : formatBytes(entry.size);
}

/**
 * The files of one folder: where it is (breadcrumb), what can be done there (toolbar), its entries a page at
 * a time. The server sorts, filters and pages (`GET /storage/files` with page, pageSize, name): the table shows
 * the page as it comes.
 */
export function FileBrowser({ storage, zoneName, location, hrefOf, onPage, phone }: FileBrowserProps) {
  const { zoneId, writesBlocked } = storage;
  const { path, page, pageSize } = location;
  const queryClient = useQueryClient();
  // What the filter box shows, and (FILTER_DELAY_MS after the typing stops) what the server is asked for.
  const [filter, setFilter] = useState('');
  const [needle, setNeedle] = useState('');
  // A new filter lists from page 1 at once, before the URL has caught up (no request for the old page).
  const [fromFirstPage, setFromFirstPage] = useState(false);
  if (fromFirstPage && page === 1) setFromFirstPage(false);
  const requested = fromFirstPage ? 1 : page;
  const folder = useFolderPageQuery(zoneId, path, { page: requested, pageSize, name: needle });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const filterTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(filterTimer.current), []);

  const rows = folder.data?.items ?? [];
  const total = folder.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(requested, lastPage);
  // Beyond the last page (the last entry of the last page deleted, an old link): go to the last page.
  const beyondLast = folder.data !== undefined && !folder.isPlaceholderData && requested > lastPage;
  useEffect(() => {
    if (beyondLast) onPage(lastPage, pageSize);
  }, [beyondLast, lastPage, pageSize, onPage]);

  function applyFilter(value: string) {
    clearTimeout(filterTimer.current);
    const next = value.trim();
    if (next === needle) return;
    setNeedle(next);
    if (page !== 1) {
      setFromFirstPage(true);
      onPage(1, pageSize);
    }
  }

  function changeFilter(value: string) {
    setFilter(value);
    clearTimeout(filterTimer.current);
    filterTimer.current = setTimeout(() => applyFilter(value), FILTER_DELAY_MS);
  }

  const refreshFolder = () => queryClient.invalidateQueries({ queryKey: storageKeys.files(zoneId) });
  const refreshAll = () => Promise.all([refreshFolder(), queryClient.invalidateQueries({ queryKey: storageKeys.list() })]);

  function upload(files: readonly File[]) {
    if (files.length === 0 || writesBlocked) return;
    addUploads(files, { zoneId, zoneName, folder: path }, () => void refreshAll());
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (writesBlocked) return;
    // Folders dropped from the desktop show up as entries that cannot be read: leave them out.
    const items = [...event.dataTransfer.items];
    const files = [...event.dataTransfer.files].filter((_file, index) => !items[index]?.webkitGetAsEntry?.()?.isDirectory);
    upload(files);
  }

  const blockedTip = writesBlocked ? T.blocked.hint : undefined;
  const toolbar = (
    <div className="slg-fs-toolbar">
      <Tooltip title={blockedTip}>
        <Button type="primary" icon={<UploadOutlined />} disabled={writesBlocked} onClick={() => fileInput.current?.click()}>
          {T.toolbar.upload}
        </Button>
      </Tooltip>
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        aria-label={T.toolbar.upload}
        data-testid="slg-fs-file-input"
        onChange={(event) => {
          upload([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
      <Tooltip title={blockedTip}>
        <Button icon={<FolderAddOutlined />} disabled={writesBlocked} onClick={() => setDialog({ kind: 'folder' })}>
          {T.toolbar.newFolder}
        </Button>
      </Tooltip>
      <Button icon={<ReloadOutlined />} aria-label={T.toolbar.refresh} loading={folder.isFetching && !folder.isPending} onClick={() => void refreshAll()}>
        {phone ? null : T.toolbar.refresh}
      </Button>
      <Input.Search
        className="slg-fs-search"
        aria-label={T.toolbar.search}
        placeholder={T.toolbar.searchPlaceholder}
        allowClear
        value={filter}
        onChange={(event) => changeFilter(event.target.value)}
        // Enter (or the clear button) filters at once.
        onSearch={(value) => applyFilter(value)}
      />
    </div>
  );

  const crumbs = crumbsOf(path, T.breadcrumb.root);
  const breadcrumb = (
    <nav aria-label={T.breadcrumb.label}>
      <Breadcrumb
        className="slg-fs-breadcrumb"
        items={crumbs.map((crumb, index) => ({
          key: crumb.path,
          title:
            index === crumbs.length - 1 ? (
              <span aria-current="location" className="slg-fs-break">
                {crumb.name}
              </span>
            ) : (
              <Link to={hrefOf({ path: crumb.path })} className="slg-fs-break">
                {crumb.name}
              </Link>
            ),
        }))}
      />
    </nav>
  );

  const hrefOfEntry = (entry: StorageEntryView) => hrefOf({ path: joinPath(path, entry.name) });
  const actions = (entry: StorageEntryView, block = false) => (
    <EntryActions
      zoneId={zoneId}
      folder={path}
      entry={entry}
      writesBlocked={writesBlocked}
      onRename={(item) => setDialog({ kind: 'rename', entry: item })}
      onShare={(item) => setDialog({ kind: 'share', entry: item })}
      block={block}
    />
  );
  const columns: TableColumnsType<StorageEntryView> = [
    { title: T.columns.name, key: 'name', render: (_value, entry) => <EntryName entry={entry} href={hrefOfEntry(entry)} /> },
    { title: T.columns.size, key: 'size', render: (_value, entry) => <span className="slg-fs-nowrap">{sizeText(entry)}</span> },
    { title: T.columns.modifiedAt, key: 'modifiedAt', render: (_value, entry) => <DateTime value={entry.modifiedAt} /> },
    { title: T.columns.actions, key: 'actions', render: (_value, entry) => actions(entry) },
  ];

  const empty = needle ? (
    <Empty description={T.emptyFiltered} />
  ) : (
    <Empty description={T.empty}>
      <Typography.Paragraph type="secondary">{T.emptyHint}</Typography.Paragraph>
    </Empty>
  );

  let content: ReactNode;
  if (folder.isError && !folder.data) {
    content = (
      <>
        <QueryError variant="page" title={T.listLoadFailed} error={folder.error} onRetry={() => void folder.refetch()} />
        {path !== ROOT ? (
          <div className="slg-fs-center">
            <Link to={hrefOf({ path: ROOT })}>{T.backToRoot}</Link>
          </div>
        ) : null}
      </>
    );
  } else if (folder.isPending || (rows.length === 0 && total > 0)) {
    // Loading, or an empty page beyond the last one while the last one is asked for.
    content = <Skeleton active title={false} paragraph={{ rows: 5 }} />;
  } else if (rows.length === 0) {
    content = empty;
  } else if (phone) {
    content = (
      <ul className="slg-fs-cards" aria-label={T.title}>
        {rows.map((entry) => (
          <li key={entry.name} className="slg-fs-card" aria-label={entry.name}>
            <EntryName entry={entry} href={hrefOfEntry(entry)} />
            <Typography.Text type="secondary" className="slg-fs-note">
              {sizeText(entry)} · <DateTime value={entry.modifiedAt} />
            </Typography.Text>
            {actions(entry, true)}
          </li>
        ))}
      </ul>
    );
  } else {
    content = (
      <Table<StorageEntryView>
        rowKey="name"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={folder.isPlaceholderData}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
    );
  }

  return (
    <div
      className={dragging ? 'slg-fs-browser slg-fs-dragging' : 'slg-fs-browser'}
      onDragOver={(event) => {
        if (writesBlocked || !event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
    >
      {toolbar}
      {breadcrumb}
      {folder.isError && folder.data ? (
        <StaleDataAlert className="slg-fs-alert" title={T.listRefreshFailed} error={folder.error} onRetry={() => void folder.refetch()} />
      ) : null}
      {dragging ? <div className="slg-fs-drop-hint">{T.toolbar.dropHint}</div> : null}
      {content}
      {total > 0 ? (
        <Pagination
          className="slg-fs-pagination"
          current={current}
          pageSize={pageSize}
          total={total}
          showSizeChanger
          pageSizeOptions={PAGE_SIZES.map(String)}
          showTotal={T.total}
          size={phone ? 'small' : undefined}
          onChange={(nextPage, nextSize) => onPage(nextSize !== pageSize ? 1 : nextPage, nextSize)}
        />
      ) : null}
      {dialog?.kind === 'folder' ? (
        <NameDialog
          texts={T.newFolder}
          submit={(name) => createFolder({ zoneId, path: joinPath(path, name) })}
          onDone={() => void refreshFolder()}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === 'rename' ? (
        <NameDialog
          texts={{ ...T.rename, title: T.rename.title(dialog.entry.name) }}
          initialName={dialog.entry.name}
          sameMessage={T.name.same}
          submit={(name) => renameEntry({ zoneId, from: joinPath(path, dialog.entry.name), to: joinPath(path, name) })}
          onDone={() => void refreshFolder()}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === 'share' ? <ShareDatasetDialog zoneId={zoneId} path={joinPath(path, dialog.entry.name)} onClose={() => setDialog(null)} /> : null}
    </div>
  );
}
