import { PRIVATE_IMAGE_STATUSES } from '@slg/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Progress, Skeleton, Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import { useState, type ReactNode } from 'react';
import { deleteImage, imageKeys, removeSharedImage, useImageUsageQuery, usePrivateImagesQuery, type PrivateImageView } from '../../../api/images';
import { toast } from '../../../api/toast';
import { ConfirmAction } from '../../../components/ConfirmDialog';
import { DateTime } from '../../../components/DateTime';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError, StaleDataAlert } from '../../../components/QueryError';
import { useIsPhone } from '../../../layouts/useIsPhone';
import { withAntd } from '../../../theme/AntdScope';
import { RenameImageDialog } from './components/RenameImageDialog';
import { ShareImageDialog } from './components/ShareImageDialog';
import './mirrorImage.css';
import { MIRROR_IMAGE_TEXTS } from './texts';

const T = MIRROR_IMAGE_TEXTS;

type Dialog = { kind: 'rename' | 'share'; image: PrivateImageView } | null;

function Usage() {
  const usage = useImageUsageQuery();
  if (usage.isPending) return <Skeleton active title={false} paragraph={{ rows: 2 }} />;
  if (usage.isError) return <QueryError title={T.usage.loadFailed} error={usage.error} onRetry={() => void usage.refetch()} />;
  const { usedGb, quotaGb } = usage.data;
  const full = usedGb >= quotaGb;
  return (
    <div className="slg-mirror-usage">
      <div className="slg-mirror-usage-line">
        <Typography.Text strong>{T.usage.used(usedGb, quotaGb)}</Typography.Text>
        <Typography.Text type="secondary">{T.usage.left(Math.max(0, quotaGb - usedGb))}</Typography.Text>
      </div>
      <Progress
        percent={Math.min(100, (usedGb / quotaGb) * 100)}
        showInfo={false}
        status={full ? 'exception' : 'normal'}
        aria-label={T.usage.used(usedGb, quotaGb)}
      />
      {full ? <Alert type="warning" showIcon title={T.usage.full} className="slg-mirror-alert" /> : null}
      <Typography.Text type="secondary" className="slg-mirror-hint">
        {T.usage.hint}
      </Typography.Text>
    </div>
  );
}

function ImageName({ image }: { image: PrivateImageView }) {
  return (
    <div className="slg-mirror-name">
      <Typography.Text strong>{image.name}</Typography.Text>
      {image.sharedFrom ? <Tag color="blue">{T.sharedFrom(image.sharedFrom)}</Tag> : null}
      {!image.sharedFrom && image.shareCount > 0 ? (
        <Typography.Text type="secondary" className="slg-mirror-note">
          {T.sharedTo(image.shareCount)}
        </Typography.Text>
      ) : null}
    </div>
  );
}

function ImageStatus({ image }: { image: PrivateImageView }) {
  const item = PRIVATE_IMAGE_STATUSES.find((status) => status.value === image.status);
  const saving = image.status === 'saving';
  return (
    <div className="slg-mirror-status">
      <Tag color={item?.color} icon={saving ? <SyncOutlined spin aria-hidden /> : undefined}>
        {item?.label ?? image.status}
      </Tag>
      {image.status === 'failed' && image.statusReason ? (
        <Typography.Text type="danger" className="slg-mirror-note">
          {image.statusReason}
        </Typography.Text>
      ) : null}
    </div>
  );
}

function sizeOf(image: PrivateImageView): string {
  if (image.status === 'saving') return T.savingSize(image.sizeGb);
  if (image.status === 'failed') return '—';
  return T.gb(image.sizeGb);
}

function Base({ image }: { image: PrivateImageView }) {
  return (
    <div className="slg-mirror-name slg-mirror-base">
      <Typography.Text>{image.baseImageName}</Typography.Text>
      <Typography.Text type="secondary" className="slg-mirror-note">
        {T.cuda(image.cuda)}
      </Typography.Text>
    </div>
  );
}

