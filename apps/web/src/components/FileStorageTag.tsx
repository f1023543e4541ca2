import { Tag, Tooltip } from 'antd';
import type { InstanceView } from '../api/compute';
import './FileStorageTag.css';

/** What the tag says, from the page's texts module. */
export interface FileStorageTagTexts {
  mounted: string;
  mountedHint: string;
  restartNeeded: string;
  restartNeededHint: string;
}

/**
 * The owner's 文件存储 of the region in an instance or container: a tag while it is mounted at
 * /root/slg-fs, a warning while it waits for a restart (需重启后挂载); nothing without a store there.
 */
export function FileStorageTag({ state, texts }: { state: InstanceView['fileStorage']; texts: FileStorageTagTexts }) {
  if (state === 'none') return null;
  const mounted = state === 'mounted';
  return (
    <Tooltip title={mounted ? texts.mountedHint : texts.restartNeededHint}>
      <Tag color={mounted ? 'blue' : 'warning'} className="slg-file-storage-tag" tabIndex={0}>
        {mounted ? texts.mounted : texts.restartNeeded}
      </Tag>
    </Tooltip>
  );
}
