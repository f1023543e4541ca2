import { formatYuan, PACKAGE_UNIT_LABELS, type PackageKey } from '@slg/shared';
import type { ReactNode } from 'react';
import type { ClonePrepayResult } from '../../../api/compute';
import { formatDateTime } from '../../../components/DateTime';
import { CREATE_INSTANCE_TEXTS } from '../createInstances/texts';
import { CLONE_PAGE_TEXTS } from './texts';

const T = CLONE_PAGE_TEXTS.price;

interface CloneFiguresProps {
  quote: ClonePrepayResult;
  gpuNum: number;
  packageKey: PackageKey | null;
  rentAmount: number | undefined;
  copyData: boolean;
  /** Rows after the price (the balance on the order page). */
  extra?: { label: string; value: ReactNode }[];
}

/** The clone's price as `/rental/clone/prepay` answers it, in the create page's price card layout. */
export function CloneFigures({ quote, gpuNum, packageKey, rentAmount, copyData, extra = [] }: CloneFiguresProps) {
  const rows: { label: string; value: ReactNode; total?: boolean }[] = [
    {
      label: T.unitPrice,
      value: packageKey ? T.perGpuPeriod(formatYuan(quote.pricePerGpuFen), PACKAGE_UNIT_LABELS[packageKey]) : T.perGpuHour(formatYuan(quote.pricePerGpuFen)),
    },
    { label: T.gpuNum, value: CLONE_PAGE_TEXTS.spec.gpuOption(gpuNum) },
    ...(packageKey && rentAmount !== undefined ? [{ label: T.duration, value: CREATE_INSTANCE_TEXTS.package.count(rentAmount, packageKey) }] : []),
    { label: T.disk, value: copyData ? T.diskCopy(quote.dataDiskGb) : T.diskNew(quote.dataDiskGb) },
    ...(quote.diskRateFenPerDay > 0 ? [{ label: T.diskRate, value: T.perDay(formatYuan(quote.diskRateFenPerDay)) }] : []),
  ];
  if (packageKey) {
    rows.push({ label: T.original, value: formatYuan(quote.amount) });
    if (quote.discount > 0) rows.push({ label: T.voucher, value: `-${formatYuan(quote.discount)}` });
    rows.push({ label: T.payable, value: formatYuan(quote.payable), total: true });
    rows.push({ label: T.expiresAt, value: quote.expiresAt ? formatDateTime(quote.expiresAt) : '-' });
  } else {
    rows.push({ label: T.hourly, value: T.hourlyValue(formatYuan(quote.amount)), total: true });
  }
  rows.push(...extra);
  return (
    <dl className="slg-create-price">
      {rows.map((row) => (
        <div key={row.label} className={row.total ? 'slg-create-price-total' : undefined}>
          <dt>{row.label}</dt>
          <dd aria-live={row.total ? 'polite' : undefined}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
