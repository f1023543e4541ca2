import { Button, Typography } from 'antd';
import type { FileStorageView } from '../../../../api/storage';
import { bytesToGb, formatBytes } from '../files';
import { FILE_STORAGE_TEXTS } from '../texts';

const T = FILE_STORAGE_TEXTS.usage;

function percent(part: number, whole: number): number {
  return whole > 0 ? Math.min(100, Math.max(0, (part / whole) * 100)) : 0;
}

/**
 * 存储用量: used against the quota, the free part in the primary colour and what is billed beyond it
 * in the warning colour, with a mark where the free amount ends.
 */
export function UsageBar({ storage, onEditQuota }: { storage: FileStorageView; onEditQuota: () => void }) {
  const { usedBytes, quotaBytes, freeBytes, priceFenPerGbDay, mountPath } = storage;
  const freeGb = Math.round(bytesToGb(freeBytes));
  const used = formatBytes(usedBytes);
  const quota = formatBytes(quotaBytes);
  const freePart = percent(Math.min(usedBytes, freeBytes), quotaBytes);
  const billedPart = percent(Math.max(0, usedBytes - freeBytes), quotaBytes);
  const mark = percent(freeBytes, quotaBytes);
  const billed = usedBytes > freeBytes;
  const full = quotaBytes > 0 && usedBytes >= quotaBytes;
  return (
    <section className="slg-fs-usage" aria-label={T.label}>
      <div className="slg-fs-usage-line">
        <Typography.Text strong>{T.used(used, quota)}</Typography.Text>
        <Button size="small" onClick={onEditQuota}>
          {FILE_STORAGE_TEXTS.quota.action}
        </Button>
      </div>
      <div
        className="slg-fs-meter"
        role="meter"
        aria-label={T.label}
        aria-valuemin={0}
        aria-valuemax={quotaBytes}
        aria-valuenow={Math.min(usedBytes, quotaBytes)}
        aria-valuetext={T.value(used, quota, freeGb)}
      >
        {/* Any use shows, however small next to the quota. */}
        <div className="slg-fs-meter-free" style={{ width: `${freePart}%`, minWidth: usedBytes > 0 ? 3 : 0 }} />
        {billedPart > 0 ? <div className="slg-fs-meter-billed" style={{ left: `${freePart}%`, width: `${billedPart}%` }} /> : null}
        {mark < 100 ? <div className="slg-fs-meter-mark" style={{ left: `${mark}%` }} aria-hidden /> : null}
      </div>
      {mark < 100 ? (
        <div className="slg-fs-meter-scale" aria-hidden>
          <span className="slg-fs-meter-mark-label" style={{ left: `${mark}%` }}>
            {T.freeMark(freeGb)}
          </span>
        </div>
      ) : null}
      <Typography.Text type="secondary" className="slg-fs-note">
        {T.free(freeGb, priceFenPerGbDay)}
        {billed ? `；${T.billed(formatBytes(usedBytes - freeBytes))}` : ''}
      </Typography.Text>
      {full ? (
        <Typography.Text type="warning" className="slg-fs-note">
          {T.full}
        </Typography.Text>
      ) : null}
      <Typography.Text type="secondary" className="slg-fs-note">
        {T.mount}{' '}
        <Typography.Text code copyable={{ text: mountPath }}>
          {mountPath}
        </Typography.Text>
      </Typography.Text>
    </section>
  );
}
