import { DATASET_STATUS_LABELS, datasetMountPath, type DatasetStatus } from '@slg/shared';
import { Alert, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import type { DatasetView } from '../../../api/datasets';
import { DateTime } from '../../../components/DateTime';
import { formatBytes } from '../../ctrl-file-storage/file-storage/files';
import { DATA_SET_TEXTS } from '../texts';

const T = DATA_SET_TEXTS.card;

const STATUS_COLORS: Record<DatasetStatus, string> = { IN_REVIEW: 'processing', PASS: 'success', REJECTED: 'error' };

export function DatasetStatusTag({ status }: { status: DatasetStatus }) {
  return <Tag color={STATUS_COLORS[status]}>{DATASET_STATUS_LABELS[status]}</Tag>;
}

interface DatasetCardProps {
  dataset: DatasetView;
  /** Shows the review status, the reason of a refusal and where the snapshot came from (我的共享). */
  own?: boolean;
  /** The region's name of `zoneId` (我的共享). */
  zoneName?: (zoneId: string) => string;
  /** Beside the name (the favourite star). */
  corner?: ReactNode;
  /** At the bottom: 浏览, 编辑, 删除… */
  actions?: ReactNode;
  /** A tag was clicked (to filter by it); tags are plain when absent. */
  onTag?: (tag: string) => void;
}

/** One dataset: name, what it holds, its facts and where instances find it, with its actions. */
export function DatasetCard({ dataset, own = false, zoneName, corner, actions, onTag }: DatasetCardProps) {
  const mountPath = dataset.mountPath || datasetMountPath(dataset.name);
  const facts: { label: string; value: ReactNode; wide?: boolean }[] = [
    { label: T.size, value: formatBytes(dataset.sizeBytes) },
    { label: T.files, value: T.filesValue(dataset.fileCount) },
    { label: T.license, value: dataset.license ?? T.licenseNone },
  ];
  if (dataset.kind === 'SHARED' && dataset.ownerName && !own) facts.push({ label: T.owner, value: dataset.ownerName });
  if (dataset.kind === 'SHARED') facts.push({ label: T.favorites, value: T.favoritesValue(dataset.favoriteCount) });
  if (own && dataset.zoneId && dataset.sourcePath) {
    facts.push({ label: T.source, value: T.sourceValue(zoneName?.(dataset.zoneId) ?? dataset.zoneId, dataset.sourcePath), wide: true });
  }
  facts.push({ label: T.updatedAt, value: <DateTime value={dataset.updatedAt} /> });

  return (
    <article className="slg-ds-card" aria-label={dataset.name}>
      <div className="slg-ds-card-head">
        <div className="slg-ds-card-title">
          <Typography.Text strong className="slg-ds-name">
            {dataset.name}
          </Typography.Text>
          {own ? <DatasetStatusTag status={dataset.status} /> : null}
          {!own && dataset.mine ? <Tag color="blue">{T.mine}</Tag> : null}
        </div>
        {corner}
      </div>
      {own && dataset.status === 'REJECTED' ? (
        <Alert type="error" showIcon title={dataset.rejectReason ? T.rejected(dataset.rejectReason) : T.rejectedNoReason} />
      ) : null}
      {own && dataset.status === 'IN_REVIEW' ? <Alert type="info" showIcon title={T.inReview} /> : null}
      <Typography.Paragraph type={dataset.description ? undefined : 'secondary'} className="slg-ds-description">
        {dataset.description || T.noDescription}
      </Typography.Paragraph>
      {dataset.tags.length > 0 ? (
        <ul className="slg-ds-tags" aria-label={T.tags}>
          {dataset.tags.map((tag) => (
            <li key={tag}>
              {onTag ? (
                <button type="button" className="slg-ds-tag-button" title={T.filterByTag(tag)} onClick={() => onTag(tag)}>
                  {tag}
                </button>
              ) : (
                <Tag>{tag}</Tag>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <dl className="slg-ds-facts">
        {facts.map((fact) => (
          <div key={fact.label} className={fact.wide ? 'slg-ds-fact-wide' : undefined}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
      <div className="slg-ds-mount">
        <Typography.Text type="secondary">{T.mountPath}</Typography.Text>
        <Typography.Text code copyable={{ text: mountPath }} className="slg-ds-break">
          {mountPath}
        </Typography.Text>
      </div>
      {actions ? <div className="slg-ds-card-actions">{actions}</div> : null}
    </article>
  );
}
