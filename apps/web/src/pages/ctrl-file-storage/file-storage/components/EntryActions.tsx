import { useQueryClient } from '@tanstack/react-query';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { followDownloadLink } from '../../../../api/download';
import { deleteEntry, fileDownloadLink, storageKeys, type StorageEntryView } from '../../../../api/storage';
import { toast } from '../../../../api/toast';
import { ConfirmAction } from '../../../../components/ConfirmDialog';
import { formatBytes, joinPath } from '../files';
import { FILE_STORAGE_TEXTS } from '../texts';

const T = FILE_STORAGE_TEXTS;

interface EntryActionsProps {
  zoneId: string;
  folder: string;
  entry: StorageEntryView;
  /** Writes are refused (arrears): 重命名 is off. */
  writesBlocked: boolean;
  onRename: (entry: StorageEntryView) => void;
  /** 共享 of a folder as a dataset (absent: not offered). */
  onShare?: (entry: StorageEntryView) => void;
  /** Buttons side by side at full size (phone cards) instead of links. */
  block?: boolean;
}

/** 下载 (files), 重命名 and 删除 of one entry; 删除 says what is lost and cannot be undone. */
export function EntryActions({ zoneId, folder, entry, writesBlocked, onRename, onShare, block = false }: EntryActionsProps) {
  const queryClient = useQueryClient();
  const [downloading, setDownloading] = useState(false);
  const path = joinPath(folder, entry.name);
  const type = block ? 'default' : 'link';
  const size = block ? 'small' : undefined;
  const dir = entry.type === 'dir';

  async function download() {
    setDownloading(true);
    try {
      followDownloadLink(await fileDownloadLink({ zoneId, path }));
    } catch {
      // The client showed the error.
    } finally {
      setDownloading(false);
    }
  }

  return (
    <div className={block ? 'slg-fs-actions slg-fs-actions-block' : 'slg-fs-actions'}>
      {dir ? null : (
        <Button type={type} size={size} className="slg-fs-action" aria-label={T.download.label(entry.name)} loading={downloading} onClick={() => void download()}>
          {T.download.action}
        </Button>
      )}
      {dir && onShare ? (
        <Button type={type} size={size} className="slg-fs-action" aria-label={T.share.label(entry.name)} onClick={() => onShare(entry)}>
          {T.share.action}
        </Button>
      ) : null}
      <Button type={type} size={size} className="slg-fs-action" aria-label={T.rename.label(entry.name)} disabled={writesBlocked} onClick={() => onRename(entry)}>
        {T.rename.action}
      </Button>
      <ConfirmAction
        danger
        texts={{ title: dir ? T.remove.titleDir : T.remove.titleFile, confirm: T.remove.confirm, cancel: T.remove.cancel }}
        onConfirm={async () => {
          await deleteEntry({ zoneId, path });
          toast.success(T.remove.done);
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: storageKeys.files(zoneId) }),
            queryClient.invalidateQueries({ queryKey: storageKeys.list() }),
          ]);
        }}
        trigger={(open) => (
          <Button danger type={type} size={size} className="slg-fs-action" aria-label={T.remove.label(entry.name)} onClick={open}>
            {T.remove.action}
          </Button>
        )}
      >
        <Typography.Paragraph className="slg-fs-break">
          {dir ? T.remove.bodyDir(entry.name) : T.remove.bodyFile(entry.name, formatBytes(entry.size))}
        </Typography.Paragraph>
      </ConfirmAction>
    </div>
  );
}
