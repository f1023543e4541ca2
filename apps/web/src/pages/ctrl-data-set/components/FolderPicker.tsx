import { useQueryClient } from '@tanstack/react-query';
import { Empty, Skeleton, Tree, type TreeDataNode } from 'antd';
import { useState, type Key } from 'react';
import { fetchFolder, storageKeys, useFolderQuery, type StorageListingView } from '../../../api/storage';
import { QueryError } from '../../../components/QueryError';
import { joinPath, ROOT, sortEntries } from '../../ctrl-file-storage/file-storage/files';
import { DATA_SET_TEXTS } from '../texts';

const T = DATA_SET_TEXTS.share;

function folderNames(listing: StorageListingView): string[] {
  return sortEntries(listing.items)
    .filter((entry) => entry.type === 'dir')
    .map((entry) => entry.name);
}

interface FolderPickerProps {
  zoneId: string;
  value: string | undefined;
  onChange: (path: string) => void;
}

/** The folders of a region's 文件存储 as a tree, each level read when it is opened. Keyed by the region. */
export function FolderPicker({ zoneId, value, onChange }: FolderPickerProps) {
  const queryClient = useQueryClient();
  const root = useFolderQuery(zoneId, ROOT, true);
  // The subfolders of each opened folder, by its path.
  const [opened, setOpened] = useState<Record<string, string[]>>({});

  const nodesOf = (parent: string, names: string[]): TreeDataNode[] =>
    names.map((name) => {
      const key = joinPath(parent, name);
      const children = opened[key];
      return { key, title: name, isLeaf: children ? children.length === 0 : false, children: children ? nodesOf(key, children) : undefined };
    });

  async function load(node: { key: Key }) {
    const path = String(node.key);
    if (opened[path]) return;
    try {
      const listing = await queryClient.fetchQuery({ queryKey: storageKeys.folder(zoneId, path), queryFn: () => fetchFolder(zoneId, path) });
      setOpened((current) => ({ ...current, [path]: folderNames(listing) }));
    } catch {
      // The client showed the error; the folder can be opened again.
    }
  }

  if (root.isError && !root.data) return <QueryError title={T.pickerFailed} error={root.error} onRetry={() => void root.refetch()} />;
  if (root.isPending) return <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  const top = folderNames(root.data);
  if (top.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.pickerEmpty} />;
  return (
    <div className="slg-ds-picker" role="group" aria-label={T.pickerLabel}>
      <Tree
        showLine
        blockNode
        treeData={nodesOf(ROOT, top)}
        loadData={load}
        selectedKeys={value ? [value] : []}
        onSelect={(keys) => {
          const [key] = keys;
          if (key !== undefined) onChange(String(key));
        }}
      />
    </div>
  );
}
