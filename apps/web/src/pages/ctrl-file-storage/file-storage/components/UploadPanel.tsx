import { Button, Card, Progress, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { formatBytes } from '../files';
import { FILE_STORAGE_TEXTS } from '../texts';
import {
  cancelUpload,
  clearFinishedUploads,
  hasUnfinishedUploads,
  pauseUpload,
  removeUpload,
  resumeUpload,
  useUploadStore,
  type UploadItem,
  type UploadStatus,
} from '../uploads';

const T = FILE_STORAGE_TEXTS.uploads;

const STATUS_TEXT: Record<UploadStatus, string> = {
  queued: T.queued,
  uploading: T.uploading,
  paused: T.paused,
  done: T.done,
  failed: T.failed,
};

function percentOf(item: UploadItem): number {
  if (item.status === 'done') return 100;
  return item.size > 0 ? Math.floor((item.sent / item.size) * 100) : 0;
}

function UploadActions({ item }: { item: UploadItem }) {
  const buttons = [];
  if (item.status === 'uploading' || item.status === 'queued') {
    buttons.push(
      <Button key="pause" size="small" aria-label={T.pauseLabel(item.name)} onClick={() => pauseUpload(item.id)}>
        {T.pause}
      </Button>,
    );
  }
  if (item.status === 'paused') {
    buttons.push(
      <Button key="resume" size="small" type="primary" aria-label={T.resumeLabel(item.name)} onClick={() => resumeUpload(item.id)}>
        {T.resume}
      </Button>,
    );
  }
  if (item.status === 'failed') {
    buttons.push(
      <Button key="retry" size="small" type="primary" aria-label={T.retryLabel(item.name)} onClick={() => resumeUpload(item.id)}>
        {T.retry}
      </Button>,
    );
  }
  if (item.status === 'done') {
    buttons.push(
      <Button key="remove" size="small" type="text" aria-label={T.removeLabel(item.name)} onClick={() => removeUpload(item.id)}>
        {T.remove}
      </Button>,
    );
  } else {
    buttons.push(
      <Button key="cancel" size="small" danger aria-label={T.cancelLabel(item.name)} onClick={() => cancelUpload(item.id)}>
        {T.cancel}
      </Button>,
    );
  }
  return <div className="slg-fs-upload-actions">{buttons}</div>;
}

function UploadRow({ item }: { item: UploadItem }) {
  const percent = percentOf(item);
  return (
    <li className="slg-fs-upload" aria-label={item.name}>
      <div className="slg-fs-upload-head">
        <div className="slg-fs-upload-name">
          <Typography.Text strong className="slg-fs-break">
            {item.name}
          </Typography.Text>
          <Typography.Text type="secondary" className="slg-fs-note slg-fs-break">
            {T.to(item.zoneName, item.folder)}
          </Typography.Text>
        </div>
        <UploadActions item={item} />
      </div>
      <Progress
        percent={percent}
        size="small"
        status={item.status === 'failed' ? 'exception' : item.status === 'done' ? 'success' : item.status === 'uploading' ? 'active' : 'normal'}
        aria-label={item.name}
      />
      <div className="slg-fs-upload-foot">
        <Typography.Text type="secondary" className="slg-fs-note" data-status={item.status}>
          {STATUS_TEXT[item.status]} · {T.progress(formatBytes(item.status === 'done' ? item.size : item.sent), formatBytes(item.size))}
        </Typography.Text>
        {item.error ? (
          <Typography.Text type="danger" className="slg-fs-note slg-fs-break" role="alert">
            {item.error}
          </Typography.Text>
        ) : null}
      </div>
    </li>
  );
}

/** 上传列表: every upload with its progress and 暂停 / 继续 / 取消; leaving the site while one runs asks first. */
export function UploadPanel() {
  const items = useUploadStore((state) => state.items);
  const [collapsed, setCollapsed] = useState(false);
  const unfinished = hasUnfinishedUploads(items);

  useEffect(() => {
    if (!unfinished) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = T.leaveWarning;
      return T.leaveWarning;
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unfinished]);

  if (items.length === 0) return null;
  const done = items.filter((item) => item.status === 'done').length;
  return (
    <Card
      size="small"
      className="slg-fs-uploads"
      title={
        <span className="slg-fs-uploads-title">
          {T.title}
          <Typography.Text type="secondary" className="slg-fs-note">
            {T.summary(done, items.length)}
          </Typography.Text>
        </span>
      }
      extra={
        <span className="slg-fs-uploads-extra">
          {done > 0 ? (
            <Button size="small" type="link" onClick={clearFinishedUploads}>
              {T.clear}
            </Button>
          ) : null}
          <Button size="small" type="link" aria-expanded={!collapsed} onClick={() => setCollapsed((value) => !value)}>
            {collapsed ? T.expand : T.collapse}
          </Button>
        </span>
      }
    >
      {collapsed ? null : (
        <ul className="slg-fs-upload-list" aria-label={T.title}>
          {items.map((item) => (
            <UploadRow key={item.id} item={item} />
          ))}
        </ul>
      )}
    </Card>
  );
}