function Actions({ image, onOpen, block = false }: { image: PrivateImageView; onOpen: (dialog: Dialog) => void; block?: boolean }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: imageKeys.all });
  const type = block ? 'default' : 'link';
  if (image.sharedFrom) {
    return (
      <ConfirmAction
        danger
        texts={{ title: T.leave.title(image.name), confirm: T.leave.confirm, cancel: T.leave.cancel }}
        onConfirm={async () => {
          await removeSharedImage(image.imageUId);
          toast.success(T.leave.done);
          await refresh();
        }}
        trigger={(open) => (
          <Button danger type={type} block={block} className="slg-mirror-action" aria-label={T.leave.label(image.name)} onClick={open}>
            {T.leave.action}
          </Button>
        )}
      >
        <Typography.Paragraph>{T.leave.body}</Typography.Paragraph>
      </ConfirmAction>
    );
  }
  const saving = image.status === 'saving';
  return (
    <Space size={block ? 8 : 0} wrap={block} className={block ? 'slg-mirror-card-actions' : undefined}>
      <Button type={type} className="slg-mirror-action" aria-label={T.rename.label(image.name)} onClick={() => onOpen({ kind: 'rename', image })}>
        {T.rename.action}
      </Button>
      <Tooltip title={image.status !== 'ready' ? T.share.readyOnly : undefined}>
        <Button
          type={type}
          className="slg-mirror-action"
          aria-label={T.share.label(image.name)}
          disabled={image.status !== 'ready'}
          onClick={() => onOpen({ kind: 'share', image })}
        >
          {T.share.action}
        </Button>
      </Tooltip>
      <ConfirmAction
        danger
        texts={{ title: T.remove.title(image.name), confirm: T.remove.confirm, cancel: T.remove.cancel }}
        onConfirm={async () => {
          await deleteImage(image.imageId);
          toast.success(T.remove.done);
          await refresh();
        }}
        trigger={(open) => (
          <Tooltip title={saving ? T.remove.savingHint : undefined}>
            <Button danger type={type} className="slg-mirror-action" aria-label={T.remove.label(image.name)} disabled={saving} onClick={open}>
              {T.remove.action}
            </Button>
          </Tooltip>
        )}
      >
        <Typography.Paragraph>{T.remove.body(T.gb(image.status === 'ready' ? image.sizeGb : 0), image.shareCount)}</Typography.Paragraph>
      </ConfirmAction>
    </Space>
  );
}

function ImageCard({ image, onOpen }: { image: PrivateImageView; onOpen: (dialog: Dialog) => void }) {
  const facts: { label: string; value: ReactNode }[] = [
    { label: T.columns.status, value: <ImageStatus image={image} /> },
    { label: T.columns.size, value: sizeOf(image) },
    { label: T.columns.base, value: <Base image={image} /> },
    { label: T.columns.createdAt, value: <DateTime value={image.createdAt} /> },
  ];
  return (
    <article className="slg-mirror-card" aria-label={image.name}>
      <ImageName image={image} />
      <dl className="slg-mirror-facts">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
      <Actions image={image} onOpen={onOpen} block />
    </article>
  );
}

/** 我的镜像: what the images use of the free quota, my images and those shared with me, and what can be done with each. */
function MirrorImagePage() {
  const phone = useIsPhone();
  const query = usePrivateImagesQuery();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const data = query.data;
  const [lastSaving, setLastSaving] = useState(false);
  // A save that finished changes the used size: read it again once nothing is saving any more.
  const saving = data?.list.some((image) => image.status === 'saving') ?? false;
  if (saving !== lastSaving) {
    setLastSaving(saving);
    if (!saving) void queryClient.invalidateQueries({ queryKey: imageKeys.usage() });
  }

  const columns: TableColumnsType<PrivateImageView> = [
    { title: T.columns.name, key: 'name', render: (_value, row) => <ImageName image={row} /> },
    { title: T.columns.status, key: 'status', render: (_value, row) => <ImageStatus image={row} /> },
    { title: T.columns.size, key: 'size', render: (_value, row) => <span className="slg-mirror-nowrap">{sizeOf(row)}</span> },
    { title: T.columns.base, key: 'base', render: (_value, row) => <Base image={row} /> },
    { title: T.columns.createdAt, key: 'createdAt', render: (_value, row) => <DateTime value={row.createdAt} /> },
    { title: T.columns.actions, key: 'actions', render: (_value, row) => <Actions image={row} onOpen={setDialog} /> },
  ];

  let content: ReactNode;
  if (query.isError && !data) {
    content = <QueryError variant="page" title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  } else if (query.isPending) {
    content = <Skeleton active paragraph={{ rows: 4 }} />;
  } else if (!data || data.list.length === 0) {
    content = (
      <Empty description={T.empty}>
        <Typography.Paragraph type="secondary">{T.emptyHint}</Typography.Paragraph>
      </Empty>
    );
  } else if (phone) {
    content = (
      <div className="slg-mirror-cards">
        {data.list.map((image) => (
          <ImageCard key={image.imageId} image={image} onOpen={setDialog} />
        ))}
      </div>
    );
  } else {
    content = <Table<PrivateImageView> rowKey="imageId" size="middle" columns={columns} dataSource={data.list} pagination={false} scroll={{ x: 'max-content' }} />;
  }

  return (
    <div className="slg-page">
      <PageHeader title={T.title} description={T.description} />
      <div className="slg-mirror-layout">
        <Card size="small" title={T.usage.title}>
          <Usage />
        </Card>
        <Card className="slg-mirror-list-card" title={T.listLabel} extra={data ? <Typography.Text type="secondary">{T.count(data.total)}</Typography.Text> : null}>
          {query.isError && data ? (
            <StaleDataAlert className="slg-mirror-alert" title={T.refreshFailed} error={query.error} onRetry={() => void query.refetch()} />
          ) : null}
          <Typography.Paragraph type="secondary" className="slg-mirror-hint">
            {T.howToSave}
          </Typography.Paragraph>
          {content}
        </Card>
      </div>
      {dialog?.kind === 'rename' ? <RenameImageDialog image={dialog.image} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'share' ? <ShareImageDialog image={dialog.image} onClose={() => setDialog(null)} /> : null}
    </div>
  );
}

export default withAntd(MirrorImagePage);
